/**
 * Parquet in and out: the flat tables of semantics.md 1.2, written with DuckDB's COPY (paths are
 * bound parameters) and read back with read_parquet into flat rows.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { BOOLEAN, LIST, listValue, VARCHAR, type DuckDBConnection } from '@duckdb/node-api'
import { sqlText } from './db/sql.js'
import { ValidationError } from './errors.js'
import { UUID_RE } from './schemas/records.js'
import { FLAT_TABLES, type FlatRows, type FlatTableName } from './ingest/flat.js'

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

/** Reads the flat tables of an export directory into rows (tables missing from it are skipped). */
export async function readExport(
  conn: DuckDBConnection,
  dir: string,
  part: ExportPart = { kind: 'all' },
): Promise<FlatRows> {
  if (part.kind === 'domain' && !UUID_RE.test(part.id))
    throw new ValidationError([{ path: 'domain_id', message: `${part.id} is not a domain id.` }])
  const rows: FlatRows = {}
  for (const t of FLAT_TABLES) {
    const single = SINGLE_FILE.has(t)
    if ((part.kind === 'heads' && !single) || (part.kind === 'domain' && single)) continue
    const p = part.kind === 'domain' ? join(tablePath(dir, t), `domain_id=${part.id}`) : tablePath(dir, t)
    if (!existsSync(p)) continue
    const glob = single ? p : join(p, '**', '*.parquet')
    if (!single && !hasParquet(p)) continue
    const reader = await conn.runAndReadAll(sqlText(`import/${t}`), { path: glob }, { path: VARCHAR })
    rows[t] = reader.getRowObjectsJS() as Record<string, unknown>[]
  }
  return rows
}

function hasParquet(dir: string): boolean {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() ? hasParquet(join(dir, e.name)) : e.name.endsWith('.parquet')) return true
  }
  return false
}
