/**
 * @module The report of one domain as the page shows it: the HTML report's section builders
 * (src/report/sections.ts) over the payloads the page fetched, each section replaced by the API's
 * detail when a payload it needs was refused (the starter plan's sentiment 403, for one).
 */
import { esc } from '../report/format.js'
import type { ReportDomain, ReportInput } from '../report/html.js'
import {
  renderCitedDomains,
  renderCitedPages,
  renderCompetitorTable,
  renderHeader,
  renderKpis,
  renderLeaderboard,
  renderPrompts,
  renderSentiment,
  renderSentimentTrend,
  renderThemes,
  renderTrends,
} from '../report/sections.js'
import { REPORT_SECTION_ROWS } from '../foundation/vocabulary.js'

/** The payloads of the report, by field of `ReportInput`, and the endpoint (row id) of each. */
export const PAYLOAD_ENDPOINTS = REPORT_SECTION_ROWS

export type PayloadName = keyof typeof PAYLOAD_ENDPOINTS

/** What the page fetched: each payload, or the API's detail of its refusal. */
export type Fetched = Partial<
  Record<PayloadName, { ok: true; value: unknown } | { ok: false; detail: string }>
>

const TOP = { competitors: 5, prompts: 10, themes: 20, cited: 10 }

interface SectionDef {
  id: string
  title: string
  /** Payloads it cannot be drawn without. */
  needs: PayloadName[]
  render(input: ReportInput): string
}

/** The report's sections, in the order of the HTML report. */
const SECTIONS: SectionDef[] = [
  { id: 'kpis', title: 'Headline numbers', needs: ['competitors'], render: renderKpis },
  {
    id: 'trends',
    title: 'Visibility and share of voice',
    needs: ['competitors'],
    render: (i) => renderTrends(i, TOP.competitors),
  },
  {
    id: 'competitors',
    title: 'Competitive landscape',
    needs: ['competitors'],
    render: (i) => renderCompetitorTable(i, TOP.competitors),
  },
  { id: 'leaderboard', title: 'Model leaderboard', needs: ['leaderboard'], render: renderLeaderboard },
  { id: 'prompts', title: 'Top prompts', needs: ['prompts'], render: (i) => renderPrompts(i, TOP.prompts) },
  { id: 'sentiment', title: 'Sentiment', needs: ['overview'], render: renderSentiment },
  { id: 'themes', title: 'Themes', needs: ['themes'], render: (i) => renderThemes(i, TOP.themes) },
  {
    id: 'sentiment-trend',
    title: 'Sentiment over time',
    needs: ['sentimentSeries'],
    render: renderSentimentTrend,
  },
  {
    id: 'cited-domains',
    title: 'Cited domains',
    needs: ['citedDomains'],
    render: (i) => renderCitedDomains(i, TOP.cited),
  },
  {
    id: 'cited-pages',
    title: 'Cited pages',
    needs: ['citations'],
    render: (i) => renderCitedPages(i, TOP.cited),
  },
]

/** A section that could not be drawn: its title and the API's detail. */
function errorCard(title: string, details: string[]): string {
  return `<section class="card"><header class="card-head"><h2>${esc(title)}</h2></header>${details
    .map((d) => `<p class="api-error" role="alert">${esc(d)}</p>`)
    .join('')}</section>`
}

/**
 * The report's HTML for a domain's fetched payloads: the header, then each section, or its error
 * card when a payload it needs was refused. Every section sits in a `data-section` wrapper.
 * @example
 * reportEl.innerHTML = renderDashboard(domain, fetched)
 */
export function renderDashboard(domain: ReportDomain, fetched: Fetched): string {
  const input: ReportInput = { domain }
  for (const name of Object.keys(PAYLOAD_ENDPOINTS) as PayloadName[]) {
    const result = fetched[name]
    if (result?.ok) (input as unknown as Record<string, unknown>)[name] = result.value
  }
  const brandRow = input.competitors?.data.items.find((e) => e.is_brand)
  const brandName = domain.brand_name || brandRow?.name || 'Brand'
  const html = SECTIONS.map((s) => {
    const refused = s.needs
      .map((n) => fetched[n])
      .flatMap((r) => (r !== undefined && !r.ok ? [r.detail] : []))
    const body = refused.length > 0 ? errorCard(s.title, [...new Set(refused)]) : s.render(input)
    return `<div class="section" data-section="${s.id}" data-error="${refused.length > 0}">${body}</div>`
  })
  // Sentiment and themes side by side, as in the HTML report.
  const at = SECTIONS.findIndex((s) => s.id === 'sentiment')
  const row2 = `<div class="row2">${html[at]}${html[at + 1]}</div>`
  return [
    `<div class="section" data-section="header">${renderHeader(input, brandName)}</div>`,
    ...html.slice(0, at),
    row2,
    ...html.slice(at + 2),
  ].join('\n')
}
