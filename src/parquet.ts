/**
 * Parquet in and out: the flat tables of docs/API.md, "Ingest: records", written with DuckDB's COPY (paths are
 * bound parameters) and read back with read_parquet into flat rows.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import {
  BIGINT,
  BOOLEAN,
  DuckDBTypeId,
  INTEGER,
  LIST,
  listValue,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBResult,
} from '@duckdb/node-api'
import { sqlScript, sqlText } from './db/sql.js'
import { ValidationError } from './errors.js'
import { RESPONSE_MAX, UUID_RE } from './schemas/records.js'
import { FLAT_TABLES, FlatColumns, type FlatRows, type FlatTableName } from './ingest/flat.js'
import { FACT_TABLES, importFits, type FlatSource } from './ingest/flat-sql.js'

export const MANIFEST = 'manifest.json'
const SINGLE_FILE: ReadonlySet<FlatTableName> = new Set(['teams', 'domains'])

function tablePath(dir: string, table: FlatTableName): string {
  return join(dir, SINGLE_FILE.has(table) ? `${table}.parquet` : table)
}

/** Makes `dir` ready for an export: missing or empty, or an earlier export whose files are removed. */
export function prepareExportDir(dir: string): string {
  const abs = resolve(dir)
  if (!existsSync(abs)) {
    mkdirSync(abs, { recursive: true })
    return abs
  }
  if (!statSync(abs).isDirectory())
    throw new ValidationError([{ path: 'dir', message: `dir ${dir} is not a directory.` }])
  const entries = readdirSync(abs)
  if (entries.length > 0 && !entries.includes(MANIFEST)) {
    throw new ValidationError([
      { path: 'dir', message: `dir ${dir} is neither empty nor an earlier export.` },
    ])
  }
  for (const t of FLAT_TABLES) rmSync(tablePath(abs, t), { recursive: true, force: true })
  rmSync(join(abs, MANIFEST), { force: true })
  return abs
}

/** Writes every flat table; returns rows per table. */
export async function writeExport(conn: DuckDBConnection, dir: string, domainIds: string[] | null) {
  const tables: Record<string, number> = {}
  for (const t of FLAT_TABLES) {
    const r = await conn.run(
      sqlText(`export/${t}`),
      { path: tablePath(dir, t), all: domainIds === null, domain_ids: listValue(domainIds ?? []) },
      { path: VARCHAR, all: BOOLEAN, domain_ids: LIST(VARCHAR) },
    )
    tables[t] = r.rowsChanged
  }
  return tables
}

