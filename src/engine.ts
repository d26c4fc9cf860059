/**
 * The engine: owns the DuckDB instance, one write connection (ingest, keys) and a small pool of
 * read connections with prepared statements. Schema setup and migrations, the catalog, the locks
 * that keep a payload from ever mixing two states, and close().
 */
import { createReadStream, existsSync, mkdirSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import {
  DuckDBInstance,
  INTEGER,
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  type DuckDBValue,
} from '@duckdb/node-api'
import { Catalog } from './catalog.js'
import { AggregateCache } from './serving/aggregate-cache.js'
import { Mutex, ReadWriteLock } from './db/lock.js'
import { sqlIds, sqlText } from './db/sql.js'
import {
  EngineClosedError,
  NotFoundError,
  QueryError,
  ReadOnlyError,
  ValidationError,
  VisibilityError,
} from './errors.js'
import { IngestCall } from './ingest/call.js'
import { FLAT_TABLES, flatToRecords, type FlatRows, type FlatTableName } from './ingest/flat.js'
import { prepareExportDir, readExport, writeExport, writeManifest } from './parquet.js'
import { parseNdjson } from './ingest/ndjson.js'
import { feedNdjsonFile } from './ingest/ndjson-feed.js'
import { ApiKeys, loadActiveApiKeys, type StoredApiKey } from './keys.js'
import { computeCompetitorSeries } from './queries/competitor-series.js'
import type { QueryContext } from './queries/context.js'
import { computePromptSeries } from './queries/prompt-series.js'
import { sentimentOverview, sentimentThemes } from './queries/sentiment.js'
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
} from './types.js'

/** The schema version this release writes; older files are migrated on open. */
export const SCHEMA_VERSION = 1

class ReadConnection {
  readonly #statements = new Map<string, DuckDBPreparedStatement>()
  constructor(readonly conn: DuckDBConnection) {}

  async run(id: string, values: Record<string, number>): Promise<DuckDBValue[][]> {
    const stmt = await this.#prepared(id)
    const types: Record<string, typeof INTEGER> = {}
    for (const k of Object.keys(values)) types[k] = INTEGER
    stmt.bind(values, types)
    const reader = await stmt.runAndReadAll()
    const columns = reader.getColumns()
    // With no rows the reader has no column arrays at all.
    return columns.length === reader.columnCount
      ? columns
      : Array.from({ length: reader.columnCount }, () => [])
  }

  /**
   * Runs a query whose columns are all DOUBLE and NOT NULL, and copies them into Float64Arrays.
   * The vectors' own Float64Array views are copied whole when the client exposes them (it does in
   * the pinned @duckdb/node-api), value by value otherwise.
   */
  async load(id: string, values: Record<string, number>): Promise<Float64Array[]> {
    const stmt = await this.#prepared(id)
    const types: Record<string, typeof INTEGER> = {}
    for (const k of Object.keys(values)) types[k] = INTEGER
    stmt.bind(values, types)
    const result = await stmt.run()
    const columns = Array.from({ length: result.columnCount }, () => new Float64Array(result.rowCount))
    let offset = 0
    for (let c = 0; c < result.chunkCount; c++) {
      const chunk = result.getChunk(c)
      const n = chunk.rowCount
      for (let col = 0; col < columns.length; col++) {
        const vector = chunk.getColumnVector(col)
        const out = columns[col]!
        const items = (vector as unknown as { items?: unknown }).items
        if (items instanceof Float64Array && items.length === n) out.set(items, offset)
        else for (let i = 0; i < n; i++) out[offset + i] = Number(vector.getItem(i) ?? 0)
      }
      offset += n
    }
    return columns
  }

  async #prepared(id: string): Promise<DuckDBPreparedStatement> {
    let stmt = this.#statements.get(id)
    if (stmt === undefined) {
      stmt = await this.conn.prepare(sqlText(id))
      this.#statements.set(id, stmt)
    }
    return stmt
  }

  close(): void {
    for (const s of this.#statements.values()) s.destroySync()
    this.#statements.clear()
    this.conn.closeSync()
  }
}

