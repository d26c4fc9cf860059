import type { Table as ArrowTable } from 'apache-arrow'
import type {
  BRAND_METRICS,
  CHANNELS,
  DELETE_ENTITIES,
  GRANULARITIES,
  PLANS,
} from './foundation/vocabulary.js'

/**
 * Public types of the engine: input records (docs/API.md, "Ingest: records"), compute parameters and the
 * documented response payloads (docs/API.md, "Reports"). Field order in the payload types is the
 * order of the JSON the engine produces.
 */

export type Channel = (typeof CHANNELS)[number]

export type Plan = (typeof PLANS)[number]

export interface TeamRecord {
  type: 'team'
  id: string
  name: string
  plan: Plan
  developer_access: boolean
}
export interface DomainRecord {
  type: 'domain'
  id: string
  team_id: string
  brand_name: string
  website: string | null
  /** When the domain was created: ISO 8601 with Z or an offset; absent or null: unknown. */
  created_at?: string | null
}
export interface PromptRecord {
  type: 'prompt'
  id: string
  domain_id: string
  text: string
  estimated_search_volume: number | null
  /** When the prompt was created: ISO 8601 with Z or an offset; absent or null: unknown. */
  created_at?: string | null
  /** The prompt's topic: 1-100 UTF-16 code units once trimmed; stored trimmed. Absent or null: none. */
  topic?: string | null
  /**
   * The prompt's tags: at most 20, each 1-50 UTF-16 code units once trimmed; stored trimmed, exact
   * duplicates removed. Absent: none. Re-ingesting the prompt replaces them.
   */
  tags?: string[]
}
export interface CompetitorRecord {
  type: 'competitor'
  id: string
  domain_id: string
  name: string
  website: string | null
}
export interface ThemeRecord {
  type: 'theme'
  id: string
  domain_id: string
  name: string
  custom_name: string | null
  archived: boolean
  sentiment: 'positive' | 'negative'
  created_at: string
}
export interface MentionInput {
  entity_id: string
  position: number | null
  sentiment: number | null
}
export interface CitationInput {
  url: string
  /** The cited page's title: 1-1000 characters; absent or null: unknown. */
  title?: string | null
  /** The kind of page (`article`, `product`, ...): 1-100 characters; absent or null: unknown. */
  page_type?: string | null
}
export interface ThemeOccurrenceInput {
  theme_id: string
  occurrences: number
}
export interface AnalysisRecord {
  type: 'analysis'
  id: string
  domain_id: string
  prompt_id: string
  channel: Channel
  model: string
  answered_at: string
  mentions: MentionInput[]
  citations: CitationInput[]
  themes: ThemeOccurrenceInput[]
  /**
   * The search queries the answer engine issued for this answer (its "fan-out"): at most 100, each
   * 1-500 UTF-16 code units once trimmed (JavaScript `trim()`); stored trimmed. Absent: none.
   */
  fanout_queries?: string[]
  /** Where the answer was asked: two ASCII letters (ISO 3166-1 alpha-2), any case; stored upper case. */
  country?: string | null
  /** The answer's text: 0-200,000 UTF-16 code units. Absent or null: not kept. */
  response?: string | null
}
export type AnalysisInputRecord =
  TeamRecord | DomainRecord | PromptRecord | CompetitorRecord | ThemeRecord | AnalysisRecord

/** Counts of records stored by one ingest call (after in-call de-duplication). */
export interface IngestResult {
  teams: number
  domains: number
  prompts: number
  competitors: number
  themes: number
  analyses: number
  mentions: number
  citations: number
  theme_occurrences: number
  fanout_queries: number
}

/** A clock: a Date or an ISO 8601 string. */
export type Clock = Date | string

export type Granularity = (typeof GRANULARITIES)[number]

/**
 * An explicit window instead of `days` (docs/API.md, "Date ranges and buckets"): both dates or neither, start <= end
 * <= today (UTC), at most 365 days, both included.
 */
