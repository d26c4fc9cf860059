/**
 * @module The engine's operations (docs/API.md, "Operations endpoints"): retention's prune,
 * backups and restore, the Parquet export, and the scratch engines they open on a copy of a served
 * file. They work on `EngineInternals`, what src/engine.ts hands them of an open engine (never
 * published), and open scratch engines through the `OpenInternals` it passes in.
 */
import { existsSync, rmSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { VARCHAR } from '@duckdb/node-api'
import {
  abandonBackup,
  copyDatabaseFiles,
  finishBackup,
  KEYS_FILE,
  startBackup,
  verifyBackup,
  writeBackupFiles,
} from '../backup.js'
import type { Catalog } from '../catalog.js'
import { openFileReader, type Database } from '../db/database.js'
import { SCHEMA_VERSION } from '../db/migrate.js'
import { sqlText } from '../db/sql.js'
import { NotFoundError, QueryError, ReadOnlyError, ValidationError, VisibilityError } from '../errors.js'
import { PRUNED_TABLES, reloadCatalog, runDeletionPass, stageDeletions } from '../ingest/deletions.js'
import { flatRecords, type FlatRows } from '../ingest/flat.js'
import { prepareExportDir, readExport, writeExport, writeManifest, type ExportPart } from '../parquet.js'
import type { DuckDBConnection } from '@duckdb/node-api'
import { olderThanDays } from '../schemas/operations.js'
import { nowParam } from '../schemas/params.js'
import type { AggregateStore } from '../tables/aggregate-store.js'
import type {
  BackupResult,
  EngineStatus,
  ExportParquetOptions,
  ExportResult,
  IngestResult,
  OpenEngineOptions,
  PruneParams,
  PruneResult,
  RecordSource,
  RestoreParams,
  RestoreResult,
} from '../types.js'

/** What the operations need of an open engine: its database, state and locks. */
export interface EngineInternals {
  readonly db: Database
  readonly pool: Database['pool']
  readonly write: Database['write']
  readonly aggregates: AggregateStore
  readonly catalog: Catalog
  readonly readOnly: boolean
  readonly hardened: boolean
  /** Throws EngineClosedError once the engine is closed. */
  check(): void
  /** Runs `fn` as the only writer (what ingest calls hold). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>
  /** Runs `fn` under the read lock: one committed state. */
  reading<T>(fn: () => Promise<T>): Promise<T>
  /** COMMITs the write transaction; then, while reports are held off, the catalog becomes `catalog`. */
  commit(catalog: Catalog, apply: () => void): Promise<void>
  /**
   * Rolls the write transaction back, runs `after` (its own failure ignored), and rethrows
   * (DuckDB's own errors as a QueryError named `id`).
   */
  rollback(e: unknown, id: string, after?: () => Promise<void>): Promise<never>
  ingest(records: RecordSource): Promise<IngestResult>
  exportParquet(dir: string, options?: ExportParquetOptions): Promise<ExportResult>
  close(): Promise<void>
}

/** Opens a private engine (src/engine.ts passes its own opener: no import cycle). */
export type OpenInternals = (options: OpenEngineOptions) => Promise<EngineInternals>

/** Runs `fn` on a private engine with file access (in memory unless `path`), closed after. */
export async function withScratchEngine<T>(
  open: OpenInternals,
  options: { path?: string },
  fn: (scratch: EngineInternals) => Promise<T>,
): Promise<T> {
  const scratch = await open({ ...options, readConnections: 1, aggregateCache: false })
  try {
    return await fn(scratch)
  } finally {
    await scratch.close()
  }
}

/** Runs `fn` on a scratch engine opened on a copy of the file (made in `near`) taken while no write runs. */
async function fromCopy<T>(
  e: EngineInternals,
  open: OpenInternals,
  near: string,
  fn: (scratch: EngineInternals) => Promise<T>,
): Promise<T> {
  const file = e.db.file!
  const snapshot = await mkdtemp(join(near, '.va-snapshot-'))
  try {
    const copy = join(snapshot, 'snapshot.duckdb')
    await e.exclusive(async () => {
      e.check()
      await copyDatabaseFiles(file, copy)
    })
    return await withScratchEngine(open, { path: copy }, fn)
  } finally {
    await rm(snapshot, { recursive: true, force: true })
  }
}

/**
 * Runs `fn` with the connection that reads an export's files: a bare in-memory instance's when `e`
 * is hardened (its own connections have no file access), else null (the call's connection reads them).
 */
export async function withExportReader<T>(
  e: EngineInternals,
  fn: (reader: DuckDBConnection | null) => Promise<T>,
): Promise<T> {
  if (!e.hardened) return fn(null)
  const reader = await openFileReader()
  try {
    return await fn(reader.conn)
  } finally {
    reader.close()
  }
}

/** `Engine.exportParquet`. */
export async function exportParquet(
  e: EngineInternals,
  open: OpenInternals,
  dir: string,
  options: ExportParquetOptions,
): Promise<ExportResult> {
  e.check()
  let ids: string[] | null = null
  if (options.domainIds !== undefined) {
    ids = options.domainIds.map((d) => String(d).toLowerCase())
    const unknown = ids.filter((d) => !e.catalog.domains.has(d))
    if (unknown.length > 0) throw new NotFoundError('domain', unknown.join(', '))
  }
  if (e.hardened) {
    // DuckDB has no file access here: export from a copy of the file, as a backup does.
    if (e.db.file === null)
      throw new ReadOnlyError('exportParquet', 'an in-memory engine opened for serving has no file to copy')
    return fromCopy(e, open, dirname(resolve(dir)), (scratch) => scratch.exportParquet(dir, options))
  }
  return e.reading(() =>
    e.pool.use(async (c) => {
      const abs = prepareExportDir(dir)
      const tables = await writeExport(c.conn, abs, ids)
      writeManifest(abs, {
        format: 'visibility-analytics/parquet-export',
        schema_version: SCHEMA_VERSION,
        exported_at: new Date().toISOString(),
        domain_ids: ids,
        tables,
      })
      return { dir: abs, tables }
    }),
  )
}

/** `Engine.prune`: the deletion pass of the analyses before today - olderThanDays, in one transaction. */
export async function prune(e: EngineInternals, params: PruneParams): Promise<PruneResult> {
  e.check()
  if (e.readOnly) throw new ReadOnlyError('prune')
  const age = olderThanDays.value.safeParse(params?.olderThanDays)
  if (!age.success) throw new ValidationError([{ path: 'older_than_days', message: olderThanDays.message() }])
  const clock = nowParam.value.safeParse(params.now)
  if (!clock.success) throw new ValidationError([{ path: 'now', message: clock.error.issues[0]!.message }])
  const now = clock.data === undefined ? new Date() : new Date(clock.data)
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const before = new Date(today - age.data * 86_400_000).toISOString().slice(0, 10)
  return e.exclusive(async () => {
    e.check()
    await e.write.run('BEGIN TRANSACTION')
    try {
      await e.write.run(sqlText('schema/staging'))
      await stageDeletions(e.write, null)
      const pass = await runDeletionPass(e.write, { kind: 'expired', before })
      const catalog = await reloadCatalog(e.write, e.catalog)
      await e.commit(catalog, () => e.aggregates.invalidate(pass.affectedDomains))
      const deleted = Object.fromEntries(PRUNED_TABLES.map((t) => [t, pass.counts[t] ?? 0]))
      return { before, deleted }
    } catch (err) {
      return e.rollback(err, 'prune')
    }
  })
}

/** `Engine.backup`: a served (hardened) engine writes it from a copy of its file. */
export async function backup(e: EngineInternals, open: OpenInternals, dir: string): Promise<BackupResult> {
  e.check()
  if (e.hardened && e.db.file === null)
    throw new ReadOnlyError('backup', 'an in-memory engine opened for serving has no file to snapshot')
  const target = startBackup(dir)
  try {
    const tables = e.hardened
      ? await fromCopy(e, open, dirname(target.partial), (scratch) =>
          scratch.pool.use((c) => writeBackupFiles(c.conn, target.partial)),
        )
      : await e.pool.use((c) => writeBackupFiles(c.conn, target.partial))
    return await finishBackup(target, tables, SCHEMA_VERSION)
  } catch (err) {
    abandonBackup(target)
    if (err instanceof VisibilityError) throw err
    throw new QueryError('backup', { cause: err })
  }
}

/** `Engine.stats`: row counts of the stored tables, read under the read lock. */
export async function tableCounts(e: EngineInternals): Promise<Record<string, number>> {
  e.check()
  return e.reading(() =>
    e.pool.use(async (c) => {
      const row = (await c.conn.runAndReadAll(sqlText('queries/table_counts'))).getRowObjectsJS()[0]!
      return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]))
    }),
  )
}