/** A fixed set of connections handed out one at a time. */
class Pool {
  readonly #idle: ReadConnection[]
  readonly #waiting: Array<(c: ReadConnection) => void> = []
  constructor(readonly all: ReadConnection[]) {
    this.#idle = [...all]
  }
  async use<T>(fn: (c: ReadConnection) => Promise<T>): Promise<T> {
    const c = this.#idle.pop() ?? (await new Promise<ReadConnection>((r) => this.#waiting.push(r)))
    try {
      return await fn(c)
    } finally {
      const next = this.#waiting.shift()
      if (next) next(c)
      else this.#idle.push(c)
    }
  }
}

class DuckDBEngine implements Engine {
  #open = true
  #nextAnalysisKey: number
  /** Opened for serving: DuckDB cannot touch files. */
  hardened = false
  /** The in-memory aggregate cache, or null when the engine was opened without it. */
  readonly aggregates: AggregateCache | null
  readonly #writeMutex = new Mutex()
  readonly #rw = new ReadWriteLock()
  readonly #ctx: QueryContext
  readonly #keys: ApiKeys

  constructor(
    readonly instance: DuckDBInstance,
    readonly write: DuckDBConnection,
    readonly pool: Pool,
    public catalog: Catalog,
    nextAnalysisKey: number,
    public readOnly: boolean,
    readonly file: string | null,
    cacheRows: number,
    activeKeys: StoredApiKey[],
  ) {
    this.#nextAnalysisKey = nextAnalysisKey
    this.#keys = new ApiKeys(activeKeys, {
      write: (fn) => this.#writeMutex.run(() => fn(this.write)),
      read: (fn) => this.pool.use((c) => fn(c.conn)),
    })
    const engine = { catalogOf: () => this.catalog }
    const inDuckDB = <T>(id: string, fn: (c: ReadConnection) => Promise<T>) =>
      this.pool.use(async (c) => {
        try {
          return await fn(c)
        } catch (cause) {
          throw new QueryError(id, { cause })
        }
      })
    this.aggregates =
      cacheRows > 0
        ? new AggregateCache(
            (table, domainKey) =>
              inDuckDB(table, (c) => c.load(`queries/load_${table}`, { domain_key: domainKey })),
            cacheRows,
            (domainKey, idx) => this.catalog.domainsByKey[domainKey]!.prompts[idx]!.id,
          )
        : null
    this.#ctx = {
      get catalog() {
        return engine.catalogOf()
      },
      run: (id, values) => this.aggregates?.run(id, values) ?? inDuckDB(id, (c) => c.run(id, values)),
    }
  }

  get isOpen(): boolean {
    return this.#open
  }

  #check(): void {
    if (!this.#open) throw new EngineClosedError()
  }

  #read<T>(fn: () => Promise<T>): Promise<T> {
    this.#check()
    return this.#rw.read(fn)
  }

  async ingest(records: RecordSource): Promise<IngestResult> {
    return this.#ingest(async (call) => {
      let index = 0
      for await (const rec of records as AsyncIterable<unknown>) call.add(rec, { index: index++ })
    })
  }

  async ingestArrow(tables: ArrowTables): Promise<IngestResult> {
    const rows: FlatRows = {}
    for (const [name, table] of Object.entries(tables ?? {})) {
      if (!(FLAT_TABLES as readonly string[]).includes(name)) {
        throw new ValidationError([
          { path: name, message: `${name} is not a flat table (${FLAT_TABLES.join(', ')}).` },
        ])
      }
      rows[name as FlatTableName] = arrowRows(table)
    }
    return this.#ingest(async (call) => feedFlat(call, rows))
  }

  async exportParquet(dir: string, options: ExportParquetOptions = {}): Promise<ExportResult> {
    this.#check()
    if (this.hardened) {
      throw new VisibilityError(
        'READ_ONLY',
        'exportParquet is not possible in serving (hardened) mode: DuckDB has no file access',
      )
    }
    let ids: string[] | null = null
    if (options.domainIds !== undefined) {
      ids = options.domainIds.map((d) => String(d).toLowerCase())
      const unknown = ids.filter((d) => !this.catalog.domains.has(d))
      if (unknown.length > 0) throw new NotFoundError('domain', unknown.join(', '))
    }
    return this.#read(() =>
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

  async ingestFile(path: string, options: IngestFileOptions = {}): Promise<IngestResult> {
    if (typeof path === 'string' && existsSync(path) && statSync(path).isDirectory()) {
      this.#check()
      if (this.readOnly) throw new ReadOnlyError('ingest')
      const rows = await this.pool.use((c) => readExport(c.conn, path))
      return this.#ingest(async (call) => feedFlat(call, rows))
    }
    return this.#ingest(async (call) => {
      try {
        if (options.onProgress) {
          // With a progress callback the file is parsed on this thread, where bytes can be counted.
          for await (const item of parseNdjson(countingStream(path, options.onProgress))) {
            const loc = { line: item.line }
            if ('error' in item) call.issue(loc, 'record', item.error)
            else call.add(item.value, loc)
          }
        } else await feedNdjsonFile(call, path)
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') {
          throw new ValidationError([
            { path: 'path', message: `cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code}` },
          ])
        }
        throw e
      }
    })
  }

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
          this.aggregates?.invalidate(staged.affectedDomains)
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

  computePromptSeries(params: PromptSeriesParams): Promise<PromptSeriesPayload> {
    return this.#read(() => computePromptSeries(this.#ctx, params))
  }
  computeCompetitorSeries(params: CompetitorSeriesParams): Promise<CompetitorSeriesPayload> {
    return this.#read(() => computeCompetitorSeries(this.#ctx, params))
  }
  sentimentOverview(params: SentimentParams): Promise<SentimentOverviewPayload> {
    return this.#read(() => sentimentOverview(this.#ctx, params))
  }
  sentimentThemes(params: SentimentParams): Promise<SentimentThemesPayload> {
    return this.#read(() => sentimentThemes(this.#ctx, params))
  }

  async stats(): Promise<Record<string, number>> {
    return this.#read(() =>
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
        for (const c of this.pool.all) c.close()
        this.write.closeSync()
        this.instance.closeSync()
        if (this.file !== null) openFiles.delete(this.file)
      })
    })
  }
}

