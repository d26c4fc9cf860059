/**
 * The reference model: a small, deliberately naive implementation of semantics.md sections 1.3 and
 * 2-7 in plain TypeScript (no DuckDB), used as the oracle for golden cases and the differential
 * property test. It trusts its input (records are valid; validation is the engine's job) and
 * favours being obviously right over being fast: every query rescans every analysis.
 */
import { CHANNELS } from '../../src/types.js'
import type {
  AnalysisInputRecord,
  AnalysisRecord,
  Clock,
  CompetitorDatapoint,
  CompetitorEntry,
  CompetitorRecord,
  CompetitorSeriesParams,
  CompetitorSeriesPayload,
  DomainRecord,
  PromptDatapoint,
  PromptEntry,
  PromptRecord,
  PromptSeriesParams,
  PromptSeriesPayload,
  SentimentOverviewPayload,
  SentimentParams,
  SentimentThemesPayload,
  TeamRecord,
  ThemeEntry,
  ThemeRecord,
} from '../../src/types.js'
import { NotFoundError, ValidationError } from '../../src/errors.js'

const DAY_MS = 86_400_000

/** An analysis as stored: ids lower-cased, the UTC date of `answered_at` precomputed. */
interface StoredAnalysis extends AnalysisRecord {
  date: string
}

/** `YYYY-MM-DD` of a UTC instant. */
function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

function toMs(clock: Clock): number {
  const ms = clock instanceof Date ? clock.getTime() : new Date(clock).getTime()
  if (Number.isNaN(ms))
    throw new ValidationError([{ path: 'now', message: 'now must be an ISO 8601 timestamp.' }])
  return ms
}

/** `now` as ISO 8601 UTC; the milliseconds are dropped when they are zero. */
export function formatGeneratedAt(ms: number): string {
  const iso = new Date(ms).toISOString()
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso
}

/** The window: the UTC dates `today - days + 1` through `today`. */
function windowOf(nowMs: number, days: number): { first: string; last: string } {
  const todayMs = Date.UTC(
    new Date(nowMs).getUTCFullYear(),
    new Date(nowMs).getUTCMonth(),
    new Date(nowMs).getUTCDate(),
  )
  return { first: utcDate(todayMs - (days - 1) * DAY_MS), last: utcDate(todayMs) }
}

/**
 * Host of a domain's website in the compared form: the URL's host when it contains `://`, else
 * the bare host (read as a URL too, so a path or port is ignored). See `compared`.
 */
export function websiteHost(website: string | null): string | null {
  if (website === null) return null
  let host: string
  try {
    host = new URL(website.includes('://') ? website : `http://${website}`).hostname
  } catch {
    host = website.toLowerCase()
  }
  const h = compared(host)
  return h === '' ? null : h
}

/**
 * A host as compared: lower case, a leading `www.` ignored (semantics.md section 4), and a
 * trailing dot ignored (`acme.com.` is the fully qualified `acme.com`; the spec is silent, this
 * is the engine's reading too).
 */
function compared(host: string): string {
  let h = host.toLowerCase()
  if (h.endsWith('.')) h = h.slice(0, -1)
  return h.startsWith('www.') ? h.slice(4) : h
}

/**
 * Whether a citation URL's host (as the WHATWG URL standard parses it, so `https://evil.net\@acme.com/`
 * is on evil.net) is the site or a subdomain of it.
 */
export function citesSite(url: string, siteHost: string | null): boolean {
  if (siteHost === null) return false
  const host = compared(new URL(url).hostname)
  return host === siteHost || host.endsWith(`.${siteHost}`)
}

function mean(values: number[]): number {
  let sum = 0
  for (const v of values) sum += v
  return sum / values.length
}

/** An exact non-negative rational. */
interface Ratio {
  num: bigint
  den: bigint
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b]
  return a
}

function addRatio(a: Ratio, b: Ratio): Ratio {
  const num = a.num * b.den + b.num * a.den
  const den = a.den * b.den
  const g = gcd(num, den)
  return g === 0n ? { num: 0n, den: 1n } : { num: num / g, den: den / g }
}

