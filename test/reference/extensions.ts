/**
 * The reference model of extensions.md sections 3-7 (listings, rankings, brand series, citations,
 * fan-out queries, sentiment over time) with the ranges and buckets of section 9. Each function
 * reads the store naively (filter, group, count) and returns the whole documented body: `data`,
 * the echo fields in the documented order, `generated_at`.
 */
import { CHANNELS } from '../../src/foundation/vocabulary.js'
import type { ThemeEntry } from '../../src/reports/index.js'
import { NotFoundError, ValidationError } from '../../src/errors.js'
import { bucketOf, formatGeneratedAt, granularityEcho, resolveWindow, toMs, segmentEcho } from './buckets.js'
import type { Window } from './buckets.js'
import { citedUrl, isSiteOrSubdomain, urlHost, websiteHost } from './hosts.js'
import { cmp, exactMean, mean, percent, sentimentPercent } from './numbers.js'
import { intParam, modelFilter, rejectGranularity } from './params.js'
import type { Store, StoredAnalysis, StoredCitation, StoredDomain, StoredPrompt } from './store.js'
import type {
  BrandMetric,
  BrandRankingItem,
  BrandRankingsPayload,
  BrandSeriesParams,
  BrandSeriesPayload,
  CitationItem,
  CitationsParams,
  CitationsPayload,
  CitedDomainItem,
  CitedDomainsPayload,
  FanoutPromptItem,
  FanoutQueriesPayload,
  LeaderboardItem,
  ListDomainsParams,
  ListDomainsPayload,
  ListPromptsParams,
  ListPromptsPayload,
  ModelLeaderboardParams,
  ModelLeaderboardPayload,
  ReportParams,
  SentimentPoint,
  SentimentSeriesParams,
  SentimentSeriesPayload,
  ValidateParams,
  ValidatePayload,
  ValuePoint,
} from './types.js'

const lower = (s: string): string => s.toLowerCase()
const distinct = <T>(xs: T[]): T[] => [...new Set(xs)]
const sortedDistinct = (xs: string[]): string[] => distinct(xs).sort(cmp)
const mentions = (a: StoredAnalysis, entityId: string): boolean =>
  a.mentions.some((m) => m.entity_id === entityId)

/** What every windowed report starts from: the domain, the clock, the window and its analyses. */
interface Scope {
  domain: StoredDomain
  nowMs: number
  w: Window
  model: string
  /** The domain's analyses in the window that pass the model filter. */
  analyses: StoredAnalysis[]
}

function scope(store: Store, p: ReportParams & { granularity?: string }, series: boolean): Scope {
  const domain = store.domain(p.domainId)
  const nowMs = toMs(p.now ?? new Date())
  const w = resolveWindow(p, nowMs, series)
  const { model, keep } = modelFilter(p.model, true)
  return { domain, nowMs, w, model, analyses: store.inWindow(domain.id, w).filter(keep) }
}

/** The analyses grouped by bucket (see buckets.ts), buckets ascending. */
function byBucket(analyses: StoredAnalysis[], w: Window): [string, StoredAnalysis[]][] {
  const groups = new Map<string, StoredAnalysis[]>()
  for (const a of analyses) {
    const key = bucketOf(a.date, w)
    groups.set(key, [...(groups.get(key) ?? []), a])
  }
  return [...groups.entries()].sort((x, y) => cmp(x[0], y[0]))
}

// ---------------------------------------------------------------------------------------------
// Section 3: listings

/** GET /validate: the key's team, scope and rate-limit state after counting this request. */
export function validate(store: Store, p: ValidateParams): ValidatePayload {
  rejectGranularity(p)
  const nowMs = toMs(p.now ?? new Date())
  const team = store.teams.get(lower(p.key.teamId))
  if (team === undefined) throw new NotFoundError('team', p.key.teamId)
  const { limitPerMinute, used, resetAt } = p.rateLimit
  return {
    data: {
      team_id: team.id,
      team_name: team.name,
      plan: team.plan,
      developer_access: team.developer_access,
      scoped_team_ids: sortedDistinct(p.key.scopeTeamIds.map(lower)),
      allowed_domains: p.key.allowedDomains === null ? null : sortedDistinct(p.key.allowedDomains.map(lower)),
      rate_limit: {
        limit_per_minute: limitPerMinute,
        remaining: Math.max(0, limitPerMinute - used),
        reset_at: formatGeneratedAt(toMs(resetAt)),
      },
    },
    generated_at: formatGeneratedAt(nowMs),
  }
}