export interface DateRangeParams {
  /** `YYYY-MM-DD`, the first UTC date of the window. */
  startDate?: string
  /** `YYYY-MM-DD`, the last UTC date of the window, today at the latest. */
  endDate?: string
}
/** The bucket of a time series' datapoints (default `day`). */
export interface GranularityParams {
  granularity?: Granularity
}
/** What a payload echoes of an explicit window (after `days`, the window's length). */
export interface RangeEcho {
  start_date?: string | undefined
  end_date?: string | undefined
}
/** The echo of `granularity`, only when the request gave it. */
export interface GranularityEcho {
  granularity?: Granularity | undefined
}

export interface PromptSeriesParams extends DateRangeParams, GranularityParams {
  domainId: string
  /** 1-365, default 30. */
  days?: number
  /** 1-100, default 25. */
  limit?: number
  /** Defaults to the current time. */
  now?: Clock
}
export interface CompetitorSeriesParams extends DateRangeParams, GranularityParams {
  domainId: string
  days?: number
  /** `all` (default) or a channel name. */
  model?: string
  now?: Clock
}
export interface SentimentParams extends DateRangeParams {
  domainId: string
  days?: number
  /** `all` (default), a channel name, or a raw model identifier. */
  model?: string
  now?: Clock
}

export interface PromptDatapoint {
  date: string
  mentions: number
  responses: number
  citations: number
  avg_position: number | null
}
export interface PromptEntry {
  id: string
  text: string
  estimated_search_volume: number | null
  series: PromptDatapoint[]
}
export interface PromptSeriesPayload extends RangeEcho, GranularityEcho {
  data: { items: PromptEntry[] }
  domain_id: string
  days: number
  limit: number
  generated_at: string
}

export interface CompetitorDatapoint {
  date: string
  mentions: number
  visibility: number
  sov: number
  avg_position: number
  sentiment: number
}
export interface CompetitorEntry {
  id: string
  name: string
  website: string | null
  is_brand: boolean
  avg_mentions: number
  avg_position: number
  avg_visibility: number
  avg_sov: number
  avg_sentiment: number
  total_queries: number
  series: CompetitorDatapoint[]
}
export interface CompetitorSeriesPayload extends RangeEcho, GranularityEcho {
  data: { items: CompetitorEntry[] }
  domain_id: string
  days: number
  model: string
  generated_at: string
}

export interface SentimentOverviewPayload extends RangeEcho {
  data: { positive_percent: number; negative_percent: number; total_mentions: number }
  domain_id: string
  days: number
  model: string
  generated_at: string
}

export interface ThemeEntry {
  id: string
  name: string
  sentiment: 'positive' | 'negative'
  occurrences: number
  created_at: string
}
export interface SentimentThemesPayload extends RangeEcho {
  data: { items: ThemeEntry[] }
  domain_id: string
  days: number
  model: string
  generated_at: string
}

// ---------------------------------------------------------------------------------------------
// Listings, rankings and brand time series (extensions.md sections 3-5).