/** The double nearest to num/den (ties to even) for results in the normal range (not subnormals). */
export function ratioToNumber({ num, den }: Ratio): number {
  if (num === 0n) return 0
  // Scale so the quotient has at least 66 bits, then append a sticky bit for the remainder:
  // Number() then rounds the 54th bit correctly, and the power-of-two scaling back is exact.
  let shift = 66 - (num.toString(2).length - den.toString(2).length)
  if (shift < 0) shift = 0
  const scaled = num << BigInt(shift)
  const q = scaled / den
  const sticky = scaled % den === 0n ? 0n : 1n
  let value = Number((q << 1n) | sticky)
  // 2 ** 1024 overflows: scale down in steps (each exact while the value stays normal).
  for (let e = shift + 1; e > 0; e -= 1000) value /= 2 ** Math.min(e, 1000)
  return value
}

/** The exact value of a finite non-negative double as a ratio of integers. */
export function doubleToRatio(x: number): Ratio {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, x)
  const bits = view.getBigUint64(0)
  const exponent = Number((bits >> 52n) & 0x7ffn)
  const fraction = bits & ((1n << 52n) - 1n)
  const mantissa = exponent === 0 ? fraction : fraction | (1n << 52n)
  const power = (exponent === 0 ? 1 : exponent) - 1075
  return power >= 0
    ? { num: mantissa << BigInt(power), den: 1n }
    : { num: mantissa, den: 1n << BigInt(-power) }
}

/**
 * Mean of the daily values as reported (doubles), computed exactly and rounded once: the exact
 * sum of the doubles divided by their count, to the nearest double (what Python's
 * statistics.mean gives). A plain double sum rounds at every step; the spec example's avg_sov
 * 44.44444444444444 needs the exact one (a left-to-right sum and DuckDB's avg() give ...45).
 */
function exactMean(values: number[]): number {
  let sum: Ratio = { num: 0n, den: 1n }
  for (const v of values) sum = addRatio(sum, doubleToRatio(v))
  return ratioToNumber({ num: sum.num, den: sum.den * BigInt(values.length) })
}

