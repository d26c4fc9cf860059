/**
 * The bulk path of flat input (a Parquet export, Arrow tables): the fact tables (analyses and
 * their mentions, citations, theme occurrences and fan-out queries) go into temp tables of the
 * write connection (flat_<table>, rows numbered from 1 in table order), are checked in SQL
 * against the record schemas (sql/flat/check.sql) and staged in SQL (sql/flat/stage.sql) with no
 * record built in JavaScript. The dimension tables (teams, domains, prompts, competitors, themes,
 * deletes: small) take the record path, so they are validated as any record.
 *
 * The SQL check is sound, not complete: whenever it finds a row it cannot vouch for (or a
 * reference, a cited URL or a column type it does not take), the call starts over on the record
 * path (feedFlat), which reads the same rows and names every problem (record index, field,
 * reason) exactly as before. Nothing is staged before every check has passed, so nothing partial
 * is ever kept. The stored result equals the record path's (the tests compare both).
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { DOUBLE, INTEGER, LIST, VARCHAR, listValue, type DuckDBConnection } from '@duckdb/node-api'
import { ChunkWriter, type BulkColumn, type NullMarker, type Utf8Column } from '../db/chunk-writer.js'
import { sqlScript, sqlText } from '../db/sql.js'
import { TimeSlice } from '../foundation/slice.js'
import { CHANNELS } from '../foundation/vocabulary.js'
import {
  ANSWERED_AT_RE,
  COUNTRY_RE,
  FANOUT_MAX_QUERIES,
  FANOUT_QUERY_MAX,
  MODEL_ID_RE,
  PAGE_TYPE_MAX,
  RESPONSE_MAX,
  TITLE_MAX,
  URL_RE,
  UUID_RE,
  citedUrl,
  matchHost,
  urlHost,
} from '../schemas/records.js'
import type { IngestCall } from './call.js'
import { bulkApplies, bulkFacts } from './flat-bulk.js'
import { mark, trace } from './pipeline.js'
import { FlatColumns, columnsOf, normalizeColumnAsync, type FlatRows, type FlatTableName } from './flat.js'
import { checkReferences } from './references.js'
import { feedFlat } from './sources.js'

/** The fact tables, staged in SQL. */
export const FACT_TABLES = [
  'analyses',
  'mentions',
  'citations',
  'theme_occurrences',
  'fanout_queries',
] as const
export type FactTable = (typeof FACT_TABLES)[number]

/** How a fact column is held: text or a number; `optional` columns may be absent (read as null). */
interface ColumnSpec {
  kind: 'text' | 'number'
  optional?: true
}
const T: ColumnSpec = { kind: 'text' }
const N: ColumnSpec = { kind: 'number' }
const OPT_T: ColumnSpec = { kind: 'text', optional: true }
const OPT_N: ColumnSpec = { kind: 'number', optional: true }

/** The columns of each fact table the checks and the staging read (docs/API.md, "Ingest: records"). */
export const FACT_COLUMNS: Record<FactTable, Record<string, ColumnSpec>> = {
  analyses: {
    id: T,
    domain_id: T,
    prompt_id: T,
    channel: T,
    model: T,
    answered_at: T,
    country: OPT_T,
    response: OPT_T,
  },
  mentions: { analysis_id: T, entity_id: T, position: OPT_N, sentiment: OPT_N },
  citations: { analysis_id: T, url: T, title: OPT_T, page_type: OPT_T, ord: OPT_N },
  theme_occurrences: { analysis_id: T, theme_id: T, occurrences: N },
  fanout_queries: { analysis_id: T, query: T, ord: OPT_N },
}

/** DuckDB types a `number` column may have (anything else takes the record path). */
const NUMERIC = new Set([
  'TINYINT',
  'SMALLINT',
  'INTEGER',
  'BIGINT',
  'HUGEINT',
  'UTINYINT',
  'USMALLINT',
  'UINTEGER',
  'UBIGINT',
  'FLOAT',
  'DOUBLE',
])