/** What an API key says about its reach, as the listings take it (docs/API.md, "Authentication and keys"). */
export interface KeyScope {
  /** The key's own team. */
  teamId: string
  /** The teams the key may read. */
  scopeTeamIds: string[]
  /** null: every domain of the scoped teams. */
  allowedDomains: string[] | null
}
export interface ValidateParams {
  key: KeyScope
  /** The key's rate-limit window after counting the request being answered. */
  rateLimit: {
    /** Requests allowed per window. */
    limitPerMinute: number
    /** Requests counted in the window, this one included. */
    used: number
    /** When the window ends. */
    resetAt: Clock
  }
  now?: Clock
}
export interface ListDomainsParams {
  /** Whose domains: omitted or null lists every domain (a local, trusted reader). */
  key?: KeyScope | null
  now?: Clock
}
export interface ListPromptsParams {
  domainId: string
  /** >= 1, default 1. */
  page?: number
  /** 1-500, default 50. */
  size?: number
  now?: Clock
}
/** domain_id, days, model: the brand rankings and the brand time series. */
export interface BrandReportParams extends DateRangeParams {
  domainId: string
  /** 1-365, default 30. */
  days?: number
  /** `all` (default), a channel name, or a raw model identifier. */
  model?: string
  now?: Clock
}
export type BrandRankingsParams = BrandReportParams
export interface ModelLeaderboardParams extends DateRangeParams {
  domainId: string
  days?: number
  now?: Clock
}
export type BrandMetric = (typeof BRAND_METRICS)[number]
export interface BrandSeriesParams extends BrandReportParams, GranularityParams {
  /** Which of the four brand time series. */
  metric: BrandMetric
}

export interface ValidatePayload {
  data: {
    team_id: string
    team_name: string
    plan: Plan
    developer_access: boolean
    scoped_team_ids: string[]
    allowed_domains: string[] | null
    rate_limit: { limit_per_minute: number; remaining: number; reset_at: string }
  }
  generated_at: string
}

/** One page of a listing. */
export interface Page<T> {
  items: T[]
  total: number
  page: number
  size: number
  total_pages: number
}
export interface DomainItem {
  id: string
  name: string
  website: string | null
  /** ISO 8601 UTC with milliseconds, or null. */
  created_at: string | null
}
export interface ListDomainsPayload {
  data: Page<DomainItem>
  generated_at: string
}
export interface PromptItem {
  id: string
  text: string
  estimated_search_volume: number | null
  /** ISO 8601 UTC with milliseconds, or null. */
  created_at: string | null
}
export interface ListPromptsPayload {
  data: Page<PromptItem>
  domain_id: string
  page: number
  size: number
  generated_at: string
}

export interface BrandRankingItem {
  id: string
  name: string
  website: string | null
  is_brand: boolean
  mentions: number
  visibility: number
  sov: number
  avg_position: number | null
  prompts_mentioned: number
  total_prompts: number
}
export interface BrandRankingsPayload extends RangeEcho {
  data: { items: BrandRankingItem[] }
  domain_id: string
  days: number
  model: string
  generated_at: string
}
export interface LeaderboardItem {
  /** The channel. */
  model: Channel
  visibility: number
  avg_position: number | null
  mentions: number
  responses: number
}
export interface ModelLeaderboardPayload extends RangeEcho {
  data: { items: LeaderboardItem[] }
  domain_id: string
  days: number
  generated_at: string
}
export interface ValuePoint {
  date: string
  value: number
}
export interface BrandSeriesPayload extends RangeEcho, GranularityEcho {
  data: { items: ValuePoint[] }
  domain_id: string
  days: number
  model: string
  generated_at: string
}

/** A domain as `getDomain` returns it. */
export interface DomainInfo {
  id: string
  brand_name: string
  website: string | null
  team_id: string
}
export interface TeamInfo {
  id: string
  name: string
  plan: Plan
  developer_access: boolean
}

/** An API key as stored (never the secret itself). */
export interface ApiKeyInfo {
  id: string
  /** The first characters of the key, safe to show (for example `va_live_AbCd`). */
  prefix: string
  team_id: string
  /** Teams the key may read; by default its own team. */
  scope_team_ids: string[]
  /** null: every domain of the scoped teams. */
  allowed_domains: string[] | null
  name: string | null
  created_at: string
  revoked_at: string | null
}
export interface CreateApiKeyParams {
  teamId: string
  scopeTeamIds?: string[]
  allowedDomains?: string[] | null
  name?: string | null
}
export interface CreatedApiKey {
  /** The secret: shown once, stored only as a SHA-256 hash. */
  key: string
  info: ApiKeyInfo
}

