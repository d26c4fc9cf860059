/**
 * Retention (engine.prune): analyses whose UTC date is before today - older_than_days go, with
 * every row under them and their aggregates, in one transaction; the counts are reported; a bad
 * age is refused and changes nothing.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openEngine, ValidationError, type Engine } from '../../src/index.js'
import { analysis, base, DOMAIN, mention, NOW } from '../support/records.js'

const day = (id: string, answered_at: string) =>
  analysis({ id, answered_at, mentions: [mention('brand', 1, 50)] })
/** UTC dates: 11-17 (twice: 20:00-03:00 is 23:00Z), 11-18 (23:30-03:00 is 02:30Z the next day), 11-20. */
const records = () => [
  ...base(),
  day('a0000000-0000-4000-8000-0000000000a1', '2026-11-17T10:00:00Z'),
  day('a0000000-0000-4000-8000-0000000000a2', '2026-11-17T20:00:00-03:00'),
  day('a0000000-0000-4000-8000-0000000000a3', '2026-11-17T23:30:00-03:00'),
  day('a0000000-0000-4000-8000-0000000000a4', '2026-11-20T09:00:00Z'),
]

async function payloads(e: Engine) {
  const p = { domainId: DOMAIN, days: 30, now: NOW }
  return [
    await e.computePromptSeries(p),
    await e.computeCompetitorSeries(p),
    await e.computeSentimentOverview(p),
    await e.computeSentimentThemes(p),
  ]
}

let engine: Engine
beforeEach(async () => {
  engine = await openEngine()
  await engine.ingest(records())
})
afterEach(() => engine.close())

describe('prune', () => {
  it('deletes the analyses dated before today - N (UTC), with their rows and aggregates', async () => {
    const r = await engine.prune({ olderThanDays: 2, now: NOW })
    expect(r).toEqual({
      before: '2026-11-18',
      deleted: { analyses: 2, mentions: 2, citations: 2, theme_occurrences: 2, fanout_queries: 0 },
    })
    const fresh = await openEngine()
    await fresh.ingest(
      records().filter(
        (x) =>
          !['a0000000-0000-4000-8000-0000000000a1', 'a0000000-0000-4000-8000-0000000000a2'].includes(x.id),
      ),
    )
    expect(await payloads(engine)).toEqual(await payloads(fresh))
    expect(await engine.stats()).toEqual(await fresh.stats())
    await fresh.close()
  })

  it('keeps the prompts, competitors and themes; a second prune with the same age deletes nothing', async () => {
    await engine.prune({ olderThanDays: 0, now: NOW })
    expect(await engine.stats()).toMatchObject({ analyses: 1, prompts: 1, competitors: 1, themes: 1 })
    expect(await engine.prune({ olderThanDays: 0, now: NOW })).toEqual({
      before: '2026-11-20',
      deleted: { analyses: 0, mentions: 0, citations: 0, theme_occurrences: 0, fanout_queries: 0 },
    })
  })

  it('the day is the UTC date of `now`, whatever the local time zone', async () => {
    expect((await engine.prune({ olderThanDays: 1, now: '2026-11-20T01:00:00+05:30' })).before).toBe(
      '2026-11-18',
    )
  })

  for (const [what, age] of [
    ['a negative age', -1],
    ['a fraction', 1.5],
    ['a string', '3'],
    ['nothing', undefined],
    ['more than 100 years', 36_501],
  ] as const) {
    it(`refuses ${what}, naming older_than_days, and changes nothing`, async () => {
      const before = await engine.stats()
      const error = await engine.prune({ olderThanDays: age as number }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ValidationError)
      expect((error as ValidationError).message).toBe('older_than_days must be an integer from 0 to 36500.')
      expect(await engine.stats()).toEqual(before)
    })
  }

  it('is refused on a read-only engine', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'va-prune-')), 'db.duckdb')
    const writer = await openEngine({ path })
    await writer.ingest(records())
    await writer.close()
    const reader = await openEngine({ path, readOnly: true })
    await expect(reader.prune({ olderThanDays: 0 })).rejects.toThrow(
      /prune is not possible: the engine is read-only/,
    )
    await reader.close()
  })
})
