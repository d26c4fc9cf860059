/**
 * Deletions against the reference model (test/reference/deletions.ts) on random datasets followed
 * by random calls of delete records and re-upserted records (test/support/arbitraries.ts,
 * `deletionDatasetArb`). After every call: the engine refuses exactly the calls the model refuses,
 * reports the same deletion counts, and gives the model's payloads for every domain and listing.
 * At the end, the engine equals one rebuilt from the surviving records alone ("as if the deleted
 * records had never been ingested"): row counts, every aggregate row (keys mapped to ids), the
 * Parquet export, and the payloads.
 *
 * PROPERTY_RUNS sets the runs (default 75; this test uses a third of it).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isIngestError, openEngine, type Engine } from '../../src/index.js'
import { FLAT_TABLES } from '../../src/ingest/flat.js'
import { RefusedCall } from '../reference/deletions.js'
import { ReferenceModel } from '../reference/model.js'
import { compareText as byText } from '../../src/foundation/compare.js'
import { deletionDatasetArb, paramsFor, queryArb, type Query } from '../support/arbitraries.js'

const numRuns = Math.max(10, Math.round(Number(process.env.PROPERTY_RUNS ?? 75) / 3))
const timeout = 600_000

/** Every payload of a query on every domain, or the error's class name when it throws. */
async function payloads(run: (p: ReturnType<typeof paramsFor>) => Promise<unknown>, ids: string[], q: Query) {
  const out: unknown[] = []
  for (let domain = 0; domain < ids.length; domain++) {
    const p = paramsFor({ domainIds: ids }, { ...q, domain })
    out.push(await run(p).catch((e: Error) => e.name))
  }
  return out
}

const enginePayloads = (e: Engine, ids: string[], q: Query) =>
  payloads(
    async (p) => [
      await e.computePromptSeries(p.prompt),
      await e.computeCompetitorSeries(p.competitor),
      await e.computeSentimentOverview(p.sentiment),
      await e.computeSentimentThemes(p.sentiment),
    ],
    ids,
    q,
  )
const modelPayloads = (m: ReferenceModel, ids: string[], q: Query) =>
  payloads(
    async (p) => [
      m.computePromptSeries(p.prompt),
      m.computeCompetitorSeries(p.competitor),
      m.computeSentimentOverview(p.sentiment),
      m.computeSentimentThemes(p.sentiment),
    ],
    ids,
    q,
  )

const conn = (e: Engine) => (e as unknown as { write: DuckDBConnection }).write

/** The columns of the aggregates that index the text dictionaries, with the kind of text. */
const TEXT_COLUMNS = { url_idx: 1, host_idx: 2, title_idx: 3, page_type_idx: 4, query_idx: 5 } as const

/**
 * Every row of every aggregate table, surrogate keys replaced by the ids and names they stand for
 * (text indexes by their texts: a store that deleted rows keeps its dictionary entries, stable).
 */
async function aggregates(e: Engine): Promise<Record<string, string[]>> {
  const c = conn(e)
  const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRowObjectsJson()
  const domains = new Map(
    (await rows('SELECT domain_key, id::VARCHAR AS id FROM domains')).map((r) => [
      String(r.domain_key),
      r.id,
    ]),
  )
  const models = new Map(
    (await rows('SELECT model_key, model FROM models')).map((r) => [String(r.model_key), r.model]),
  )
  const texts = new Map(
    (await rows('SELECT domain_key, kind, idx, text FROM texts')).map((r) => [
      `${String(r.domain_key)}:${String(r.kind)}:${String(r.idx)}`,
      r.text,
    ]),
  )
  const textsOf = (r: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(TEXT_COLUMNS)
        .filter(([column]) => column in r)
        .map(([column, kind]) => [
          column,
          r[column] === null
            ? null
            : (texts.get(`${String(r.domain_key)}:${kind}:${String(r[column])}`) ?? 'missing'),
        ]),
    )
  const tables = await rows(
    "SELECT table_name FROM duckdb_tables() WHERE database_name <> 'temp' AND schema_name = 'main' AND table_name LIKE 'agg_%' ORDER BY 1",
  )
  const out: Record<string, string[]> = {}
  for (const { table_name } of tables) {
    out[String(table_name)] = (await rows(`SELECT * FROM ${String(table_name)}`))
      .map((r) =>
        JSON.stringify({
          ...r,
          ...textsOf(r),
          domain_key: domains.get(String(r.domain_key)) ?? `missing ${String(r.domain_key)}`,
          ...('model_key' in r ? { model_key: models.get(String(r.model_key)) ?? 'missing' } : {}),
        }),
      )
      .sort()
  }
  return out
}