export interface OpenEngineOptions {
  /** A DuckDB file; omitted: in memory. */
  path?: string
  /** Open the file read-only (no ingest). */
  readOnly?: boolean
  /**
   * Serving mode: external file access disabled and configuration locked once the schema is
   * ready (no query can read files or change settings).
   */
  hardened?: boolean
  /** How many read connections run queries concurrently (default 2). */
  readConnections?: number
  /**
   * Keep each queried domain's daily aggregates in memory, column-wise (default true). Off, every
   * query reads the domain's aggregate rows from DuckDB again (slower, no memory held between
   * queries); the payloads are the same.
   */
  aggregateCache?: boolean
  /** Aggregate rows the cache may hold in all (default 5,000,000, about 40 bytes each). */
  aggregateCacheRows?: number
  /** A directory written by `exportParquet`: query it directly, read-only. */
  parquet?: string
  /**
   * DuckDB's memory limit in MB (default 256): above it, an ingest's staged rows, joins and sorts
   * spill to `tempDirectory`, so a call of any size runs in bounded memory.
   */
  memoryLimitMB?: number
  /** Where DuckDB spills (default: `<path>.tmp` beside a file, `<os tmpdir>/va-duckdb-<pid>` in memory). */
  tempDirectory?: string
}

/** The flat tables of docs/API.md, "Ingest: records", as Arrow tables (any subset). */
export type ArrowTables = Partial<
  Record<
    | 'teams'
    | 'domains'
    | 'prompts'
    | 'competitors'
    | 'themes'
    | 'analyses'
    | 'mentions'
    | 'citations'
    | 'theme_occurrences'
    | 'deletes'
    | 'fanout_queries'
    | 'prompt_tags',
    ArrowTable
  >
>

export interface IngestFileOptions {
  /** Called as an NDJSON file is read: bytes read so far and the file's size. */
  onProgress?: (bytesRead: number, totalBytes: number) => void
}

export interface ExportParquetOptions {
  /** Only these domains (and their teams); default every domain. */
  domainIds?: string[]
}
export interface ExportResult {
  dir: string
  /** Rows written per flat table. */
  tables: Record<string, number>
}

/** What `ingest` accepts: an array or an (async) iterable of records (plain objects, unvalidated). */
export type RecordSource = Iterable<unknown> | AsyncIterable<unknown>

/**
 * The engine: one DuckDB database (in memory or a file) with the analytics tables.
 * @example
 * const engine = await openEngine()
 * await engine.ingestFile('analyses.ndjson')
 * const payload = await engine.computePromptSeries({ domainId, days: 7 })
 * await engine.close()
 */
export interface Engine extends DeprecatedEngineMethods {
  /** Validates and stores records in one transaction (all or nothing). */
  ingest(records: RecordSource): Promise<IngestResult>
  /**
   * Streams an NDJSON (.ndjson/.jsonl) file into one transaction; a directory is read as a Parquet
   * export written by `exportParquet`.
   */
  ingestFile(path: string, options?: IngestFileOptions): Promise<IngestResult>
  /** Ingests the flat tables as Arrow tables, validated like any input, in one transaction. */
  ingestArrow(tables: ArrowTables): Promise<IngestResult>
  /**
   * Writes the flat tables as Parquet under `dir`: teams.parquet, domains.parquet, and one folder
   * per other table, hive-partitioned by domain_id (prompts/domain_id=<uuid>/data_0.parquet), plus
   * manifest.json. `dir` must be empty, missing, or an earlier export (which is replaced).
   */
  exportParquet(dir: string, options?: ExportParquetOptions): Promise<ExportResult>
  computePromptSeries(params: PromptSeriesParams): Promise<PromptSeriesPayload>
  computeCompetitorSeries(params: CompetitorSeriesParams): Promise<CompetitorSeriesPayload>
  computeSentimentOverview(params: SentimentParams): Promise<SentimentOverviewPayload>
  computeSentimentThemes(params: SentimentParams): Promise<SentimentThemesPayload>

