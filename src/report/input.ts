/** @module What the HTML report is made of: the domain and its payloads. */
import type {
  AnswersPayload,
  CitationsPayload,
  CitedDomainsPayload,
  CompetitorSeriesPayload,
  ModelLeaderboardPayload,
  PromptSeriesPayload,
  QueryPayload,
  SentimentOverviewPayload,
  SentimentSeriesPayload,
  SentimentThemesPayload,
  SignalsPayload,
} from '../reports/index.js'

/** The domain the report is about (a `DomainInfo` fits). */
export interface ReportDomain {
  id: string
  brand_name: string
  website?: string | null
}

/**
 * A breakdown of the brand's visibility by one dimension (docs/API.md, "GET /api/v1/query"):
 * `window` is `computeQuery` with that dimension, `entity: 'brand'`, over the report's window and
 * filters; `week` the same with `compare: 'previous'` over the last 7 days (its `change` marks the
 * week-over-week changes).
 */
export interface ReportBreakdown {
  window: QueryPayload
  week?: QueryPayload | null
}

/** What `renderReportHtml` takes. A payload left out (or null) renders as an empty section. */
export interface ReportInput {
  domain: ReportDomain
  prompts?: PromptSeriesPayload | null
  competitors?: CompetitorSeriesPayload | null
  overview?: SentimentOverviewPayload | null
  themes?: SentimentThemesPayload | null
  /** The model leaderboard (the brand per channel). */
  leaderboard?: ModelLeaderboardPayload | null
  /** The sentiment time series. */
  sentimentSeries?: SentimentSeriesPayload | null
  /** The cited domains and the cited pages. */
  citedDomains?: CitedDomainsPayload | null
  citations?: CitationsPayload | null
  /** The domain's current signals (the report's default parameters). */
  signals?: SignalsPayload | null
  /** The brand's visibility by country and by topic, with their intervals. */
  byCountry?: ReportBreakdown | null
  byTopic?: ReportBreakdown | null
  /**
   * A sample answer per listed prompt: `computeAnswers({ promptId, limit: 1 })` for each (the most
   * recent answer of the window; payloads of other prompts are ignored).
   */
  samples?: readonly AnswersPayload[] | null
  /** Characters of a sample answer shown before it is cut (default 2,000). */
  sampleChars?: number
  /** Extra sentences shown under the header, e.g. why a model filter was not applied. */
  notes?: string[]
  /** Competitors drawn in the charts besides the brand (default 5). */
  topCompetitors?: number
  /** Prompts listed (default 10). */
  topPrompts?: number
  /** Themes listed (default 20). */
  topThemes?: number
  /** Cited domains and cited pages listed (default 10 each). */
  topCited?: number
}
