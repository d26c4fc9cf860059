/**
 * The reference model of segments.md section 3 (GET /api/v1/query), in plain TypeScript: it reads
 * the store naively (filter the window's analyses, group them by their dimension values, count per
 * group and entity) and returns the whole documented body. It shares nothing with the engine but
 * the error classes and erfc (the stdlib-js package): its own Wilson interval, p-value and orderings.
 */
import erfc from '@stdlib/math-base-special-erfc'
import { NotFoundError, ValidationError } from '../../src/errors.js'
import type { QueryParams, QueryPayload, QueryRow } from '../../src/reports/index.js'
import { bucketOf, formatGeneratedAt, granularityEcho, resolveWindow, toMs, utcDate } from './buckets.js'
import { isSiteOrSubdomain, urlHost, websiteHost } from './hosts.js'
import { cmp } from './numbers.js'
import { intParam, modelFilter } from './params.js'
import type { Store, StoredAnalysis } from './store.js'

const DIMENSIONS = ['date', 'channel', 'model', 'country', 'prompt', 'topic', 'tag'] as const
type Dim = (typeof DIMENSIONS)[number]
const FIELD: Record<Dim, string> = {
  date: 'date',
  channel: 'channel',
  model: 'model',
  country: 'country',
  prompt: 'prompt_id',
  topic: 'topic',
  tag: 'tag',
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const bad = (path: string, message: string): never => {
  throw new ValidationError([{ path, message }])
}

/** The 95% Wilson score interval in percent, as section 3 writes it. */
export function wilsonInterval(k: number, n: number): [number, number] | null {
  if (n === 0) return null
  const z = 1.959963984540054
  const p = k / n
  const center = (p + (z * z) / (2 * n)) / (1 + (z * z) / n)
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n)
  // At k = 0 (k = n) the formula's low (high) is exactly 0 (100): taken as such, not as its rounding.
  return [k === 0 ? 0 : Math.max(0, center - half) * 100, k === n ? 100 : Math.min(1, center + half) * 100]
}

/** The pooled two-proportion test of k2/n2 against k1/n1 (section 3), or null. */
export function pValueRef(k1: number, n1: number, k2: number, n2: number): number | null {
  if (n1 === 0 || n2 === 0) return null
  const P = (k1 + k2) / (n1 + n2)
  if (P === 0 || P === 1) return null
  const z = (k2 / n2 - k1 / n1) / Math.sqrt(P * (1 - P) * (1 / n1 + 1 / n2))
  return erfc(Math.abs(z) / Math.sqrt(2))
}

function dimensionsOf(raw: QueryParams['dimensions']): Dim[] {
  if (raw === undefined) return []
  const names = typeof raw === 'string' ? raw.split(',') : [...raw]
  const ok =
    names.length <= 3 &&
    new Set(names).size === names.length &&
    names.every((n) => (DIMENSIONS as readonly string[]).includes(n))
  return ok ? (names as Dim[]) : bad('dimensions', 'dimensions must be at most 3 distinct known names.')
}

function trimmed(name: string, value: string | undefined, max: number): string | undefined {
  if (value === undefined) return undefined
  const t = value.trim()
  return t.length >= 1 && t.length <= max ? t : bad(name, `${name} must be 1 to ${max} characters.`)
}

/** A prompt's topic and tags as stored (trimmed; tags distinct). */
function segmentsOf(store: Store, promptId: string): { topic: string | null; tags: string[] } {
  const r = store.prompts.get(promptId) as { topic?: string | null; tags?: string[] } | undefined
  const topic = r?.topic == null ? null : r.topic.trim()
  return { topic, tags: [...new Set((r?.tags ?? []).map((t) => t.trim()))] }
}

const countryOf = (a: StoredAnalysis): string | null => {
  const c = (a as { country?: string | null }).country
  return c == null ? null : c.toUpperCase()
}