  // Listings, rankings and brand time series (docs/API.md, "Listings", "Rankings", "Brand time series").
  /**
   * The key's team, scope and rate-limit state (GET /api/v1/validate): the library takes what the
   * key says and the rate-limit window the caller keeps.
   */
  computeKeyCheck(params: ValidateParams): Promise<ValidatePayload>
  /** The domains a key may read, by name then id (every domain without a key), as one page. */
  computeDomainList(params?: ListDomainsParams): Promise<ListDomainsPayload>
  /** A page of the domain's prompts, newest first (by created_at; unknown last), then by id. */
  computePromptList(params: ListPromptsParams): Promise<ListPromptsPayload>
  /** The brand and every competitor ranked over the window. */
  computeBrandRankings(params: BrandRankingsParams): Promise<BrandRankingsPayload>
  /** Per channel with analyses in the window, the brand's visibility and position. */
  computeModelLeaderboard(params: ModelLeaderboardParams): Promise<ModelLeaderboardPayload>
  /** One of the four brand time series (visibility, mentions, citations, citability). */
  computeBrandSeries(params: BrandSeriesParams): Promise<BrandSeriesPayload>

  // Citations, cited domains, fan-out queries and sentiment over time (docs/API.md, "Citations, fan-out and sentiment over time").
  /** The cited URLs of the window's analyses, most cited first (the first `limit`). */
  computeCitations(params: CitationsParams): Promise<CitationsPayload>
  /** The cited hosts of the window's analyses, most cited first (the first `limit`). */
  computeCitedDomains(params: CitedDomainsParams): Promise<CitedDomainsPayload>
  /** Per prompt, the fan-out queries of the window's analyses with how many analyses issued each. */
  computeFanoutQueries(params: FanoutQueriesParams): Promise<FanoutQueriesPayload>
  /** The sentiment overview's numbers per UTC date with a theme. */
  computeSentimentSeries(params: SentimentSeriesParams): Promise<SentimentSeriesPayload>

  /** A domain by id (any case), or null. */
  getDomain(id: string): Promise<DomainInfo | null>
  /** A team by id (any case), or null. */
  getTeam(id: string): Promise<TeamInfo | null>

  /** Creates an API key; the secret is returned once and stored only as a SHA-256 hash. */
  createApiKey(params: CreateApiKeyParams): Promise<CreatedApiKey>
  listApiKeys(): Promise<ApiKeyInfo[]>
  /** Revokes a key by its id; false when no such key. */
  revokeApiKey(id: string): Promise<boolean>
  /** The key's stored info when the secret matches a stored, unrevoked key (constant-time compare), else null. */
  verifyApiKey(secret: string): Promise<ApiKeyInfo | null>

  /** Row counts of the stored tables (teams, domains, ..., analyses, mentions, citations, theme_occurrences). */
  stats(): Promise<Record<string, number>>

  /** Whether the database is open. */
  readonly isOpen: boolean
  close(): Promise<void>

  // Operations (docs/API.md, "Operations endpoints").
  /**
   * Deletes the analyses whose UTC date is before today - olderThanDays, with their rows and
   * aggregates, in one transaction.
   */
  prune(params: PruneParams): Promise<PruneResult>
  /**
   * Writes a consistent snapshot into `dir` (missing or empty): the Parquet export, the API keys
   * (hashes only) as api_keys.parquet, and manifest.json with row counts and a SHA-256 per file.
   * Ingest waits while a served (hardened) database file is copied; queries go on.
   */
  backup(dir: string): Promise<BackupResult>
  /** The file, its size and the aggregate cache (synchronous, cheap). */
  status(): EngineStatus
}

// ---------------------------------------------------------------------------------------------
// Operations (docs/API.md, "Operations endpoints"): delete records, retention, backups and the engine's runtime status.

