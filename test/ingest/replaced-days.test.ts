/**
 * The aggregate steps read the raw tables for the affected (domain, day) pairs only: an analysis's
 * mentions and citations carry its domain and day, so the steps filter every table by the pairs
 * instead of joining the stored rows on the analysis key (sql/ingest/fill_agg_prompt_day.sql,
 * fill_agg_citation_day.sql). A call that replaces stored analyses affects the days they leave as
 * well as the days they arrive on: those old days' aggregates are rebuilt from the analyses that
 * stay there. The store of a call that moved analyses to other days has every aggregate table equal
 * to the store that ingested the final analyses at once.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { AnalysisRecord } from '../../src/index.js'
import { openEngine } from '../../src/index.js'
import { analysis, base, COMPETITOR, mention, THEME } from '../support/records.js'
import { onStoreFile } from '../support/store-file.js'

const dir = mkdtempSync(join(tmpdir(), 'va-replaced-days-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const id = (n: number) => `a5000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const at = (day: number, hour = 10) =>
  `2026-11-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00Z`
/** Two analyses a day on the 10th-12th, each with brand and competitor mentions, brand and other citations. */
const stored = (n: number): AnalysisRecord =>
  analysis({
    id: id(n),
    answered_at: at(10 + (n % 3), 8 + n),
    mentions: [mention('brand', 1 + (n % 2), 40 + n), mention(COMPETITOR, 2, null)],
    citations: [
      { url: `https://www.acme.com/p${n % 2}`, title: `Acme ${n}` },
      { url: `https://other.example/${n % 3}`, page_type: 'blog' },
    ],
    themes: [{ theme_id: THEME, occurrences: 1 + n }],
    fanout_queries: [`query ${n % 2}`],
  })
const first = Array.from({ length: 6 }, (_, i) => stored(i))
/** The second call: two of them move to other days (one to a day of its own), one stays. */
const moved = [{ ...stored(1), answered_at: at(12, 20) }, { ...stored(3), answered_at: at(14, 9) }, stored(4)]
const final = [...first.filter((a) => !moved.some((m) => m.id === a.id)), ...moved]

const AGGREGATES = [
  'agg_prompt_day',
  'agg_channel_day',
  'agg_entity_day',
  'agg_entity_prompts',
  'agg_theme_day',
  'agg_channel_prompts',
  'agg_entity_prompt_day',
  'agg_citation_day',
  'agg_cited_url',
  'agg_cited_host',
  'agg_fanout',
]

/** Every aggregate table's rows, in a fixed order. */
const aggregates = (path: string) =>
  onStoreFile(path, async ({ objects }) => {
    const out: Record<string, unknown[]> = {}
    for (const t of AGGREGATES)
      out[t] = await objects(`SELECT * REPLACE (strftime(day, '%Y-%m-%d') AS day) FROM ${t} ORDER BY ALL`)
    return out
  })

async function store(name: string, calls: unknown[][]) {
  const path = join(dir, `${name}.duckdb`)
  const engine = await openEngine({ path })
  for (const records of calls) await engine.ingest(records)
  await engine.close()
  return aggregates(path)
}

describe('a call that moves stored analyses to other days', () => {
  it('rebuilds the days they left from the analyses that stay there', async () => {
    const replaced = await store('replaced', [[...base(), ...first], moved])
    const once = await store('once', [[...base(), ...final]])
    expect(replaced).toEqual(once)
    // The days left keep the analyses that stay there: the 11th keeps one (its brand mention too).
    const day = (rows: unknown[] | undefined, d: string) =>
      (rows ?? []).filter((r) => (r as { day: string }).day === d)
    expect(day(once.agg_prompt_day, '2026-11-11')).toMatchObject([{ responses: 1, mentions: 1 }])
    expect(day(once.agg_citation_day, '2026-11-11')).toMatchObject([{}])
  })
})
