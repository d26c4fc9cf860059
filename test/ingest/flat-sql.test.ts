/**
 * The bulk path of flat input (src/ingest/flat-sql.ts): a Parquet export and Arrow tables are
 * checked and staged in SQL. Every kind of invalid fact row must give the issues the record path
 * gives (VA_FLAT_PATH=records), with the reasons the same records give as NDJSON, and store
 * nothing; valid input must take the SQL path and store what the record path stores.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tableFromJSON } from 'apache-arrow'
import { DuckDBInstance, VARCHAR } from '@duckdb/node-api'
import { afterEach, describe, expect, it } from 'vitest'
import { IngestError, openEngine, type Engine, type IngestResult } from '../../src/index.js'
import { lastHandOver } from '../../src/ingest/flat-sql.js'
import type { RecordIssue } from '../../src/errors.js'
import { analysis, base, COMPETITOR, DOMAIN, NOW, OTHER_PROMPT, THEME, toNdjson } from '../support/records.js'

type Row = Record<string, unknown>
type Tables = Record<string, Row[]>

const TABLE_OF: Record<string, string> = {
  team: 'teams',
  domain: 'domains',
  prompt: 'prompts',
  competitor: 'competitors',
  theme: 'themes',
}

/** Records as the flat tables of docs/API.md, "Ingest: records" (citations and queries with ord). */
function flatten(records: readonly object[]): Tables {
  const t: Tables = {}
  const push = (name: string, row: Row) => (t[name] ??= []).push(row)
  for (const { type, ...rest } of records as Row[]) {
    if (type !== 'analysis') {
      push(TABLE_OF[type as string]!, rest)
      continue
    }
    const { mentions, citations, themes, fanout_queries, ...a } = rest as Row & {
      mentions: Row[]
      citations: Row[]
      themes: Row[]
      fanout_queries?: string[]
    }
    push('analyses', a)
    for (const m of mentions) push('mentions', { analysis_id: a.id, ...m })
    citations.forEach((c, ord) =>
      push('citations', {
        analysis_id: a.id,
        url: c.url,
        title: c.title ?? null,
        page_type: c.page_type ?? null,
        ord,
      }),
    )
    for (const th of themes) push('theme_occurrences', { analysis_id: a.id, ...th })
    fanout_queries?.forEach((query, ord) => push('fanout_queries', { analysis_id: a.id, query, ord }))
  }
  return t
}

/** Column types of an export's files (as exportParquet writes them, near enough for import). */
const PARQUET_TYPES: Record<string, string> = {
  teams: "{id: 'VARCHAR', name: 'VARCHAR', plan: 'VARCHAR', developer_access: 'BOOLEAN'}",
  domains: "{id: 'VARCHAR', team_id: 'VARCHAR', brand_name: 'VARCHAR', website: 'VARCHAR'}",
  prompts: "{id: 'VARCHAR', domain_id: 'VARCHAR', text: 'VARCHAR', estimated_search_volume: 'BIGINT'}",
  competitors: "{id: 'VARCHAR', domain_id: 'VARCHAR', name: 'VARCHAR', website: 'VARCHAR'}",
  themes:
    "{id: 'VARCHAR', domain_id: 'VARCHAR', name: 'VARCHAR', custom_name: 'VARCHAR', archived: 'BOOLEAN', sentiment: 'VARCHAR', created_at: 'DATE'}",
  analyses:
    "{id: 'VARCHAR', domain_id: 'VARCHAR', prompt_id: 'VARCHAR', channel: 'VARCHAR', model: 'VARCHAR', answered_at: 'TIMESTAMPTZ', country: 'VARCHAR', response: 'VARCHAR'}",
  mentions: "{analysis_id: 'VARCHAR', entity_id: 'VARCHAR', position: 'DOUBLE', sentiment: 'DOUBLE'}",
  citations:
    "{analysis_id: 'VARCHAR', url: 'VARCHAR', title: 'VARCHAR', page_type: 'VARCHAR', ord: 'INTEGER'}",
  theme_occurrences: "{analysis_id: 'VARCHAR', theme_id: 'VARCHAR', occurrences: 'DOUBLE'}",
  fanout_queries: "{analysis_id: 'VARCHAR', query: 'VARCHAR', ord: 'INTEGER'}",
}

