/**
 * A store and a Parquet export written by the release before schema version 2
 * (fixtures/schema-v1, see its README) still work: the store opens (migrated in place: created_at
 * read as null, the aggregates of the brand rankings and brand time series filled from its raw
 * tables), the export imports, and both answer every report exactly as the same records ingested
 * by this release.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { openEngine, SCHEMA_VERSION, type Engine } from '../../src/index.js'
import { datasetPath } from '../support/golden.js'
import { readNdjson } from '../support/ndjson.js'

const V1 = fileURLToPath(new URL('../../fixtures/schema-v1/', import.meta.url))
const DOMAINS = ['d0000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000002']
const NOW = '2026-11-20T15:00:00Z'
const tmp = mkdtempSync(join(tmpdir(), 'va-schema-v1-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** Every report of every domain: each model filter kind, a short and a long window. */
async function everyReport(e: Engine): Promise<unknown[]> {
  const out: unknown[] = [await e.computeDomainList({ now: NOW })]
  for (const domainId of DOMAINS) {
    out.push(await e.computePromptList({ domainId, now: NOW }))
    for (const days of [7, 365]) {
      const p = { domainId, days, now: NOW }
      out.push(await e.computePromptSeries(p), await e.computeModelLeaderboard(p))
      for (const model of ['all', 'chatgpt', 'gpt-5', 'gemini-2.5-pro']) {
        out.push(
          await e.computeBrandRankings({ ...p, model }),
          await e.computeSentimentThemes({ ...p, model }),
        )
        for (const metric of ['visibility', 'mentions', 'citations', 'citability'] as const)
          out.push(await e.computeBrandSeries({ ...p, model, metric }))
      }
      out.push(await e.computeCompetitorSeries({ ...p, model: 'chatgpt' }))
    }
  }
  return out
}

async function today(): Promise<{ engine: Engine; reports: unknown[]; stats: Record<string, number> }> {
  const engine = await openEngine()
  await engine.ingest(readNdjson(datasetPath('rankings')))
  return { engine, reports: await everyReport(engine), stats: await engine.stats() }
}

describe('schema version 1', () => {
  it('a store opens migrated, with the new aggregates filled, and answers as today', async () => {
    const path = join(tmp, 'store.duckdb')
    writeFileSync(path, gunzipSync(readFileSync(join(V1, 'store.duckdb.gz'))))
    await expect(openEngine({ path, readOnly: true })).rejects.toThrow(
      `schema version 1, not ${SCHEMA_VERSION}: open it writable once to migrate it`,
    )
    const now = await today()
    const migrated = await openEngine({ path })
    const stats = await migrated.stats()
    expect(stats).toEqual(now.stats)
    expect(stats.agg_entity_prompt_day).toBeGreaterThan(0)
    expect(stats.agg_citation_day).toBeGreaterThan(0)
    expect(stats.agg_channel_prompts).toBeGreaterThan(0)
    const reports = await everyReport(migrated)
    expect(reports).toEqual(now.reports)
    const listing = await migrated.computeDomainList({ now: NOW })
    expect(listing.data.items.map((d) => d.created_at)).toEqual([null, null])
    await migrated.close()

    // Migrated once, it opens read-only.
    const again = await openEngine({ path, readOnly: true })
    expect(await everyReport(again)).toEqual(now.reports)
    await again.close()
    await now.engine.close()
  })

  it('a Parquet export imports (created_at read as null) and answers as today', async () => {
    const now = await today()
    const copy = await openEngine()
    await copy.ingestFile(join(V1, 'export'))
    expect(await copy.stats()).toEqual(now.stats)
    expect(await everyReport(copy)).toEqual(now.reports)
    const over = await openEngine({ parquet: join(V1, 'export') })
    expect(await everyReport(over)).toEqual(now.reports)
    for (const e of [copy, over, now.engine]) await e.close()
  })
})
