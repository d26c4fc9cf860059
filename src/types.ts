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

/** One count per stored record table (docs/API.md, "Ingest: records"). */
export interface RecordCounts {
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

/** Counts of records stored by one ingest call (after in-call de-duplication). */
export interface IngestResult extends RecordCounts {
  /** Present when the call carried delete records: what they removed (applied before the upserts). */
  deleted?: DeletionCounts
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
/**
 * The segment filters (docs/API.md, "Segment filters"): every report with a window takes them.
 * Each keeps the analyses of that country (two letters, any case), of prompts with that topic, of
 * prompts with that tag (both trimmed, exact).
 */
export interface SegmentFilters {
  country?: string
  topic?: string
  tag?: string
}
/** What a payload echoes of the segment filters, each only when given (normalized), after every other parameter. */
export interface SegmentEcho {
  country?: string | undefined
  topic?: string | undefined
  tag?: string | undefined
}
/** The echo of `granularity`, only when the request gave it. */
export interface GranularityEcho {
  granularity?: Granularity | undefined
}

export interface SentimentParams extends DateRangeParams, SegmentFilters {
  domainId: string
  days?: number
  /** `all` (default), a channel name, or a raw model identifier. */
  model?: string
  now?: Clock
}

// ---------------------------------------------------------------------------------------------
// The parameters several reports share (each report's own types: src/reports/<id>/contract.ts).

/** What an API key says about its reach, as the listings take it (docs/API.md, "Authentication and keys"). */
export interface KeyScope {
  /** The key's own team. */
  teamId: string
  /** The teams the key may read. */
  scopeTeamIds: string[]
  /** null: every domain of the scoped teams. */
  allowedDomains: string[] | null
}
/** domain_id, days, model: the brand rankings and the brand time series. */
export interface BrandReportParams extends DateRangeParams, SegmentFilters {
  domainId: string
  /** 1-365, default 30. */
  days?: number
  /** `all` (default), a channel name, or a raw model identifier. */
  model?: string
  now?: Clock
}
export type BrandMetric = (typeof BRAND_METRICS)[number]

/** One page of a listing. */
export interface Page<T> {
  items: T[]
  total: number
  page: number
  size: number
  total_pages: number
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
   * DuckDB's memory limit in MB (default 160): above it, an ingest's staged rows, joins and sorts
   * spill to `tempDirectory`, so a call of any size runs in bounded memory.
   */
  memoryLimitMB?: number
  /**
   * DuckDB's worker threads (default: DuckDB's own, one per core). On one thread a small ingest
   * call's statements take less CPU; a bulk import's run on fewer threads (docs/DEPLOY.md,
   * `VA_DUCKDB_THREADS`).
   */
  threads?: number
  /** Where DuckDB spills (default: `<path>.tmp` beside a file, `<os tmpdir>/va-duckdb-<pid>` in memory). */
  tempDirectory?: string
  /**
   * The secret the answers listing's cursors are signed with (docs/API.md, "GET /api/v1/answers"):
   * engines opened with the same secret accept each other's cursors (every shard of a cluster).
   * Default: a random key created once and stored in the database (it survives restarts).
   */
  cursorSecret?: string
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
 * The engine's report methods, `compute<Name>(params)`, one per report folder: declared empty here
 * and filled from the registry of report modules (src/reports/index.ts), so a new report needs no
 * edit of this file.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by src/reports/index.ts
export interface ReportMethods {}

/**
 * The engine: one DuckDB database (in memory or a file) with the analytics tables.
 * @example
 * const engine = await openEngine()
 * await engine.ingestFile('analyses.ndjson')
 * const payload = await engine.computePromptSeries({ domainId, days: 7 })
 * await engine.close()
 */
export interface Engine extends ReportMethods, DeprecatedEngineMethods {
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
export interface DeletionCounts extends RecordCounts {
  api_keys: number
  /** Delete records whose id was not stored (counted, not an error). */
  not_found: number
  [table: string]: number
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

// The citation lists' parameters (docs/API.md, "Citations, fan-out and sentiment over time").

/** Parameters of the citations and cited-domains reports. */
export interface CitationListParams extends DateRangeParams, SegmentFilters {
  domainId: string
  /** 1-365, default 30. */
  days?: number
  /** `all` (default), a channel name, or a raw model identifier. */
  model?: string
  /** 1-1000, default 100. */
  limit?: number
  now?: Clock
}

/**
 * The engine methods' names before every report took its `compute<Name>` name, kept for one
 * release (docs/API.md, "Deprecated names"): each calls its new name.
 */
export interface DeprecatedEngineMethods {
  /** @deprecated Use `computeSentimentOverview`. */
  sentimentOverview: ReportMethods['computeSentimentOverview']
  /** @deprecated Use `computeSentimentThemes`. */
  sentimentThemes: ReportMethods['computeSentimentThemes']
  /** @deprecated Use `computeKeyCheck`. */
  validate: ReportMethods['computeKeyCheck']
  /** @deprecated Use `computeDomainList`. */
  listDomains: ReportMethods['computeDomainList']
  /** @deprecated Use `computePromptList`. */
  listPrompts: ReportMethods['computePromptList']
  /** @deprecated Use `computeBrandRankings`. */
  brandRankings: ReportMethods['computeBrandRankings']
  /** @deprecated Use `computeModelLeaderboard`. */
  modelLeaderboard: ReportMethods['computeModelLeaderboard']
  /** @deprecated Use `computeBrandSeries`. */
  brandSeries: ReportMethods['computeBrandSeries']
  /** @deprecated Use `computeCitations`. */
  citations: ReportMethods['computeCitations']
  /** @deprecated Use `computeCitedDomains`. */
  citedDomains: ReportMethods['computeCitedDomains']
  /** @deprecated Use `computeFanoutQueries`. */
  fanoutQueries: ReportMethods['computeFanoutQueries']
  /** @deprecated Use `computeSentimentSeries`. */
  sentimentSeries: ReportMethods['computeSentimentSeries']
}
