/** The sections of the report page, each rendered from the payloads as an HTML fragment. */
import type { CompetitorEntry } from '../reports/index.js'
import type { ReportInput } from './input.js'
import {
  dayNumber,
  esc,
  formatDay,
  formatInt,
  formatNumber,
  formatPercent,
  formatTimestamp,
} from './format.js'
import { EMPTY, section } from './card.js'
import { sampleAnchor, samplesByPrompt } from './samples.js'
import { BRAND_COLOR, POSITIVE } from './styles.js'
import { donut, lineChart, sparkline } from './svg.js'

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

function kpi(label: string, value: string, detail: string, tone = ''): string {
  return `<div class="kpi ${tone}"><div class="kpi-label">${esc(label)}</div><div class="kpi-value">${esc(
    value,
  )}</div><div class="kpi-detail">${esc(detail)}</div></div>`
}

/**
 * The window's first and last day (day numbers): the echoed range, or `days` ending at the UTC
 * date of `generated_at`.
 */
function windowOf(envelope: {
  days: number
  generated_at: string
  start_date?: string | undefined
  end_date?: string | undefined
}): { first: number; last: number } | null {
  const { days } = envelope
  const end = envelope.end_date === undefined ? envelope.generated_at : `${envelope.end_date}T00:00:00Z`
  const ms = Date.parse(end)
  if (Number.isNaN(ms) || !Number.isInteger(days) || days < 1) return null
  const last = Math.floor(ms / 86_400_000)
  return { first: last - days + 1, last }
}

function entityColor(index: number, entity: CompetitorEntry): string {
  return entity.is_brand ? BRAND_COLOR : (COMPETITOR_COLORS[index % COMPETITOR_COLORS.length] ?? '#64748b')
}

