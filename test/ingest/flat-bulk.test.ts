/**
 * The empty-target bulk write of flat input (src/ingest/flat-bulk.ts): an import into a store that
 * holds none of its domains must store exactly what the staged SQL path stores (VA_FLAT_PATH=staged):
 * every stored table, row for row, and every report payload; an import into a store that holds
 * one of its domains must not take it; the other domains of the target are left as they were.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { openEngine, type Engine } from '../../src/index.js'
import { lastBulk } from '../../src/ingest/flat-bulk.js'
import { lastHandOver } from '../../src/ingest/flat-sql.js'
import { dimRecords, makeAnalyses, makeDims } from '../support/generate.js'

const work = mkdtempSync(join(tmpdir(), 'va-flat-bulk-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
let n = 0
const path = () => join(work, `store-${n++}.duckdb`)

const dims = makeDims(3, { teams: 2, domainsPerTeam: 2, promptsPerDomain: 6, competitorsPerDomain: 4 })
const domainIds = dims.domains.map((d) => d.id)
const NOW = '2026-04-01T00:00:00Z'

/** Analyses with every kind of fact: titles, page types, fan-out queries (padded), answer texts. */
function analyses(batch: number, count: number) {
  return makeAnalyses(3, dims, batch, count).map((a, i) => ({
    ...a,
    ...(i % 3 === 0 ? { response: `Answer ${i} ${'é'.repeat(i % 7)}` } : {}),
    ...(i % 4 === 1 ? { fanout_queries: [`  query ${i % 5}`, `query ${i % 11}\u00a0`, 'q 🦆'] } : {}),
    citations: a.citations.map((c, k) => ({
      ...c,
      ...(k % 2 === 0 ? { title: `Title ${(i + k) % 9}` } : {}),
      ...((i + k) % 3 === 0 ? { page_type: (i + k) % 2 === 0 ? 'article' : 'product' } : {}),
    })),
  }))
}

/** The export of a source store holding every domain (`ids`: only those domains). */
async function exportOf(ids?: string[]): Promise<string> {
  const e = await openEngine()
  try {
    await e.ingest([...dimRecords(dims), ...analyses(1, 600)])
    const dir = join(work, `export-${n++}`)
    await e.exportParquet(dir, ids === undefined ? {} : { domainIds: ids })
    return dir
  } finally {
    await e.close()
  }
}

async function payloads(engine: Engine) {
  const out: unknown[] = [await engine.stats()]
  for (const domainId of domainIds) {
    const p = { domainId, days: 90, now: NOW }
    out.push(
      await engine.computeCitations({ ...p, limit: 1000 }),
      await engine.computeFanoutQueries(p),
      await engine.computeCompetitorSeries({ ...p, model: 'all' }),
      await engine.computeSentimentOverview({ ...p, model: 'all' }),
      await engine.computeSentimentThemes({ ...p, model: 'all' }),
      await engine.computePromptSeries(p),
    )
  }
  return out
}

/** Every stored table of a closed store file, each row as JSON, in order. */
async function tablesOf(file: string): Promise<Record<string, unknown[]>> {
  const inst = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' })
  const conn = await inst.connect()
  try {
    const names = (
      await conn.runAndReadAll(
        "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND database_name = current_database() ORDER BY 1",
      )
    ).getRows()
    const out: Record<string, unknown[]> = {}
    for (const [name] of names) {
      // meta's cursor_key is random per store (the answers' cursors): every other row is compared.
      const r = await conn.runAndReadAll(
        name === 'meta'
          ? "SELECT * FROM meta WHERE key <> 'cursor_key' ORDER BY ALL"
          : `SELECT * FROM "${String(name)}" ORDER BY ALL`,
      )
      out[String(name)] = r.getRowsJson()
    }
    return out
  } finally {
    conn.closeSync()
    inst.closeSync()
  }
}

function expectSameTables(got: Record<string, unknown[]>, want: Record<string, unknown[]>) {
  expect(Object.keys(got)).toEqual(Object.keys(want))
  for (const [name, rows] of Object.entries(want)) expect(got[name], name).toEqual(rows)
}

/**
 * A store (set up by `before`), then `dir` imported on the given path; its result, whether the
 * bulk write ran, its payloads and, once closed, every table.
 */
