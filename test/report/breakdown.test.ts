/**
 * The report page's breakdowns by country and by topic and its sample answers, drawn from the
 * engine's own payloads for the demo data (every expected value derived from the payloads, none
 * written by hand): each group's numbers and interval as computeQuery gives them, the interval
 * drawn inside its axis at the right place, a week-over-week mark exactly where the query says
 * `significant`, the null group last; one sample answer per listed prompt, linked from the
 * prompts table, escaped and cut at the stated length.
 */
import { beforeAll, afterAll, describe, expect, it } from 'vitest'
import { seedDemo } from '../../src/demo/index.js'
import { openEngine, type Engine } from '../../src/index.js'
import { formatP } from '../../src/report/breakdown.js'
import { escapeHtml, formatInt, formatPercent } from '../../src/report/format.js'
import { renderReportHtml, type ReportInput } from '../../src/report/html.js'
import { clip, SAMPLE_CHARS, sampleAnchor } from '../../src/report/samples.js'
import { STRIP } from '../../src/report/svg.js'
import type { QueryRow } from '../../src/reports/index.js'
import { DEMO_NOW, reportInputOf } from './demo-input.js'
import { expectBalanced, expectSelfContained } from './page-checks.js'
import { emptySet } from './payloads.js'

let engine: Engine
/** Every domain of the demo's report input (90 days). */
let inputs: ReportInput[]

beforeAll(async () => {
  engine = await openEngine()
  const seed = await seedDemo(engine, { now: DEMO_NOW, days: 90 })
  inputs = []
  for (const d of seed.domains) inputs.push(await reportInputOf(engine, d.id, { days: 90, now: DEMO_NOW }))
}, 120_000)
afterAll(async () => {
  await engine?.close()
})

const DIMS = [
  { dim: 'country', field: 'byCountry', none: 'Unknown' },
  { dim: 'topic', field: 'byTopic', none: 'No topic' },
] as const

