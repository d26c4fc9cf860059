/**
 * `visibility report` end to end on the demo data: the page's breakdowns are the engine's
 * computeQuery over the same window and filters (by country, by topic), its week-over-week marks
 * computeQuery's `compare=previous` over the last 7 days of the window, and its sample answers the
 * most recent answer of each listed prompt; the same with --start/--end (the week ends on --end)
 * and with a segment filter. Every expected value is computed by the engine after the run.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reportCommand } from '../../src/cli/commands/report.js'
import { seedDemo } from '../../src/demo/index.js'
import { openEngine, type Engine } from '../../src/index.js'
import { escapeHtml, formatPercent } from '../../src/report/format.js'
import { sampleAnchor } from '../../src/report/samples.js'
import { DEMO_NOW } from './demo-input.js'

let tmp: string
let db: string
let domainId: string

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'report-sections-'))
  db = join(tmp, 'demo.duckdb')
  const engine = await openEngine({ path: db })
  try {
    domainId = (await seedDemo(engine, { now: DEMO_NOW, days: 60 })).domains[0]!.id
  } finally {
    await engine.close()
  }
}, 180_000)
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true })
})

const quiet = () => {
  const stderr = new PassThrough() as PassThrough & { isTTY?: boolean }
  stderr.resume()
  return { stdout: { write: () => true }, stderr }
}

/** Runs the command and returns the page. */
async function page(name: string, flags: string[]): Promise<string> {
  const out = join(tmp, name)
  const argv = ['--db', db, '--domain', domainId, '--out', out, '--now', DEMO_NOW, ...flags]
  expect(await reportCommand(argv, quiet())).toBe(0)
  return readFile(join(out, domainId, 'report.html'), 'utf8')
}

/** Per row of a breakdown section: its group, visibility cell and whether it bears a mark. */
function rowsOf(html: string, dim: string) {
  const body = new RegExp(`<section class="card breakdown breakdown-${dim}">([\\s\\S]*?)</section>`).exec(
    html,
  )![1]!
  return [...body.matchAll(/<tr data-group="([^"]*)"[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => {
    const cells = [...m[2]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!)
    return { group: m[1]!, visibility: cells[2]!, marked: /class="pill sig/.test(cells[5]!) }
  })
}

async function expectComputed(
  html: string,
  window: Record<string, unknown>,
  week: Record<string, unknown>,
): Promise<{ marks: number }> {
  const engine: Engine = await openEngine({ path: db, readOnly: true })
  let marks = 0
  try {
    for (const dim of ['country', 'topic'] as const) {
      const q = await engine.computeQuery({ domainId, now: DEMO_NOW, ...window, dimensions: [dim] })
      const w = await engine.computeQuery({
        domainId,
        now: DEMO_NOW,
        ...week,
        dimensions: [dim],
        compare: 'previous',
      })
      const want = [
        ...q.data.items.filter((r) => r[dim] != null),
        ...q.data.items.filter((r) => r[dim] == null),
      ]
      const got = rowsOf(html, dim)
      expect(got.map((r) => [r.group, r.visibility])).toEqual(
        want.map((r) => [escapeHtml(r[dim] ?? ''), formatPercent(r.visibility)]),
      )
      for (const row of got) {
        const change = w.data.items.find((r) => escapeHtml(r[dim] ?? '') === row.group)?.change
        expect(row.marked, `${dim} ${row.group}`).toBe(change?.significant === true)
        if (row.marked) marks += 1
      }
    }
    // The most recent answer of each listed prompt (newest first: the first of a longer page).
    const prompts = await engine.computePromptSeries({ domainId, now: DEMO_NOW, ...window })
    let samples = 0
    for (const p of prompts.data.items.slice(0, 10)) {
      const answers = await engine.computeAnswers({
        domainId,
        now: DEMO_NOW,
        ...window,
        promptId: p.id,
        limit: 5,
      })
      const newest = answers.data.items[0]
      if (newest === undefined) {
        expect(html).not.toContain(`id="${sampleAnchor(p.id)}"`)
        continue
      }
      if (answers.data.items.length > 1) samples += 1
      const block = html.split(`id="${sampleAnchor(p.id)}">`)[1]!.split('</details>')[0]!
      expect(block).toContain(
        `<div class="answer-text" dir="auto">${escapeHtml(newest.response!.slice(0, 2000))}`,
      )
    }
    expect(samples).toBeGreaterThan(0)
  } finally {
    await engine.close()
  }
  return { marks }
}

describe('visibility report: breakdowns and sample answers', () => {
  it('over the trailing window: the query by country and topic, the last 7 days against the 7 before', async () => {
    const html = await page('days', ['--days', '30'])
    await expectComputed(html, { days: 30 }, { days: 7 })
  }, 180_000)

  it('over --start/--end: the week ends on --end; with --country: every part filtered', async () => {
    const range = { startDate: '2026-10-01', endDate: '2026-11-10' }
    const html = await page('range', ['--start', range.startDate, '--end', range.endDate])
    await expectComputed(html, range, { startDate: '2026-11-04', endDate: '2026-11-10' })
    const us = await page('us', ['--days', '30', '--country', 'us'])
    await expectComputed(us, { days: 30, country: 'US' }, { days: 7, country: 'US' })
  }, 240_000)
})