/** A file stream that reports bytes read. */
function countingStream(path: string, onProgress: (read: number, total: number) => void) {
  const total = statSync(path).size
  let read = 0
  const stream = createReadStream(path, { highWaterMark: 1 << 20 })
  stream.on('data', (chunk) => {
    read += chunk.length
    onProgress(read, total)
  })
  return stream
}

/** Feeds flat rows to an ingest call; issues name the table and its row. */
function feedFlat(call: IngestCall, rows: FlatRows): void {
  for (const { record, table, row, orphanOf } of flatToRecords(rows)) {
    if (orphanOf !== undefined) {
      call.fieldPrefix = ''
      call.issue(
        { index: 0 },
        'analysis_id',
        `${orphanOf} has mentions, citations or theme occurrences but no analyses row`,
      )
      continue
    }
    call.fieldPrefix = `${table}.`
    call.add(record, { index: row })
  }
  call.fieldPrefix = ''
}

/** An Arrow table's rows as plain objects. */
function* arrowRows(table: ArrowTables[keyof ArrowTables]): Generator<Record<string, unknown>> {
  if (table === undefined) return
  for (const row of table) yield (row as { toJSON(): Record<string, unknown> }).toJSON()
}

async function schemaVersion(conn: DuckDBConnection): Promise<number> {
  const has = await conn.runAndReadAll(
    "SELECT count(*)::INTEGER FROM information_schema.tables WHERE table_schema = 'main' AND table_name = 'meta'",
  )
  if (has.getRows()[0]![0] === 0) return 0
  const r = await conn.runAndReadAll("SELECT value FROM meta WHERE key = 'schema_version'")
  const v = r.getRows()[0]?.[0]
  return v === undefined ? 0 : Number(v)
}

