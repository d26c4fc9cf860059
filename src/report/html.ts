/**
 * The report page: one self-contained HTML document (inline CSS and SVG, no script, no font or
 * image download; a Content-Security-Policy forbids any network use) built from the four payloads.
 */
import type {
  CompetitorEntry,
  CompetitorSeriesPayload,
  PromptSeriesPayload,
  SentimentOverviewPayload,
  SentimentThemesPayload,
} from '../types.js'
import {
  dayNumber,
  esc,
  formatDay,
  formatInt,
  formatNumber,
  formatPercent,
  formatTimestamp,
} from './format.js'
import { donut, lineChart, sparkline } from './svg.js'

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
  /** Extra sentences shown under the header, e.g. why a model filter was not applied. */
  notes?: string[]
  /** Competitors drawn in the charts besides the brand (default 5). */
  topCompetitors?: number
  /** Prompts listed (default 10). */
  topPrompts?: number
  /** Themes listed (default 20). */
  topThemes?: number
}

const BRAND_COLOR = '#4338ca'
const COMPETITOR_COLORS = [
  '#0891b2',
  '#ea580c',
  '#c026d3',
  '#65a30d',
  '#b45309',
  '#64748b',
  '#0d9488',
  '#be123c',
]
const POSITIVE = '#15803d'
const NEGATIVE = '#dc2626'

const CHANNEL_LABELS: Record<string, string> = {
  all: 'All channels',
  chatgpt: 'ChatGPT',
  perplexity: 'Perplexity',
  gemini: 'Gemini',
  claude: 'Claude',
  copilot: 'Copilot',
  'google-ai-overviews': 'Google AI Overviews',
  'google-ai-mode': 'Google AI Mode',
}

/**
 * A model filter as people read it: 'all' -> 'All channels', a channel -> its product name, a raw
 * model id unchanged.
 * @example
 * modelLabel('google-ai-mode') // 'Google AI Mode'
 */
export function modelLabel(model: string): string {
  return CHANNEL_LABELS[model] ?? model
}

const EMPTY = '<div class="empty">No data in this window</div>'

function section(title: string, subtitle: string, body: string, cls = ''): string {
  return `<section class="card ${cls}"><header class="card-head"><h2>${esc(title)}</h2>${
    subtitle ? `<p class="sub">${esc(subtitle)}</p>` : ''
  }</header>${body}</section>`
}

function kpi(label: string, value: string, detail: string, tone = ''): string {
  return `<div class="kpi ${tone}"><div class="kpi-label">${esc(label)}</div><div class="kpi-value">${esc(
    value,
  )}</div><div class="kpi-detail">${esc(detail)}</div></div>`
}

/** The window's first and last day (day numbers) from `days` and the UTC date of `generated_at`. */
function windowOf(days: number, generatedAt: string): { first: number; last: number } | null {
  const ms = Date.parse(generatedAt)
  if (Number.isNaN(ms) || !Number.isInteger(days) || days < 1) return null
  const last = Math.floor(ms / 86_400_000)
  return { first: last - days + 1, last }
}

function entityColor(index: number, entity: CompetitorEntry): string {
  return entity.is_brand ? BRAND_COLOR : (COMPETITOR_COLORS[index % COMPETITOR_COLORS.length] ?? '#64748b')
}