export type DeleteEntity = (typeof DELETE_ENTITIES)[number]

/**
 * Deletes a stored entity in an ingest call, before the call's upserts. Cascades: a team takes its
 * domains and API keys; a domain its prompts, competitors, themes and analyses; a prompt its
 * analyses; a competitor its mentions; a theme its occurrences; an analysis its mentions, citations
 * and theme occurrences.
 */
export interface DeleteRecord {
  type: 'delete'
  entity: DeleteEntity
  id: string
}

/**
 * Rows removed by the deletions of one call or by a prune, cascades included: one count per
 * stored table the cascade reaches (a table added to the cascade adds its count).
 */
export interface DeletionCounts {
  teams: number
  domains: number
  prompts: number
  competitors: number
  themes: number
  analyses: number
  mentions: number
  citations: number
  theme_occurrences: number
  fanout_queries: number
  api_keys: number
  /** Delete records whose id was not stored (counted, not an error). */
  not_found: number
  [table: string]: number
}

export interface IngestResult {
  /** Present when the call carried delete records: what they removed (applied before the upserts). */
  deleted?: DeletionCounts
}

export interface PruneParams {
  /** Analyses whose UTC date is before (today - olderThanDays) are deleted: an integer >= 0. */
  olderThanDays: number
  /** The clock that sets "today" (default the current time). */
  now?: Clock
}
export interface PruneResult {
  /** The first UTC date kept (YYYY-MM-DD): analyses dated before it were deleted. */
  before: string
  /** Analyses and their rows removed, per table. */
  deleted: Record<string, number>
}

/** One file of a backup: its size and SHA-256 (hex). */
export interface BackupFile {
  bytes: number
  sha256: string
}
/** The manifest.json of a backup directory. */
export interface BackupManifest {
  format: 'visibility-analytics/backup'
  schema_version: number
  created_at: string
  /** The export's domain filter: always null (every domain). */
  domain_ids: null
  /** Rows per table: the flat tables and `api_keys`. */
  tables: Record<string, number>
  /** Every file of the backup but the manifest, by path relative to the directory. */
  files: Record<string, BackupFile>
}
export interface BackupResult {
  dir: string
  manifest: BackupManifest
}
export interface RestoreParams {
  /** A directory written by `backup`. */
  from: string
  /** The new database file (must not exist). */
  path: string
}
export interface RestoreResult {
  path: string
  /** Rows restored per table (equal to the manifest's). */
  tables: Record<string, number>
}

/** What an open engine holds right now (for metrics). */
export interface EngineStatus {
  /** The database file, or null in memory. */
  file: string | null
  /** Bytes of the database file and its write-ahead log (0 in memory). */
  fileBytes: number
  aggregateCache: { rows: number; entries: number; hits: number; misses: number }
}

// Citations, cited domains, fan-out queries and sentiment over time (docs/API.md, "Citations, fan-out and sentiment over time")

/** Parameters of the citations and cited-domains reports. */
export interface CitationsParams extends DateRangeParams {
  domainId: string
  /** 1-365, default 30. */
  days?: number
  /** `all` (default), a channel name, or a raw model identifier. */
  model?: string
  /** 1-1000, default 100. */
  limit?: number
  now?: Clock
}
export type CitedDomainsParams = CitationsParams

/** One cited URL of the citations report. */
export interface CitationItem {
  /** The WHATWG serialization of the URL, without its fragment. */
  url: string
  /** Its host: lower case, without a trailing dot or a leading `www.`. */
  domain: string
  title: string | null
  page_type: string | null
  /** Citation entries (an analysis citing it twice counts twice). */
  frequency: number
  /** Distinct analyses citing it. */
  responses: number
  prompt_count: number
  /** Citing analyses that mention the brand. */
  brand_mentions: number
  channels: Channel[]
  models: string[]
  is_brand: boolean
  competitor_id: string | null
  /** ISO 8601 UTC with milliseconds. */
  first_seen: string
  last_seen: string
}
export interface CitationsPayload extends RangeEcho {
  data: { items: CitationItem[]; total: number }
  domain_id: string
  days: number
  model: string
  limit: number
  generated_at: string
}