/** Runs sql/schema/NNN_*.sql files newer than the file's version, in one transaction. */
async function migrate(conn: DuckDBConnection, readOnly: boolean): Promise<void> {
  const current = await schemaVersion(conn)
  if (current > SCHEMA_VERSION) {
    throw new VisibilityError(
      'VALIDATION',
      `the database has schema version ${current}; this release reads up to ${SCHEMA_VERSION}: upgrade visibility-analytics`,
    )
  }
  if (current === SCHEMA_VERSION) return
  if (readOnly)
    throw new VisibilityError(
      'VALIDATION',
      `the database has schema version ${current}, not ${SCHEMA_VERSION}: open it writable once to migrate it`,
    )
  const steps = sqlIds('schema')
    .map((id) => ({ id, version: Number(/\/(\d+)_/.exec(id)?.[1]) }))
    .filter((s) => Number.isFinite(s.version) && s.version > current && s.version <= SCHEMA_VERSION)
  await conn.run('BEGIN TRANSACTION')
  try {
    for (const s of steps) await conn.run(sqlText(s.id))
    await conn.run("INSERT OR REPLACE INTO meta VALUES ('schema_version', $v)", { v: String(SCHEMA_VERSION) })
    await conn.run('COMMIT')
  } catch (e) {
    await conn.run('ROLLBACK').catch(() => undefined)
    throw e
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
  const path = options.path ?? ':memory:'
  const readOnly = options.readOnly ?? false
  const config: Record<string, string> = {}
  if (readOnly) config.access_mode = 'READ_ONLY'
  const file = path === ':memory:' ? null : resolve(path)
  if (file !== null) {
    if (openFiles.has(file)) {
      throw new VisibilityError('VALIDATION', `${path} is already open in this process: share that engine`)
    }
    if (!readOnly) mkdirSync(dirname(file), { recursive: true })
  }
  const instance = await DuckDBInstance.create(file ?? ':memory:', config)
  if (file !== null) openFiles.add(file)
  const connect = async () => {
    const c = await instance.connect()
    await c.run("SET TimeZone = 'UTC'")
    return c
  }
  const write = await connect()
  try {
    await migrate(write, readOnly)
    const n = Math.max(1, Math.min(16, options.readConnections ?? 2))
    const reads: ReadConnection[] = []
    for (let i = 0; i < n; i++) reads.push(new ReadConnection(await connect()))
    if (options.hardened) {
      // Every connection exists (and has its TimeZone) before the configuration is locked.
      await write.run('SET enable_external_access = false')
      await write.run('SET lock_configuration = true')
    }
    const catalog = await Catalog.load(write)
    const next = await write.runAndReadAll('SELECT coalesce(max(analysis_key) + 1, 0)::DOUBLE FROM analyses')
    const engine = new DuckDBEngine(
      instance,
      write,
      new Pool(reads),
      catalog,
      next.getRows()[0]![0] as number,
      readOnly,
      file,
      options.aggregateCache === false ? 0 : (options.aggregateCacheRows ?? 5_000_000),
      await loadActiveApiKeys(write),
    )
    engine.hardened = options.hardened ?? false
    return engine
  } catch (e) {
    write.closeSync()
    instance.closeSync()
    if (file !== null) openFiles.delete(file)
    throw e
  }
}

/** Files open in this process: two DuckDB instances on one file would corrupt it. */
const openFiles = new Set<string>()