/** Writes flat tables as an export directory (teams.parquet, domains.parquet, <table>/part.parquet). */
async function writeExportDir(
  tables: Tables,
  types: Record<string, string> = PARQUET_TYPES,
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'va-flat-sql-'))
  const inst = await DuckDBInstance.create(':memory:')
  const conn = await inst.connect()
  try {
    for (const [name, rows] of Object.entries(tables)) {
      const json = join(dir, `${name}.json`)
      writeFileSync(json, toNdjson(rows))
      const single = name === 'teams' || name === 'domains'
      if (!single) mkdirSync(join(dir, name))
      const out = single ? join(dir, `${name}.parquet`) : join(dir, name, 'part.parquet')
      await conn.run(
        `COPY (SELECT * FROM read_json($json, format = 'newline_delimited', columns = ${types[name]})) TO '${out}' (FORMAT parquet)`,
        { json },
        { json: VARCHAR },
      )
    }
  } finally {
    conn.closeSync()
    inst.closeSync()
  }
  return dir
}

const arrowTables = (tables: Tables) =>
  Object.fromEntries(Object.entries(tables).map(([n, rows]) => [n, tableFromJSON(rows)]))

type Outcome = { result: IngestResult } | { issues: RecordIssue[] }

/** One ingest into a fresh engine: its result or its issues, and the engine's row counts after. */
async function outcome(
  ingest: (e: Engine) => Promise<IngestResult>,
  path: 'bulk' | 'records' = 'bulk',
): Promise<{ got: Outcome; stats: Record<string, number>; handOver: string | null }> {
  if (path === 'records') process.env.VA_FLAT_PATH = 'records'
  const engine = await openEngine()
  try {
    const got = await ingest(engine).then(
      (result): Outcome => ({ result }),
      (e: unknown): Outcome => {
        if (!(e instanceof IngestError)) throw e
        return { issues: e.issues }
      },
    )
    return { got, stats: await engine.stats(), handOver: lastHandOver }
  } finally {
    delete process.env.VA_FLAT_PATH
    await engine.close()
  }
}

const NOTHING = { teams: 0, domains: 0, prompts: 0, analyses: 0, mentions: 0, citations: 0 }

afterEach(() => {
  delete process.env.VA_FLAT_PATH
})

/** One invalid analysis (or set of rows) of each kind the SQL checks look for. */
const INVALID: Record<
  string,
  { records: () => object[]; parquet?: false; arrow?: false; tables?: (t: Tables) => void }
> = {
  'analysis id': { records: () => [analysis({ id: 'not-a-uuid' })] },
  channel: { records: () => [analysis({ channel: 'altavista' as never })] },
  model: { records: () => [analysis({ model: 'gpt 4' })] },
  'answered_at (text)': {
    records: () => [analysis({ answered_at: '2026-02-30T10:00:00Z' })],
    parquet: false,
  },
  'mention entity': {
    records: () => [analysis({ mentions: [{ entity_id: 'x', position: 1, sentiment: 1 }] })],
  },
  'mention position 0': {
    records: () => [analysis({ mentions: [{ entity_id: 'brand', position: 0, sentiment: 1 }] })],
  },
  'mention position 1.5': {
    records: () => [analysis({ mentions: [{ entity_id: 'brand', position: 1.5, sentiment: 1 }] })],
  },
  'mention sentiment 101': {
    records: () => [analysis({ mentions: [{ entity_id: 'brand', position: 1, sentiment: 101 }] })],
  },
  'mention repeated': {
    records: () => [
      analysis({
        mentions: [
          { entity_id: COMPETITOR, position: 1, sentiment: 1 },
          { entity_id: COMPETITOR.toUpperCase(), position: 2, sentiment: 1 },
        ],
      }),
    ],
  },
  'citation url': { records: () => [analysis({ citations: [{ url: 'ftp://example.com/a' }] })] },
  'citation title empty': {
    records: () => [analysis({ citations: [{ url: 'https://a.com/', title: '' }] })],
  },
  'citation page_type too long': {
    records: () => [analysis({ citations: [{ url: 'https://a.com/', page_type: 'p'.repeat(101) }] })],
  },
  'citation title of 1001 code points': {
    records: () => [analysis({ citations: [{ url: 'https://a.com/', title: '🦆'.repeat(1001) }] })],
  },
  'theme occurrences 0': { records: () => [analysis({ themes: [{ theme_id: THEME, occurrences: 0 }] })] },
  'theme id': { records: () => [analysis({ themes: [{ theme_id: 'nope', occurrences: 1 }] })] },
  'theme repeated': {
    records: () => [
      analysis({
        themes: [
          { theme_id: THEME, occurrences: 1 },
          { theme_id: THEME, occurrences: 2 },
        ],
      }),
    ],
  },
  'fan-out query blank once trimmed': {
    records: () => [analysis({ fanout_queries: ['ok', ' \u00a0\u3000 '] })],
  },
  'fan-out queries over 100': {
    records: () => [analysis({ fanout_queries: Array.from({ length: 101 }, (_, i) => `q${i}`) })],
  },
  'unknown prompt': { records: () => [analysis({ prompt_id: OTHER_PROMPT })] },
  // Parquet only: tableFromJSON leaves the country of the other analyses row (no such key)
  // undefined, which Arrow input refuses on either path (not the SQL path's concern).
  'country not two letters': { records: () => [analysis({ country: 'b1' })], arrow: false },
  'response over 200,000 UTF-16 code units': {
    records: () => [analysis({ response: '\u{1F986}'.repeat(100_001) })],
  },
  'orphan child rows': {
    records: () => [analysis()],
    tables: (t) =>
      t.mentions!.push({
        analysis_id: 'a0000000-0000-4000-8000-0000000fffff',
        entity_id: 'brand',
        position: 1,
        sentiment: 1,
      }),
  },
}

