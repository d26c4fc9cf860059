/** @module What the HTML report is made of: the domain and its payloads. */
import type {
  CitationsPayload,
  CitedDomainsPayload,
  CompetitorSeriesPayload,
  ModelLeaderboardPayload,
  PromptSeriesPayload,
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