/** GET /domains: the domains the key may read, by name then id, as one page. */
export function listDomains(store: Store, p: ListDomainsParams): ListDomainsPayload {
  rejectGranularity(p)
  const nowMs = toMs(p.now ?? new Date())
  const teams = new Set(p.key.scopeTeamIds.map(lower))
  const allowed = p.key.allowedDomains === null ? null : new Set(p.key.allowedDomains.map(lower))
  const items = [...store.domains.values()]
    .filter(
      (d) =>
        teams.has(d.team_id) &&
        store.teams.get(d.team_id)?.developer_access === true &&
        (allowed === null || allowed.has(d.id)),
    )
    .sort((a, b) => cmp(a.brand_name, b.brand_name) || cmp(a.id, b.id))
    .map((d) => ({ id: d.id, name: d.brand_name, website: d.website, created_at: d.created_at }))
  return {
    data: { items, total: items.length, page: 1, size: items.length, total_pages: 1 },
    generated_at: formatGeneratedAt(nowMs),
  }
}

/** GET /prompts: the domain's prompts, newest first (nulls last), then id; one page of them. */
export function listPrompts(store: Store, p: ListPromptsParams): ListPromptsPayload {
  rejectGranularity(p)
  const domain = store.domain(p.domainId)
  const nowMs = toMs(p.now ?? new Date())
  const page = intParam('page', p.page, 1, 1, Infinity)
  const size = intParam('size', p.size, 50, 1, 500)
  const instant = (s: string | null): number => (s === null ? -Infinity : Date.parse(s))
  // segments.md section 2: topic and tag filter the listed prompts (trimmed, exact).
  const topicOf = (x: StoredPrompt): string | null => x.topic?.trim() ?? null
  const tagsOf = (x: StoredPrompt): string[] => [...new Set((x.tags ?? []).map((t) => t.trim()))].sort(cmp)
  const topic = p.topic?.trim()
  const tag = p.tag?.trim()
  const all = store
    .promptsOf(domain.id)
    .filter(
      (x) => (topic === undefined || topicOf(x) === topic) && (tag === undefined || tagsOf(x).includes(tag)),
    )
    .sort((a, b) => instant(b.created_at) - instant(a.created_at) || cmp(a.id, b.id))
  const items = all.slice((page - 1) * size, page * size).map((x) => ({
    id: x.id,
    text: x.text,
    estimated_search_volume: x.estimated_search_volume,
    created_at: x.created_at,
    topic: topicOf(x),
    tags: tagsOf(x),
  }))
  return {
    data: { items, total: all.length, page, size, total_pages: Math.max(1, Math.ceil(all.length / size)) },
    domain_id: domain.id,
    page,
    size,
    ...(topic === undefined ? {} : { topic }),
    ...(tag === undefined ? {} : { tag }),
    generated_at: formatGeneratedAt(nowMs),
  }
}

// ---------------------------------------------------------------------------------------------
// Section 4: rankings