/** Where the rows of a flat call come from. */
export interface FlatSource {
  /**
   * Creates flat_analyses, flat_ids (sql/flat/keys.sql) and flat_<table>_k for every child fact
   * table on `conn` (a table the input lacks: no rows). False when the input cannot take the SQL
   * path (a column of a type it does not take).
   */
  loadFacts(conn: DuckDBConnection): Promise<boolean>
  /** The dimension tables, as rows for the record path (`conn`: the call's). */
  dimensions(conn: DuckDBConnection): Promise<FlatRows>
  /** Every table, as rows for the record path (when the SQL path hands over). */
  all(conn: DuckDBConnection): Promise<FlatRows>
  /**
   * When flat_analyses holds no answer texts (a Parquet export: sql/flat/import_analyses.sql),
   * appends them to analysis_responses as the record path does (keyed `base` + seq, domain_key
   * -1 - the domain's handle) once the call is checked; returns how many.
   */
  appendResponses?(
    conn: DuckDBConnection,
    base: number,
    domains: { readonly ids: readonly string[]; readonly first: number },
  ): Promise<number>
}

/** The files that key the child rows (rowsSource) and that stage the facts (after stage_analyses), in order. */
const KEY_SQL = ['flat/keys', ...FACT_TABLES.slice(1).map((t) => `flat/keys_${t}`)]
const STAGE_SQL = [
  'flat/stage_responses',
  'flat/stage_mentions',
  'flat/stage_citation_dict',
  'flat/stage_citations',
  'flat/stage_theme_occ',
  'flat/stage_fanout',
]

/** Why the last call took the record path (tests and the profile read it), or null for the SQL path. */
export let lastHandOver: string | null = null

/**
 * Feeds a flat call: the SQL path when every check passes, else the record path on the same
 * rows. VA_FLAT_PATH=records forces the record path, VA_FLAT_PATH=staged the SQL path's staging
 * where the empty-target bulk write would apply (src/ingest/flat-bulk.ts; tests compare them).
 */
export async function feedFlatBulk(call: IngestCall, source: FlatSource): Promise<void> {
  const conn = call.connection
  try {
    await feedEither(call, source)
  } catch (e) {
    // After a failed statement the transaction is aborted and the drops fail too: the first error
    // is the one to report (out of memory, say); the rollback drops the temp tables.
    await conn.run(sqlScript(DROP_FLAT)).catch(() => undefined)
    throw e
  }
  // The bulk write reads the temp tables when the call is staged, and drops them after.
  if (call.bulk === null) await conn.run(sqlScript(DROP_FLAT))
}

/** The SQL path, or the record path when it hands over (feedFlatBulk drops the temp tables). */
async function feedEither(call: IngestCall, source: FlatSource): Promise<void> {
  const conn = call.connection
  lastHandOver = 'VA_FLAT_PATH=records'
  if (process.env.VA_FLAT_PATH !== 'records') {
    lastHandOver = await trySql(call, conn, source)
    if (process.env.VA_TRACE_INGEST)
      process.stderr.write(
        `flat input: ${lastHandOver === null ? 'SQL path' : `record path (${lastHandOver})`}\n`,
      )
    if (lastHandOver === null) return
    call.restart()
  }
  feedFlat(call, await source.all(conn))
}

/** The handle tables of a flat call (sql/flat/create_h_*.sql). */
const HANDLE_TABLES = ['h_domain', 'h_prompt', 'h_entity', 'h_theme', 'h_model'] as const

/** The temp tables a flat call leaves, dropped after it (sql/flat/drop_*.sql). */
const DROP_FLAT = [
  ...FACT_TABLES.map((t) => `flat/drop_flat_${t}` as const),
  'flat/drop_flat_urls',
  'flat/drop_flat_ids',
  'flat/drop_flat_keyed',
  ...FACT_TABLES.slice(1).map((t) => `flat/drop_flat_${t}_k` as const),
  ...HANDLE_TABLES.map((t) => `flat/drop_${t}` as const),
  'flat/drop_import_rows',
]