function renderHeader(input: ReportInput, brandName: string): string {
  const envelope = input.overview ?? input.themes ?? input.competitors ?? input.prompts ?? null
  const meta: [string, string][] = []
  if (envelope) {
    const w = windowOf(envelope.days, envelope.generated_at)
    meta.push([
      'Window',
      w
        ? `${formatDay(w.first, true)} – ${formatDay(w.last, true)} (${envelope.days} day${envelope.days === 1 ? '' : 's'})`
        : `${envelope.days} days`,
    ])
  }
  const sentimentModel = input.overview?.model ?? input.themes?.model
  const competitorModel = input.competitors?.model
  const model = sentimentModel ?? competitorModel
  if (model !== undefined) meta.push(['Model', modelLabel(model)])
  if (envelope) meta.push(['Generated', formatTimestamp(envelope.generated_at)])
  meta.push(['Domain ID', input.domain.id])

  const notes = [...(input.notes ?? [])]
  if (sentimentModel !== undefined && competitorModel !== undefined && sentimentModel !== competitorModel) {
    const rawModelId = competitorModel === 'all' && !(sentimentModel in CHANNEL_LABELS)
    notes.push(
      rawModelId
        ? `Visibility, share of voice and competitors cover all channels: the competitor series filters by channel only, and ${sentimentModel} is a model id. Sentiment and themes cover ${sentimentModel} only.`
        : `Visibility, share of voice and competitors use ${modelLabel(competitorModel)}; sentiment uses ${modelLabel(
            sentimentModel,
          )}.`,
    )
  }
  const website = input.domain.website ?? null
  const initial = Array.from(brandName.trim())[0]?.toUpperCase() ?? '?'
  return `<header class="top">
<div class="brand"><div class="avatar" aria-hidden="true">${esc(initial)}</div><div><p class="eyebrow">AI search visibility report</p><h1 dir="auto">${esc(
    brandName,
  )}</h1>${website ? `<p class="site">${esc(website)}</p>` : ''}</div></div>
<dl class="meta">${meta.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`).join('')}</dl>
</header>${notes.length ? `<div class="notes">${notes.map((n) => `<p>${esc(n)}</p>`).join('')}</div>` : ''}`
}

function renderKpis(input: ReportInput): string {
  const items = input.competitors?.data.items ?? []
  const brand = items.find((e) => e.is_brand)
  const hasBrandData = brand !== undefined && brand.series.length > 0
  const cards: string[] = []
  if (hasBrandData) {
    const byVis = [...items].sort((a, b) => b.avg_visibility - a.avg_visibility)
    const rank = byVis.findIndex((e) => e.is_brand) + 1
    const sovLeader = [...items].sort((a, b) => b.avg_sov - a.avg_sov)[0]
    cards.push(
      kpi(
        'Visibility',
        formatPercent(brand.avg_visibility),
        `Rank ${rank} of ${items.length} tracked`,
        'accent',
      ),
      kpi(
        'Share of voice',
        formatPercent(brand.avg_sov),
        sovLeader && !sovLeader.is_brand
          ? `Leader: ${sovLeader.name} ${formatPercent(sovLeader.avg_sov)}`
          : 'Highest of all tracked',
      ),
      kpi(
        'Average position',
        brand.avg_position > 0 ? formatNumber(brand.avg_position) : '—',
        'Lower is better',
      ),
      kpi(
        'Sentiment score',
        brand.avg_sentiment > 0 ? formatNumber(brand.avg_sentiment, 0) : '—',
        'Out of 100',
      ),
    )
  } else {
    cards.push(
      kpi('Visibility', '—', 'No data in this window'),
      kpi('Share of voice', '—', 'No data in this window'),
      kpi('Average position', '—', 'No data in this window'),
      kpi('Sentiment score', '—', 'No data in this window'),
    )
  }
  const ov = input.overview?.data
  const hasThemes =
    ov !== undefined && (ov.total_mentions > 0 || ov.positive_percent > 0 || ov.negative_percent > 0)
  cards.push(
    hasThemes
      ? kpi(
          'Positive themes',
          formatPercent(ov.positive_percent),
          `${formatInt(ov.total_mentions)} theme mentions`,
          'positive',
        )
      : kpi('Positive themes', '—', 'No data in this window'),
  )
  return `<div class="kpis">${cards.join('')}</div>`
}

function renderTrends(input: ReportInput, top: number): string {
  const items = input.competitors?.data.items ?? []
  const withData = items.filter((e) => e.series.length > 0)
  if (withData.length === 0) {
    return section('Visibility and share of voice', 'Daily, brand against its top competitors', EMPTY)
  }
  const brand = items.filter((e) => e.is_brand)
  const rivals = items.filter((e) => !e.is_brand).slice(0, top)
  const shown = [...brand, ...rivals]
  const color = new Map(shown.map((e, i) => [e, entityColor(i - brand.length, e)]))
  const legend = `<ul class="legend">${shown
    .map(
      (e) =>
        `<li${e.is_brand ? ' class="is-brand"' : ''}><span class="swatch" style="background:${esc(
          color.get(e) ?? '#64748b',
        )}"></span><span dir="auto">${esc(e.name)}</span></li>`,
    )
    .join('')}</ul>`
  const series = (pick: 'visibility' | 'sov') =>
    shown.map((e) => ({
      name: e.name,
      color: color.get(e) ?? '#64748b',
      emphasis: e.is_brand,
      points: e.series.map((d) => ({ date: d.date, value: d[pick] })),
    }))
  const more = items.length - shown.length
  const body = `${legend}<div class="charts">