/** `Engine.status`. */
export function engineStatus(e: EngineInternals): EngineStatus {
  const file = e.db.file
  let fileBytes = 0
  if (file !== null) {
    for (const f of [file, `${file}.wal`]) {
      try {
        fileBytes += statSync(f).size
      } catch {
        // no write-ahead log right now
      }
    }
  }
  return { file, fileBytes, aggregateCache: e.aggregates.stats() }
}

/**
 * Builds a new database at `params.path` from a backup directory (manifest and checksums checked
 * first): the export's records domain by domain, then the API keys as they were.
 */
export async function restoreBackup(open: OpenInternals, params: RestoreParams): Promise<RestoreResult> {
  const manifest = await verifyBackup(params.from, SCHEMA_VERSION)
  const path = resolve(params.path)
  if (existsSync(path) || existsSync(`${path}.wal`))
    throw new ValidationError([
      { path: 'path', message: `${params.path} exists: restore builds a new database.` },
    ])
  const engine = await open({ path, aggregateCache: false })
  try {
    // Domain by domain (one call each, after the teams and domains): memory holds one domain's rows.
    const from = resolve(params.from)
    const read = (part: ExportPart) => engine.pool.use((c) => readExport(c.conn, from, part))
    const result: Record<string, number> = {}
    const ingest = async (rows: FlatRows) => {
      const r = await engine.ingest(flatRecords(rows))
      for (const [table, n] of Object.entries(r))
        if (typeof n === 'number') result[table] = (result[table] ?? 0) + n
    }
    const heads = await read({ kind: 'heads' })
    await ingest(heads)
    for (const d of heads.domains ?? []) await ingest(await read({ kind: 'domain', id: String(d.id) }))
    // The engine is this function's alone: nothing else writes while the keys go in.
    const keys = await engine.write.run(
      sqlText('backup/restore_api_keys'),
      { path: join(resolve(params.from), KEYS_FILE) },
      { path: VARCHAR },
    )
    const apiKeys = keys.rowsChanged
    const tags = await engine.write.runAndReadAll(sqlText('backup/count_prompt_tags'))
    result.prompt_tags = tags.getRows()[0]![0] as number
    const tables: Record<string, number> = {}
    for (const [table, expected] of Object.entries(manifest.tables)) {
      const got = table === 'api_keys' ? apiKeys : result[table]
      if (got !== expected)
        throw new ValidationError([
          {
            path: 'from',
            message: `${params.from}: ${table} restored ${String(got)} rows, the manifest says ${expected}.`,
          },
        ])
      tables[table] = got
    }
    await engine.close()
    return { path, tables }
  } catch (err) {
    await engine.close()
    rmSync(path, { force: true })
    rmSync(`${path}.wal`, { force: true })
    throw err
  }
}