/** The SQL path; null when it staged the call, else why it hands over to the record path. */
async function trySql(call: IngestCall, conn: DuckDBConnection, source: FlatSource): Promise<string | null> {
  let t0 = mark()
  const phase = (name: string) => {
    if (process.env.VA_TRACE_INGEST) trace(`flat ${name}`, t0, ` (at ${performance.now().toFixed(0)})`)
    t0 = mark()
  }
  if (!(await source.loadFacts(conn))) return 'a fact column of another type'
  phase('load facts, key child rows')
  const bad = await checkFacts(conn)
  phase('check facts')
  if (bad !== null) return bad
  feedFlat(call, await source.dimensions(conn))
  phase('dimensions')
  if (call.failed) return 'a dimension record'
  if (!(await registerReferences(call, conn))) return 'a reference'
  phase('references')
  if (!(await mapUrls(conn))) return 'a cited URL'
  phase('cited URLs')
  await call.closeWriters()
  // Nothing hands over after this: the texts appended here are the call's (a refusal removes them).
  const appended = source.appendResponses
    ? await source.appendResponses(conn, call.base, call.collector.domainH)
    : 0
  phase('answer texts')
  const n = await conn.runAndReadAll('SELECT count(*)::INTEGER FROM flat_analyses')
  call.collector.seq = n.getRows()[0]![0] as number
  if (await bulkApplies(call, conn)) {
    call.bulk = bulkFacts(DROP_FLAT)
    phase('bulk write deferred to the call')
    return null
  }
  // The staged path places them as the record path's (drop_repeated / place_analysis_responses).
  call.appendedResponses += appended
  const channels = listValue([...CHANNELS])
  await conn.run(sqlText('flat/stage_analyses'), { channels }, { channels: LIST(VARCHAR) })
  await conn.run(sqlScript(STAGE_SQL))
  phase('stage')
  return null
}

/** Runs sql/flat/check.sql; null when no row breaks a rule, else the first kind of row that does. */
async function checkFacts(conn: DuckDBConnection): Promise<string | null> {
  await conn.run(sqlText('flat/macros'))
  const r = await conn.runAndReadAll(
    sqlText('flat/check'),
    {
      uuid_re: UUID_RE.source,
      model_re: MODEL_ID_RE.source,
      answered_re: ANSWERED_AT_RE?.source ?? '$.',
      channels: listValue([...CHANNELS]),
      country_re: COUNTRY_RE.source,
      response_max: RESPONSE_MAX,
      title_max: TITLE_MAX,
      page_type_max: PAGE_TYPE_MAX,
      fanout_query_max: FANOUT_QUERY_MAX,
      fanout_max_queries: FANOUT_MAX_QUERIES,
    },
    {
      uuid_re: VARCHAR,
      model_re: VARCHAR,
      answered_re: VARCHAR,
      channels: LIST(VARCHAR),
      country_re: VARCHAR,
      response_max: INTEGER,
      title_max: INTEGER,
      page_type_max: INTEGER,
      fanout_query_max: INTEGER,
      fanout_max_queries: INTEGER,
    },
  )
  const counts = r.getRowObjects()[0]!
  for (const [kind, n] of Object.entries(counts)) if (Number(n) > 0) return `${kind}: ${String(n)}`
  return null
}

/**
 * Gives the ids the facts name their handles (in order of first appearance, as the record path
 * does) and their references, then runs the reference checks; false when one fails.
 */
async function registerReferences(call: IngestCall, conn: DuckDBConnection): Promise<boolean> {
  const c = call.collector
  const rows = (await conn.runAndReadAll(sqlText('flat/handles'))).getRows() as [
    string,
    string | null,
    string,
    number,
  ][]
  const order = ['domain', 'model', 'prompt', 'competitor', 'theme']
  rows.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]))
  const site = (row: number, field: string) => ({ loc: { index: row }, field, prefix: 'analyses.' })
  for (const [kind, domain, id, row] of rows) {
    if (kind === 'domain') {
      const h = c.domainH.get(id)
      c.domainRefs.add(h, h, site(row, 'domain_id'))
    } else if (kind === 'model') c.modelH.get(id)
    else if (kind === 'prompt')
      c.promptRefs.add(c.domainH.get(domain!), c.promptH.get(id), site(row, 'prompt_id'))
    else if (kind === 'competitor')
      c.entityRefs.add(c.domainH.get(domain!), c.entityH.get(id), site(row, 'mentions'))
    else c.themeRefs.add(c.domainH.get(domain!), c.themeH.get(id), site(row, 'themes'))
  }
  checkReferences(c, call.catalog)
  if (c.failed) return false
  for (const t of HANDLE_TABLES) await conn.run(sqlText(`flat/create_${t}`))
  const pairs = async (table: (typeof HANDLE_TABLES)[number], ids: readonly string[], first: number) => {
    const w = await ChunkWriter.open(conn, table, [VARCHAR, INTEGER])
    ids.forEach((id, i) => w.push(id, first + i))
    w.close()
  }
  await pairs('h_domain', c.domainH.ids, c.domainH.first)
  await pairs('h_prompt', c.promptH.ids, c.promptH.first)
  await pairs('h_entity', c.entityH.ids, c.entityH.first)
  await pairs('h_theme', c.themeH.ids, c.themeH.first)
  await pairs('h_model', c.modelH.ids, c.modelH.first)
  return true
}