<figure><figcaption>Visibility <span>share of AI answers that mention each entity</span></figcaption>${lineChart(
    {
      title: 'Visibility over time',
      series: series('visibility'),
      yCap: 100,
    },
  )}</figure>
<figure><figcaption>Share of voice <span>each entity's share of all mentions that day</span></figcaption>${lineChart(
    {
      title: 'Share of voice over time',
      series: series('sov'),
      yCap: 100,
    },
  )}</figure></div>${more > 0 ? `<p class="foot">${more} more competitor${more === 1 ? '' : 's'} in the table below.</p>` : ''}`
  return section(
    'Visibility and share of voice',
    `Daily, ${brand[0] ? brand[0].name : 'the brand'} against its top ${rivals.length} competitor${rivals.length === 1 ? '' : 's'}`,
    body,
  )
}

function bar(value: number, max: number, color: string): string {
  const pct = max > 0 && Number.isFinite(value) ? Math.max(0, Math.min(100, (value / max) * 100)) : 0
  return `<span class="bar"><span style="width:${pct.toFixed(1)}%;background:${esc(color)}"></span></span>`
}

function renderCompetitorTable(input: ReportInput, top: number): string {
  const items = input.competitors?.data.items ?? []
  if (items.length === 0) return section('Competitive landscape', 'Averages over the window', EMPTY)
  const rivals = items.filter((e) => !e.is_brand)
  const maxVis = Math.max(1, ...items.map((e) => e.avg_visibility))
  const rows = items
    .map((e) => {
      const idx = rivals.indexOf(e)
      const color = e.is_brand ? BRAND_COLOR : idx < top ? entityColor(idx, e) : '#94a3b8'
      const noData = e.series.length === 0 || e.total_queries === 0
      return `<tr${e.is_brand ? ' class="is-brand"' : ''}>
<td><div class="name"><span class="swatch" style="background:${esc(color)}"></span><span class="ename" dir="auto">${esc(
        e.name,
      )}</span>${e.is_brand ? '<span class="pill brand-pill">Your brand</span>' : ''}${
        e.website ? `<span class="web">${esc(e.website)}</span>` : ''
      }</div></td>
<td class="num">${bar(e.avg_visibility, maxVis, color)}${esc(formatPercent(e.avg_visibility))}</td>
<td class="num">${esc(formatPercent(e.avg_sov))}</td>
<td class="num">${esc(formatNumber(e.avg_mentions))}</td>
<td class="num">${esc(noData || e.avg_position <= 0 ? '—' : formatNumber(e.avg_position))}</td>
<td class="num">${esc(noData || e.avg_sentiment <= 0 ? '—' : formatNumber(e.avg_sentiment, 0))}</td>
<td class="num">${esc(formatInt(e.total_queries))}</td></tr>`
    })
    .join('')
  return section(
    'Competitive landscape',
    'Averages over the window, sorted by visibility',
    `<table class="grid-table"><thead><tr><th>Entity</th><th class="num">Visibility</th><th class="num">Share of voice</th><th class="num">Mentions / day</th><th class="num">Avg position</th><th class="num">Sentiment</th><th class="num">Prompts</th></tr></thead><tbody>${rows}</tbody></table>`,
  )
}

function renderPrompts(input: ReportInput, top: number): string {
  const p = input.prompts
  const items = p?.data.items ?? []
  if (!p || items.length === 0) return section('Top prompts', 'By brand mentions over the window', EMPTY)
  const w = windowOf(p.days, p.generated_at)
  const shown = items.slice(0, top).map((e) => {
    const mentions = e.series.reduce((s, d) => s + d.mentions, 0)
    const responses = e.series.reduce((s, d) => s + d.responses, 0)
    const citations = e.series.reduce((s, d) => s + d.citations, 0)
    return { e, mentions, responses, citations }
  })
  // Sparklines share one time axis: the span of the data (all prompts), else the window.
  const allDays = items.flatMap((e) => e.series.map((d) => dayNumber(d.date))).filter(Number.isFinite)
  const first = allDays.length ? Math.min(...allDays) : (w?.first ?? 0)
  const last = allDays.length ? Math.max(...allDays) : (w?.last ?? 0)
  const maxMentions = Math.max(1, ...shown.map((s) => s.mentions))
  const rows = shown
    .map(
      (s, i) => `<tr>
