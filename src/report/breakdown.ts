/**
 * @module The breakdowns of the report page (docs/API.md, "GET /api/v1/query"): the brand's
 * visibility per country and per topic with its 95% Wilson interval, and the week-over-week change
 * marked where the two-proportion test finds it significant. Every number is the query's: the page
 * draws them, it computes none.
 */
import type { QueryRow } from '../reports/index.js'
import { EMPTY, section } from './card.js'
import { esc, formatInt, formatNumber, formatPercent } from './format.js'
import type { ReportBreakdown, ReportInput } from './input.js'
import { BRAND_COLOR } from './styles.js'
import { intervalStrip } from './svg.js'

/** The dimensions the page breaks the visibility down by. */
export type BreakdownDimension = 'country' | 'topic'

const NAMES: Record<BreakdownDimension, { title: string; column: string; none: string }> = {
  country: { title: 'Visibility by country', column: 'Country', none: 'Unknown' },
  topic: { title: 'Visibility by topic', column: 'Topic', none: 'No topic' },
}

/**
 * A p-value as the page prints it.
 * @example
 * formatP(0.00001) // '< 0.0001'
 */
export function formatP(p: number): string {
  return p < 0.0001 ? '< 0.0001' : p.toFixed(4)
}

/** The group value of a row (null: the analyses without one). */
const groupOf = (row: QueryRow, dim: BreakdownDimension): string | null => row[dim] ?? null

/**
 * The brand's rows of a breakdown in the query's order, the null group moved last (the query
 * already puts it there; a payload from elsewhere is held to it too).
 */
export function breakdownRows(b: ReportBreakdown, dim: BreakdownDimension): QueryRow[] {
  const rows = b.window.data.items.filter((r) => r.is_brand)
  return [...rows.filter((r) => groupOf(r, dim) !== null), ...rows.filter((r) => groupOf(r, dim) === null)]
}

/** The week-over-week cell: the change in points, a pill when significant, the p-value in its title. */
function changeCell(week: QueryRow | undefined): string {
  const change = week?.change
  if (week === undefined || change === undefined) return '<td class="num wow">—</td>'
  const delta = change.visibility_delta
  const points = `${delta > 0 ? '+' : delta < 0 ? '−' : '±'}${formatNumber(Math.abs(delta))} pts`
  const before = week.previous
    ? `${formatPercent(week.previous.visibility)} of ${formatInt(week.previous.responses)} → ${formatPercent(week.visibility)} of ${formatInt(week.responses)}`
    : ''
  if (change.significant && change.p_value !== null) {
    const up = delta > 0
    const title = `Significant change (p = ${formatP(change.p_value)}): ${before}`
    return `<td class="num wow"><span class="pill sig ${up ? 'pos' : 'neg'}" title="${esc(title)}">${up ? '▲' : '▼'} ${esc(points)}</span></td>`
  }
  const title =
    change.p_value === null
      ? `No test possible (an empty week, or no or every answer mentioning the brand): ${before}`
      : `Not significant (p = ${formatP(change.p_value)}): ${before}`
  return `<td class="num wow"><span class="delta" title="${esc(title)}">${esc(points)}</span></td>`
}

/**
 * A breakdown section: per group (country or topic) the answers, the visibility and its interval
 * drawn on a 0-100% axis, and the last 7 days against the 7 before.
 */
export function renderBreakdown(input: ReportInput, dim: BreakdownDimension): string {
  const names = NAMES[dim]
  const b = dim === 'country' ? input.byCountry : input.byTopic
  const subtitle = `The brand's visibility per ${dim} over the window, with its 95% confidence interval`
  const rows = b ? breakdownRows(b, dim) : []
  if (!b || rows.length === 0) return section(names.title, subtitle, EMPTY, `breakdown breakdown-${dim}`)
  const week = new Map((b.week?.data.items ?? []).filter((r) => r.is_brand).map((r) => [groupOf(r, dim), r]))
  const body = rows
    .map((r) => {
      const value = groupOf(r, dim)
      const label = value ?? names.none
      const [low, high] = r.visibility_ci
      const ci = `${formatPercent(low)} – ${formatPercent(high)}`
      return `<tr data-group="${esc(value ?? '')}"${value === null ? ' class="none-group"' : ''}>
<td><span class="ename" dir="auto">${esc(label)}</span></td>
<td class="num">${esc(formatInt(r.responses))}</td>
<td class="num">${esc(formatPercent(r.visibility))}</td>
<td class="num ci-text">${esc(ci)}</td>
<td class="strip">${intervalStrip(r.visibility, r.visibility_ci, BRAND_COLOR, `${label}: visibility ${formatPercent(r.visibility)}, 95% interval ${ci}`)}</td>
${changeCell(week.get(value))}</tr>`
    })
    .join('')
  const more = b.window.data.total - b.window.data.items.length
  return section(
    names.title,
    subtitle,
    `<table class="grid-table breakdown-table"><thead><tr><th>${names.column}</th><th class="num">Answers</th><th class="num">Visibility</th><th class="num">95% interval</th><th class="strip">0% – 100%</th><th class="num">Last 7 days vs 7 before</th></tr></thead><tbody>${body}</tbody></table><p class="foot">Intervals: Wilson score at 95%. A ▲/▼ pill marks a change of the last 7 days against the 7 before that a two-proportion test finds significant (p &lt; 0.05); each change's p-value is in its tooltip.${
      more > 0 ? ` And ${esc(formatInt(more))} more group${more === 1 ? '' : 's'}.` : ''
    }</p>`,
    `breakdown breakdown-${dim}`,
  )
}