/** URLs parsed, and appended, between two yields to the event loop. */
const URL_BATCH = 256
const URL_SLICE = 1024

/**
 * Checks each distinct cited URL against the schema's pattern (a JavaScript regular expression)
 * and gives it its host and identity (src/schemas/records.ts), into flat_urls; false when one
 * fails. Read a data chunk at a time, yielding to the event loop between chunks.
 */
async function mapUrls(conn: DuckDBConnection): Promise<boolean> {
  await conn.run('CREATE OR REPLACE TEMP TABLE flat_urls (url VARCHAR, host VARCHAR, cited VARCHAR)')
  const result = await conn.stream('SELECT DISTINCT url FROM flat_citations_k')
  const out: { url: string[]; host: string[]; cited: string[] } = { url: [], host: [], cited: [] }
  for (;;) {
    const chunk = await result.fetchChunk()
    if (chunk === null || chunk.rowCount === 0) break
    const urls = chunk.getColumnValues(0) as string[]
    for (let i = 0; i < urls.length; i++) {
      const url = urls[i]!
      if (url.length > 8192 || !URL_RE.test(url)) return false
      out.url.push(url)
      out.host.push(matchHost(urlHost(url)))
      out.cited.push(citedUrl(url))
      if (i % URL_BATCH === URL_BATCH - 1) await yieldToLoop()
    }
    await yieldToLoop()
  }
  const w = await ChunkWriter.open(conn, 'flat_urls', [VARCHAR, VARCHAR, VARCHAR])
  for (let from = 0; from < out.url.length; from += URL_SLICE) {
    const cols = [out.url, out.host, out.cited].map((c) => c.slice(from, from + URL_SLICE))
    w.appendColumns(cols, cols[0]!.length, ['none', 'none', 'none'])
    await yieldToLoop()
  }
  w.close()
  return true
}

/**
 * Checks that temp.import_rows (one Parquet table, read on `conn`) has the columns the staging
 * reads with types it takes (an optional one may be absent); false when a required column is
 * absent or one is of another type. Then sql/flat/shape_<table>.sql makes flat_<table> of it.
 */
export async function importFits(conn: DuckDBConnection, table: FactTable): Promise<boolean> {
  const r = await conn.runAndReadAll(
    "SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = 'temp' AND table_name = 'import_rows'",
  )
  const types = new Map(r.getRows().map(([n, t]) => [String(n), String(t)]))
  for (const [name, spec] of Object.entries(FACT_COLUMNS[table])) {
    const type = types.get(name)
    if (type === undefined) {
      if (!spec.optional) return false
    } else if (spec.kind === 'text' ? type !== 'VARCHAR' : !NUMERIC.has(type)) return false
  }
  return true
}

/**
 * Rows of a fact table appended between two yields to the event loop, and handed to the table
 * (the appender's flush, synchronous) every other slice (rowsSource): 16,384 rows a slice held
 * an Lq import's loop 170-320 ms on a loaded machine.
 */
export const LOAD_SLICE = 4096

/**
 * A source of flat rows held in JavaScript (Arrow tables, row iterables): each fact column is
 * copied into its temp table a data chunk at a time (typed arrays in one go, an Arrow Utf8 column
 * with no null as its bytes, other strings one by one), as long as it holds only what its column
 * takes (text or null; numbers or null, never NaN); LOAD_SLICE rows between two yields to the
 * event loop.
 */
