/**
 * The engine: the public face of one database. It holds the catalog, the aggregate store and the
 * locks that keep a payload from ever mixing two states, and hands each call to its layer: ingest
 * (ingest/), reports (reports/, one method per report module), Parquet export (parquet.ts). The database itself (connections,
 * migrations, serving mode) is opened by db/database.ts.
 */
import type { Catalog } from './catalog.js'
import type { Database } from './db/database.js'
import { CommitGate, Mutex } from './db/lock.js'
import { EngineClosedError, QueryError, ReadOnlyError, VisibilityError } from './errors.js'
import { EngineIngest } from './engine/ingest.js'
import { attachWebhooks, touchedDomains } from './engine/webhooks.js'
import type { WebhookService } from './webhooks/service.js'
import { ApiKeys } from './keys.js'
import { checkParquetDir, openEngineParts, type EngineParts } from './engine/open.js'
import type { QueryContext } from './queries/context.js'
import { REPORTS } from './reports/index.js'
import { AggregateStore } from './tables/aggregate-store.js'
import type {
  ApiKeyInfo,
  ArrowTables,
  BackupResult,
  CreateApiKeyParams,
  CreatedApiKey,
  DeprecatedEngineMethods,
  DomainInfo,
  Engine,
  EngineStatus,
  ExportParquetOptions,
  ExportResult,
  IngestFileOptions,
  IngestResult,
  OpenEngineOptions,
  PruneParams,
  PruneResult,
  RecordSource,
  ReportMethods,
  RestoreParams,
  RestoreResult,
  TeamInfo,
} from './types.js'

export { SCHEMA_VERSION } from './db/migrate.js'
import { DeprecatedEngineAliases } from './engine-aliases.js'
import {
  backup,
  engineStatus,
  exportParquet,
  prune,
  restoreBackup as restore,
  tableCounts,
  type EngineInternals,
  type OpenInternals,
} from './engine/operations.js'

/** The engines this module opened, with what the operations may use of each (never published). */
const INTERNALS = new WeakMap<DuckDBEngine, EngineInternals>()

/** The base: the deprecated names, and the report methods' types (installed by the static block). */
const EngineBase = DeprecatedEngineAliases as abstract new () => DeprecatedEngineMethods & ReportMethods

class DuckDBEngine extends EngineBase implements Engine {
  #open = true
  /** Opened for serving: DuckDB cannot touch files. */
  hardened: boolean
  readonly db: Database
  catalog: Catalog
  readOnly: boolean
  readonly write: Database['write']
  readonly pool: Database['pool']
  readonly aggregates: AggregateStore
  readonly #writeMutex = new Mutex()
  /** Reports run beside commits and again when one landed meanwhile (src/db/lock.ts). */
  readonly #gate = new CommitGate()
  readonly #keys: ApiKeys
  readonly #ingest: EngineIngest
  readonly #webhooks: WebhookService
  /** What src/engine/operations.ts may use of this engine. */
  readonly #internals: EngineInternals
  /** Signs the answers listing's cursors (src/reports/answers/cursor.ts). */
  readonly #cursorKey: Uint8Array

  constructor(parts: EngineParts) {
    super()
    const { db } = parts
    this.db = db
    this.catalog = parts.catalog
    this.readOnly = parts.readOnly
    this.hardened = parts.hardened
    this.#cursorKey = parts.cursorKey
    this.write = db.write
    this.pool = db.pool
    this.#keys = new ApiKeys(parts.activeKeys, {
      write: (fn) => this.#writeMutex.run(() => fn(this.write)),
      read: (fn) => this.pool.use((c) => fn(c.conn)),
    })
    this.aggregates = new AggregateStore(this.#gate.loads(db.pool), parts.aggregates)
    const state = () => this
    this.#internals = {
      db,
      pool: db.pool,
      write: db.write,
      aggregates: this.aggregates,
      // The state an operation reads is the engine's current one.
      get catalog() {
        return state().catalog
      },
      get readOnly() {
        return state().readOnly
      },
      get hardened() {
        return state().hardened
      },
      check: () => this.#check(),
      exclusive: (fn) => this.#writeMutex.run(fn),
      reading: (fn) => this.#gate.exclusiveRead(fn),
      commit: (catalog, apply) =>
        this.#commit(() => {
          this.catalog = catalog
          apply()
        }),
      rollback: (e, id, after) => this.#rollback(e, id, after),
      ingest: (records) => this.ingest(records),
      exportParquet: (dir, options) => this.exportParquet(dir, options),
      close: () => this.close(),
    }
    INTERNALS.set(this, this.#internals)
    // Signals for detection: the report's default parameters (docs/WEBHOOKS.md).
    this.#webhooks = attachWebhooks(
      this,
      db,
      () => this.catalog,
      async (domainId) => (await this.computeSignals({ domainId })).data.items,
    )
    this.#ingest = new EngineIngest(this.#internals, parts.nextAnalysisKey, (staged) => {
      this.#keys.forgetTeams(staged.deletedTeams)
      this.#webhooks.touched(touchedDomains(this.catalog, staged.changedDays))
      // A deleted team's subscriptions go with it (docs/WEBHOOKS.md).
      this.#webhooks.teamsDeleted(staged.deletedTeams).catch(() => undefined)
    })
  }

  // The report methods, one per entry of the registry of report modules (src/reports/index.ts):
  // `compute<Name>(params)` runs `compute<Name>(ctx, params)` under the read lock (#report).
  static {
    for (const [name, compute] of Object.entries(REPORTS)) {
      Object.defineProperty(DuckDBEngine.prototype, name, {
        value(this: DuckDBEngine, params: unknown) {
          return this.#report(compute as (ctx: QueryContext, params: unknown) => Promise<unknown>, params)
        },
        writable: true,
        configurable: true,
      })
    }
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
    return this.#gate.read(() =>
      compute({ catalog: this.catalog, aggregates: this.aggregates, cursorKey: this.#cursorKey }, params),
    )
  }

  ingest(records: RecordSource): Promise<IngestResult> {
    return this.#ingest.records(records)
  }

  ingestArrow(tables: ArrowTables): Promise<IngestResult> {
    return this.#ingest.arrow(tables)
  }

  ingestFile(path: string, options?: IngestFileOptions): Promise<IngestResult> {
    return this.#ingest.file(path, options)
  }

  exportParquet(dir: string, options: ExportParquetOptions = {}): Promise<ExportResult> {
    return exportParquet(this.#internals, openInternals, dir, options)
  }

  async stats(): Promise<Record<string, number>> {
    return tableCounts(this.#internals)
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

  /** COMMITs the write transaction, then applies `apply` to memory; reports go on meanwhile. */
  #commit(apply: () => void): Promise<void> {
    return this.#gate.commit(async () => void (await this.write.run('COMMIT')), apply)
  }

  /** Rolls the write transaction back and rethrows (DuckDB's own errors as a QueryError named `id`). */
  async #rollback(e: unknown, id: string, after?: () => Promise<void>): Promise<never> {
    await this.write.run('ROLLBACK').catch(() => undefined)
    if (after) await after().catch(() => undefined)
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
    await this.#webhooks.close()
    await this.#writeMutex.run(async () => {
      await this.#gate.close(async () => {
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
  if (options.parquet === undefined) return new DuckDBEngine(await openEngineParts(options))
  const { parquet, path: _path, readOnly: _readOnly, ...rest } = options
  checkParquetDir(parquet)
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