describe('flat input through SQL: invalid rows', () => {
  for (const [kind, c] of Object.entries(INVALID)) {
    const records = () => [...base(), analysis(), ...c.records()] as Row[]
    const tables = () => {
      const t = flatten(records())
      c.tables?.(t)
      return t
    }
    const sources: [string, () => Promise<(e: Engine) => Promise<IngestResult>>][] = []
    if (c.arrow !== false)
      sources.push(['Arrow', () => Promise.resolve((e: Engine) => e.ingestArrow(arrowTables(tables())))])
    if (c.parquet !== false)
      sources.push([
        'Parquet',
        async () =>
          (
            (dir: string) => (e: Engine) =>
              e.ingestFile(dir)
          )(await writeExportDir(tables())),
      ])
    for (const [name, make] of sources) {
      it(`${name}, ${kind}: the record path's issues, the NDJSON reasons, nothing stored`, async () => {
        const ingest = await make()
        const bulk = await outcome(ingest)
        const records_ = await outcome(ingest, 'records')
        expect(bulk.handOver).not.toBeNull()
        expect('issues' in bulk.got).toBe(true)
        expect(bulk.got).toEqual(records_.got)
        expect(bulk.stats).toMatchObject(NOTHING)
        if (c.tables !== undefined) return // rows no record can carry
        const ndjson = await outcome(async (e) => {
          const dir = mkdtempSync(join(tmpdir(), 'va-flat-sql-'))
          writeFileSync(join(dir, 'in.ndjson'), toNdjson(records()))
          return e.ingestFile(join(dir, 'in.ndjson'))
        })
        const issues = (o: Outcome) => ('issues' in o ? o.issues : [])
        const dims = base().length
        expect(issues(bulk.got).map((i) => [i.field.replace(/^analyses\./, ''), i.message])).toEqual(
          issues(ndjson.got).map((i) => [i.field, i.message]),
        )
        // The record index among the analyses rows is the NDJSON line past the dimension lines.
        expect(issues(bulk.got).map((i) => ('index' in i ? i.index : -1))).toEqual(
          issues(ndjson.got).map((i) => ('line' in i ? i.line - 1 - dims : -1)),
        )
      })
    }
  }
})