<td class="rank">${i + 1}</td>
<td class="prompt"><span dir="auto" title="${esc(s.e.text)}">${esc(s.e.text)}</span></td>
<td class="num">${esc(formatInt(s.e.estimated_search_volume))}</td>
<td class="num">${esc(formatInt(s.responses))}</td>
<td class="num mentions">${bar(s.mentions, maxMentions, BRAND_COLOR)}<b>${esc(formatInt(s.mentions))}</b></td>
<td class="num">${esc(formatPercent(s.responses > 0 ? (s.mentions / s.responses) * 100 : null, 0))}</td>
<td class="num">${esc(formatInt(s.citations))}</td>
<td class="trend">${sparkline(
        s.e.series.map((d) => ({ day: dayNumber(d.date), value: d.mentions })),
        first,
        last,
        BRAND_COLOR,
      )}</td></tr>`,
    )
    .join('')
  const more = items.length - shown.length
  return section(
    'Top prompts',
    `The ${shown.length} tracked prompts with the most brand mentions${more > 0 ? ` (of ${items.length})` : ''}`,
    `<table class="grid-table prompts"><thead><tr><th class="rank">#</th><th>Prompt</th><th class="num">Search volume</th><th class="num">Answers</th><th class="num">Mentions</th><th class="num">Mention rate</th><th class="num">Citations</th><th class="trend">Daily mentions</th></tr></thead><tbody>${rows}</tbody></table>`,
  )
}

function renderSentiment(input: ReportInput): string {
  const ov = input.overview?.data
  const themes = input.themes?.data.items ?? []
  const empty = !ov || (ov.positive_percent === 0 && ov.negative_percent === 0 && ov.total_mentions === 0)
  if (empty) return section('Sentiment', 'Split of themes in AI answers', EMPTY, 'sentiment')
  const pos = themes.filter((t) => t.sentiment === 'positive')
  const neg = themes.filter((t) => t.sentiment === 'negative')
  const count = (n: number): string => (themes.length ? `${n} theme${n === 1 ? '' : 's'}` : '')
  const body = `<div class="donut-wrap">${donut(
    [
      { value: ov.positive_percent, color: POSITIVE, label: 'Positive' },
      { value: ov.negative_percent, color: NEGATIVE, label: 'Negative' },
    ],
    formatPercent(ov.positive_percent),
    'positive',
  )}<ul class="split">
<li><span class="swatch" style="background:${POSITIVE}"></span><span>Positive</span><b>${esc(
    formatPercent(ov.positive_percent),
  )}</b><small>${esc(count(pos.length))}</small></li>
<li><span class="swatch" style="background:${NEGATIVE}"></span><span>Negative</span><b>${esc(
    formatPercent(ov.negative_percent),
  )}</b><small>${esc(count(neg.length))}</small></li>
<li class="total"><span>Theme mentions</span><b>${esc(formatInt(ov.total_mentions))}</b></li></ul></div>`
  return section('Sentiment', 'Themes tagged positive vs negative', body, 'sentiment')
}

function renderThemes(input: ReportInput, top: number): string {
  const items = input.themes?.data.items ?? []
  if (items.length === 0)
    return section('Themes', 'Recurring topics in AI answers about the brand', EMPTY, 'themes')
  const shown = items.slice(0, top)
  const max = Math.max(1, ...shown.map((t) => t.occurrences))
  const rows = shown
    .map((t) => {
      const positive = t.sentiment === 'positive'
      const color = positive ? POSITIVE : NEGATIVE
      return `<li class="${positive ? 'pos' : 'neg'}"><span class="tname" dir="auto" title="${esc(t.name)}">${esc(
        t.name,
      )}</span><span class="pill ${positive ? 'pos' : 'neg'}">${positive ? 'Positive' : 'Negative'}</span>${bar(
        t.occurrences,
        max,
        color,
      )}<b class="occ">${esc(formatInt(t.occurrences))}</b></li>`
    })
    .join('')
  const more = items.length - shown.length
  return section(
    'Themes',
    'Recurring topics in AI answers about the brand, by occurrences',
    `<ul class="theme-list">${rows}</ul>${more > 0 ? `<p class="foot">And ${more} more theme${more === 1 ? '' : 's'}.</p>` : ''}`,
    'themes',
  )
}

