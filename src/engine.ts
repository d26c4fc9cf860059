/**
 * The engine: the public face of one database. It holds the catalog, the aggregate store and the
 * locks that keep a payload from ever mixing two states, and hands each call to its layer: ingest
 * (ingest/), reports (queries/), Parquet export (parquet.ts). The database itself (connections,
 * migrations, serving mode) is opened by db/database.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { existsSync, rmSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { Catalog } from './catalog.js'
import { DEFAULT_MEMORY_LIMIT_MB, openDatabase, type Database } from './db/database.js'
import { Mutex, ReadWriteLock } from './db/lock.js'
import { SCHEMA_VERSION } from './db/migrate.js'
import { sqlText } from './db/sql.js'
import { VARCHAR } from '@duckdb/node-api'
import {
  EngineClosedError,
  NotFoundError,
  QueryError,
  ReadOnlyError,
  ValidationError,
  VisibilityError,
} from './errors.js'
import {
  abandonBackup,
  copyDatabaseFiles,
  finishBackup,
  KEYS_FILE,
  startBackup,
  verifyBackup,
  writeBackupFiles,
} from './backup.js'
import { IngestCall } from './ingest/call.js'
import { PRUNED_TABLES, reloadCatalog, runDeletionPass, stageDeletions } from './ingest/deletions.js'
import { olderThanDays } from './schemas/operations.js'
import { nowParam } from './schemas/params.js'
import { ApiKeys, loadActiveApiKeys, type StoredApiKey } from './keys.js'
import { arrowToFlatRows, feedFlat, feedNdjsonPath, feedRecords } from './ingest/sources.js'
import { prepareExportDir, readExport, writeExport, writeManifest, type ExportPart } from './parquet.js'
import { flatRecords, type FlatRows } from './ingest/flat.js'
import { citations, citedDomains } from './queries/citations.js'
import { computeCompetitorSeries } from './queries/competitor-series.js'
import type { QueryContext } from './queries/context.js'
import { fanoutQueries } from './queries/fanout.js'
import { computePromptSeries } from './queries/prompt-series.js'
import { sentimentSeries } from './queries/sentiment-series.js'
import { sentimentOverview, sentimentThemes } from './queries/sentiment.js'
import { brandSeries } from './queries/brand-series.js'
import { listDomains, listPrompts, validate } from './queries/listings.js'
import { brandRankings, modelLeaderboard } from './queries/rankings.js'
import { AggregateStore } from './tables/aggregate-store.js'
import type {
  BackupResult,
  EngineStatus,
  PruneParams,
  PruneResult,
  RestoreParams,
  RestoreResult,
  ApiKeyInfo,
  ArrowTables,
  CitationsParams,
  CitationsPayload,
  CitedDomainsParams,
  CitedDomainsPayload,
  FanoutQueriesParams,
  FanoutQueriesPayload,
  SentimentSeriesParams,
  SentimentSeriesPayload,
  ExportParquetOptions,
  ExportResult,
  IngestFileOptions,
  CompetitorSeriesParams,
  CompetitorSeriesPayload,
  CreateApiKeyParams,
  CreatedApiKey,
  DomainInfo,
  Engine,
  IngestResult,
  OpenEngineOptions,
  PromptSeriesParams,
  PromptSeriesPayload,
  RecordSource,
  SentimentOverviewPayload,
  SentimentParams,
  SentimentThemesPayload,
  TeamInfo,
  BrandRankingsParams,
  BrandRankingsPayload,
  BrandSeriesParams,
  BrandSeriesPayload,
  ListDomainsParams,
  ListDomainsPayload,
  ListPromptsParams,
  ListPromptsPayload,
  ModelLeaderboardParams,
  ModelLeaderboardPayload,
  ValidateParams,
  ValidatePayload,
} from './types.js'

export { SCHEMA_VERSION } from './db/migrate.js'

class DuckDBEngine implements Engine {
  #open = true
  #nextAnalysisKey: number
  /** Opened for serving: DuckDB cannot touch files. */
  hardened = false
  readonly write: Database['write']
  readonly pool: Database['pool']
  readonly aggregates: AggregateStore
  readonly #writeMutex = new Mutex()
  readonly #rw = new ReadWriteLock()
  readonly #keys: ApiKeys

  constructor(
    readonly db: Database,
    public catalog: Catalog,
    nextAnalysisKey: number,
    public readOnly: boolean,
    aggregates: { retain: boolean; maxRows: number },
    activeKeys: StoredApiKey[],
  ) {
    this.write = db.write
    this.pool = db.pool
    this.#nextAnalysisKey = nextAnalysisKey
    this.#keys = new ApiKeys(activeKeys, {
      write: (fn) => this.#writeMutex.run(() => fn(this.write)),
      read: (fn) => this.pool.use((c) => fn(c.conn)),
    })
    this.aggregates = new AggregateStore(db.pool, aggregates)
  }

  get isOpen(): boolean {
    return this.#open
  }

  #check(): void {
    if (!this.#open) throw new EngineClosedError()
  }

  /**
   * Runs a report under the read lock, on the catalog and aggregates of one committed state (a
   * closed engine rejects, never throws synchronously).
   */
  async #report<P, R>(compute: (ctx: QueryContext, params: P) => Promise<R>, params: P): Promise<R> {
    this.#check()
    return this.#rw.read(() => compute({ catalog: this.catalog, aggregates: this.aggregates }, params))
  }

  async ingest(records: RecordSource): Promise<IngestResult> {
    return this.#ingest((call) => feedRecords(call, records))
  }

  async ingestArrow(tables: ArrowTables): Promise<IngestResult> {
    const rows = arrowToFlatRows(tables)
    return this.#ingest(async (call) => feedFlat(call, rows))
  }

  async ingestFile(path: string, options: IngestFileOptions = {}): Promise<IngestResult> {
    if (typeof path === 'string' && existsSync(path) && statSync(path).isDirectory()) {
      this.#check()
      if (this.readOnly) throw new ReadOnlyError('ingest')
      const rows = this.hardened
        ? await withScratchEngine({}, (scratch) => scratch.pool.use((c) => readExport(c.conn, path)))
        : await this.pool.use((c) => readExport(c.conn, path))
      return this.#ingest(async (call) => feedFlat(call, rows))
    }
    return this.#ingest((call) => feedNdjsonPath(call, path, options.onProgress))
  }

  /** One ingest call: feed, stage, then COMMIT while reports are held off, and drop stale aggregates. */
  async #ingest(feed: (call: IngestCall) => Promise<void>): Promise<IngestResult> {
    this.#check()
    if (this.readOnly) throw new ReadOnlyError('ingest')
    return this.#writeMutex.run(async () => {
      this.#check()
      const call = await IngestCall.begin(this.write, this.catalog)
      try {
        await feed(call)
        const staged = await call.stage(this.#nextAnalysisKey)
        await this.#commit(() => {
          this.catalog = staged.catalog
          staged.applyToCatalog()
          this.aggregates.invalidate(staged.deletedFrom)
          this.aggregates.refresh(staged.changedDays)
          this.#keys.forgetTeams(staged.deletedTeams)
        })
        this.#nextAnalysisKey = staged.nextAnalysisKey
        return staged.result
      } catch (e) {
        call.abandon()
        return this.#rollback(e, 'ingest')
      }
    })
  }

  async exportParquet(dir: string, options: ExportParquetOptions = {}): Promise<ExportResult> {
    this.#check()
    let ids: string[] | null = null
    if (options.domainIds !== undefined) {
      ids = options.domainIds.map((d) => String(d).toLowerCase())
      const unknown = ids.filter((d) => !this.catalog.domains.has(d))
      if (unknown.length > 0) throw new NotFoundError('domain', unknown.join(', '))
    }
    if (this.hardened) {
      // DuckDB has no file access here: export from a copy of the file, as a backup does.
      if (this.db.file === null)
        throw new ReadOnlyError('exportParquet', 'an in-memory engine opened for serving has no file to copy')
      return this.#fromCopy(dirname(resolve(dir)), (scratch) => scratch.exportParquet(dir, options))
    }
    return this.#rw.read(() =>
      this.pool.use(async (c) => {
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

  computePromptSeries(params: PromptSeriesParams): Promise<PromptSeriesPayload> {
    return this.#report(computePromptSeries, params)
  }
  computeCompetitorSeries(params: CompetitorSeriesParams): Promise<CompetitorSeriesPayload> {
    return this.#report(computeCompetitorSeries, params)
  }
  sentimentOverview(params: SentimentParams): Promise<SentimentOverviewPayload> {
    return this.#report(sentimentOverview, params)
  }
  sentimentThemes(params: SentimentParams): Promise<SentimentThemesPayload> {
    return this.#report(sentimentThemes, params)
  }

  // Listings, rankings and brand time series (extensions 3-5).
  validate(params: ValidateParams): Promise<ValidatePayload> {
    return this.#report(validate, params)
  }
  listDomains(params: ListDomainsParams = {}): Promise<ListDomainsPayload> {
    return this.#report(listDomains, params)
  }
  listPrompts(params: ListPromptsParams): Promise<ListPromptsPayload> {
    return this.#report(listPrompts, params)
  }
  brandRankings(params: BrandRankingsParams): Promise<BrandRankingsPayload> {
    return this.#report(brandRankings, params)
  }
  modelLeaderboard(params: ModelLeaderboardParams): Promise<ModelLeaderboardPayload> {
    return this.#report(modelLeaderboard, params)
  }
  brandSeries(params: BrandSeriesParams): Promise<BrandSeriesPayload> {
    return this.#report(brandSeries, params)
  }

  // Citations, cited domains, fan-out queries, sentiment over time (extensions sections 6, 7).
  citations(params: CitationsParams): Promise<CitationsPayload> {
    return this.#report(citations, params)
  }
  citedDomains(params: CitedDomainsParams): Promise<CitedDomainsPayload> {
    return this.#report(citedDomains, params)
  }
  fanoutQueries(params: FanoutQueriesParams): Promise<FanoutQueriesPayload> {
    return this.#report(fanoutQueries, params)
  }
  sentimentSeries(params: SentimentSeriesParams): Promise<SentimentSeriesPayload> {
    return this.#report(sentimentSeries, params)
  }

  async stats(): Promise<Record<string, number>> {
    this.#check()
    return this.#rw.read(() =>
      this.pool.use(async (c) => {
        const row = (await c.conn.runAndReadAll(sqlText('queries/table_counts'))).getRowObjectsJS()[0]!
        return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]))
      }),
    )
  }

  async getDomain(id: string): Promise<DomainInfo | null> {
    this.#check()
    const d = this.catalog.domains.get(String(id).toLowerCase())
    return d ? { id: d.id, brand_name: d.brand_name, website: d.website, team_id: d.team_id } : null
  }

  async getTeam(id: string): Promise<TeamInfo | null> {
    this.#check()
    const t = this.catalog.teams.get(String(id).toLowerCase())
    return t ? { ...t } : null
  }

  async createApiKey(params: CreateApiKeyParams): Promise<CreatedApiKey> {
    this.#check()
    if (this.readOnly) throw new ReadOnlyError('creating a key')
    return this.#keys.create(params)
  }

  async listApiKeys(): Promise<ApiKeyInfo[]> {
    this.#check()
    return this.#keys.list()
  }

  async revokeApiKey(id: string): Promise<boolean> {
    this.#check()
    if (this.readOnly) throw new ReadOnlyError('revoking a key')
    return this.#keys.revoke(id)
  }

  async verifyApiKey(secret: string): Promise<ApiKeyInfo | null> {
    this.#check()
    return this.#keys.verify(secret)
  }

  /** COMMITs the write transaction and applies `apply` while reports are held off. */
  #commit(apply: () => void): Promise<void> {
    return this.#rw.write(async () => {
      await this.write.run('COMMIT')
      apply()
    })
  }

  /** Rolls the write transaction back and rethrows (DuckDB's own errors as a QueryError named `id`). */
  async #rollback(e: unknown, id: string): Promise<never> {
    await this.write.run('ROLLBACK').catch(() => undefined)
    if (e instanceof VisibilityError) throw e
    throw new QueryError(id, { cause: e })
  }

  // -------------------------------------------------------------------------------------------
  // Operations (issue 13): retention, backups, status. Deletions run inside #ingest (IngestCall).

  async prune(params: PruneParams): Promise<PruneResult> {
    this.#check()
    if (this.readOnly) throw new ReadOnlyError('prune')
    const age = olderThanDays.value.safeParse(params?.olderThanDays)
    if (!age.success)
      throw new ValidationError([{ path: 'older_than_days', message: olderThanDays.message() }])
    const clock = nowParam.value.safeParse(params.now)
    if (!clock.success) throw new ValidationError([{ path: 'now', message: clock.error.issues[0]!.message }])
    const now = clock.data === undefined ? new Date() : new Date(clock.data)
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
    const before = new Date(today - age.data * 86_400_000).toISOString().slice(0, 10)
    return this.#writeMutex.run(async () => {
      this.#check()
      await this.write.run('BEGIN TRANSACTION')
      try {
        await this.write.run(sqlText('schema/staging'))
        await stageDeletions(this.write, null)
        const pass = await runDeletionPass(this.write, { kind: 'expired', before })
        const catalog = await reloadCatalog(this.write, this.catalog)
        await this.#commit(() => {
          this.catalog = catalog
          this.aggregates.invalidate(pass.affectedDomains)
        })
        const deleted = Object.fromEntries(PRUNED_TABLES.map((t) => [t, pass.counts[t] ?? 0]))
        return { before, deleted }
      } catch (e) {
        return this.#rollback(e, 'prune')
      }
    })
  }

  async backup(dir: string): Promise<BackupResult> {
    this.#check()
    if (this.hardened && this.db.file === null)
      throw new ReadOnlyError('backup', 'an in-memory engine opened for serving has no file to snapshot')
    const target = startBackup(dir)
    try {
      const tables = this.hardened
        ? await this.#backupFromCopy(target.partial)
        : await this.pool.use((c) => writeBackupFiles(c.conn, target.partial))
      return await finishBackup(target, tables, SCHEMA_VERSION)
    } catch (e) {
      abandonBackup(target)
      if (e instanceof VisibilityError) throw e
      throw new QueryError('backup', { cause: e })
    }
  }

  /**
   * A served (hardened) engine cannot write files from DuckDB: its database file (and write-ahead
   * log) is copied while no write runs, and the backup is written from the copy.
   */
  #backupFromCopy(into: string): Promise<Record<string, number>> {
    return this.#fromCopy(dirname(into), (scratch) => scratch.pool.use((c) => writeBackupFiles(c.conn, into)))
  }

  /** Runs `fn` on a scratch engine opened on a copy of the file (made in `near`) taken while no write runs. */
  async #fromCopy<T>(near: string, fn: (scratch: DuckDBEngine) => Promise<T>): Promise<T> {
    const file = this.db.file!
    const snapshot = await mkdtemp(join(near, '.va-snapshot-'))
    try {
      const copy = join(snapshot, 'snapshot.duckdb')
      await this.#writeMutex.run(async () => {
        this.#check()
        await copyDatabaseFiles(file, copy)
      })
      return await withScratchEngine({ path: copy }, fn)
    } finally {
      await rm(snapshot, { recursive: true, force: true })
    }
  }

  status(): EngineStatus {
    const file = this.db.file
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
    return { file, fileBytes, aggregateCache: this.aggregates.stats() }
  }

  async close(): Promise<void> {
    if (!this.#open) return
    await this.#writeMutex.run(async () => {
      await this.#rw.write(async () => {
        this.#open = false
        this.db.close()
      })
    })
  }
}