/** Valid input with what the checks must let through: case, BMP and beyond, nulls, ord order. */
function validRecords(): object[] {
  return [
    ...base(),
    analysis({ id: 'A0000000-0000-4000-8000-0000000000AA', answered_at: '2026-11-18T23:30:00-03:00' }),
    analysis({
      mentions: [
        { entity_id: 'brand', position: null, sentiment: null },
        { entity_id: COMPETITOR.toUpperCase(), position: 3, sentiment: 0 },
      ],
      citations: [
        { url: 'https://WWW.Example.com:443/a/../b?x=1#frag', title: '日本語 🦆', page_type: null },
        // 1000 code points, 2000 UTF-16 units: the schema counts code points.
        { url: 'https://example.com/b?x=1', title: '🦆'.repeat(1000) },
      ],
      fanout_queries: ['  padded\u00a0', '🦆'.repeat(250)],
    }),
    analysis({ channel: 'perplexity', model: 'sonar-pro', themes: [] }),
    analysis({ model: 'gpt-5', answered_at: '2026-11-19T10:00:00.1239Z', fanout_queries: [] }),
  ]
}

async function payloads(engine: Engine) {
  const p = { domainId: DOMAIN, days: 30, now: NOW }
  return [
    await engine.stats(),
    await engine.computeCitations({ ...p, limit: 1000 }),
    await engine.computeFanoutQueries(p),
    await engine.computeCompetitorSeries({ ...p, model: 'all' }),
    await engine.computeSentimentOverview({ ...p, model: 'all' }),
    await engine.computeSentimentThemes({ ...p, model: 'all' }),
    await engine.computePromptSeries({ ...p }),
  ]
}

describe('flat input through SQL: valid rows', () => {
  const stored = async (ingest: (e: Engine) => Promise<IngestResult>, path: 'bulk' | 'records') => {
    if (path === 'records') process.env.VA_FLAT_PATH = 'records'
    const engine = await openEngine()
    try {
      const result = await ingest(engine)
      return { result, handOver: lastHandOver, payloads: await payloads(engine) }
    } finally {
      delete process.env.VA_FLAT_PATH
      await engine.close()
    }
  }

  it('Arrow and Parquet take the SQL path and store what the record path stores', async () => {
    const t = flatten(validRecords())
    const dir = await writeExportDir(t)
    for (const ingest of [(e: Engine) => e.ingestArrow(arrowTables(t)), (e: Engine) => e.ingestFile(dir)]) {
      const bulk = await stored(ingest, 'bulk')
      expect(bulk.handOver).toBeNull()
      const records = await stored(ingest, 'records')
      expect(bulk.result).toEqual(records.result)
      expect(bulk.payloads).toEqual(records.payloads)
      expect(bulk.result).toMatchObject({ analyses: 4, mentions: 5, fanout_queries: 2 })
    }
    // And what the same records give as records.
    const engine = await openEngine()
    try {
      await engine.ingest(validRecords())
      expect((await stored((e) => e.ingestArrow(arrowTables(t)), 'bulk')).payloads).toEqual(
        await payloads(engine),
      )
    } finally {
      await engine.close()
    }
  })

  it('a fact column of another type in the files hands over to the record path (plain and hardened)', async () => {
    const t = flatten(validRecords())
    const types = {
      ...PARQUET_TYPES,
      citations: PARQUET_TYPES.citations!.replace("ord: 'INTEGER'", "ord: 'VARCHAR'"),
    }
    const dir = await writeExportDir(t, types)
    for (const hardened of [false, true]) {
      const engine = await openEngine({ hardened })
      try {
        const got = await engine.ingestFile(dir)
        expect(lastHandOver).toBe('a fact column of another type')
        expect(got).toEqual((await stored((e) => e.ingestFile(dir), 'records')).result)
      } finally {
        await engine.close()
      }
    }
  })

  it('a hardened engine (no file access: a bare instance reads the export) stores the same', async () => {
    const dir = await writeExportDir(flatten(validRecords()))
    const plain = await stored((e) => e.ingestFile(dir), 'bulk')
    const engine = await openEngine({ hardened: true })
    try {
      await engine.ingestFile(dir)
      expect(lastHandOver).toBeNull()
      expect(await payloads(engine)).toEqual(plain.payloads)
    } finally {
      await engine.close()
    }
  })

  it('a repeated analyses row hands over to the record path (its children go with the first row)', async () => {
    const t = flatten(validRecords())
    t.analyses!.push({ ...t.analyses![1]!, channel: 'gemini' })
    const bulk = await stored((e) => e.ingestArrow(arrowTables(t)), 'bulk')
    expect(bulk.handOver).toMatch(/repeated_analyses/)
    const records = await stored((e) => e.ingestArrow(arrowTables(t)), 'records')
    expect(bulk.payloads).toEqual(records.payloads)
  })
})