const CSS = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#f4f5f8;color:#111827;font:14px/1.5 Inter,-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","Liberation Sans","Noto Sans CJK JP","IPAGothic",sans-serif;font-feature-settings:"cv11","ss01";-webkit-font-smoothing:antialiased}
.page{max-width:1200px;margin:0 auto;padding:32px 32px 48px}
.top{display:flex;justify-content:space-between;align-items:flex-end;gap:24px;padding-bottom:24px;border-bottom:1px solid #e3e6ec;margin-bottom:20px}
.brand{display:flex;align-items:center;gap:16px;min-width:0;flex:1 1 auto}
.avatar{flex:none;width:56px;height:56px;border-radius:14px;background:linear-gradient(135deg,#4338ca,#6366f1);color:#fff;font-size:26px;font-weight:700;display:flex;align-items:center;justify-content:center}
.eyebrow{margin:0;font-size:12px;font-weight:600;letter-spacing:.08em;text-transform:uppercase;color:#4338ca}
h1{margin:2px 0 0;font-size:30px;line-height:1.15;font-weight:700;letter-spacing:-.02em;overflow-wrap:anywhere}
.site{margin:2px 0 0;color:#6b7280}
.meta{flex:none;display:grid;grid-template-columns:repeat(2,auto);gap:8px 28px;margin:0;font-size:13px}
.meta div{min-width:0}
.meta dt{color:#6b7280;font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:.06em}
.meta dd{margin:0;font-weight:500;font-variant-numeric:tabular-nums;white-space:nowrap}
.notes{background:#fffbeb;border:1px solid #fde68a;color:#92400e;border-radius:10px;padding:10px 14px;margin-bottom:20px;font-size:13px}
.notes p{margin:0}
.kpis{display:grid;grid-template-columns:repeat(5,1fr);gap:14px;margin-bottom:20px}
.kpi{background:#fff;border:1px solid #e3e6ec;border-radius:12px;padding:14px 16px;min-width:0}
.kpi-label{font-size:12px;font-weight:600;color:#6b7280}
.kpi-value{font-size:28px;font-weight:700;letter-spacing:-.02em;margin-top:2px;font-variant-numeric:tabular-nums}
.kpi.accent .kpi-value{color:#4338ca}
.kpi.positive .kpi-value{color:${POSITIVE}}
.kpi-detail{font-size:12px;color:#6b7280;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.card{background:#fff;border:1px solid #e3e6ec;border-radius:14px;padding:20px 22px;margin-bottom:20px;break-inside:avoid}
.card-head{margin-bottom:12px}
h2{margin:0;font-size:17px;font-weight:650;letter-spacing:-.01em}
.sub{margin:2px 0 0;color:#6b7280;font-size:13px}
.empty{display:flex;align-items:center;justify-content:center;min-height:96px;border:1px dashed #d1d5db;border-radius:10px;color:#6b7280;background:#fafbfc;font-weight:500}
.legend{list-style:none;margin:0 0 10px;padding:0;display:flex;flex-wrap:wrap;gap:6px 18px;font-size:13px}
.legend li{display:flex;align-items:center;gap:6px}
.legend li.is-brand{font-weight:650}
.swatch{display:inline-block;flex:none;width:10px;height:10px;border-radius:3px}
.charts{display:grid;grid-template-columns:1fr 1fr;gap:24px}
figure{margin:0;min-width:0}
figcaption{font-weight:600;font-size:13px;margin-bottom:4px}
figcaption span{font-weight:400;color:#6b7280;margin-left:6px}
.chart{display:block;overflow:visible}
.chart .grid{stroke:#eceef2;stroke-width:1}
.chart .axis{stroke:#c7cbd3;stroke-width:1}
.chart .tick{fill:#6b7280;font-size:11px;font-variant-numeric:tabular-nums}
.chart .line{fill:none;stroke-width:1.75;stroke-linejoin:round;stroke-linecap:round;opacity:.85}
.chart .line.brand{stroke-width:3;opacity:1}
.chart .dot{stroke:#fff;stroke-width:1}
.foot{margin:10px 0 0;color:#6b7280;font-size:12px}
.grid-table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums;table-layout:auto}
.grid-table th{font-size:11px;text-transform:uppercase;letter-spacing:.06em;color:#6b7280;font-weight:600;text-align:left;padding:8px 10px;border-bottom:1px solid #e3e6ec;white-space:nowrap}
.grid-table td{padding:7px 10px;border-bottom:1px solid #f0f1f4;vertical-align:middle}
.grid-table tr:last-child td{border-bottom:none}
.grid-table .num{text-align:right;white-space:nowrap}
.grid-table tr.is-brand td{background:#f5f5ff}
.grid-table .name{display:flex;align-items:center;gap:8px;min-width:0}
.ename{font-weight:600}
.web{color:#9ca3af;font-size:12px}
.pill{display:inline-block;font-size:11px;font-weight:600;padding:1px 8px;border-radius:999px;white-space:nowrap}
.brand-pill{background:#e0e7ff;color:#3730a3}
.pill.pos{background:#dcfce7;color:#166534}
.pill.neg{background:#fee2e2;color:#991b1b}
.bar{display:inline-block;vertical-align:middle;width:72px;height:6px;border-radius:3px;background:#eef0f3;margin-right:10px;overflow:hidden}
.bar>span{display:block;height:100%;border-radius:3px}
.prompts .rank{width:28px;color:#9ca3af;text-align:right}
.prompts td.prompt{max-width:380px}
.prompts td.prompt span{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-weight:500}
.prompts td.mentions b{display:inline-block;min-width:28px}
.prompts .trend{width:140px;text-align:right;padding-right:14px}
.spark{display:inline-block;vertical-align:middle}
.row2{display:grid;grid-template-columns:270px minmax(0,1fr);gap:20px;align-items:start}
.row2 .card{margin-bottom:0}
.donut-wrap{display:flex;flex-direction:column;align-items:center;gap:16px;padding-top:4px}
.donut-value{font-size:26px;font-weight:700;fill:#111827;letter-spacing:-.02em}
.donut-caption{font-size:12px;fill:#6b7280;text-transform:uppercase;letter-spacing:.08em}
.split{list-style:none;margin:0;padding:0;width:100%}
.split li{display:flex;align-items:center;gap:8px;padding:7px 0;border-bottom:1px solid #f0f1f4}
.split li:last-child{border-bottom:none}
.split b{margin-left:auto;font-variant-numeric:tabular-nums}
.split small{color:#6b7280;min-width:78px;text-align:right}
.split li.total{color:#6b7280}
.split li.total b{color:#111827}
.theme-list{list-style:none;margin:0;padding:0;columns:2;column-gap:28px}
.theme-list li{display:flex;align-items:center;gap:8px;padding:7px 0;border-bottom:1px solid #f0f1f4;break-inside:avoid}
.tname{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-weight:500}
.theme-list .bar{width:48px;margin-right:0}
.occ{min-width:34px;text-align:right;font-variant-numeric:tabular-nums}
.page-foot{margin-top:28px;color:#6b7280;font-size:12px;line-height:1.6;border-top:1px solid #e3e6ec;padding-top:14px}
.page-foot p{margin:0 0 4px}
@media (max-width:900px){.kpis{grid-template-columns:repeat(2,1fr)}.charts,.row2{grid-template-columns:1fr}.top{flex-direction:column;align-items:flex-start}.theme-list{columns:1}}
@media print{body{background:#fff}.page{padding:0}.card,.kpi{border-color:#d1d5db}}
`

/**
 * Renders one self-contained HTML page for a domain's four payloads: a header (brand, website,
 * window, model, generated_at), headline numbers, visibility and share-of-voice line charts for the
 * brand against its top competitors, a competitor table, the top prompts with daily sparklines, the
 * sentiment split and the themes. Opens offline: inline CSS and SVG only, no script, and a
 * Content-Security-Policy that blocks any network request. All text is escaped; a payload with no
 * data renders "No data in this window".
 * @example
 * const html = renderReportHtml({
 *   domain: (await engine.getDomain(domainId))!,
 *   prompts: await engine.computePromptSeries({ domainId, days: 30 }),
 *   competitors: await engine.computeCompetitorSeries({ domainId, days: 30 }),
 *   overview: await engine.sentimentOverview({ domainId, days: 30 }),
 *   themes: await engine.sentimentThemes({ domainId, days: 30 }),
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
${renderPrompts(input, input.topPrompts ?? 10)}
<div class="row2">
${renderSentiment(input)}
${renderThemes(input, input.topThemes ?? 20)}
</div>
<footer class="page-foot">
<p><b>Visibility</b>: share of AI answers that mention the entity, per day. <b>Share of voice</b>: the entity's mentions as a share of all tracked entities' mentions that day. <b>Position</b>: rank among the entities an answer lists (lower is better). <b>Sentiment score</b>: 0-100. Percentages in the table are means of daily values.</p>
<p>Generated by visibility-analytics${generatedAt ? ` at ${esc(formatTimestamp(generatedAt))}` : ''}.</p>
</footer>
</main>
</body>
</html>
`
}