/** The section of the page with this class, or '' when there is none. */
function sectionOf(html: string, cls: string): string {
  return new RegExp(`<section class="card ${cls}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? ''
}

/** The rows of a breakdown section: their group attribute and their cells' markup. */
function rowsOf(html: string, dim: string): { group: string; cls: string; cells: string[] }[] {
  const body = sectionOf(html, `breakdown breakdown-${dim}`)
  return [...body.matchAll(/<tr data-group="([^"]*)"([^>]*)>([\s\S]*?)<\/tr>/g)].map((m) => ({
    group: m[1]!,
    cls: m[2]!,
    cells: [...m[3]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!),
  }))
}

const textOf = (markup: string): string => markup.replace(/<[^>]+>/g, '')
const num = (svg: string, re: RegExp): number => Number(re.exec(svg)?.[1])

/** The brand rows of a payload in the order the page must show them: the null group last. */
function expectedRows(rows: QueryRow[], dim: 'country' | 'topic'): QueryRow[] {
  const brand = rows.filter((r) => r.is_brand)
  return [...brand.filter((r) => r[dim] != null), ...brand.filter((r) => r[dim] == null)]
}

describe('breakdowns by country and by topic', () => {
  it("each row is the query's group with its answers, visibility and interval, the null group last", () => {
    let nullGroups = 0
    for (const input of inputs) {
      const html = renderReportHtml(input)
      expectBalanced(html)
      expectSelfContained(html)
      expect(html).not.toMatch(/NaN|Infinity|undefined/)
      for (const { dim, field, none } of DIMS) {
        const payload = input[field]!.window
        expect(payload.dimensions).toEqual([dim])
        const want = expectedRows(payload.data.items, dim)
        const got = rowsOf(html, dim)
        expect(want.length).toBeGreaterThan(0)
        expect(got.map((r) => r.group)).toEqual(want.map((r) => escapeHtml(r[dim] ?? '')))
        want.forEach((r, i) => {
          const row = got[i]!
          const [low, high] = r.visibility_ci
          expect(textOf(row.cells[0]!)).toBe(escapeHtml(r[dim] ?? none))
          expect(row.cells[1]).toBe(formatInt(r.responses))
          expect(row.cells[2]).toBe(formatPercent(r.visibility))
          expect(row.cells[3]).toBe(`${formatPercent(low)} – ${formatPercent(high)}`)
          expect(row.cls.includes('none-group')).toBe(r[dim] == null)
        })
        nullGroups += want.filter((r) => r[dim] == null).length
      }
    }
    // The demo has analyses without a country and prompts without a topic.
    expect(nullGroups).toBeGreaterThanOrEqual(2)
  })

  it('the null group is drawn last, labelled, even when a payload lists it first', () => {
    const input = structuredClone(inputs[0]!)
    input.byCountry!.window.data.items.reverse()
    const rows = rowsOf(renderReportHtml(input), 'country')
    expect(rows.at(-1)!.group).toBe('')
    expect(textOf(rows.at(-1)!.cells[0]!)).toBe('Unknown')
    expect(rows.slice(0, -1).every((r) => r.group !== '')).toBe(true)
  })

  it('each interval is drawn inside its axis, from its low to its high, the dot at the visibility', () => {
    const { width, inset } = STRIP
    const x = (v: number) => inset + (v / 100) * (width - 2 * inset)
    let drawn = 0
    for (const input of inputs) {
      const html = renderReportHtml(input)
      for (const { dim, field } of DIMS) {
        const want = expectedRows(input[field]!.window.data.items, dim)
        rowsOf(html, dim).forEach((row, i) => {
          const r = want[i]!
          const svg = row.cells[4]!
          expect(num(svg, /<svg class="ci" width="([\d.]+)"/)).toBe(width)
          const axis = [
            num(svg, /class="ci-axis" x1="([\d.]+)"/),
            num(svg, /class="ci-axis" x1="[\d.]+" x2="([\d.]+)"/),
          ]
          expect(axis).toEqual([inset, width - inset])
          const bandX = num(svg, /class="ci-band" x="([\d.]+)"/)
          const bandW = num(svg, /class="ci-band" x="[\d.]+" y="[\d.-]+" width="([\d.]+)"/)
          const dot = num(svg, /class="ci-dot" cx="([\d.]+)"/)
          const [low, high] = r.visibility_ci as [number, number]
          expect(bandX).toBeCloseTo(x(low), 1)
          expect(bandX + bandW).toBeCloseTo(x(high), 1)
          expect(dot).toBeCloseTo(x(r.visibility), 1)
          for (const v of [bandX, bandX + bandW, dot]) {
            expect(v).toBeGreaterThanOrEqual(axis[0]!)
            expect(v).toBeLessThanOrEqual(axis[1]!)
          }
          expect(dot).toBeGreaterThanOrEqual(bandX - 0.01)
          expect(dot).toBeLessThanOrEqual(bandX + bandW + 0.01)
          drawn += 1
        })
      }
    }
    expect(drawn).toBeGreaterThan(10)
  })

  it('a week-over-week mark exactly where the query says significant, its p-value in the title', () => {
    const seen = { marked: 0, unmarked: 0 }
    const check = (input: ReportInput) => {
      const html = renderReportHtml(input)
      for (const { dim, field } of DIMS) {
        const week = input[field]!.week!
        expect([week.compare, week.days, week.dimensions]).toEqual(['previous', 7, [dim]])
        const byGroup = new Map(week.data.items.map((r) => [escapeHtml(r[dim] ?? ''), r]))
        for (const row of rowsOf(html, dim)) {
          const w = byGroup.get(row.group)
          const cell = row.cells[5]!
          const marked = /class="pill sig (pos|neg)"/.test(cell)
          expect(marked, `${dim} ${row.group}`).toBe(w?.change?.significant === true)
          if (marked) seen.marked += 1
          else seen.unmarked += 1
          if (w?.change?.p_value != null)
            expect(cell).toContain(`p = ${escapeHtml(formatP(w.change.p_value))}`)
          if (w === undefined) expect(textOf(cell)).toBe('—')
        }
      }
    }
    for (const input of inputs) check(input)
    // The demo has both: otherwise this test could not fail either way.
    expect(seen.marked).toBeGreaterThan(0)
    expect(seen.unmarked).toBeGreaterThan(0)
    // Flipping the flag (the p-value unchanged) moves the mark: the page reads `significant`.
    const flipped = structuredClone(inputs[0]!)
    for (const r of flipped.byCountry!.week!.data.items)
      if (r.change) r.change.significant = !r.change.significant
    const before = seen.marked
    seen.marked = 0
    check(flipped)
    expect(seen.marked).toBeGreaterThan(0)
    expect(before).toBeGreaterThan(0)
  })
})

describe('sample answers', () => {
  it('each listed prompt links to its most recent answer, shown whole or cut at the stated length', () => {
    let cut = 0
    let whole = 0
    for (const input of inputs) {
      const html = renderReportHtml(input)
      const samples = sectionOf(html, 'samples')
      const listed = input.prompts!.data.items.slice(0, input.topPrompts)
      const answered = listed.flatMap((p) => {
        const payload = input.samples!.find((s) => s.prompt_id === p.id)!
        expect(payload.limit).toBe(1)
        const a = payload.data.items[0]
        return a === undefined ? [] : [a]
      })
      expect(answered.length).toBeGreaterThan(0)
      // The prompts table links to each, and each block is where its link points, in the same order.
      const links = [...html.matchAll(/<a class="sample-link" href="#([^"]+)">/g)].map((m) => m[1])
      const blocks = [
        ...samples.matchAll(/<details class="sample">.*?<div class="sample-body" id="([^"]+)">/g),
      ].map((m) => m[1])
      expect(links).toEqual(answered.map((a) => sampleAnchor(a.prompt_id)))
      expect(blocks).toEqual(links)
      for (const a of answered) {
        expect(a.response).not.toBeNull()
        const { text, cut: wasCut } = clip(a.response!, SAMPLE_CHARS)
        const block = samples.split(`id="${sampleAnchor(a.prompt_id)}">`)[1]!.split('</details>')[0]!
        expect(block).toContain(
          `<div class="answer-text" dir="auto">${escapeHtml(text)}${wasCut ? '…' : ''}</div>`,
        )
        const length = formatInt(a.response!.length)
        expect(block).toContain(
          wasCut
            ? `Showing the first ${formatInt(text.length)} of ${length} characters.`
            : `The whole answer: ${length} characters.`,
        )
        if (wasCut) cut += 1
        else whole += 1
      }
    }
    expect(whole).toBeGreaterThan(0)
    // A shorter cut than the demo's longest answer: the cut and its note.
    const input = structuredClone(inputs[0]!)
    const first = input.samples!.find((s) => s.data.items.length > 0)!.data.items[0]!
    input.sampleChars = Math.floor(first.response!.length / 2)
    const block = sectionOf(renderReportHtml(input), 'samples').split(
      `id="${sampleAnchor(first.prompt_id)}">`,
    )[1]!
    expect(block).toContain(
      `Showing the first ${formatInt(input.sampleChars)} of ${formatInt(first.response!.length)} characters.`,
    )
    expect(block).toContain(`${escapeHtml(first.response!.slice(0, input.sampleChars))}…</div>`)
    expect(cut + 1).toBeGreaterThan(0)
  })

  it('an answer is text: markup in it is escaped, a surrogate pair is never split', () => {
    const input = structuredClone(inputs[0]!)
    const first = input.samples!.find((s) => s.data.items.length > 0)!.data.items[0]!
    first.response = `<script>alert("x")</script><img src=x onerror=alert(1)> & 'more'`
    first.prompt_text = `</summary><script>alert(2)</script>`
    const html = renderReportHtml(input)
    expectSelfContained(html)
    expectBalanced(html)
    expect(html).not.toMatch(/<script|<img/i)
    expect(html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &#39;more&#39;',
    )
    expect(html).toContain('&lt;/summary&gt;&lt;script&gt;alert(2)&lt;/script&gt;')
    expect(clip(`${'a'.repeat(9)}😀b`, 10)).toEqual({ text: 'a'.repeat(9), cut: true })
    expect(clip('abc', 3)).toEqual({ text: 'abc', cut: false })
  })

  it('an answer without text, a prompt without answers, and no samples at all', () => {
    const input = structuredClone(inputs[0]!)
    const payloads = input.samples!.filter((s) => s.data.items.length > 0)
    payloads[0]!.data.items[0]!.response = null
    const gone = payloads[1]!.data.items.splice(0)[0]!
    const html = renderReportHtml(input)
    const samples = sectionOf(html, 'samples')
    expect(samples).toContain('No answer text was stored for this answer.')
    expect(html).not.toContain(`href="#${sampleAnchor(gone.prompt_id)}"`)
    expect(samples).not.toContain(`id="${sampleAnchor(gone.prompt_id)}"`)
    const empty = renderReportHtml(emptySet())
    for (const cls of ['samples', 'breakdown breakdown-country', 'breakdown breakdown-topic'])
      expect(sectionOf(empty, cls)).toContain('<div class="empty">No data in this window</div>')
  })
})