/**
 * Opens an engine: in memory by default, or over a DuckDB file (created when missing, migrated
 * when older).
 * @example
 * const engine = await openEngine({ path: 'data/visibility.duckdb' })
 * await engine.ingestFile('analyses.ndjson')
 * const themes = await engine.sentimentThemes({ domainId, days: 30 })
 * await engine.close()
 */
export async function openEngine(options: OpenEngineOptions = {}): Promise<Engine> {
  if (options.parquet !== undefined) {
    const { parquet, path: _path, readOnly: _readOnly, ...rest } = options
    if (!existsSync(parquet) || !statSync(parquet).isDirectory()) {
      throw new ValidationError([
        { path: 'parquet', message: `parquet must be a directory written by exportParquet: ${parquet}` },
      ])
    }
    const engine = (await openEngine(rest)) as DuckDBEngine
    try {
      await engine.ingestFile(parquet)
    } catch (e) {
      await engine.close()
      throw e
    }
    engine.readOnly = true
    return engine
  }
  const readOnly = options.readOnly ?? false
  const db = await openDatabase({
    path: options.path ?? ':memory:',
    readOnly,
    hardened: options.hardened ?? false,
    readConnections: options.readConnections ?? 2,
    memoryLimitMB: options.memoryLimitMB ?? DEFAULT_MEMORY_LIMIT_MB,
    ...(options.tempDirectory === undefined ? {} : { tempDirectory: options.tempDirectory }),
  })
  try {
    const catalog = await Catalog.load(db.write)
    const next = await db.write.runAndReadAll(
      'SELECT coalesce(max(analysis_key) + 1, 0)::DOUBLE FROM analyses',
    )
    const engine = new DuckDBEngine(
      db,
      catalog,
      next.getRows()[0]![0] as number,
      readOnly,
      {
        retain: options.aggregateCache !== false,
        maxRows: options.aggregateCacheRows ?? 5_000_000,
      },
      await loadActiveApiKeys(db.write),
    )
    engine.hardened = options.hardened ?? false
    return engine
  } catch (e) {
    db.close()
    throw e
  }
}

