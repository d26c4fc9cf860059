/**
 * Types of the extensions (records, parameters and payloads of the endpoints beyond the first
 * four), for the reference model and the golden runner: the engine's own where they are the same
 * (listings), else here (ranges and buckets of section 9, endpoints the engine does not offer yet).
 * Field order in the payload types is the documented order of the JSON.
 */
import type {
  AnalysisInputRecord,
  AnalysisRecord,
  BrandMetric,
  CitationInput,
  Clock,
  DomainRecord,
  KeyScope,
  Page,
  PromptRecord,
  SentimentParams,
} from '../../src/types.js'
import type {
  BrandRankingItem,
  CompetitorSeriesParams,
  DomainItem,
  CompetitorSeriesPayload,
  ListDomainsPayload,
  ListPromptsParams,
  ListPromptsPayload,
  PromptItem,
  ValidateParams,
  ValidatePayload,
  ValuePoint,
  PromptSeriesParams,
  PromptSeriesPayload,
  SentimentOverviewPayload,
  SentimentThemesPayload,
} from '../../src/reports/index.js'

// ---------------------------------------------------------------------------------------------
// Records (the optional additions of section 1)

export interface ExtDomainRecord extends DomainRecord {
  /** ISO 8601 with Z or an offset; absent or null: unknown. */
  created_at?: string | null
}
export interface ExtPromptRecord extends PromptRecord {
  created_at?: string | null
}
export interface ExtCitationInput extends CitationInput {
  title?: string | null
  page_type?: string | null
}
export interface ExtAnalysisRecord extends Omit<AnalysisRecord, 'citations'> {
  citations: ExtCitationInput[]
  fanout_queries?: string[]
}
/** Any input record, with or without the new optional fields. */
export type ExtInputRecord =
  | Exclude<AnalysisInputRecord, DomainRecord | PromptRecord | AnalysisRecord>
  | ExtDomainRecord
  | ExtPromptRecord
  | ExtAnalysisRecord

// ---------------------------------------------------------------------------------------------
// Parameters

export type Granularity = 'day' | 'week' | 'month'

/** Section 9: an explicit window instead of `days` (both dates or neither), `YYYY-MM-DD`. */
export interface RangeParams {
  startDate?: string
  endDate?: string
}
/** The time-series endpoints also take a bucket size. */
export interface SeriesRangeParams extends RangeParams {
  granularity?: string
}

/** The listings' parameters are the engine's (no range or bucket applies to them). */
export type { KeyScope, ListPromptsParams, ValidateParams }
/** The reference model lists a key's domains only (the engine also lists every domain without a key). */
export interface ListDomainsParams {
  key: KeyScope
  now?: Clock
}
/** domain_id, days (or a range), model: rankings, fan-out queries. */
export interface ReportParams extends RangeParams {
  domainId: string
  days?: number
  /** `all` (default), a channel name or a raw model id. */
  model?: string
  now?: Clock
}
export interface ModelLeaderboardParams extends RangeParams {
  domainId: string
  days?: number
  now?: Clock
}
export type { BrandMetric }
export interface BrandSeriesParams extends ReportParams, SeriesRangeParams {
  metric: BrandMetric
}
export interface CitationsParams extends ReportParams {
  /** 1-1000, default 100. */
  limit?: number
}
export type SentimentSeriesParams = ReportParams & SeriesRangeParams

/** The first four reports with the parameters of section 9. */
export type PromptSeriesRangeParams = Omit<PromptSeriesParams, 'granularity'> & SeriesRangeParams
export type CompetitorSeriesRangeParams = Omit<CompetitorSeriesParams, 'granularity'> & SeriesRangeParams
export type SentimentRangeParams = SentimentParams & RangeParams

// ---------------------------------------------------------------------------------------------
// Payloads

/** What the first four reports add to their echo with the parameters of section 9. */
export interface RangeEcho {
  start_date?: string
  end_date?: string
  granularity?: Granularity
}
export type PromptSeriesRangePayload = PromptSeriesPayload & RangeEcho
export type CompetitorSeriesRangePayload = CompetitorSeriesPayload & RangeEcho
export type SentimentOverviewRangePayload = SentimentOverviewPayload & RangeEcho
export type SentimentThemesRangePayload = SentimentThemesPayload & RangeEcho

/** The window echo: `days`, and with a range `start_date` and `end_date` after it. */
export interface WindowEcho {
  days: number
  start_date?: string
  end_date?: string
}

export type {
  BrandRankingItem,
  DomainItem,
  ListDomainsPayload,
  ListPromptsPayload,
  Page,
  PromptItem,
  ValidatePayload,
}
export type BrandRankingsPayload = { data: { items: BrandRankingItem[] }; domain_id: string } & WindowEcho & {
    model: string
    generated_at: string
  }

export interface LeaderboardItem {
  model: string
  visibility: number
  avg_position: number | null
  mentions: number
  responses: number
}
export type ModelLeaderboardPayload = {
  data: { items: LeaderboardItem[] }
  domain_id: string
} & WindowEcho & {
    generated_at: string
  }

export type { ValuePoint }
export type BrandSeriesPayload = { data: { items: ValuePoint[] }; domain_id: string } & WindowEcho & {
    model: string
    granularity?: Granularity
    generated_at: string
  }

export interface CitationItem {
  url: string
  domain: string
  title: string | null
  page_type: string | null
  frequency: number
  responses: number
  prompt_count: number
  brand_mentions: number
  channels: string[]
  models: string[]
  is_brand: boolean
  competitor_id: string | null
  first_seen: string
  last_seen: string
}
export type CitationsPayload = {
  data: { items: CitationItem[]; total: number }
  domain_id: string
} & WindowEcho & {
    model: string
    limit: number
    generated_at: string
  }

export interface CitedDomainItem {
  domain: string
  frequency: number
  responses: number
  urls: number
  share: number
  is_brand: boolean
  competitor_id: string | null
}
export type CitedDomainsPayload = {
  data: { items: CitedDomainItem[]; total: number }
  domain_id: string
} & WindowEcho & { model: string; limit: number; generated_at: string }

export interface FanoutQueryItem {
  query: string
  count: number
  channels: string[]
}
export interface FanoutPromptItem {
  id: string
  text: string
  fanout_queries: FanoutQueryItem[]
}
export type FanoutQueriesPayload = {
  data: { items: FanoutPromptItem[]; total: number }
  domain_id: string
} & WindowEcho & { model: string; generated_at: string }

export interface SentimentPoint {
  date: string
  positive_percent: number
  negative_percent: number
  total_mentions: number
}
export type SentimentSeriesPayload = { data: { items: SentimentPoint[] }; domain_id: string } & WindowEcho & {
    model: string
    granularity?: Granularity
    generated_at: string
  }
