/**
 * An ingest call whose citations must be sorted under a small memory limit: the bench's L file cut
 * at 150,000 records (~450k citations) into a store with a 64 MB limit. With the citations' text
 * joins and their key-order sort in one statement, the joins' hash tables stayed pinned while the
 * sort needed blocks, and the call failed ("failed to pin block"), as a 2 GB file did at the
 * default 160 MB (bench/NOTES.md, n10). The call must go in whole, answer every report as the same
 * records ingested in three smaller calls at the default limit do, and keep each fact table in
 * analysis_key order (the answers listing skips row groups by key range).
 */
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openEngine } from '../../src/index.js'
import { BENCH_NOW, DATASETS, datasetRecords } from '../../bench/data/generator.js'
import { writeNdjson } from '../../bench/data/ndjson.js'
import { consistencyProblems, observeRounded, tempDir, withFile } from './store.js'

const RECORDS = 150_000
const PARTS = 3
const MEMORY_MB = 64
const { dir: TMP, cleanup } = tempDir('va-spill-sort-')
afterAll(cleanup)

/** L's records `from` <= i < `to` (L's entity records come first). */
function* slice(from: number, to: number) {
  let i = 0
  for (const r of datasetRecords(DATASETS.L)) {
    if (i >= to) return
    if (i++ >= from) yield r
  }
}

/** Ingests the files one call each; returns the summed counts and every report's payload. */
async function ingestAll(db: string, files: string[], memoryLimitMB?: number) {
  const engine = await openEngine({ path: db, ...(memoryLimitMB === undefined ? {} : { memoryLimitMB }) })
  try {
    const counts: Record<string, number> = {}
    for (const f of files)
      for (const [k, v] of Object.entries(await engine.ingestFile(f)))
        if (typeof v === 'number') counts[k] = (counts[k] ?? 0) + v
    const reports: unknown[] = [await observeRounded(engine, BENCH_NOW)]
    for (const d of (await engine.computeDomainList({ now: BENCH_NOW })).data.items) {
      const p = { domainId: d.id, days: 365, now: BENCH_NOW }
      reports.push(
        await engine.computeCitations(p),
        await engine.computeCitedDomains(p),
        await engine.computeFanoutQueries(p),
      )
    }
    return { counts, reports }
  } finally {
    await engine.close()
  }
}

describe('an ingest call sorting its citations under a small memory limit', () => {
  it('goes in whole, answers as smaller calls do, stores facts in key order', async () => {
    const whole = join(TMP, 'whole.ndjson')
    await writeNdjson(whole, slice(0, RECORDS))
    const parts: string[] = []
    for (let p = 0; p < PARTS; p++) {
      parts.push(join(TMP, `part-${p}.ndjson`))
      await writeNdjson(parts[p]!, slice((p * RECORDS) / PARTS, ((p + 1) * RECORDS) / PARTS))
    }
    const one = join(TMP, 'one.duckdb')
    const big = await ingestAll(one, [whole], MEMORY_MB)
    const small = await ingestAll(join(TMP, 'three.duckdb'), parts)
    expect(big.counts.citations).toBeGreaterThan(400_000)
    expect(big.counts).toEqual(small.counts)
    expect(big.reports).toEqual(small.reports)
    expect(await consistencyProblems(one)).toEqual([])
    // Physical order: no row follows one with a greater analysis_key.
    const descents = await withFile(one, (run) =>
      Promise.all(
        ['mentions', 'citations', 'theme_occurrences', 'fanout_queries'].map(async (t) => {
          const [row] = await run(
            `SELECT count(*) FILTER (WHERE analysis_key < prev)::INTEGER FROM (SELECT analysis_key, lag(analysis_key) OVER (ORDER BY rowid) AS prev FROM ${t})`,
          )
          return [t, row![0]] as const
        }),
      ),
    )
    expect(Object.fromEntries(descents)).toEqual({
      mentions: 0,
      citations: 0,
      theme_occurrences: 0,
      fanout_queries: 0,
    })
  }, 900_000)
})
