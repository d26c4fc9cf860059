/**
 * The engine: the public face of one database. It holds the catalog, the aggregate store and the
 * locks that keep a payload from ever mixing two states, and hands each call to its layer: ingest
 * (ingest/), reports (queries/), Parquet export (parquet.ts). The database itself (connections,
 * migrations, serving mode) is opened by db/database.ts.
 */
import { existsSync, statSync } from 'node:fs'
import { Catalog } from './catalog.js'
import { DEFAULT_MEMORY_LIMIT_MB, openDatabase, type Database } from './db/database.js'
import { Mutex, ReadWriteLock } from './db/lock.js'
import { sqlText } from './db/sql.js'
import { EngineClosedError, QueryError, ReadOnlyError, ValidationError, VisibilityError } from './errors.js'
import { IngestCall } from './ingest/call.js'
import { ApiKeys, loadActiveApiKeys, type StoredApiKey } from './keys.js'
import { arrowToFlatRows, feedNdjsonPath, feedRecords } from './ingest/sources.js'
import { feedFlatBulk, rowsSource } from './ingest/flat-sql.js'
import { exportSource } from './parquet.js'
import { computeCitations, computeCitedDomains } from './queries/citations.js'
import { computeCompetitorSeries } from './queries/competitor-series.js'
import type { QueryContext } from './queries/context.js'
import { computeFanoutQueries } from './queries/fanout-queries.js'
import { computePromptSeries } from './queries/prompt-series.js'
import { computeSentimentSeries } from './queries/sentiment-series.js'
import { computeSentimentOverview, computeSentimentThemes } from './queries/sentiment.js'
import { computeBrandSeries } from './queries/brand-series.js'
import { computeDomainList, computePromptList, computeKeyCheck } from './queries/listings.js'
import { computeBrandRankings, computeModelLeaderboard } from './queries/rankings.js'
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
import { DeprecatedEngineAliases } from './engine-aliases.js'
import {
  backup,
  engineStatus,
  exportParquet,
  prune,
  withExportReader,
  restoreBackup as restore,
  type EngineInternals,
  type OpenInternals,
} from './engine/operations.js'

/** The engines this module opened, with what the operations may use of each (never published). */
const INTERNALS = new WeakMap<DuckDBEngine, EngineInternals>()

class DuckDBEngine extends DeprecatedEngineAliases implements Engine {
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
  /** What src/engine/operations.ts may use of this engine. */
  readonly #internals: EngineInternals

