/**
 * The engine: the public face of one database. It holds the catalog, the aggregate store and the
 * locks that keep a payload from ever mixing two states, and hands each call to its layer: ingest
 * (ingest/), reports (queries/), Parquet export (parquet.ts). The database itself (connections,
 * migrations, serving mode) is opened by db/database.ts.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
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
import { arrowToFlatRows, feedFlat, feedNdjsonPath, feedRecords } from './ingest/sources.js'
import { prepareExportDir, readExport, writeExport, writeManifest } from './parquet.js'
import { citations, citedDomains } from './queries/citations.js'
import { computeCompetitorSeries } from './queries/competitor-series.js'
import type { QueryContext } from './queries/context.js'
import { fanoutQueries } from './queries/fanout.js'
import { computePromptSeries } from './queries/prompt-series.js'
import { sentimentSeries } from './queries/sentiment-series.js'
import { sentimentOverview, sentimentThemes } from './queries/sentiment.js'
import { UUID_RE } from './schemas/records.js'
import { AggregateStore } from './tables/aggregate-store.js'
import type {
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
} from './types.js'

export { SCHEMA_VERSION } from './db/migrate.js'

const KEY_PREFIX = 'va_live_'

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

  constructor(
    readonly db: Database,
    public catalog: Catalog,
    nextAnalysisKey: number,
    public readOnly: boolean,
    aggregates: { retain: boolean; maxRows: number },
  ) {
    this.write = db.write
    this.pool = db.pool
    this.#nextAnalysisKey = nextAnalysisKey
    this.aggregates = new AggregateStore(db.pool, aggregates)
  }

  get isOpen(): boolean {
    return this.#open
  }

  #check(): void {
    if (!this.#open) throw new EngineClosedError()
  }

  /** Runs a report under the read lock, on the catalog and aggregates of one committed state. */
  #report<P, R>(compute: (ctx: QueryContext, params: P) => Promise<R>, params: P): Promise<R> {
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

  async listDomains(): Promise<DomainInfo[]> {
    this.#check()
    return [...this.catalog.domains.values()]
      .map((d) => ({ id: d.id, brand_name: d.brand_name, website: d.website, team_id: d.team_id }))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
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
    const uuid = (v: unknown, path: string): string => {
      if (typeof v !== 'string' || !UUID_RE.test(v))
        throw new ValidationError([{ path, message: `${path} must be a UUID.` }])
      return v.toLowerCase()
    }
    const teamId = uuid(params.teamId, 'team_id')
    const scope = (params.scopeTeamIds ?? [teamId]).map((t) => uuid(t, 'scope_team_id'))
    const allowed =
      params.allowedDomains == null ? null : params.allowedDomains.map((d) => uuid(d, 'allowed_domain'))
    const secret = KEY_PREFIX + randomBytes(24).toString('base64url')
    const info: ApiKeyInfo = {
      id: randomUUID(),
      prefix: secret.slice(0, KEY_PREFIX.length + 4),
      team_id: teamId,
      scope_team_ids: [...new Set(scope.length ? scope : [teamId])],
      allowed_domains: allowed === null ? null : [...new Set(allowed)],
      name: params.name ?? null,
      created_at: new Date().toISOString(),
      revoked_at: null,
    }
    await this.#writeMutex.run(() =>
      this.write.run(sqlText('keys/insert_api_key'), {
        id: info.id,
        prefix: info.prefix,
        key_hash: hashKey(secret),
        team_id: info.team_id,
        scope: JSON.stringify(info.scope_team_ids),
        allowed: info.allowed_domains === null ? null : JSON.stringify(info.allowed_domains),
        name: info.name,
        created_at: info.created_at,
      }),
    )
    return { key: secret, info }
  }

  async listApiKeys(): Promise<ApiKeyInfo[]> {
    this.#check()
    const rows = await this.pool.use(async (c) =>
      (await c.conn.runAndReadAll(sqlText('keys/list_api_keys'))).getRowObjectsJson(),
    )
    return rows.map(rowToKeyInfo)
  }

  async revokeApiKey(id: string): Promise<boolean> {
    this.#check()
    if (this.readOnly) throw new ReadOnlyError('revoking a key')
    if (typeof id !== 'string' || !UUID_RE.test(id)) return false
    const r = await this.#writeMutex.run(() =>
      this.write.run(sqlText('keys/revoke_api_key'), {
        id: id.toLowerCase(),
        revoked_at: new Date().toISOString(),
      }),
    )
    return r.rowsChanged > 0
  }

  async verifyApiKey(secret: string): Promise<ApiKeyInfo | null> {
    this.#check()
    if (typeof secret !== 'string' || !secret.startsWith(KEY_PREFIX) || secret.length > 200) return null
    const prefix = secret.slice(0, KEY_PREFIX.length + 4)
    const rows = await this.pool.use(async (c) =>
      (await c.conn.runAndReadAll(sqlText('keys/find_api_keys_by_prefix'), { prefix })).getRowObjectsJson(),
    )
    const want = Buffer.from(hashKey(secret), 'hex')
    let found: ApiKeyInfo | null = null
    for (const row of rows) {
      const have = Buffer.from(String(row.key_hash), 'hex')
      if (have.length === want.length && timingSafeEqual(have, want) && row.revoked_at === null)
        found = rowToKeyInfo(row)
    }
    return found
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

function hashKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex')
}

function rowToKeyInfo(row: Record<string, unknown>): ApiKeyInfo {
  return {
    id: String(row.id),
    prefix: String(row.prefix),
    team_id: String(row.team_id),
    scope_team_ids: (row.scope_team_ids as string[]).map(String),
    allowed_domains: row.allowed_domains === null ? null : (row.allowed_domains as string[]).map(String),
    name: row.name === null ? null : String(row.name),
    created_at: String(row.created_at),
    revoked_at: row.revoked_at === null ? null : String(row.revoked_at),
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
    const engine = new DuckDBEngine(db, catalog, next.getRows()[0]![0] as number, readOnly, {
      retain: options.aggregateCache !== false,
      maxRows: options.aggregateCacheRows ?? 5_000_000,
    })
    engine.hardened = options.hardened ?? false
    return engine
  } catch (e) {
    db.close()
    throw e
  }
}