/** GET /brand-rankings: the brand and every competitor over the window's filtered analyses. */
export function brandRankings(store: Store, p: ReportParams): BrandRankingsPayload {
  const { domain, nowMs, w, model, analyses } = scope(store, p, false)
  const competitors = store.competitorsOf(domain.id)
  const envelope = (items: BrandRankingItem[]): BrandRankingsPayload => ({
    data: { items },
    domain_id: domain.id,
    ...w.echo,
    model,
    ...segmentEcho(w),
    generated_at: formatGeneratedAt(nowMs),
  })
  if (competitors.length === 0 && analyses.length === 0) return envelope([])

  const entities = [
    { entityId: 'brand', id: `user-brand-${domain.id}`, name: domain.brand_name, website: domain.website },
    ...competitors.map((c) => ({ entityId: c.id, id: c.id, name: c.name, website: c.website })),
  ]
  const count = (entityId: string): number => analyses.filter((a) => mentions(a, entityId)).length
  const sum = entities.reduce((n, e) => n + count(e.entityId), 0)
  const totalPrompts = distinct(analyses.map((a) => a.prompt_id)).length

  const rows: BrandRankingItem[] = entities.map((e) => {
    const mentioning = analyses.filter((a) => mentions(a, e.entityId))
    // Per prompt: the mean non-null position of the entity's mentions; prompts without one skipped.
    const perPrompt: number[] = []
    for (const promptId of distinct(mentioning.map((a) => a.prompt_id))) {
      const positions = mentioning
        .filter((a) => a.prompt_id === promptId)
        .flatMap((a) => a.mentions.filter((m) => m.entity_id === e.entityId && m.position !== null))
        .map((m) => m.position as number)
      if (positions.length > 0) perPrompt.push(mean(positions))
    }
    return {
      id: e.id,
      name: e.name,
      website: e.website,
      is_brand: e.entityId === 'brand',
      mentions: mentioning.length,
      visibility: percent(mentioning.length, analyses.length),
      sov: percent(mentioning.length, sum),
      avg_position: perPrompt.length === 0 ? null : exactMean(perPrompt),
      prompts_mentioned: distinct(mentioning.map((a) => a.prompt_id)).length,
      total_prompts: totalPrompts,
    }
  })
  const [brand, ...others] = rows as [BrandRankingItem, ...BrandRankingItem[]]
  others.sort((a, b) => b.mentions - a.mentions || cmp(a.name, b.name) || cmp(a.id, b.id))
  return envelope([brand, ...others])
}

/** GET /model-leaderboard: per channel with analyses, the brand's visibility and position. */
export function modelLeaderboard(store: Store, p: ModelLeaderboardParams): ModelLeaderboardPayload {
  const domain = store.domain(p.domainId)
  const nowMs = toMs(p.now ?? new Date())
  const w = resolveWindow(p, nowMs, false)
  const analyses = store.inWindow(domain.id, w)
  const items: LeaderboardItem[] = []
  for (const channel of CHANNELS) {
    const own = analyses.filter((a) => a.channel === channel)
    if (own.length === 0) continue
    const brand = own.flatMap((a) => a.mentions.filter((m) => m.entity_id === 'brand'))
    const positions = brand.flatMap((m) => (m.position === null ? [] : [m.position]))
    items.push({
      model: channel,
      visibility: percent(brand.length, own.length),
      avg_position: positions.length === 0 ? null : mean(positions),
      mentions: brand.length,
      responses: own.length,
    })
  }
  items.sort((a, b) => b.visibility - a.visibility || cmp(a.model, b.model))
  return {
    data: { items },
    domain_id: domain.id,
    ...w.echo,
    ...segmentEcho(w),
    generated_at: formatGeneratedAt(nowMs),
  }
}

// ---------------------------------------------------------------------------------------------
// Section 5: brand time series

const METRICS: readonly BrandMetric[] = ['visibility', 'mentions', 'citations', 'citability']

/** GET /{visibility,mentions,citations,citability}-time-series: one value per bucket with analyses. */
export function brandSeries(store: Store, p: BrandSeriesParams): BrandSeriesPayload {
  if (!METRICS.includes(p.metric)) {
    throw new ValidationError([
      { path: 'metric', message: 'metric must be visibility, mentions, citations or citability.' },
    ])
  }
  const { domain, nowMs, w, model, analyses } = scope(store, p, true)
  const site = websiteHost(domain.website)
  const items: ValuePoint[] = byBucket(analyses, w).map(([date, that]) => {
    const mentioning = that.filter((a) => mentions(a, 'brand')).length
    const citations = that.flatMap((a) => a.citations)
    const brandCitations = citations.filter((c) => isSiteOrSubdomain(urlHost(c.url), site)).length
    const value = {
      visibility: percent(mentioning, that.length),
      mentions: mentioning,
      citations: brandCitations,
      citability: percent(brandCitations, citations.length),
    }[p.metric]
    return { date, value }
  })
  return {
    data: { items },
    domain_id: domain.id,
    ...w.echo,
    model,
    ...granularityEcho(w),
    ...segmentEcho(w),
    generated_at: formatGeneratedAt(nowMs),
  }
}