/** Runs `fn` on a private engine with file access (in memory unless `path`), closed after. */
async function withScratchEngine<T>(
  options: { path?: string },
  fn: (scratch: DuckDBEngine) => Promise<T>,
): Promise<T> {
  const scratch = (await openEngine({
    ...options,
    readConnections: 1,
    aggregateCache: false,
  })) as DuckDBEngine
  try {
    return await fn(scratch)
  } finally {
    await scratch.close()
  }
}

/**
 * Builds a new database at `path` from a backup directory (manifest and checksums checked first):
 * the export's records domain by domain, then the API keys as they were (hashes, revocations).
 * Row counts must equal the manifest's; on any failure the new file is removed.
 * @example
 * await restoreBackup({ from: 'backups/backup-2026-11-20T150000Z', path: 'data/restored.duckdb' })
 */
export async function restoreBackup(params: RestoreParams): Promise<RestoreResult> {
  const manifest = await verifyBackup(params.from, SCHEMA_VERSION)
  const path = resolve(params.path)
  if (existsSync(path) || existsSync(`${path}.wal`))
    throw new ValidationError([
      { path: 'path', message: `${params.path} exists: restore builds a new database.` },
    ])
  const engine = (await openEngine({ path, aggregateCache: false })) as DuckDBEngine
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
  } catch (e) {
    await engine.close()
    rmSync(path, { force: true })
    rmSync(`${path}.wal`, { force: true })
    throw e
  }
}
