/**
 * A small in-memory Engine for HTTP tests that need to force what the real engine will not do on
 * demand: slow queries, failures with DuckDB-looking messages, counting calls.
 *
 * Its reports are derived from the endpoint table: each row's `method` (and each deprecated name)
 * runs one generic computation that counts the call, waits `delayMs`, throws `failWith`, and then
 * answers what the reference model (test/reference/model.ts) answers for the records ingested so
 * far. A new row needs no edit here.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { ENDPOINTS, type ComputeMethod, type Endpoint } from '../../src/api/endpoints.js'
import { DEPRECATED_ENGINE_METHODS } from '../../src/engine-aliases.js'
import { NotFoundError } from '../../src/errors.js'
import type {
  AnalysisInputRecord,
  ApiKeyInfo,
  BackupResult,
  CreateApiKeyParams,
  CreatedApiKey,
  DeprecatedEngineMethods,
  DomainInfo,
  Engine,
  EngineStatus,
  IngestResult,
  PruneResult,
  RecordSource,
  TeamInfo,
} from '../../src/types.js'
import { ReferenceModel } from '../reference/model.js'

/** The engine methods the fake derives: the table's `compute<Name>` methods and the old names. */
type DerivedMethod = ComputeMethod | keyof DeprecatedEngineMethods

/** The compute methods of the endpoint table, once each. */
const TABLE_METHODS = [...new Set((ENDPOINTS as readonly Endpoint[]).map((row) => row.method))]