// ---------------------------------------------------------------------------------------------
// Section 6: citations and fan-out

/** One citation entry with where it came from. */
interface Entry {
  analysis: StoredAnalysis
  /** Its index in the analysis's citations. */
  index: number
  citation: StoredCitation
  url: string
  host: string
}

/** Every citation entry of the analyses, with its URL identity and host. */
function entries(analyses: StoredAnalysis[]): Entry[] {
  return analyses.flatMap((analysis) =>
    analysis.citations.map((citation, index) => {
      const url = citedUrl(citation.url)
      return { analysis, index, citation, url, host: urlHost(url) }
    }),
  )
}

function groupBy<T>(xs: T[], key: (x: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const x of xs) out.set(key(x), [...(out.get(key(x)) ?? []), x])
  return out
}

/** The competitor, smallest id first, whose website host is the host or a parent domain of it. */
function competitorOf(store: Store, domainId: string): (host: string) => string | null {
  const sites = store
    .competitorsOf(domainId)
    .sort((a, b) => cmp(a.id, b.id))
    .map((c) => ({ id: c.id, site: websiteHost(c.website) }))
  return (host) => sites.find((c) => isSiteOrSubdomain(host, c.site))?.id ?? null
}

/**
 * A title or page type: the latest non-null value by answered_at, then the larger analysis id, then
 * the later entry within an analysis; null when none.
 */
function latest(group: Entry[], field: 'title' | 'page_type'): string | null {
  const withValue = group.filter((e) => e.citation[field] !== null)
  withValue.sort(
    (a, b) => b.analysis.ms - a.analysis.ms || cmp(b.analysis.id, a.analysis.id) || b.index - a.index,
  )
  return withValue[0]?.citation[field] ?? null
}

const iso = (ms: number): string => new Date(ms).toISOString()

/** GET /citations: one item per distinct cited URL, most cited first. */
export function citations(store: Store, p: CitationsParams): CitationsPayload {
  const { domain, nowMs, w, model, analyses } = scope(store, p, false)
  const limit = intParam('limit', p.limit, 100, 1, 1000)
  const site = websiteHost(domain.website)
  const competitor = competitorOf(store, domain.id)
  const items: CitationItem[] = [...groupBy(entries(analyses), (e) => e.url)].map(([url, group]) => {
    const citing = distinct(group.map((e) => e.analysis))
    const times = citing.map((a) => a.ms)
    const host = urlHost(url)
    return {
      url,
      domain: host,
      title: latest(group, 'title'),
      page_type: latest(group, 'page_type'),
      frequency: group.length,
      responses: citing.length,
      prompt_count: distinct(citing.map((a) => a.prompt_id)).length,
      brand_mentions: citing.filter((a) => mentions(a, 'brand')).length,
      channels: sortedDistinct(citing.map((a) => a.channel)),
      models: sortedDistinct(citing.map((a) => a.model)),
      is_brand: isSiteOrSubdomain(host, site),
      competitor_id: competitor(host),
      first_seen: iso(Math.min(...times)),
      last_seen: iso(Math.max(...times)),
    }
  })
  items.sort((a, b) => b.frequency - a.frequency || cmp(a.url, b.url))
  return {
    data: { items: items.slice(0, limit), total: items.length },
    domain_id: domain.id,
    ...w.echo,
    model,
    limit,
    ...segmentEcho(w),
    generated_at: formatGeneratedAt(nowMs),
  }
}