export function renderHeader(input: ReportInput, brandName: string): string {
  const envelope = input.overview ?? input.themes ?? input.competitors ?? input.prompts ?? null
  const meta: [string, string][] = []
  if (envelope) {
    const w = windowOf(envelope)
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
  // The segment filters (docs/API.md, "Segment filters"), as every section applied them.
  const segment = envelope as { country?: string; topic?: string; tag?: string } | null
  if (segment?.country !== undefined) meta.push(['Country', segment.country])
  if (segment?.topic !== undefined) meta.push(['Topic', segment.topic])
  if (segment?.tag !== undefined) meta.push(['Tag', segment.tag])
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

export function renderKpis(input: ReportInput): string {
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

export function renderTrends(input: ReportInput, top: number): string {
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

export function renderCompetitorTable(input: ReportInput, top: number): string {
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
    `<table class="grid-table"><thead><tr><th>Entity</th><th class="num">Visibility</th><th class="num">Share of voice</th><th class="num">Mentions / ${esc(input.competitors?.granularity ?? 'day')}</th><th class="num">Avg position</th><th class="num">Sentiment</th><th class="num">Prompts</th></tr></thead><tbody>${rows}</tbody></table>`,
  )
}

export function renderPrompts(input: ReportInput, top: number): string {
  const p = input.prompts
  const items = p?.data.items ?? []
  if (!p || items.length === 0) return section('Top prompts', 'By brand mentions over the window', EMPTY)
  const w = windowOf(p)
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
  const samples = samplesByPrompt(input)
  const sampleLink = (id: string): string =>
    samples.has(id) ? `<a class="sample-link" href="#${esc(sampleAnchor(id))}">Sample answer</a>` : ''
  const rows = shown
    .map(
      (s, i) => `<tr>
<td class="rank">${i + 1}</td>
<td class="prompt"><span dir="auto" title="${esc(s.e.text)}">${esc(s.e.text)}</span>${sampleLink(s.e.id)}</td>
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

export function renderSentiment(input: ReportInput): string {
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

export function renderThemes(input: ReportInput, top: number): string {
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

// ---------------------------------------------------------------------------------------------
// The model leaderboard, sentiment over time, cited domains and cited pages (docs/API.md, "Rankings", "Citations, fan-out and sentiment over time").

const KIND_PILL = {
  brand: '<span class="pill brand-pill">Your site</span>',
  competitor: '<span class="pill comp-pill">Competitor</span>',
  other: '<span class="pill other-pill">Third party</span>',
} as const

/** Whose a cited host or page is: the brand's, a competitor's, or a third party's. */
function ownerPill(item: { is_brand: boolean; competitor_id: string | null }): string {
  return item.is_brand
    ? KIND_PILL.brand
    : item.competitor_id !== null
      ? KIND_PILL.competitor
      : KIND_PILL.other
}

export function renderLeaderboard(input: ReportInput): string {
  const items = input.leaderboard?.data.items ?? []
  const title = 'Model leaderboard'
  const subtitle = 'The brand on each AI answer engine over the window, by visibility'
  if (items.length === 0) return section(title, subtitle, EMPTY)
  const max = Math.max(1, ...items.map((i) => i.visibility))
  const rows = items
    .map(
      (i, n) => `<tr>
<td class="rank">${n + 1}</td>
<td><span class="ename">${esc(modelLabel(i.model))}</span></td>
<td class="num">${bar(i.visibility, max, BRAND_COLOR)}${esc(formatPercent(i.visibility))}</td>
<td class="num">${esc(i.avg_position === null ? '—' : formatNumber(i.avg_position))}</td>
<td class="num">${esc(formatInt(i.mentions))}</td>
<td class="num">${esc(formatInt(i.responses))}</td></tr>`,
    )
    .join('')
  return section(
    title,
    subtitle,
    `<table class="grid-table ranked"><thead><tr><th class="rank">#</th><th>Channel</th><th class="num">Visibility</th><th class="num">Avg position</th><th class="num">Answers mentioning</th><th class="num">Answers</th></tr></thead><tbody>${rows}</tbody></table>`,
  )
}

export function renderSentimentTrend(input: ReportInput): string {
  const items = input.sentimentSeries?.data.items ?? []
  const title = 'Sentiment over time'
  const subtitle = 'Share of theme mentions tagged positive and negative, per day with themes'
  if (items.length === 0) return section(title, subtitle, EMPTY)
  const line = (name: string, color: string, pick: 'positive_percent' | 'negative_percent') => ({
    name,
    color,
    emphasis: pick === 'positive_percent',
    points: items.map((d) => ({ date: d.date, value: d[pick] })),
  })
  const mentions = items.reduce((s, d) => s + d.total_mentions, 0)
  const legend = `<ul class="legend"><li class="is-brand"><span class="swatch" style="background:${POSITIVE}"></span>Positive</li><li><span class="swatch" style="background:${NEGATIVE}"></span>Negative</li></ul>`
  return section(
    title,
    subtitle,
    `${legend}${lineChart({
      title,
      series: [
        line('Positive', POSITIVE, 'positive_percent'),
        line('Negative', NEGATIVE, 'negative_percent'),
      ],
      yCap: 100,
      width: 1120,
      height: 220,
    })}<p class="foot">${esc(formatInt(mentions))} theme mentions on ${esc(formatInt(items.length))} day${items.length === 1 ? '' : 's'}.</p>`,
  )
}

export function renderCitedDomains(input: ReportInput, top: number): string {
  const p = input.citedDomains
  const items = p?.data.items ?? []
  const title = 'Cited domains'
  const subtitle = 'The sites AI answers cite, by citations, with their share of all citations'
  if (!p || items.length === 0) return section(title, subtitle, EMPTY)
  const shown = items.slice(0, top)
  const max = Math.max(1, ...shown.map((d) => d.share))
  const rows = shown
    .map(
      (d, n) => `<tr${d.is_brand ? ' class="is-brand"' : ''}>
<td class="rank">${n + 1}</td>
<td><div class="name"><span class="ename">${esc(d.domain)}</span>${ownerPill(d)}</div></td>
<td class="num">${bar(d.share, max, d.is_brand ? BRAND_COLOR : '#64748b')}${esc(formatPercent(d.share))}</td>
<td class="num">${esc(formatInt(d.frequency))}</td>
<td class="num">${esc(formatInt(d.responses))}</td>
<td class="num">${esc(formatInt(d.urls))}</td></tr>`,
    )
    .join('')
  const more = p.data.total - shown.length
  return section(
    title,
    subtitle,
    `<table class="grid-table ranked"><thead><tr><th class="rank">#</th><th>Domain</th><th class="num">Share</th><th class="num">Citations</th><th class="num">Answers</th><th class="num">Pages</th></tr></thead><tbody>${rows}</tbody></table>${
      more > 0 ? `<p class="foot">And ${esc(formatInt(more))} more domain${more === 1 ? '' : 's'}.</p>` : ''
    }`,
  )
}

export function renderCitedPages(input: ReportInput, top: number): string {
  const p = input.citations
  const items = p?.data.items ?? []
  const title = 'Cited pages'
  const subtitle = 'The pages AI answers cite most, with their latest title and page type'
  if (!p || items.length === 0) return section(title, subtitle, EMPTY)
  const shown = items.slice(0, top)
  const rows = shown
    .map(
      (c, n) => `<tr${c.is_brand ? ' class="is-brand"' : ''}>
<td class="rank">${n + 1}</td>
<td class="page"><span class="ptitle" dir="auto" title="${esc(c.url)}">${esc(c.title ?? c.url)}</span><span class="web">${esc(
        c.url,
      )}</span></td>
<td><div class="name">${ownerPill(c)}${c.page_type ? `<span class="ptype">${esc(c.page_type)}</span>` : ''}</div></td>
<td class="num">${esc(formatInt(c.frequency))}</td>
<td class="num">${esc(formatInt(c.responses))}</td>
<td class="num">${esc(formatInt(c.prompt_count))}</td>
<td class="chan">${esc(c.channels.map(modelLabel).join(', '))}</td></tr>`,
    )
    .join('')
  const more = p.data.total - shown.length
  return section(
    title,
    subtitle,
    `<table class="grid-table ranked pages"><thead><tr><th class="rank">#</th><th>Page</th><th>Owner · type</th><th class="num">Citations</th><th class="num">Answers</th><th class="num">Prompts</th><th>Channels</th></tr></thead><tbody>${rows}</tbody></table>${
      more > 0 ? `<p class="foot">And ${esc(formatInt(more))} more page${more === 1 ? '' : 's'}.</p>` : ''
    }`,
  )
}

// ---------------------------------------------------------------------------------------------
// The signals (docs/API.md, "GET /api/v1/signals").

const TIER_LABEL = { high: 'High', confident: 'Confident', worth_a_look: 'Worth a look' } as const

/** A segment as people read it: all answers, a channel's product name, a country or a topic. */
function segmentLabel(segment: { kind: string; value: string | null }): string {
  if (segment.value === null) return 'All answers'
  if (segment.kind === 'channel') return modelLabel(segment.value)
  return `${segment.kind === 'country' ? 'Country' : 'Topic'}: ${segment.value}`
}

export function renderSignals(input: ReportInput): string {
  const p = input.signals
  const items = p?.data.items ?? []
  const title = 'Signals'
  const subtitle = p
    ? `Changes of visibility that pass a two-proportion test: the last ${p.window} day${p.window === 1 ? '' : 's'} against the ${p.window} before (at least ${formatInt(p.min_responses)} answers in each, ${formatNumber(p.min_delta)} points or more)`
    : 'Changes of visibility that pass a two-proportion test'
  if (!p || items.length === 0)
    return section(title, subtitle, '<div class="empty">No significant change</div>', 'signals')
  const rows = items
    .map((s) => {
      const up = s.direction === 'up'
      return `<tr class="${s.is_brand ? 'is-brand' : ''}">
<td><span class="pill tier-${s.tier}">${esc(TIER_LABEL[s.tier])}</span></td>
<td><span class="ename">${esc(s.entity_name)}</span>${s.is_brand ? ' <span class="pill brand-pill">Your brand</span>' : ''}</td>
<td>${esc(segmentLabel(s.segment))}</td>
<td class="num">${esc(formatPercent(s.baseline.visibility))} → ${esc(formatPercent(s.current.visibility))}</td>
<td class="num"><span class="pill ${up ? 'pos' : 'neg'}">${up ? '▲' : '▼'} ${esc(formatNumber(Math.abs(s.visibility_delta)))} pts</span></td>
<td class="num">${esc(formatInt(s.baseline.responses))} / ${esc(formatInt(s.current.responses))}</td>
<td class="num">${esc(s.p_value < 0.0001 ? '< 0.0001' : s.p_value.toFixed(4))}</td></tr>`
    })
    .join('')
  return section(
    title,
    subtitle,
    `<table class="grid-table signals-table"><thead><tr><th>Confidence</th><th>Entity</th><th>Segment</th><th class="num">Visibility</th><th class="num">Change</th><th class="num">Answers (before / now)</th><th class="num">p-value</th></tr></thead><tbody>${rows}</tbody></table><p class="foot">High: p &lt; 0.001; confident: p &lt; 0.01; worth a look: p &lt; 0.05 (with many segments, a few of these are expected by chance).</p>`,
    'signals',
  )
}