/** The derived report methods, typed as the Engine's (assigned on the prototype below). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- methods added below
export interface FakeEngine extends Pick<Engine, DerivedMethod> {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface
export class FakeEngine implements Engine {
  teams = new Map<string, TeamInfo>()
  domains = new Map<string, DomainInfo>()
  keys = new Map<string, { info: ApiKeyInfo; hash: Buffer }>()
  /** Calls of the report methods (any row of the endpoint table). */
  computeCalls = 0
  /** Milliseconds each compute call takes. */
  delayMs = 0
  /** When set, compute calls throw it. */
  failWith: unknown = undefined
  #open = true
  /** Computes every report from the records ingested (teams and domains included). */
  readonly #model = new ReferenceModel()

  /**
   * One report call: counted, delayed, failed on demand; a domain the fake does not hold is a
   * NotFoundError (tests delete from `domains` to fake one vanishing); else the reference model's
   * answer.
   */
  async report(method: ComputeMethod, params: unknown): Promise<unknown> {
    this.computeCalls += 1
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs))
    if (this.failWith !== undefined) throw this.failWith
    const domainId = (params as { domainId?: unknown } | undefined)?.domainId
    if (typeof domainId === 'string' && !this.domains.has(domainId.toLowerCase()))
      throw new NotFoundError('domain', domainId)
    const compute = this.#model[method as keyof ReferenceModel] as (p: unknown) => unknown
    if (typeof compute !== 'function') throw new Error(`the reference model has no ${method}`)
    return compute.call(this.#model, params ?? {})
  }

  addTeam(team: Partial<TeamInfo> & { id: string }): TeamInfo {
    const info: TeamInfo = { name: 'Team', plan: 'pro', developer_access: true, ...team }
    this.teams.set(info.id, info)
    this.#model.ingest([{ type: 'team', ...info }])
    return info
  }

  addDomain(domain: Partial<DomainInfo> & { id: string; team_id: string }): DomainInfo {
    const info: DomainInfo = { brand_name: 'Brand', website: null, ...domain }
    this.domains.set(info.id, info)
    this.#model.ingest([{ type: 'domain', ...info }])
    return info
  }

  /** Stores every record in the reference model; teams and domains also in `teams`, `domains`. */
  async ingest(records: RecordSource): Promise<IngestResult> {
    const result: IngestResult = {
      teams: 0,
      domains: 0,
      prompts: 0,
      competitors: 0,
      themes: 0,
      analyses: 0,
      mentions: 0,
      citations: 0,
      theme_occurrences: 0,
      fanout_queries: 0,
    }
    for await (const record of records as AsyncIterable<Record<string, unknown>>) {
      if (record.type === 'team') {
        const { type: _type, ...team } = record as unknown as TeamInfo & { type: string }
        this.addTeam({ ...team, id: team.id.toLowerCase() })
        result.teams += 1
      } else if (record.type === 'domain') {
        const { type: _type, ...domain } = record as unknown as DomainInfo & { type: string }
        this.addDomain({ ...domain, id: domain.id.toLowerCase(), team_id: domain.team_id.toLowerCase() })
        result.domains += 1
      } else {
        this.#model.ingest([record as unknown as AnalysisInputRecord])
        result.analyses += 1
      }
    }
    return result
  }

  async ingestFile(): Promise<IngestResult> {
    throw new Error('not in the fake')
  }

  // Operations: not in the fake.
  async prune(): Promise<PruneResult> {
    throw new Error('not in the fake')
  }
  async backup(): Promise<BackupResult> {
    throw new Error('not in the fake')
  }
  status(): EngineStatus {
    return { file: null, fileBytes: 0, aggregateCache: { rows: 0, entries: 0, hits: 0, misses: 0 } }
  }

  async ingestArrow(): Promise<IngestResult> {
    throw new Error('not in the fake')
  }

  async exportParquet(): Promise<never> {
    throw new Error('not in the fake')
  }

  async getDomain(id: string): Promise<DomainInfo | null> {
    return this.domains.get(id.toLowerCase()) ?? null
  }

  async getTeam(id: string): Promise<TeamInfo | null> {
    return this.teams.get(id.toLowerCase()) ?? null
  }

  async createApiKey(p: CreateApiKeyParams): Promise<CreatedApiKey> {
    const key = `va_test_${randomBytes(24).toString('base64url')}`
    const info: ApiKeyInfo = {
      id: randomUUID(),
      prefix: key.slice(0, 12),
      team_id: p.teamId,
      scope_team_ids: p.scopeTeamIds ?? [p.teamId],
      allowed_domains: p.allowedDomains ?? null,
      name: p.name ?? null,
      created_at: new Date().toISOString(),
      revoked_at: null,
    }
    this.keys.set(info.id, { info, hash: createHash('sha256').update(key).digest() })
    return { key, info }
  }

  async listApiKeys(): Promise<ApiKeyInfo[]> {
    return [...this.keys.values()].map((k) => k.info)
  }

  async revokeApiKey(id: string): Promise<boolean> {
    const entry = this.keys.get(id)
    if (entry === undefined) return false
    entry.info = { ...entry.info, revoked_at: new Date().toISOString() }
    return true
  }

  async verifyApiKey(secret: string): Promise<ApiKeyInfo | null> {
    const hash = createHash('sha256').update(secret).digest()
    for (const { info, hash: stored } of this.keys.values()) {
      if (timingSafeEqual(hash, stored)) return info.revoked_at === null ? info : null
    }
    return null
  }

  async stats(): Promise<Record<string, number>> {
    return { teams: this.teams.size, domains: this.domains.size }
  }

  get isOpen(): boolean {
    return this.#open
  }

  async close(): Promise<void> {
    this.#open = false
  }
}

for (const method of TABLE_METHODS) {
  Object.defineProperty(FakeEngine.prototype, method, {
    value(this: FakeEngine, params: unknown) {
      return this.report(method, params)
    },
    writable: true,
    configurable: true,
  })
}
for (const [old, method] of Object.entries(DEPRECATED_ENGINE_METHODS)) {
  Object.defineProperty(FakeEngine.prototype, old, {
    value(this: FakeEngine, params: unknown) {
      return (this[method] as (p: unknown) => Promise<unknown>)(params)
    },
    writable: true,
    configurable: true,
  })
}