/** The groups (dimension value tuples) an analysis counts in: one per tag with the tag dimension. */
function keysOf(
  store: Store,
  a: StoredAnalysis,
  dims: Dim[],
  bucket: (date: string) => string,
): (string | null)[][] {
  let keys: (string | null)[][] = [[]]
  const seg = segmentsOf(store, a.prompt_id)
  for (const d of dims) {
    const values: (string | null)[] =
      d === 'date'
        ? [bucket(a.date)]
        : d === 'channel'
          ? [a.channel]
          : d === 'model'
            ? [a.model]
            : d === 'country'
              ? [countryOf(a)]
              : d === 'prompt'
                ? [a.prompt_id]
                : d === 'topic'
                  ? [seg.topic]
                  : seg.tags.length === 0
                    ? [null]
                    : seg.tags
    keys = keys.flatMap((k) => values.map((v) => [...k, v]))
  }
  return keys
}

const nullLast = (a: string | null, b: string | null): number =>
  a === null || b === null ? (a === b ? 0 : a === null ? 1 : -1) : cmp(a, b)

export function query(store: Store, p: QueryParams): QueryPayload {
  const dims = dimensionsOf(p.dimensions)
  const entityParam = p.entity ?? 'brand'
  if (!(entityParam === 'brand' || entityParam === 'all' || UUID.test(entityParam)))
    bad('entity', 'entity must be brand, all or a UUID.')
  const entity = entityParam.toLowerCase()
  const compare = p.compare ?? 'none'
  if (compare !== 'none' && compare !== 'previous') bad('compare', 'compare must be none or previous.')
  const minResponses = intParam('min_responses', p.minResponses, 0, 0, 1_000_000)
  const page = intParam('page', p.page, 1, 1, 1_000_000_000)
  const limit = intParam('limit', p.limit, 1000, 1, 10_000)
  const { keep } = modelFilter(p.model, true)
  let country: string | undefined
  if (p.country !== undefined) {
    if (!/^[A-Za-z]{2}$/.test(p.country)) bad('country', 'country must be two letters.')
    country = p.country.toUpperCase()
  }
  const topic = trimmed('topic', p.topic, 100)
  const tag = trimmed('tag', p.tag, 50)
  if (compare === 'previous' && dims.includes('date')) bad('compare', 'compare must be none with date.')
  if (p.granularity !== undefined && !dims.includes('date')) bad('granularity', 'granularity needs date.')
  const domain = store.domains.get(p.domainId.toLowerCase())
  if (domain === undefined) throw new NotFoundError('domain', p.domainId)
  const nowMs = toMs(p.now ?? new Date())
  const w = resolveWindow(p, nowMs, true)

  const passes = (a: StoredAnalysis): boolean => {
    if (!keep(a)) return false
    if (country !== undefined && countryOf(a) !== country) return false
    const seg = segmentsOf(store, a.prompt_id)
    if (topic !== undefined && seg.topic !== topic) return false
    if (tag !== undefined && !seg.tags.includes(tag)) return false
    return true
  }
  const current = store.inWindow(domain.id, w).filter(passes)
  const dayMs = 86_400_000
  const days = Math.round((Date.parse(w.last) - Date.parse(w.first)) / dayMs) + 1
  const before = store
    .inWindow(domain.id, {
      first: utcDate(Date.parse(w.first) - days * dayMs),
      last: utcDate(Date.parse(w.first) - dayMs),
    })
    .filter(passes)

  const group = (analyses: StoredAnalysis[]) => {
    const out = new Map<string, { values: (string | null)[]; analyses: StoredAnalysis[] }>()
    for (const a of analyses) {
      for (const values of keysOf(store, a, dims, (d) => bucketOf(d, w))) {
        const key = JSON.stringify(values)
        const g = out.get(key) ?? { values, analyses: [] }
        g.analyses.push(a)
        out.set(key, g)
      }
    }
    return out
  }
  const groups = [...group(current).values()].filter((g) => g.analyses.length >= minResponses)
  groups.sort((x, y) => {
    for (let d = 0; d < dims.length; d++) {
      const c = nullLast(x.values[d]!, y.values[d]!)
      if (c !== 0) return c
    }
    return 0
  })
  const previous = group(before)

  const competitors = store.competitorsOf(domain.id).sort((a, b) => cmp(a.id, b.id))
  const everyEntity = [
    {
      key: 'brand',
      id: `user-brand-${domain.id}`,
      name: domain.brand_name,
      isBrand: true,
      website: domain.website,
    },
    ...competitors.map((c) => ({ key: c.id, id: c.id, name: c.name, isBrand: false, website: c.website })),
  ]
  const shown =
    entity === 'brand'
      ? everyEntity.slice(0, 1)
      : entity === 'all'
        ? everyEntity
        : everyEntity.filter((e) => !e.isBrand && e.id === entity)

  const mentioning = (as: StoredAnalysis[], key: string) =>
    as.filter((a) => a.mentions.some((m) => m.entity_id === key))

  const rows: QueryRow[] = []
  for (const g of groups) {
    const as = g.analyses
    const sovTotal = everyEntity.reduce((n, e) => n + mentioning(as, e.key).length, 0)
    const citationsTotal = as.reduce((n, a) => n + a.citations.length, 0)
    for (const e of shown) {
      const row: Record<string, unknown> = {}
      dims.forEach((d, i) => (row[FIELD[d]] = g.values[i]))
      const n = as.length
      const k = mentioning(as, e.key).length
      const own = as.flatMap((a) => a.mentions.filter((m) => m.entity_id === e.key))
      const positions = own.flatMap((m) => (m.position === null ? [] : [m.position]))
      const sentiments = own.flatMap((m) => (m.sentiment === null ? [] : [m.sentiment]))
      const site = websiteHost(e.website)
      const citations = as.reduce(
        (c, a) => c + a.citations.filter((x) => isSiteOrSubdomain(urlHost(x.url), site)).length,
        0,
      )
      const positionSum = positions.reduce((s, x) => s + x, 0)
      const sentimentSum = sentiments.reduce((s, x) => s + x, 0)
      const visibility = (k / n) * 100
      Object.assign(row, {
        entity_id: e.id,
        entity_name: e.name,
        is_brand: e.isBrand,
        responses: n,
        mentions: k,
        visibility,
        visibility_ci: wilsonInterval(k, n),
        sov: sovTotal === 0 ? 0 : (k / sovTotal) * 100,
        sov_total: sovTotal,
        position_sum: positionSum,
        position_count: positions.length,
        avg_position: positions.length === 0 ? null : positionSum / positions.length,
        sentiment_sum: sentimentSum,
        sentiment_count: sentiments.length,
        avg_sentiment: sentiments.length === 0 ? null : sentimentSum / sentiments.length,
        citations,
        citations_total: citationsTotal,
        citability: citationsTotal === 0 ? 0 : (citations / citationsTotal) * 100,
      })
      if (compare === 'previous') {
        const prev = previous.get(JSON.stringify(g.values))?.analyses ?? []
        const n1 = prev.length
        const k1 = mentioning(prev, e.key).length
        const visibility1 = n1 === 0 ? 0 : (k1 / n1) * 100
        const pValue = pValueRef(k1, n1, k, n)
        row.previous = {
          responses: n1,
          mentions: k1,
          visibility: visibility1,
          visibility_ci: wilsonInterval(k1, n1),
        }
        row.change = {
          visibility_delta: visibility - visibility1,
          p_value: pValue,
          significant: pValue !== null && pValue < 0.05,
        }
      }
      rows.push(row as unknown as QueryRow)
    }
  }
  const total = rows.length
  return {
    data: {
      items: rows.slice((page - 1) * limit, page * limit),
      total,
      page,
      limit,
      total_pages: Math.max(1, Math.ceil(total / limit)),
    },
    domain_id: domain.id,
    ...w.echo,
    dimensions: dims,
    entity,
    compare,
    min_responses: minResponses,
    page,
    limit,
    ...granularityEcho(w),
    ...(p.model === undefined ? {} : { model: p.model }),
    ...(country === undefined ? {} : { country }),
    ...(topic === undefined ? {} : { topic }),
    ...(tag === undefined ? {} : { tag }),
    generated_at: formatGeneratedAt(nowMs),
  } as QueryPayload
}