/** GET /cited-domains: one item per cited host, most cited first. */
export function citedDomains(store: Store, p: CitationsParams): CitedDomainsPayload {
  const { domain, nowMs, w, model, analyses } = scope(store, p, false)
  const limit = intParam('limit', p.limit, 100, 1, 1000)
  const site = websiteHost(domain.website)
  const competitor = competitorOf(store, domain.id)
  const all = entries(analyses)
  const items: CitedDomainItem[] = [...groupBy(all, (e) => e.host)].map(([host, group]) => ({
    domain: host,
    frequency: group.length,
    responses: distinct(group.map((e) => e.analysis)).length,
    urls: distinct(group.map((e) => e.url)).length,
    share: percent(group.length, all.length),
    is_brand: isSiteOrSubdomain(host, site),
    competitor_id: competitor(host),
  }))
  items.sort((a, b) => b.frequency - a.frequency || cmp(a.domain, b.domain))
  return {
    data: { items: items.slice(0, limit), total: items.length },
    domain_id: domain.id,
    ...w.echo,
    model,
    limit,
    ...segmentEcho(w),
    generated_at: formatGeneratedAt(nowMs),
  }
}

/** GET /fanout-queries: per prompt, the fan-out queries of its analyses (trimmed at ingest). */
export function fanoutQueries(store: Store, p: ReportParams): FanoutQueriesPayload {
  const { domain, nowMs, w, model, analyses } = scope(store, p, false)
  const ranked: { item: FanoutPromptItem; sum: number }[] = []
  for (const prompt of store.promptsOf(domain.id)) {
    const own = analyses.filter((a) => a.prompt_id === prompt.id)
    const queries = sortedDistinct(own.flatMap((a) => a.fanout_queries))
    if (queries.length === 0) continue
    const fanout = queries.map((query) => {
      const emitting = own.filter((a) => a.fanout_queries.includes(query))
      return { query, count: emitting.length, channels: sortedDistinct(emitting.map((a) => a.channel)) }
    })
    fanout.sort((a, b) => b.count - a.count || cmp(a.query, b.query))
    ranked.push({
      item: { id: prompt.id, text: prompt.text, fanout_queries: fanout },
      sum: fanout.reduce((n, q) => n + q.count, 0),
    })
  }
  ranked.sort((a, b) => b.sum - a.sum || cmp(a.item.id, b.item.id))
  return {
    data: { items: ranked.map((r) => r.item), total: ranked.length },
    domain_id: domain.id,
    ...w.echo,
    model,
    ...segmentEcho(w),
    generated_at: formatGeneratedAt(nowMs),
  }
}

// ---------------------------------------------------------------------------------------------
// Section 7: sentiment over time

/**
 * The non-archived themes of the domain that occur in the analyses, with the sum of their
 * occurrences, by occurrences descending then id (semantics.md section 6).
 */
export function themeTotals(store: Store, domainId: string, analyses: StoredAnalysis[]): ThemeEntry[] {
  const occurrences = new Map<string, number>()
  for (const a of analyses) {
    for (const t of a.themes) occurrences.set(t.theme_id, (occurrences.get(t.theme_id) ?? 0) + t.occurrences)
  }
  const items: ThemeEntry[] = []
  for (const [id, n] of occurrences) {
    const theme = store.themes.get(id)
    if (theme === undefined || theme.archived || theme.domain_id !== domainId) continue
    items.push({
      id,
      name: theme.custom_name ?? theme.name,
      sentiment: theme.sentiment,
      occurrences: n,
      created_at: theme.created_at,
    })
  }
  return items.sort((a, b) => b.occurrences - a.occurrences || cmp(a.id, b.id))
}

/** GET /sentiment/time-series: the overview's numbers per bucket in which a theme occurred. */
export function sentimentSeries(store: Store, p: SentimentSeriesParams): SentimentSeriesPayload {
  const { domain, nowMs, w, model, analyses } = scope(store, p, true)
  const items: SentimentPoint[] = []
  for (const [date, that] of byBucket(analyses, w)) {
    const themes = themeTotals(store, domain.id, that)
    if (themes.length === 0) continue
    const P = themes.filter((t) => t.sentiment === 'positive').length
    items.push({
      date,
      positive_percent: sentimentPercent(P, themes.length),
      negative_percent: sentimentPercent(themes.length - P, themes.length),
      total_mentions: themes.reduce((n, t) => n + t.occurrences, 0),
    })
  }
  return {
    data: { items },
    domain_id: domain.id,
    ...w.echo,
    model,
    ...granularityEcho(w),
    ...segmentEcho(w),
    generated_at: formatGeneratedAt(nowMs),
  }
}