export function rowsSource(rows: FlatRows): FlatSource {
  return {
    async loadFacts(conn) {
      for (const table of FACT_TABLES) {
        const source = rows[table]
        const specs = Object.entries(FACT_COLUMNS[table])
        const bytes = new Map<string, Utf8Column>()
        if (source instanceof FlatColumns && source.bytes !== undefined)
          for (const [name, spec] of specs) {
            const b = spec.kind === 'text' ? source.bytes(name) : undefined
            if (b !== undefined) bytes.set(name, b)
          }
        // An Arrow table's columns (but those appended as bytes) are decoded and normalized (a Date
        // and an ISO string a row for a time) in slices of time: in one go, a 1.5M-row column held
        // the event loop 0.4-1.2 s.
        const deferred =
          source instanceof FlatColumns ? specs.map(([name]) => name).filter((name) => !bytes.has(name)) : []
        if (source instanceof FlatColumns) await source.prepare?.(deferred)
        const picked = columnsOf(source, table, new Set([...bytes.keys(), ...deferred]))
        const slice = new TimeSlice()
        for (const name of deferred) {
          const col = (source as FlatColumns).column(name)
          if (col !== undefined)
            picked.cols[picked.names.indexOf(name)] = await normalizeColumnAsync(
              col,
              picked.n,
              table,
              name,
              slice,
            )
        }
        const columns: BulkColumn[] = []
        const nulls: NullMarker[] = []
        for (const [name, spec] of specs) {
          const bulk = bytes.get(name) ?? bulkColumn(picked.cols[picked.names.indexOf(name)], picked.n, spec)
          if (bulk === null) return false
          columns.push(bulk)
          nulls.push(spec.kind === 'number' ? 'nan' : 'none')
        }
        await conn.run(sqlText(`flat/create_${table}`))
        const rn = new Int32Array(picked.n)
        for (let i = 0; i < picked.n; i++) rn[i] = i + 1
        const w = await ChunkWriter.open(
          conn,
          `flat_${table}`,
          [INTEGER, ...specs.map(([, s]) => (s.kind === 'text' ? VARCHAR : DOUBLE))],
          { flushRows: 2 * LOAD_SLICE },
        )
        for (let from = 0; from < picked.n; from += LOAD_SLICE) {
          w.appendColumns([rn, ...columns], Math.min(picked.n, from + LOAD_SLICE), ['none', ...nulls], from)
          await yieldToLoop()
        }
        w.close()
        await yieldToLoop()
      }
      await conn.run(sqlScript(KEY_SQL))
      return true
    },
    dimensions: () => Promise.resolve(pick(rows, (t) => !(FACT_TABLES as readonly string[]).includes(t))),
    all: () => Promise.resolve(rows),
  }
}

/** The tables of `rows` whose name passes `keep`. */
export function pick(rows: FlatRows, keep: (t: FlatTableName) => boolean): FlatRows {
  return Object.fromEntries(Object.entries(rows).filter(([t]) => keep(t as FlatTableName))) as FlatRows
}

/**
 * A column as the chunk writer takes it: text as strings (null for null), numbers as a
 * Float64Array with NaN for null; null when the values do not fit (then the record path names
 * them). An absent column is all null when it is optional.
 */
function bulkColumn(col: ArrayLike<unknown> | undefined, n: number, spec: ColumnSpec): BulkColumn | null {
  if (col === undefined) {
    if (!spec.optional) return n === 0 ? [] : null
    return spec.kind === 'text' ? new Array<null>(n).fill(null) : new Float64Array(n).fill(NaN)
  }
  if (spec.kind === 'text') {
    const out = new Array<string | null>(n)
    for (let i = 0; i < n; i++) {
      const v = col[i]
      if (typeof v === 'string') out[i] = v
      else if (v === null || (v === undefined && spec.optional)) out[i] = null
      else return null
    }
    return out
  }
  const out = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const v = col[i]
    if (typeof v === 'number' && !Number.isNaN(v)) out[i] = v
    else if (v === null || (v === undefined && spec.optional)) out[i] = NaN
    else return null
  }
  return out
}