export function writeManifest(dir: string, manifest: Record<string, unknown>): void {
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`)
}

/**
 * Which rows of an export to read: every table; only the single-file tables (teams, domains); or
 * the partitioned tables of one domain (a restore reads a store domain by domain).
 */
export type ExportPart = { kind: 'all' } | { kind: 'heads' } | { kind: 'domain'; id: string }

/** Reads the flat tables of an export directory, column by column (tables missing from it are skipped). */
export async function readExport(
  conn: DuckDBConnection,
  dir: string,
  part: ExportPart = { kind: 'all' },
  tables: readonly FlatTableName[] = FLAT_TABLES,
): Promise<FlatRows> {
  const rows: FlatRows = {}
  await conn.run(IMPORT_MACROS)
  for (const t of FLAT_TABLES) {
    if (!tables.includes(t)) continue
    const glob = exportGlob(dir, part, t)
    if (glob === null) continue
    if (isChildFact(t)) await conn.run(sqlText(`import/${t}`), { path: glob, rows: null }, IMPORT_TYPES)
    else await conn.run(sqlText(`import/${t}`), { path: glob }, { path: VARCHAR })
    rows[t] = await readColumns(conn)
  }
  return rows
}

/** The child fact tables: read through the macros of sql/import/read_*.sql (`$rows`: null for all). */
const isChildFact = (t: FlatTableName): boolean =>
  t !== 'analyses' && (FACT_TABLES as readonly string[]).includes(t)
const IMPORT_TYPES = { path: VARCHAR, rows: BIGINT }
/** The macros the child fact tables are read with (each file one statement, run as one script). */
const IMPORT_MACROS = sqlScript(
  ['numbered', 'mentions', 'theme_occurrences', 'stored'].map((t) => `import/read_${t}`),
)

/** The files of one flat table in an export, as a read_parquet glob; null when there are none. */
function exportGlob(dir: string, part: ExportPart, t: FlatTableName): string | null {
  if (part.kind === 'domain' && !UUID_RE.test(part.id))
    throw new ValidationError([{ path: 'domain_id', message: `${part.id} is not a domain id.` }])
  const single = SINGLE_FILE.has(t)
  if ((part.kind === 'heads' && !single) || (part.kind === 'domain' && single)) return null
  const p = part.kind === 'domain' ? join(tablePath(dir, t), `domain_id=${part.id}`) : tablePath(dir, t)
  if (!existsSync(p)) return null
  if (!single && !hasParquet(p)) return null
  return single ? p : join(p, '**', '*.parquet')
}

/**
 * An export directory as a source of the bulk path (src/ingest/flat-sql.ts): each fact table is
 * read by read_parquet into its temp table on the call's connection, in SQL. `reader`, when given,
 * is a connection with file access (the write connection of a hardened engine has none): it reads
 * the files and its data chunks are appended to the call's temp tables as they are, column by
 * column (no value passes through JavaScript). The dimension tables, and every table when the
 * call hands over to the record path, are read by readExport.
 */
export function exportSource(
  dir: string,
  reader: DuckDBConnection | null,
  part: ExportPart = { kind: 'all' },
): FlatSource {
  const dims = FLAT_TABLES.filter((t) => !(FACT_TABLES as readonly string[]).includes(t))
  return {
    // The analyses are read (sql/flat/import_analyses.sql), their column types checked and shaped
    // on the reading connection into flat_analyses, then their ids into flat_ids
    // (sql/flat/keys.sql). Each child table's column types are checked on an empty read
    // (sql/import/<table>.sql, `$rows` 0), then its rows read and keyed with their analysis's row
    // into flat_<table>_k in one pass over the files (sql/flat/shape_keyed_<table>.sql, through
    // the macros of sql/import/read_*.sql). With a separate reader, each is copied over.
    async loadFacts(conn) {
      await (reader ?? conn).run(IMPORT_MACROS)
      for (const t of FACT_TABLES) {
        const keyed = t === 'analyses' ? null : (`flat_${t}_k` as const)
        const glob = exportGlob(dir, part, t)
        if (glob === null) {
          await conn.run(sqlText(`flat/create_${t}`))
          await conn.run(sqlText(keyed === null ? 'flat/keys' : `flat/keys_${t}`))
          continue
        }
        const on = reader ?? conn
        try {
          if (t === 'analyses')
            await oneThread(reader, () =>
              on.run(
                sqlText('flat/import_analyses'),
                { path: glob, response_max: RESPONSE_MAX },
                { path: VARCHAR, response_max: INTEGER },
              ),
            )
          else await on.run(sqlText(`import/${t}`), { path: glob, rows: 0 }, IMPORT_TYPES)
          if (!(await importFits(on, t))) return false
          if (keyed === null) await on.run(sqlText('flat/shape_analyses'))
          else await on.run(sqlText(`flat/shape_keyed_${t}`), { path: glob }, { path: VARCHAR })
        } finally {
          // After a failed statement the transaction is aborted and the drop fails too: the first
          // error is the one to report (out of memory, say).
          await on.run(sqlText('flat/drop_import_rows')).catch(() => undefined)
        }
        if (keyed === null) await on.run(sqlText('flat/keys'))
        if (reader !== null) {
          // The call's tables, empty, of the same columns and types, then the reader's rows.
          await conn.run(sqlText(`flat/create_${t}`))
          if (keyed === null) {
            await conn.run(sqlText('flat/create_ids'))
            await copyFrom(reader, 'flat/rows_analyses', conn, 'flat_analyses')
            await copyFrom(reader, 'flat/rows_ids', conn, 'flat_ids')
          } else {
            await conn.run(sqlText(`flat/keys_${t}`))
            await copyFrom(reader, `flat/rows_${t}_k`, conn, keyed)
          }
          await reader.run(sqlText(keyed === null ? 'flat/drop_flat_analyses' : `flat/drop_flat_${t}_k`))
        }
      }
      return true
    },
    // The answer texts, from the files straight into analysis_responses (sql/flat/append_responses.sql);
    // with a separate reader, its rows are appended on the call's connection as they come.
    async appendResponses(conn, base, domains) {
      const glob = exportGlob(dir, part, 'analyses')
      const values = {
        path: glob ?? '',
        base,
        domain_ids: listValue([...domains.ids]),
        domain_handles: listValue(domains.ids.map((_, i) => domains.first + i)),
      }
      const types = { path: VARCHAR, base: BIGINT, domain_ids: LIST(VARCHAR), domain_handles: LIST(INTEGER) }
      try {
        if (glob === null) return 0
        if (reader === null)
          return (await conn.run(sqlText('flat/append_responses'), values, types)).rowsChanged
        return await oneThread(reader, async () => {
          const result = await reader.stream(sqlText('flat/rows_responses'), values, types)
          return copyChunks(result, conn, 'analysis_responses', 'stored')
        })
      } finally {
        if (reader !== null) await reader.run(sqlText('flat/drop_flat_ids'))
      }
    },
    dimensions: (conn) => readExport(reader ?? conn, dir, part, dims),
    all: (conn) => readExport(reader ?? conn, dir, part),
  }
}

/**
 * Runs `fn` with the file reader's instance on one thread (none: as it is): a query over the
 * answer texts holds a row group's texts per thread, and two did not fit the reader's 160 MB
 * (an L export: 511k texts of ~3 KB, in row groups of 8192 rows).
 */
async function oneThread<T>(reader: DuckDBConnection | null, fn: () => Promise<T>): Promise<T> {
  if (reader === null) return fn()
  await reader.run('SET threads = 1')
  try {
    return await fn()
  } finally {
    await reader.run('RESET threads')
  }
}

/** Rows a copy appends between two flushes (each flush runs on the event loop's thread). */
const COPY_FLUSH_ROWS = 4096

/**
 * Appends the data chunks of `query`'s result on the reading connection, as they come, to the
 * temp table `table` on `conn` (same columns and types), yielding to the event loop between
 * chunks. Each row keeps its number (rn), which is all that orders it later: the chunks' order is free.
 */
async function copyFrom(reader: DuckDBConnection, query: string, conn: DuckDBConnection, table: string) {
  await copyChunks(await reader.stream(sqlText(query)), conn, table)
}

/** As copyFrom, from a result; `into`: a temp table of `conn` or a stored table. Returns the rows. */
async function copyChunks(
  result: DuckDBResult,
  conn: DuckDBConnection,
  table: string,
  into: 'temp' | 'stored' = 'temp',
): Promise<number> {
  const appender = await conn.createAppender(table, 'main', into === 'temp' ? 'temp' : undefined)
  let rows = 0
  try {
    let unflushed = 0
    for (;;) {
      const chunk = await result.fetchChunk()
      if (chunk === null || chunk.rowCount === 0) break
      appender.appendDataChunk(chunk)
      rows += chunk.rowCount
      // The appender's own flush comes at ~200k rows, on this thread: a long stall. Smaller ones.
      if ((unflushed += chunk.rowCount) >= COPY_FLUSH_ROWS) {
        appender.flushSync()
        unflushed = 0
      }
      await yieldToLoop()
    }
  } finally {
    appender.closeSync()
  }
  return rows
}

/** Rows per part of a bulk read: a text column of a part comes back as one string. */
const PART_ROWS = 65_536

/**
 * The columns of an import query, read in parts of PART_ROWS rows: a text column as one string per
 * part with each value's length in characters, any other column as a list per part. The client
 * turns every text value into a JS string with a native call of its own (~2-3 us each, most of a
 * Parquet ingest's time); one string per part, cut in JS, costs a small fraction of that. The rows
 * are numbered into a temp table first (it spills past the memory limit), so that each part's
 * query reads only its own row groups and holds one part in memory.
 */
async function readColumns(conn: DuckDBConnection): Promise<FlatColumns> {
  try {
    const shape = await conn.runAndReadAll(IMPORT_SHAPE)
    const names = shape.columnNames()
    const text = shape.columnTypes().map((t) => t.typeId === DuckDBTypeId.VARCHAR)
    const count = await conn.runAndReadAll(IMPORT_COUNT)
    const length = count.getRows()[0]![0] as number
    const columns = names.map(() => new Array<unknown>(length))
    const part = await conn.prepare(IMPORT_PART)
    try {
      for (let from = 0; from < length; from += PART_ROWS) {
        part.bindBigInt(1, BigInt(from))
        part.bindBigInt(2, BigInt(PART_ROWS))
        // Per column: its text values joined, their lengths, and its other values (IMPORT_PART).
        const got = (await part.runAndReadAll()).getColumnsJS()
        const n = names.length
        names.forEach((_, c) => {
          const out = columns[c]!
          if (text[c])
            cutText(out, from, (got[c]![0] as string | null) ?? '', got[n + c]![0] as (number | null)[])
          else {
            let row = from
            for (const v of got[2 * n + c]![0] as unknown[]) out[row++] = v
          }
        })
      }
    } finally {
      part.destroySync()
    }
    return FlatColumns.of(Object.fromEntries(names.map((n, c) => [n, columns[c]!])), length)
  } finally {
    await conn.run('DROP TABLE IF EXISTS import_rows')
  }
}

const IMPORT_SHAPE = 'SELECT * EXCLUDE (rn) FROM import_rows LIMIT 0'
const IMPORT_COUNT = 'SELECT count(*)::INTEGER FROM import_rows'
/**
 * One part of import_rows ($1 < rn <= $1 + $2), three values per column in three runs of columns:
 * a text column's values joined into one string, their lengths in characters (null for null), and
 * a column's values as a list when it is not text (each run null where it does not apply).
 */
const IMPORT_PART = `
SELECT string_agg(CASE WHEN typeof(COLUMNS(* EXCLUDE (rn))) = 'VARCHAR' THEN COLUMNS(* EXCLUDE (rn))::VARCHAR END, '' ORDER BY rn),
       list(CASE WHEN typeof(COLUMNS(* EXCLUDE (rn))) = 'VARCHAR' THEN length(COLUMNS(* EXCLUDE (rn))::VARCHAR)::INTEGER END ORDER BY rn),
       list(CASE WHEN typeof(COLUMNS(* EXCLUDE (rn))) <> 'VARCHAR' THEN COLUMNS(* EXCLUDE (rn)) END ORDER BY rn)
FROM import_rows WHERE rn > $1 AND rn <= $1 + $2`

/**
 * Cuts the values of one part out of their concatenation, given each one's length in characters
 * (code points; null for null), into `out` from `row` on; returns the next row.
 */
function cutText(out: unknown[], row: number, joined: string, lengths: (number | null)[]): number {
  let chars = 0
  for (const n of lengths) chars += n ?? 0
  // Without characters outside the BMP a code point is one UTF-16 unit: cut by offsets.
  const bmp = chars === joined.length
  let pos = 0
  for (const n of lengths) {
    if (n === null) {
      out[row++] = null
      continue
    }
    let end = pos + n
    if (!bmp) {
      end = pos
      for (let i = 0; i < n; i++) {
        const c = joined.charCodeAt(end)
        end += c >= 0xd800 && c <= 0xdbff ? 2 : 1
      }
    }
    out[row++] = joined.slice(pos, end)
    pos = end
  }
  return row
}

function hasParquet(dir: string): boolean {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() ? hasParquet(join(dir, e.name)) : e.name.endsWith('.parquet')) return true
  }
  return false
}
