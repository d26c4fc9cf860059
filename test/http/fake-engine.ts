/**
 * A small in-memory Engine for HTTP tests that need to force what the real engine will not do on
 * demand: slow queries, failures with DuckDB-looking messages, counting calls.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { NotFoundError, ValidationError } from '../../src/errors.js'
import { keyReadsDomain } from '../../src/key-scope.js'
import { DeprecatedEngineAliases } from '../../src/engine-aliases.js'
import type {
  BackupResult,
  EngineStatus,
  PruneResult,
  ApiKeyInfo,
  CreateApiKeyParams,
  CreatedApiKey,
  DomainInfo,
  Engine,
  IngestResult,
  RecordSource,
  SentimentParams,
  TeamInfo,
} from '../../src/types.js'
import type {
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
  CitationsParams,
  CitationsPayload,
  CitedDomainsPayload,
  FanoutQueriesParams,
  FanoutQueriesPayload,
  SentimentSeriesPayload,
  CompetitorSeriesParams,
  CompetitorSeriesPayload,
  PromptSeriesParams,
  PromptSeriesPayload,
  SentimentOverviewPayload,
  SentimentThemesPayload,
} from '../../src/reports/index.js'

const iso = (now: Date | string | undefined): string => new Date(now ?? Date.now()).toISOString()

export class FakeEngine extends DeprecatedEngineAliases implements Engine {
  teams = new Map<string, TeamInfo>()
  domains = new Map<string, DomainInfo>()
  keys = new Map<string, { info: ApiKeyInfo; hash: Buffer }>()
  /** Calls of the four compute functions. */
  computeCalls = 0
  /** Milliseconds each compute call takes. */
  delayMs = 0
  /** When set, compute calls throw it. */
  failWith: unknown = undefined
  #open = true

  addTeam(team: Partial<TeamInfo> & { id: string }): TeamInfo {
    const info: TeamInfo = { name: 'Team', plan: 'pro', developer_access: true, ...team }
    this.teams.set(info.id, info)
    return info
  }

  addDomain(domain: Partial<DomainInfo> & { id: string; team_id: string }): DomainInfo {
    const info: DomainInfo = { brand_name: 'Brand', website: null, ...domain }
    this.domains.set(info.id, info)
    return info
  }

  /** Stores team and domain records (other types are counted as analyses and dropped). */
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
      } else result.analyses += 1
    }
    return result
  }

  async ingestFile(): Promise<IngestResult> {
    throw new Error('not in the fake')
  }

  // Operations (issue 13): not in the fake.
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

  async #compute(domainId: string): Promise<void> {
    this.computeCalls += 1
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs))
    if (this.failWith !== undefined) throw this.failWith
    if (!this.domains.has(domainId)) throw new NotFoundError('domain', domainId)
  }

  #days(days: number | undefined): number {
    const d = days ?? 30
    if (!Number.isInteger(d) || d < 1 || d > 365) {
      throw new ValidationError([{ path: 'days', message: 'days must be an integer from 1 to 365.' }])
    }
    return d
  }

  async computePromptSeries(p: PromptSeriesParams): Promise<PromptSeriesPayload> {
    await this.#compute(p.domainId)
    return {
      data: {
        items: [
          {
            id: randomUUID(),
            text: 'best tool',
            estimated_search_volume: null,
            series: [{ date: '2026-11-20', mentions: 1, responses: 2, citations: 0, avg_position: null }],
          },
        ],
      },
      domain_id: p.domainId,
      days: this.#days(p.days),
      limit: p.limit ?? 25,
      generated_at: iso(p.now),
    }
  }

  async computeCompetitorSeries(p: CompetitorSeriesParams): Promise<CompetitorSeriesPayload> {
    await this.#compute(p.domainId)
    return {
      data: { items: [] },
      domain_id: p.domainId,
      days: this.#days(p.days),
      model: p.model ?? 'all',
      generated_at: iso(p.now),
    }
  }

  async computeSentimentOverview(p: SentimentParams): Promise<SentimentOverviewPayload> {
    await this.#compute(p.domainId)
    return {
      data: { positive_percent: 50, negative_percent: 50, total_mentions: 3 },
      domain_id: p.domainId,
      days: this.#days(p.days),
      model: p.model ?? 'all',
      generated_at: iso(p.now),
    }
  }

  async computeSentimentThemes(p: SentimentParams): Promise<SentimentThemesPayload> {
    await this.#compute(p.domainId)
    return {
      data: { items: [] },
      domain_id: p.domainId,
      days: this.#days(p.days),
      model: p.model ?? 'all',
      generated_at: iso(p.now),
    }
  }

  /** Like the engine: the domains the key may read, by name then id, as one page. */
  async computeDomainList(p: ListDomainsParams = {}): Promise<ListDomainsPayload> {
    const key = p.key ?? null
    const items = [...this.domains.values()]
      .filter((d) => key === null || keyReadsDomain(key, d, this.teams.get(d.team_id)))
      .sort((a, b) =>
        a.brand_name < b.brand_name ? -1 : a.brand_name > b.brand_name ? 1 : a.id < b.id ? -1 : 1,
      )
      .map((d) => ({ id: d.id, name: d.brand_name, website: d.website, created_at: null }))
    return {
      data: { items, total: items.length, page: 1, size: items.length, total_pages: 1 },
      generated_at: iso(p.now),
    }
  }

  async computeKeyCheck(p: ValidateParams): Promise<ValidatePayload> {
    const team = this.teams.get(p.key.teamId.toLowerCase())
    if (team === undefined) throw new NotFoundError('team', p.key.teamId)
    return {
      data: {
        team_id: team.id,
        team_name: team.name,
        plan: team.plan,
        developer_access: team.developer_access,
        scoped_team_ids: [...p.key.scopeTeamIds].sort(),
        allowed_domains: p.key.allowedDomains,
        rate_limit: {
          limit_per_minute: p.rateLimit.limitPerMinute,
          remaining: Math.max(0, p.rateLimit.limitPerMinute - p.rateLimit.used),
          reset_at: iso(p.rateLimit.resetAt),
        },
      },
      generated_at: iso(p.now),
    }
  }

  async computePromptList(p: ListPromptsParams): Promise<ListPromptsPayload> {
    await this.#compute(p.domainId)
    const page = p.page ?? 1
    const size = p.size ?? 50
    return {
      data: { items: [], total: 0, page, size, total_pages: 1 },
      domain_id: p.domainId,
      page,
      size,
      generated_at: iso(p.now),
    }
  }

  async computeBrandRankings(p: BrandRankingsParams): Promise<BrandRankingsPayload> {
    await this.#compute(p.domainId)
    const echo = { domain_id: p.domainId, days: this.#days(p.days), model: p.model ?? 'all' }
    return { data: { items: [] }, ...echo, generated_at: iso(p.now) }
  }

  async computeModelLeaderboard(p: ModelLeaderboardParams): Promise<ModelLeaderboardPayload> {
    await this.#compute(p.domainId)
    return { data: { items: [] }, domain_id: p.domainId, days: this.#days(p.days), generated_at: iso(p.now) }
  }

  async computeBrandSeries(p: BrandSeriesParams): Promise<BrandSeriesPayload> {
    await this.#compute(p.domainId)
    const echo = { domain_id: p.domainId, days: this.#days(p.days), model: p.model ?? 'all' }
    return { data: { items: [] }, ...echo, generated_at: iso(p.now) }
  }

  // Citations, cited domains, fan-out queries, sentiment over time: empty bodies.
  computeCitations(p: CitationsParams): Promise<CitationsPayload> {
    return this.#citationList(p)
  }

  computeCitedDomains(p: CitationsParams): Promise<CitedDomainsPayload> {
    return this.#citationList(p)
  }

  async #citationList(p: CitationsParams) {
    await this.#compute(p.domainId)
    const data = { items: [], total: 0 }
    return { data, ...this.#echo(p), limit: p.limit ?? 100, generated_at: iso(p.now) }
  }

  async computeFanoutQueries(p: FanoutQueriesParams): Promise<FanoutQueriesPayload> {
    await this.#compute(p.domainId)
    return { data: { items: [], total: 0 }, ...this.#echo(p), generated_at: iso(p.now) }
  }

  async computeSentimentSeries(p: SentimentParams): Promise<SentimentSeriesPayload> {
    await this.#compute(p.domainId)
    return { data: { items: [] }, ...this.#echo(p), generated_at: iso(p.now) }
  }

  #echo(p: FanoutQueriesParams): { domain_id: string; days: number; model: string } {
    return { domain_id: p.domainId, days: this.#days(p.days), model: p.model ?? 'all' }
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