async function importInto(
  dir: string,
  mode: 'bulk' | 'staged' | 'records',
  options: { hardened?: boolean; before?: (e: Engine) => Promise<unknown> } = {},
) {
  const file = path()
  const setup = await openEngine({ path: file })
  await options.before?.(setup)
  await setup.close()
  const engine = await openEngine({ path: file, hardened: options.hardened ?? false })
  try {
    if (mode !== 'bulk') process.env.VA_FLAT_PATH = mode
    const result = await engine.ingestFile(dir)
    const bulk = lastBulk
    expect(lastHandOver).toBe(mode === 'records' ? 'VA_FLAT_PATH=records' : null)
    delete process.env.VA_FLAT_PATH
    const got = { result, bulk, payloads: await payloads(engine) }
    await engine.close()
    return { ...got, tables: await tablesOf(file) }
  } finally {
    delete process.env.VA_FLAT_PATH
    await engine.close().catch(() => undefined)
  }
}

describe('the empty-target bulk write', () => {
  it("a Parquet import's answer texts, read from the files: every table equal to the record path's", async () => {
    const dir = await exportOf()
    const records = await importInto(dir, 'records')
    expect(records.tables.analysis_responses!.length).toBe(200)
    for (const hardened of [false, true])
      for (const mode of ['bulk', 'staged'] as const) {
        const got = await importInto(dir, mode, { hardened })
        expect(got.bulk, `${mode}, hardened ${String(hardened)}`).toBe(mode === 'bulk')
        expect(got.result).toEqual(records.result)
        expectSameTables(got.tables, records.tables)
      }
  })

  it('a fresh store (plain and hardened): every table and payload equal to the staged path', async () => {
    const dir = await exportOf()
    const staged = await importInto(dir, 'staged')
    expect(staged.bulk).toBe(false)
    for (const hardened of [false, true]) {
      const bulk = await importInto(dir, 'bulk', { hardened })
      expect(bulk.bulk).toBe(true)
      expect(bulk.result).toEqual(staged.result)
      expectSameTables(bulk.tables, staged.tables)
      expect(bulk.payloads).toEqual(staged.payloads)
    }
    expect(staged.result).toMatchObject({ analyses: 600, domains: 4 })
    expect(staged.tables.texts!.length).toBeGreaterThan(0)
    expect(staged.tables.analysis_responses!.length).toBe(200)
  })

  it('a move into a store holding other domains: equal to the staged path, the others untouched', async () => {
    const others = await exportOf(domainIds.slice(1))
    const moved = await exportOf(domainIds.slice(0, 1))
    const before = (e: Engine) => e.ingestFile(others)
    const staged = await importInto(moved, 'staged', { before })
    const bulk = await importInto(moved, 'bulk', { before, hardened: true })
    expect(bulk.bulk).toBe(true)
    expect(bulk.result).toEqual(staged.result)
    expectSameTables(bulk.tables, staged.tables)
    expect(bulk.payloads).toEqual(staged.payloads)
  })

  // One chunk for a whole L-sized domain ran a hardened import out of memory at the 160 MB limit in
  // fill_agg_cited_url: the bulk write's aggregates run in the record path's chunks.
  it("builds the aggregates in the record path's chunks, storing what one chunk stores", async () => {
    const dir = await exportOf()
    const one = await importInto(dir, 'bulk')
    const lines: string[] = []
    const write = process.stderr.write.bind(process.stderr)
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk, ...rest) => {
      if (typeof chunk === 'string' && chunk.startsWith('ingest/fill_agg_cited_url ')) lines.push(chunk)
      return write(chunk, ...(rest as []))
    })
    process.env.VA_INGEST_CHUNK_ANALYSES = '100'
    process.env.VA_TRACE_INGEST = '1'
    try {
      const many = await importInto(dir, 'bulk', { hardened: true })
      expect(many.bulk).toBe(true)
      expect(many.result).toEqual(one.result)
      expectSameTables(many.tables, one.tables)
      expect(many.payloads).toEqual(one.payloads)
    } finally {
      spy.mockRestore()
      delete process.env.VA_INGEST_CHUNK_ANALYSES
      delete process.env.VA_TRACE_INGEST
    }
    // 600 analyses in chunks of about 100 stored analyses: several runs of each aggregate step.
    expect(lines.length).toBeGreaterThan(3)
  }, 180_000)

  it('a store already holding a domain of the import takes the staged path', async () => {
    const dir = await exportOf(domainIds.slice(0, 1))
    const got = await importInto(dir, 'bulk', {
      before: (e) => e.ingest([...dimRecords(dims), ...analyses(2, 50)]),
    })
    expect(got.bulk).toBe(false)
    expect(got.result.analyses).toBeGreaterThan(0)
  })
})
