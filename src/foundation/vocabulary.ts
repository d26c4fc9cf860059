/**
 * @module The closed vocabularies of the API as runtime values (channels, plans, granularities,
 * brand metrics, delete entities); src/types.ts derives its union types from them.
 */

/** The seven generic channel names. */
export const CHANNELS = [
  'chatgpt',
  'perplexity',
  'gemini',
  'claude',
  'copilot',
  'google-ai-overviews',
  'google-ai-mode',
] as const

/** The plans of a team. */
export const PLANS = ['free', 'starter', 'pro', 'business', 'enterprise'] as const

/** Plans that include the sentiment endpoints. */
export const SENTIMENT_PLANS: readonly (typeof PLANS)[number][] = ['pro', 'business', 'enterprise']

/**
 * Bucket sizes of a time series (docs/API.md, "Date ranges and buckets"): UTC dates, ISO
 * weeks (Monday first), calendar months.
 */
export const GRANULARITIES = ['day', 'week', 'month'] as const

/** The four brand time series. */
export const BRAND_METRICS = ['visibility', 'mentions', 'citations', 'citability'] as const

/** What a `delete` record deletes, with everything under it (docs/API.md, "Delete records"). */
export const DELETE_ENTITIES = ['team', 'domain', 'prompt', 'competitor', 'theme', 'analysis'] as const

/**
 * The sections of the batch report (the payload fields of its input) and the endpoint, by row id,
 * each is drawn from: one list for the HTML report, `visibility report`, the cluster's report
 * source (src/api/report-rows.ts checks the ids against the table) and the dashboard.
 * @example
 * REPORT_SECTION_ROWS.leaderboard // 'model-leaderboard'
 */
export const REPORT_SECTION_ROWS = {
  prompts: 'prompt-series',
  competitors: 'competitor-series',
  overview: 'sentiment-overview',
  themes: 'sentiment-themes',
  leaderboard: 'model-leaderboard',
  sentimentSeries: 'sentiment-series',
  citedDomains: 'cited-domains',
  citations: 'citations',
  signals: 'signals',
} as const