/**
 * The rows of every table of a Parquet export, sorted. A partitioned table with no row has no file
 * to read (checked against the export's own count); any other failed read fails the test.
 */
async function exported(e: Engine, dir: string): Promise<Record<string, string[]>> {
  const written = (await e.exportParquet(dir)).tables
  const reader = await openEngine()
  try {
    const out: Record<string, string[]> = {}
    for (const t of FLAT_TABLES) {
      const single = ['teams', 'domains'].includes(t)
      const files = single
        ? [`${t}.parquet`]
        : (readdirSync(join(dir, t), { recursive: true }) as string[]).filter((f) => f.endsWith('.parquet'))
      expect(written[t], `${t}: rows the export reports`).toBeTypeOf('number')
      if (files.length === 0) {
        expect(written[t], `${t}: no file, so no row`).toBe(0)
        out[t] = []
        continue
      }
      const glob = single ? join(dir, `${t}.parquet`) : join(dir, t, '**', '*.parquet')
      const rows = (
        await conn(reader).runAndReadAll(`SELECT * FROM read_parquet('${glob}', hive_partitioning = true)`)
      ).getRowObjectsJson()
      expect(rows.length, `${t}: rows read back`).toBe(written[t])
      out[t] = rows.map((r) => JSON.stringify(r)).sort()
    }
    return out
  } finally {
    await reader.close()
  }
}

describe('deletions equal the reference model on random data with random deletions', () => {
  it(
    'refusals, counts, payloads and listings after every call; then the store equals one that never saw the deleted records',
    async () => {
      let accepted = 0
      let refused = 0
      let deleted = 0
      await fc.assert(
        fc.asyncProperty(
          deletionDatasetArb,
          fc.array(queryArb, { minLength: 1, maxLength: 2 }),
          async (ds, queries) => {
            const engine = await openEngine()
            const model = new ReferenceModel()
            const dir = mkdtempSync(join(tmpdir(), 'va-del-'))
            let rebuilt: Engine | undefined
            try {
              for (const call of ds.calls) {
                await engine.ingest(call)
                model.ingest(call)
              }
              for (const call of ds.later) {
                let expected: ReturnType<ReferenceModel['ingestCall']> | 'refused'
                try {
                  expected = model.ingestCall(call)
                } catch (e) {
                  if (!(e instanceof RefusedCall)) throw e
                  expected = 'refused'
                }
                const got = await engine.ingest(call).catch((e: unknown) => {
                  if (isIngestError(e)) return 'refused' as const
                  throw e
                })
                if (expected === 'refused') {
                  refused++
                  expect(got, JSON.stringify(call)).toBe('refused')
                } else {
                  accepted++
                  expect(got, JSON.stringify(call)).not.toBe('refused')
                  if (call.some((r) => r.type === 'delete')) {
                    expect(got !== 'refused' && got.deleted).toEqual(expected)
                    deleted += expected.analyses + expected.domains + expected.prompts
                  }
                }
                for (const q of queries)
                  expect(await enginePayloads(engine, ds.domainIds, q)).toEqual(
                    await modelPayloads(model, ds.domainIds, q),
                  )
                const listed = (await engine.computeDomainList()).data.items
                expect(listed.map(({ id, name, website }) => ({ id, name, website }))).toEqual(
                  model
                    .storedRecords()
                    .flatMap((r) =>
                      r.type === 'domain' ? [{ id: r.id, name: r.brand_name, website: r.website }] : [],
                    )
                    .sort((a, b) => byText(a.name, b.name) || byText(a.id, b.id)),
                )
              }
              rebuilt = await openEngine()
              await rebuilt.ingest(model.storedRecords())
              // Raw model ids are kept even when an upsert replaced their only analysis (ingest's
              // behaviour, payload-neutral), so the models table is left out of the row counts.
              const counts = async (e: Engine) => ({ ...(await e.stats()), models: 0 })
              expect(await counts(engine)).toEqual(await counts(rebuilt))
              expect(await aggregates(engine)).toEqual(await aggregates(rebuilt))
              expect(await exported(engine, join(dir, 'a'))).toEqual(await exported(rebuilt, join(dir, 'b')))
              for (const q of queries)
                expect(await enginePayloads(engine, ds.domainIds, q)).toEqual(
                  await enginePayloads(rebuilt, ds.domainIds, q),
                )
            } finally {
              await engine.close()
              await rebuilt?.close()
              rmSync(dir, { recursive: true, force: true })
            }
          },
        ),
        { numRuns },
      )
      // The generator must exercise both outcomes and actually delete (a guard against a vacuous run).
      expect(accepted).toBeGreaterThan(numRuns / 2)
      expect(refused).toBeGreaterThan(0)
      expect(deleted).toBeGreaterThan(0)
    },
    timeout,
  )
})
