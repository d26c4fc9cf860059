/**
 * The report page: one self-contained HTML document (inline CSS and SVG, no script, no font or
 * image download; a Content-Security-Policy forbids any network use) built from the four payloads.
 */
import type {
  CitationsPayload,
  CitedDomainsPayload,
  CompetitorSeriesPayload,
  ModelLeaderboardPayload,
  PromptSeriesPayload,
  SentimentOverviewPayload,
  SentimentSeriesPayload,
  SentimentThemesPayload,
} from '../types.js'
import { esc, formatTimestamp } from './format.js'
import {
  renderCitedDomains,
  renderCitedPages,
  renderCompetitorTable,
  renderLeaderboard,
  renderHeader,
  renderKpis,
  renderPrompts,
  renderSentiment,
  renderSentimentTrend,
  renderThemes,
  renderTrends,
} from './sections.js'
import { CSS } from './styles.js'

export { modelLabel } from './sections.js'

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

/**
 * Renders one self-contained HTML page for a domain's payloads: a header (brand, website, window,
 * model, generated_at), headline numbers, visibility and share-of-voice line charts for the brand
 * against its top competitors, a competitor table, the model leaderboard, the top prompts with
 * daily sparklines, the sentiment split, the themes, sentiment over time, and the cited domains and
 * pages (the sections of payloads left out say "No data in this window"). Opens offline: inline CSS and SVG only, no script, and a
 * Content-Security-Policy that blocks any network request. All text is escaped; a payload with no
 * data renders "No data in this window".
 * @example
 * const html = renderReportHtml({
 *   domain: (await engine.getDomain(domainId))!,
 *   prompts: await engine.computePromptSeries({ domainId, days: 30 }),
 *   competitors: await engine.computeCompetitorSeries({ domainId, days: 30 }),
 *   overview: await engine.sentimentOverview({ domainId, days: 30 }),
 *   themes: await engine.sentimentThemes({ domainId, days: 30 }),
 *   leaderboard: await engine.modelLeaderboard({ domainId, days: 30 }),
 *   citedDomains: await engine.citedDomains({ domainId, days: 30 }),
 * })
 * await writeFile('report.html', html)
 */
export function renderReportHtml(input: ReportInput): string {
  const brandRow = input.competitors?.data.items.find((e) => e.is_brand)
  const brandName = input.domain.brand_name || brandRow?.name || 'Brand'
  const topCompetitors = input.topCompetitors ?? 5
  const generatedAt =
    input.overview?.generated_at ??
    input.themes?.generated_at ??
    input.competitors?.generated_at ??
    input.prompts?.generated_at
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="visibility-analytics">
<title>${esc(brandName)} · AI search visibility report</title>
<style>${CSS}</style>
</head>
<body>
<main class="page">
${renderHeader(input, brandName)}
${renderKpis(input)}
${renderTrends(input, topCompetitors)}
${renderCompetitorTable(input, topCompetitors)}
${renderLeaderboard(input)}
${renderPrompts(input, input.topPrompts ?? 10)}
<div class="row2">
${renderSentiment(input)}
${renderThemes(input, input.topThemes ?? 20)}
</div>
${renderSentimentTrend(input)}
${renderCitedDomains(input, input.topCited ?? 10)}
${renderCitedPages(input, input.topCited ?? 10)}
<footer class="page-foot">
<p><b>Visibility</b>: share of AI answers that mention the entity, per day. <b>Share of voice</b>: the entity's mentions as a share of all tracked entities' mentions that day. <b>Position</b>: rank among the entities an answer lists (lower is better). <b>Sentiment score</b>: 0-100. Percentages in the table are means of daily values. <b>Citations</b>: every URL an answer cites (an answer citing a page twice counts twice); a domain's <b>share</b> is its citations over all citations of the window.</p>
<p>Generated by visibility-analytics${generatedAt ? ` at ${esc(formatTimestamp(generatedAt))}` : ''}.</p>
</footer>
</main>
</body>
</html>
`
}