  constructor(
    readonly db: Database,
    public catalog: Catalog,
    nextAnalysisKey: number,
    public readOnly: boolean,
    aggregates: { retain: boolean; maxRows: number },
    activeKeys: StoredApiKey[],
  ) {
    super()
    this.write = db.write
    this.pool = db.pool
    this.#nextAnalysisKey = nextAnalysisKey
    this.#keys = new ApiKeys(activeKeys, {
      write: (fn) => this.#writeMutex.run(() => fn(this.write)),
      read: (fn) => this.pool.use((c) => fn(c.conn)),
    })
    this.aggregates = new AggregateStore(db.pool, aggregates)
    const internals = {
      db,
      pool: db.pool,
      write: db.write,
      aggregates: this.aggregates,
      check: () => this.#check(),
      exclusive: <T>(fn: () => Promise<T>) => this.#writeMutex.run(fn),
      reading: <T>(fn: () => Promise<T>) => this.#rw.read(fn),
      commit: (catalog: Catalog, apply: () => void) =>
        this.#commit(() => {
          this.catalog = catalog
          apply()
        }),
      rollback: (e: unknown, id: string) => this.#rollback(e, id),
      ingest: (records: RecordSource) => this.ingest(records),
      exportParquet: (dir: string, options?: ExportParquetOptions) => this.exportParquet(dir, options),
      close: () => this.close(),
    }
    // The state an operation reads is the engine's current one.
    Object.defineProperties(internals, {
      catalog: { get: () => this.catalog },
      readOnly: { get: () => this.readOnly },
      hardened: { get: () => this.hardened },
    })
    this.#internals = internals as typeof internals &
      Pick<EngineInternals, 'catalog' | 'readOnly' | 'hardened'>
    INTERNALS.set(this, this.#internals)
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
    return this.#ingest((call) => feedFlatBulk(call, rowsSource(rows)))
  }

  async ingestFile(path: string, options: IngestFileOptions = {}): Promise<IngestResult> {
    if (typeof path === 'string' && existsSync(path) && statSync(path).isDirectory()) {
      this.#check()
      if (this.readOnly) throw new ReadOnlyError('ingest')
      return this.#ingest((call) =>
        withExportReader(this.#internals, openInternals, (reader) =>
          feedFlatBulk(call, exportSource(path, reader)),
        ),
      )
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

  exportParquet(dir: string, options: ExportParquetOptions = {}): Promise<ExportResult> {
    return exportParquet(this.#internals, openInternals, dir, options)
  }

  computePromptSeries(params: PromptSeriesParams): Promise<PromptSeriesPayload> {
    return this.#report(computePromptSeries, params)
  }
  computeCompetitorSeries(params: CompetitorSeriesParams): Promise<CompetitorSeriesPayload> {
    return this.#report(computeCompetitorSeries, params)
  }
  computeSentimentOverview(params: SentimentParams): Promise<SentimentOverviewPayload> {
    return this.#report(computeSentimentOverview, params)
  }
  computeSentimentThemes(params: SentimentParams): Promise<SentimentThemesPayload> {
    return this.#report(computeSentimentThemes, params)
  }

  // Listings, rankings and brand time series (docs/API.md, "Listings", "Rankings", "Brand time series").
  computeKeyCheck(params: ValidateParams): Promise<ValidatePayload> {
    return this.#report(computeKeyCheck, params)
  }
  computeDomainList(params: ListDomainsParams = {}): Promise<ListDomainsPayload> {
    return this.#report(computeDomainList, params)
  }
  computePromptList(params: ListPromptsParams): Promise<ListPromptsPayload> {
    return this.#report(computePromptList, params)
  }
  computeBrandRankings(params: BrandRankingsParams): Promise<BrandRankingsPayload> {
    return this.#report(computeBrandRankings, params)
  }
  computeModelLeaderboard(params: ModelLeaderboardParams): Promise<ModelLeaderboardPayload> {
    return this.#report(computeModelLeaderboard, params)
  }
  computeBrandSeries(params: BrandSeriesParams): Promise<BrandSeriesPayload> {
    return this.#report(computeBrandSeries, params)
  }

  // Citations, cited domains, fan-out queries, sentiment over time (docs/API.md, "Citations, fan-out and sentiment over time").
  computeCitations(params: CitationsParams): Promise<CitationsPayload> {
    return this.#report(computeCitations, params)
  }
  computeCitedDomains(params: CitedDomainsParams): Promise<CitedDomainsPayload> {
    return this.#report(computeCitedDomains, params)
  }
  computeFanoutQueries(params: FanoutQueriesParams): Promise<FanoutQueriesPayload> {
    return this.#report(computeFanoutQueries, params)
  }
  computeSentimentSeries(params: SentimentSeriesParams): Promise<SentimentSeriesPayload> {
    return this.#report(computeSentimentSeries, params)
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

  // Operations (docs/API.md, "Operations endpoints"): src/engine/operations.ts.
  prune(params: PruneParams): Promise<PruneResult> {
    return prune(this.#internals, params)
  }

  backup(dir: string): Promise<BackupResult> {
    return backup(this.#internals, openInternals, dir)
  }

  status(): EngineStatus {
    return engineStatus(this.#internals)
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
 * const themes = await engine.computeSentimentThemes({ domainId, days: 30 })
 * await engine.close()
 */
export function openEngine(options: OpenEngineOptions = {}): Promise<Engine> {
  return openDuckDBEngine(options)
}

/** Opens an engine for an operation (a scratch engine, a restore): its internals. */
const openInternals: OpenInternals = async (options) => INTERNALS.get(await openDuckDBEngine(options))!

async function openDuckDBEngine(options: OpenEngineOptions): Promise<DuckDBEngine> {
  if (options.parquet !== undefined) {
    const { parquet, path: _path, readOnly: _readOnly, ...rest } = options
    if (!existsSync(parquet) || !statSync(parquet).isDirectory()) {
      throw new ValidationError([
        { path: 'parquet', message: `parquet must be a directory written by exportParquet: ${parquet}` },
      ])
    }
    const engine = await openDuckDBEngine(rest)
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

/**
 * Builds a new database at `path` from a backup directory (manifest and checksums checked first):
 * the export's records domain by domain, then the API keys as they were (hashes, revocations).
 * Row counts must equal the manifest's; on any failure the new file is removed.
 * @example
 * await restoreBackup({ from: 'backups/backup-2026-11-20T150000Z', path: 'data/restored.duckdb' })
 */
export function restoreBackup(params: RestoreParams): Promise<RestoreResult> {
  return restore(openInternals, params)
}