/** One cited host of the cited-domains report. */
export interface CitedDomainItem {
  domain: string
  frequency: number
  responses: number
  /** Distinct cited URLs on the host. */
  urls: number
  /** frequency / all citation entries * 100. */
  share: number
  is_brand: boolean
  competitor_id: string | null
}
export interface CitedDomainsPayload extends RangeEcho {
  data: { items: CitedDomainItem[]; total: number }
  domain_id: string
  days: number
  model: string
  limit: number
  generated_at: string
}

/** Parameters of the fan-out queries report. */
export interface FanoutQueriesParams extends DateRangeParams {
  domainId: string
  days?: number
  /** `all` (default), a channel name, or a raw model identifier. */
  model?: string
  now?: Clock
}
export interface FanoutQueryItem {
  /** Trimmed. */
  query: string
  /** Distinct analyses emitting it. */
  count: number
  channels: Channel[]
}
export interface FanoutPromptItem {
  id: string
  text: string
  fanout_queries: FanoutQueryItem[]
}
export interface FanoutQueriesPayload extends RangeEcho {
  data: { items: FanoutPromptItem[]; total: number }
  domain_id: string
  days: number
  model: string
  generated_at: string
}

/** Parameters of the sentiment time series: those of the sentiment endpoints. */
export interface SentimentSeriesParams extends SentimentParams, GranularityParams {}
export interface SentimentSeriesPoint {
  date: string
  positive_percent: number
  negative_percent: number
  total_mentions: number
}
export interface SentimentSeriesPayload extends RangeEcho, GranularityEcho {
  data: { items: SentimentSeriesPoint[] }
  domain_id: string
  days: number
  model: string
  generated_at: string
}

/**
 * The engine methods' names before every report took its `compute<Name>` name, kept for one
 * release (docs/API.md, "Deprecated names"): each calls its new name.
 */
export interface DeprecatedEngineMethods {
  /** @deprecated Use `computeSentimentOverview`. */
  sentimentOverview(params: SentimentParams): Promise<SentimentOverviewPayload>
  /** @deprecated Use `computeSentimentThemes`. */
  sentimentThemes(params: SentimentParams): Promise<SentimentThemesPayload>
  /** @deprecated Use `computeKeyCheck`. */
  validate(params: ValidateParams): Promise<ValidatePayload>
  /** @deprecated Use `computeDomainList`. */
  listDomains(params?: ListDomainsParams): Promise<ListDomainsPayload>
  /** @deprecated Use `computePromptList`. */
  listPrompts(params: ListPromptsParams): Promise<ListPromptsPayload>
  /** @deprecated Use `computeBrandRankings`. */
  brandRankings(params: BrandRankingsParams): Promise<BrandRankingsPayload>
  /** @deprecated Use `computeModelLeaderboard`. */
  modelLeaderboard(params: ModelLeaderboardParams): Promise<ModelLeaderboardPayload>
  /** @deprecated Use `computeBrandSeries`. */
  brandSeries(params: BrandSeriesParams): Promise<BrandSeriesPayload>
  /** @deprecated Use `computeCitations`. */
  citations(params: CitationsParams): Promise<CitationsPayload>
  /** @deprecated Use `computeCitedDomains`. */
  citedDomains(params: CitedDomainsParams): Promise<CitedDomainsPayload>
  /** @deprecated Use `computeFanoutQueries`. */
  fanoutQueries(params: FanoutQueriesParams): Promise<FanoutQueriesPayload>
  /** @deprecated Use `computeSentimentSeries`. */
  sentimentSeries(params: SentimentSeriesParams): Promise<SentimentSeriesPayload>
}
