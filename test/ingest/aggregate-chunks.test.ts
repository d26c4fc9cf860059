/**
 * A record call whose affected (domain, day) pairs hold more stored analyses than a chunk runs its
 * aggregates one chunk at a time (src/ingest/pipeline.ts, runIngestSteps: the first chunk in the
 * steps' script, the others after it). With a chunk of one analysis (VA_INGEST_CHUNK_ANALYSES=1,
 * one chunk per pair) the stored tables, the counts and the reports of an engine that kept its
 * aggregates over the calls (refreshed by the changed days) equal those of one chunk per call.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { openEngine } from '../../src/index.js'
import { analysis, base, COMPETITOR, DOMAIN } from '../support/records.js'
import { tableHashes } from '../support/store-file.js'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
afterEach(() => {
  delete process.env.VA_INGEST_CHUNK_ANALYSES
})

const id = (n: number) => `a4000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const day = (d: number) => `2026-11-${String(d).padStart(2, '0')}T10:00:00Z`
/** Analyses over five days, two a day; the second call replaces some and adds others. */
const first = [
  ...base(),
  ...Array.from({ length: 10 }, (_, i) =>
    analysis({ id: id(i), answered_at: day(10 + (i % 5)), citations: [{ url: `https://x.org/${i}` }] }),
  ),
]
const second = [
  analysis({
    id: id(1),
    answered_at: day(16),
    mentions: [{ entity_id: COMPETITOR, position: 1, sentiment: 5 }],
  }),
  analysis({ id: id(20), answered_at: day(12) }),
  analysis({ id: id(21), answered_at: day(17) }),
]

async function run(chunkAnalyses: string | null) {
  if (chunkAnalyses === null) delete process.env.VA_INGEST_CHUNK_ANALYSES
  else process.env.VA_INGEST_CHUNK_ANALYSES = chunkAnalyses
  const d = mkdtempSync(join(tmpdir(), 'va-chunks-'))
  dirs.push(d)
  const path = join(d, 's.duckdb')
  const engine = await openEngine({ path })
  const report = async () => {
    const { generated_at: _, ...payload } = await engine.computePromptSeries({ domainId: DOMAIN })
    return payload
  }
  const results = [await engine.ingest(first)]
  const kept = [await report()]
  results.push(await engine.ingest(second))
  kept.push(await report())
  await engine.close()
  // meta holds the store's own id and creation time: not the calls'.
  const { meta: _, ...tables } = await tableHashes(path)
  return { results, kept, tables }
}

describe('aggregates in chunks', () => {
  it('store and answer the same as one chunk per call', async () => {
    const one = await run(null)
    const many = await run('1')
    expect(many.results).toEqual(one.results)
    expect(many.kept).toEqual(one.kept)
    expect(many.tables).toEqual(one.tables)
    expect(one.results[1]).toMatchObject({ analyses: 3 })
  })
})
