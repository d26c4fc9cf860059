/**
 * The engine: the public face of one database. It holds the catalog, the aggregate store and the
 * locks that keep a payload from ever mixing two states, and hands each call to its layer: ingest
 * (ingest/), reports (queries/), Parquet export (parquet.ts). The database itself (connections,
 * migrations, serving mode) is opened by db/database.ts.
 */
import { existsSync, statSync } from 'node:fs'
import { Catalog } from './catalog.js'
import { openDatabase, type Database } from './db/database.js'
import { Mutex, ReadWriteLock } from './db/lock.js'
import { SCHEMA_VERSION } from './db/migrate.js'
import { sqlText } from './db/sql.js'
import {
  EngineClosedError,
  NotFoundError,
  QueryError,
  ReadOnlyError,
  ValidationError,
  VisibilityError,
} from './errors.js'
import { IngestCall } from './ingest/call.js'
import { ApiKeys, loadActiveApiKeys, type StoredApiKey } from './keys.js'
import { arrowToFlatRows, feedFlat, feedNdjsonPath, feedRecords } from './ingest/sources.js'
import { prepareExportDir, readExport, writeExport, writeManifest } from './parquet.js'
import { computeCompetitorSeries } from './queries/competitor-series.js'
import type { QueryContext } from './queries/context.js'
import { computePromptSeries } from './queries/prompt-series.js'
import { sentimentOverview, sentimentThemes } from './queries/sentiment.js'
import { brandSeries } from './queries/brand-series.js'
import { listDomains, listPrompts, validate } from './queries/listings.js'
import { brandRankings, modelLeaderboard } from './queries/rankings.js'
import { AggregateStore } from './tables/aggregate-store.js'
import type {
  ApiKeyInfo,
  ArrowTables,
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
      const rows = await this.pool.use((c) => readExport(c.conn, path))
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
        await this.#rw.write(async () => {
          await this.write.run('COMMIT')
          staged.applyToCatalog()
          this.aggregates.invalidate(staged.affectedDomains)
        })
        this.#nextAnalysisKey = staged.nextAnalysisKey
        return staged.result
      } catch (e) {
        call.abandon()
        await this.write.run('ROLLBACK').catch(() => undefined)
        if (e instanceof VisibilityError) throw e
        throw new QueryError('ingest', { cause: e })
      }
    })
  }

  async exportParquet(dir: string, options: ExportParquetOptions = {}): Promise<ExportResult> {
    this.#check()
    if (this.hardened) {
      throw new ReadOnlyError('exportParquet', 'in serving (hardened) mode DuckDB has no file access')
    }
    let ids: string[] | null = null
    if (options.domainIds !== undefined) {
      ids = options.domainIds.map((d) => String(d).toLowerCase())
      const unknown = ids.filter((d) => !this.catalog.domains.has(d))
      if (unknown.length > 0) throw new NotFoundError('domain', unknown.join(', '))
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