/** Binary (code unit) string comparison, ascending. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function checkDays(days: number): number {
  if (!Number.isInteger(days) || days < 1 || days > 365) {
    throw new ValidationError([{ path: 'days', message: 'days must be an integer from 1 to 365.' }])
  }
  return days
}

const RAW_MODEL = /^[A-Za-z0-9._:/@+-]{1,100}$/
const isChannel = (m: string): boolean => (CHANNELS as readonly string[]).includes(m)

export class ReferenceModel {
  private teams = new Map<string, TeamRecord>()
  private domains = new Map<string, DomainRecord>()
  private prompts = new Map<string, PromptRecord>()
  private competitors = new Map<string, CompetitorRecord>()
  private themes = new Map<string, ThemeRecord>()
  private analyses = new Map<string, StoredAnalysis>()

  /** Upserts valid records in order (the last one with an id wins; ids in any case). */
  ingest(records: AnalysisInputRecord[]): void {
    for (const r of records) {
      const id = r.id.toLowerCase()
      switch (r.type) {
        case 'team':
          this.teams.set(id, { ...r, id })
          break
        case 'domain':
          this.domains.set(id, { ...r, id, team_id: r.team_id.toLowerCase() })
          break
        case 'prompt':
          this.prompts.set(id, { ...r, id, domain_id: r.domain_id.toLowerCase() })
          break
        case 'competitor':
          this.competitors.set(id, { ...r, id, domain_id: r.domain_id.toLowerCase() })
          break
        case 'theme':
          this.themes.set(id, { ...r, id, domain_id: r.domain_id.toLowerCase() })
          break
        case 'analysis':
          this.analyses.set(id, {
            ...r,
            id,
            domain_id: r.domain_id.toLowerCase(),
            prompt_id: r.prompt_id.toLowerCase(),
            mentions: r.mentions.map((m) => ({ ...m, entity_id: m.entity_id.toLowerCase() })),
            citations: r.citations.map((c) => ({ ...c })),
            themes: r.themes.map((t) => ({ ...t, theme_id: t.theme_id.toLowerCase() })),
            date: utcDate(new Date(r.answered_at).getTime()),
          })
          break
      }
    }
  }

  private domain(domainId: string): DomainRecord {
    const d = this.domains.get(domainId.toLowerCase())
    if (d === undefined) throw new NotFoundError('domain', domainId)
    return d
  }

  /** The domain's analyses whose UTC date is in the window, in no particular order. */
  private inWindow(domainId: string, nowMs: number, days: number): StoredAnalysis[] {
    const { first, last } = windowOf(nowMs, days)
    return [...this.analyses.values()].filter(
      (a) => a.domain_id === domainId && a.date >= first && a.date <= last,
    )
  }

  promptSeries(p: PromptSeriesParams): PromptSeriesPayload {
    const domain = this.domain(p.domainId)
    const days = checkDays(p.days ?? 30)
    const limit = p.limit ?? 25
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw new ValidationError([{ path: 'limit', message: 'limit must be an integer from 1 to 100.' }])
    }
    const nowMs = toMs(p.now ?? new Date())
    const site = websiteHost(domain.website)
    const analyses = this.inWindow(domain.id, nowMs, days)

    const ranked: { entry: PromptEntry; total: number }[] = []
    for (const prompt of this.prompts.values()) {
      if (prompt.domain_id !== domain.id) continue
      const own = analyses.filter((a) => a.prompt_id === prompt.id)
      const dates = [...new Set(own.map((a) => a.date))].sort(cmp)
      const series: PromptDatapoint[] = dates.map((date) => {
        const that = own.filter((a) => a.date === date)
        const brand = that.flatMap((a) => a.mentions.filter((m) => m.entity_id === 'brand'))
        const positions = brand.flatMap((m) => (m.position === null ? [] : [m.position]))
        return {
          date,
          mentions: brand.length,
          responses: that.length,
          citations: that.reduce((n, a) => n + a.citations.filter((c) => citesSite(c.url, site)).length, 0),
          avg_position: positions.length === 0 ? null : mean(positions),
        }
      })
      const total = series.reduce((n, d) => n + d.mentions, 0)
      if (total > 0) {
        ranked.push({
          entry: {
            id: prompt.id,
            text: prompt.text,
            estimated_search_volume: prompt.estimated_search_volume,
            series,
          },
          total,
        })
      }
    }
    ranked.sort((a, b) => b.total - a.total || cmp(a.entry.id, b.entry.id))
    return {
      data: { items: ranked.slice(0, limit).map((r) => r.entry) },
      domain_id: domain.id,
      days,
      limit,
      generated_at: formatGeneratedAt(nowMs),
    }
  }

  competitorSeries(p: CompetitorSeriesParams): CompetitorSeriesPayload {
    const domain = this.domain(p.domainId)
    const days = checkDays(p.days ?? 30)
    const model = p.model ?? 'all'
    if (model !== 'all' && !isChannel(model)) {
      throw new ValidationError([{ path: 'model', message: 'model must be all or a channel name.' }])
    }
    const nowMs = toMs(p.now ?? new Date())
    const analyses = this.inWindow(domain.id, nowMs, days).filter(
      (a) => model === 'all' || a.channel === model,
    )
    const dates = [...new Set(analyses.map((a) => a.date))].sort(cmp)
    const competitors = [...this.competitors.values()].filter((c) => c.domain_id === domain.id)
    if (competitors.length === 0 && analyses.length === 0) {
      return {
        data: { items: [] },
        domain_id: domain.id,
        days,
        model,
        generated_at: formatGeneratedAt(nowMs),
      }
    }
    const entityIds = ['brand', ...competitors.map((c) => c.id)]

    // Per date: the analyses and the sum of all entities' mentions (the share-of-voice denominator).
    const perDate = dates.map((date) => {
      const that = analyses.filter((a) => a.date === date)
      const daySum = that.reduce(
        (n, a) => n + a.mentions.filter((m) => entityIds.includes(m.entity_id)).length,
        0,
      )
      return { date, that, daySum }
    })

    const entry = (
      entityId: string,
      head: Pick<CompetitorEntry, 'id' | 'name' | 'website' | 'is_brand'>,
    ): CompetitorEntry => {
      const series: CompetitorDatapoint[] = perDate.map(({ date, that, daySum }) => {
        const ms = that.flatMap((a) => a.mentions.filter((m) => m.entity_id === entityId))
        const positions = ms.flatMap((m) => (m.position === null ? [] : [m.position]))
        const sentiments = ms.flatMap((m) => (m.sentiment === null ? [] : [m.sentiment]))
        return {
          date,
          mentions: ms.length,
          visibility: (ms.length * 100) / that.length,
          sov: daySum === 0 ? 0 : (ms.length * 100) / daySum,
          avg_position: positions.length === 0 ? 0 : mean(positions),
          sentiment: sentiments.length === 0 ? 0 : mean(sentiments),
        }
      })
      const mentioning = analyses.filter((a) => a.mentions.some((m) => m.entity_id === entityId))
      const all = mentioning.flatMap((a) => a.mentions.filter((m) => m.entity_id === entityId))
      const positions = all.flatMap((m) => (m.position === null ? [] : [m.position]))
      const sentiments = all.flatMap((m) => (m.sentiment === null ? [] : [m.sentiment]))
      const empty = series.length === 0
      return {
        ...head,
        avg_mentions: empty ? 0 : mean(series.map((d) => d.mentions)),
        avg_position: positions.length === 0 ? 0 : mean(positions),
        avg_visibility: empty ? 0 : exactMean(series.map((d) => d.visibility)),
        avg_sov: empty ? 0 : exactMean(series.map((d) => d.sov)),
        avg_sentiment: sentiments.length === 0 ? 0 : mean(sentiments),
        total_queries: new Set(mentioning.map((a) => a.prompt_id)).size,
        series,
      }
    }

    const brand = entry('brand', {
      id: `user-brand-${domain.id}`,
      name: domain.brand_name,
      website: domain.website,
      is_brand: true,
    })
    const rows = competitors
      .map((c) => entry(c.id, { id: c.id, name: c.name, website: c.website, is_brand: false }))
      .sort((a, b) => b.avg_visibility - a.avg_visibility || cmp(a.name, b.name) || cmp(a.id, b.id))
    return {
      data: { items: [brand, ...rows] },
      domain_id: domain.id,
      days,
      model,
      generated_at: formatGeneratedAt(nowMs),
    }
  }

  /** The themes in the window with their occurrences, ordered by occurrences desc, then id. */
  private themesInWindow(p: SentimentParams): {
    days: number
    model: string
    nowMs: number
    domainId: string
    items: ThemeEntry[]
  } {
    const domain = this.domain(p.domainId)
    const days = checkDays(p.days ?? 30)
    const model = p.model ?? 'all'
    if (model !== 'all' && !isChannel(model) && !RAW_MODEL.test(model)) {
      throw new ValidationError([
        { path: 'model', message: 'model must be all, a channel name or a model id.' },
      ])
    }
    const nowMs = toMs(p.now ?? new Date())
    const keep = (a: StoredAnalysis): boolean =>
      model === 'all' ? true : isChannel(model) ? a.channel === model : a.model === model
    const occurrences = new Map<string, number>()
    for (const a of this.inWindow(domain.id, nowMs, days)) {
      if (!keep(a)) continue
      for (const t of a.themes)
        occurrences.set(t.theme_id, (occurrences.get(t.theme_id) ?? 0) + t.occurrences)
    }
    const items: ThemeEntry[] = []
    for (const [id, n] of occurrences) {
      const theme = this.themes.get(id)
      if (theme === undefined || theme.archived || theme.domain_id !== domain.id) continue
      items.push({
        id,
        name: theme.custom_name ?? theme.name,
        sentiment: theme.sentiment,
        occurrences: n,
        created_at: theme.created_at,
      })
    }
    items.sort((a, b) => b.occurrences - a.occurrences || cmp(a.id, b.id))
    return { days, model, nowMs, domainId: domain.id, items }
  }

  sentimentOverview(p: SentimentParams): SentimentOverviewPayload {
    const { days, model, nowMs, domainId, items } = this.themesInWindow(p)
    const P = items.filter((t) => t.sentiment === 'positive').length
    const N = items.length - P
    const T = P + N
    // round(1000 * X / T) / 10 with halves up, in exact integer arithmetic.
    const pct = (x: number): number => (T === 0 ? 0 : Math.floor((2000 * x + T) / (2 * T)) / 10)
    return {
      data: {
        positive_percent: pct(P),
        negative_percent: pct(N),
        total_mentions: items.reduce((n, t) => n + t.occurrences, 0),
      },
      domain_id: domainId,
      days,
      model,
      generated_at: formatGeneratedAt(nowMs),
    }
  }

  sentimentThemes(p: SentimentParams): SentimentThemesPayload {
    const { days, model, nowMs, domainId, items } = this.themesInWindow(p)
    return { data: { items }, domain_id: domainId, days, model, generated_at: formatGeneratedAt(nowMs) }
  }
}
