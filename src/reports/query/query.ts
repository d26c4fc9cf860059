/**
 * The analyst's question: docs/API.md, "GET /api/v1/query". The window's analyses that pass the
 * filters are grouped by up to three dimensions; each (group, entity) row gets its numerators and
 * denominators, the Wilson interval of its visibility and, with `compare=previous`, the same group
 * over the previous window and the two-proportion test of the change (src/foundation/stats.ts).
 *
 * One pass over the window's analyses (src/reports/query/facts.ts, kept in memory): each analysis
 * gets a key per group it belongs to (one per tag of its prompt with the tag dimension), a number
 * in mixed radix over the dimensions' codes; groups are numbered as they appear and their sums kept
 * in flat arrays (group * entities + entity). The groups kept by min_responses are sorted by the
 * ranks of their codes (strings by UTF-16 code units, null last), and only the page's rows are
 * built.
 */
import type { DomainRow } from '../../catalog.js'
import { compareText } from '../../foundation/compare.js'
import { twoProportionPValue, wilson } from '../../foundation/stats.js'
import { CHANNELS } from '../../foundation/vocabulary.js'
import { formatDay, type DayWindow } from '../../foundation/window.js'
import { ValidationError } from '../../errors.js'
import { parseParams, resolveScope, type QueryContext } from '../../queries/context.js'
import { passes, resolveModelFilter, type ModelFilter } from '../../queries/model-filter.js'
import { isSiteOrSubdomain, siteHost } from '../../schemas/records.js'
import { promptSegmentsOf, queryFacts, type PromptSegments, type QueryFacts } from './facts.js'
import { queryParamsSchema, queryRuleIssues } from './contract.js'
import type { QueryDimension, QueryParams, QueryPayload, QueryRow } from './contract.js'

/** One entity of the rows: its entity index in the facts and what a row shows of it. */
interface Entity {
  idx: number
  id: string
  name: string
  isBrand: boolean
  site: string | null
}

/** One dimension's codes: how many, each code's sort rank, and its value in a row. */
interface Dimension {
  name: QueryDimension
  field: string
  cardinality: number
  rank: Int32Array
  value(code: number): string | null
}

/** Sort ranks of values (null last; strings by UTF-16 code units). */
function ranksOf(values: readonly (string | null)[]): Int32Array {
  const order = values.map((_, i) => i)
  order.sort((a, b) => {
    const x = values[a]!
    const y = values[b]!
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1
    return compareText(x, y)
  })
  const rank = new Int32Array(values.length)
  order.forEach((code, r) => (rank[code] = r))
  return rank
}

/** A dimension over listed values (code = index; the last one may be null). */
function listDimension(name: QueryDimension, field: string, values: readonly (string | null)[]): Dimension {
  return { name, field, cardinality: values.length, rank: ranksOf(values), value: (c) => values[c]! }
}

/** What the request keeps and how it groups, resolved against the domain's facts. */
interface Plan {
  facts: QueryFacts
  /** Per prompt index: 1 when its analyses pass the topic and tag filters. */
  promptPass: Uint8Array | null
  filter: ModelFilter
  countryIdx: number | null
  dims: Dimension[]
  /** The code of each non-tag dimension of analysis i (the tag dimension: see tagCodes). */
  code: ((i: number) => number)[]
  /** The index of the tag dimension in dims; -1 when not grouped by tag. */
  tagDim: number
  /** Per prompt index: its tag codes (the null tag's code when untagged). */
  tagCodes: Int32Array[]
  stride: number[]
}

/** Sums of one window's groups: per group, and per group and entity slot. */
class Sums {
  readonly responses: number[] = []
  readonly citationsTotal: number[] = []
  readonly sovTotal: number[] = []
  readonly mentions: number[] = []
  readonly posSum: number[] = []
  readonly posCnt: number[] = []
  readonly sentSum: number[] = []
  readonly sentCnt: number[] = []
  readonly citations: number[] = []
  constructor(readonly slots: number) {}

  addGroup(): void {
    this.responses.push(0)
    this.citationsTotal.push(0)
    this.sovTotal.push(0)
    for (let s = 0; s < this.slots; s++) {
      this.mentions.push(0)
      this.posSum.push(0)
      this.posCnt.push(0)
      this.sentSum.push(0)
      this.sentCnt.push(0)
      this.citations.push(0)
    }
  }
}

/** Group numbers by key: a dense table when the keys are few, a map otherwise. */
class GroupIndex {
  readonly #dense: Int32Array | null
  readonly #map = new Map<number, number>()
  readonly keys: number[] = []
  constructor(keySpace: number) {
    this.#dense = keySpace <= 1 << 20 ? new Int32Array(keySpace).fill(-1) : null
  }
  get(key: number): number {
    return this.#dense !== null ? this.#dense[key]! : (this.#map.get(key) ?? -1)
  }
  add(key: number): number {
    const g = this.keys.length
    this.keys.push(key)
    if (this.#dense !== null) this.#dense[key] = g
    else this.#map.set(key, g)
    return g
  }
}

export async function computeQuery(ctx: QueryContext, params: QueryParams): Promise<QueryPayload> {
  const p = parseParams(queryParamsSchema, params)
  const issues = queryRuleIssues(p)
  if (issues.length > 0) throw new ValidationError(issues)
  const scope = resolveScope(ctx.catalog, p)
  const { domain, window } = scope
  const echo = {
    domain_id: domain.id,
    ...scope.echo,
    dimensions: p.dimensions,
    entity: p.entity,
    compare: p.compare,
    min_responses: p.minResponses,
    page: p.page,
    limit: p.limit,
    ...scope.granularityEcho,
    ...(p.model === undefined ? {} : { model: p.model }),
    ...(p.country === undefined ? {} : { country: p.country }),
    ...(p.topic === undefined ? {} : { topic: p.topic }),
    ...(p.tag === undefined ? {} : { tag: p.tag }),
    generated_at: scope.generatedAt,
  }
  const empty = (): QueryPayload => ({
    data: { items: [], total: 0, page: p.page, limit: p.limit, total_pages: 1 },
    ...echo,
  })

  const entities = entitiesOf(domain, p.entity)
  const filter = resolveModelFilter(ctx.catalog, p.model ?? 'all')
  if (entities.length === 0 || filter === null) return empty()
  const [facts, segments] = await Promise.all([
    ctx.aggregates.derived(queryFacts, domain.key),
    ctx.aggregates.derived(promptSegmentsOf(domain.prompts), domain.key),
  ])
  let countryIdx: number | null = null
  if (p.country !== undefined) {
    countryIdx = facts.countries.indexOf(p.country)
    if (countryIdx < 0) return empty()
  }
  const promptIds: string[] = []
  for (const prompt of domain.prompts) if (prompt !== undefined) promptIds[prompt.idx] = prompt.id
  for (let i = promptIds.length; i < facts.promptCount; i++) promptIds.push('')
  const plan = planOf(ctx, facts, segments, promptIds, p, window, scope.buckets, filter, countryIdx)

  // Entity slots: which facts entity counts in which slot (-1: an entity of the domain not shown,
  // -2: no entity of the domain); and per host, the slots whose site it is.
  const maxEntity = domain.competitors.reduce((m, c) => (c === undefined ? m : Math.max(m, c.idx)), 0)
  const slotOf = new Int32Array(maxEntity + 1).fill(-2)
  slotOf[0] = -1
  for (const c of domain.competitors) if (c !== undefined) slotOf[c.idx] = -1
  entities.forEach((e, s) => (slotOf[e.idx] = s))
  const hostSlots = facts.hosts.map((host) => {
    const out: number[] = []
    entities.forEach((e, s) => {
      if (isSiteOrSubdomain(host, e.site)) out.push(s)
    })
    return Int32Array.from(out)
  })

  const index = new GroupIndex(plan.stride.length === 0 ? 1 : plan.stride[0]! * plan.dims[0]!.cardinality)
  const current = new Sums(entities.length)
  accumulate(plan, window, index, current, true, slotOf, hostSlots)
  const previous = p.compare === 'previous' ? new Sums(entities.length) : null
  if (previous !== null) {
    for (let g = 0; g < index.keys.length; g++) previous.addGroup()
    const days = window.endDay - window.startDay + 1
    const before = { startDay: window.startDay - days, endDay: window.startDay - 1 }
    accumulate(plan, before, index, previous, false, slotOf, hostSlots)
  }

  // The groups kept, in order; then the page's rows.
  const kept: number[] = []
  for (let g = 0; g < index.keys.length; g++) if (current.responses[g]! >= p.minResponses) kept.push(g)
  const codes = (g: number, d: number) =>
    Math.floor(index.keys[g]! / plan.stride[d]!) % plan.dims[d]!.cardinality
  kept.sort((a, b) => {
    for (let d = 0; d < plan.dims.length; d++) {
      const r = plan.dims[d]!.rank[codes(a, d)]! - plan.dims[d]!.rank[codes(b, d)]!
      if (r !== 0) return r
    }
    return 0
  })
  const E = entities.length
  const total = kept.length * E
  const items: QueryRow[] = []
  const from = (p.page - 1) * p.limit
  for (let r = from; r < Math.min(total, from + p.limit); r++) {
    const g = kept[Math.floor(r / E)]!
    const s = r % E
    const row: Record<string, unknown> = {}
    plan.dims.forEach((dim, d) => (row[dim.field] = dim.value(codes(g, d))))
    items.push(rowOf(row, entities[s]!, current, g, s, previous))
  }
  return {
    data: {
      items,
      total,
      page: p.page,
      limit: p.limit,
      total_pages: Math.max(1, Math.ceil(total / p.limit)),
    },
    ...echo,
  }
}

/** The row of group g and slot s, after its dimension fields. */
function rowOf(
  row: Record<string, unknown>,
  e: Entity,
  sums: Sums,
  g: number,
  s: number,
  previous: Sums | null,
): QueryRow {
  const at = g * sums.slots + s
  const n = sums.responses[g]!
  const k = sums.mentions[at]!
  const visibility = (k / n) * 100
  const sovTotal = sums.sovTotal[g]!
  const posCnt = sums.posCnt[at]!
  const sentCnt = sums.sentCnt[at]!
  const citations = sums.citations[at]!
  const citationsTotal = sums.citationsTotal[g]!
  const out = Object.assign(row, {
    entity_id: e.id,
    entity_name: e.name,
    is_brand: e.isBrand,
    responses: n,
    mentions: k,
    visibility,
    visibility_ci: wilson(k, n)!,
    sov: sovTotal === 0 ? 0 : (k / sovTotal) * 100,
    sov_total: sovTotal,
    position_sum: sums.posSum[at]!,
    position_count: posCnt,
    avg_position: posCnt === 0 ? null : sums.posSum[at]! / posCnt,
    sentiment_sum: sums.sentSum[at]!,
    sentiment_count: sentCnt,
    avg_sentiment: sentCnt === 0 ? null : sums.sentSum[at]! / sentCnt,
    citations,
    citations_total: citationsTotal,
    citability: citationsTotal === 0 ? 0 : (citations / citationsTotal) * 100,
  }) as QueryRow
  if (previous !== null) {
    const n1 = previous.responses[g]!
    const k1 = previous.mentions[at]!
    const before = n1 === 0 ? 0 : (k1 / n1) * 100
    const pValue = twoProportionPValue(k1, n1, k, n)
    out.previous = { responses: n1, mentions: k1, visibility: before, visibility_ci: wilson(k1, n1) }
    out.change = {
      visibility_delta: visibility - before,
      p_value: pValue,
      significant: pValue !== null && pValue < 0.05,
    }
  }
  return out
}

/** The rows' entities in row order: the brand, then competitors by id; [] for an unknown competitor. */
function entitiesOf(domain: DomainRow, entity: string): Entity[] {
  const brand: Entity = {
    idx: 0,
    id: `user-brand-${domain.id}`,
    name: domain.brand_name,
    isBrand: true,
    site: domain.site_host,
  }
  const competitors: Entity[] = domain.competitors
    .filter((c) => c !== undefined)
    .map((c) => ({ idx: c.idx, id: c.id, name: c.name, isBrand: false, site: siteHost(c.website) }))
    .sort((a, b) => compareText(a.id, b.id))
  if (entity === 'brand') return [brand]
  if (entity === 'all') return [brand, ...competitors]
  return competitors.filter((c) => c.id === entity)
}

/** The filters and dimensions of a request over a domain's facts. */
function planOf(
  ctx: QueryContext,
  facts: QueryFacts,
  segments: PromptSegments,
  promptIds: string[],
  p: { dimensions: QueryDimension[]; topic?: string | undefined; tag?: string | undefined },
  window: DayWindow,
  buckets: Int32Array,
  filter: ModelFilter,
  countryIdx: number | null,
): Plan {
  const nPrompts = promptIds.length
  let promptPass: Uint8Array | null = null
  if (p.topic !== undefined || p.tag !== undefined) {
    promptPass = new Uint8Array(nPrompts)
    for (let i = 0; i < nPrompts; i++) {
      const topicOk = p.topic === undefined || segments.topic.get(i) === p.topic
      const tagOk = p.tag === undefined || (segments.tags.get(i) ?? []).includes(p.tag)
      promptPass[i] = topicOk && tagOk ? 1 : 0
    }
  }
  const dims: Dimension[] = []
  const code: ((i: number) => number)[] = []
  let tagDim = -1
  let tagCodes: Int32Array[] = []
  for (const name of p.dimensions) {
    switch (name) {
      case 'date': {
        const size = window.endDay - window.startDay + 1
        dims.push({
          name,
          field: 'date',
          cardinality: size,
          rank: Int32Array.from({ length: size }, (_, c) => c),
          value: (c) => formatDay(window.startDay + c),
        })
        code.push((i) => buckets[facts.day[i]! - window.startDay]! - window.startDay)
        break
      }
      case 'channel':
        dims.push(listDimension(name, 'channel', CHANNELS))
        code.push((i) => facts.channel[i]! - 1)
        break
      case 'model':
        dims.push(listDimension(name, 'model', ctx.catalog.modelsByKey))
        code.push((i) => facts.modelKey[i]!)
        break
      case 'country': {
        const none = facts.countries.length
        dims.push(listDimension(name, 'country', [...facts.countries, null]))
        code.push((i) => (facts.countryIdx[i]! < 0 ? none : facts.countryIdx[i]!))
        break
      }
      case 'prompt':
        dims.push(
          listDimension(
            name,
            'prompt_id',
            Array.from({ length: nPrompts }, (_, i) => promptIds[i] ?? ''),
          ),
        )
        code.push((i) => facts.promptIdx[i]!)
        break
      case 'topic': {
        const topics = [...new Set(segments.topic.values())]
        const byTopic = new Map(topics.map((t, c) => [t, c]))
        const topicCode = Int32Array.from({ length: nPrompts }, (_, i) => {
          const t = segments.topic.get(i)
          return t === undefined ? topics.length : byTopic.get(t)!
        })
        dims.push(listDimension(name, 'topic', [...topics, null]))
        code.push((i) => topicCode[facts.promptIdx[i]!]!)
        break
      }
      case 'tag': {
        const tags = [...new Set([...segments.tags.values()].flat())]
        const byTag = new Map(tags.map((t, c) => [t, c]))
        tagCodes = Array.from({ length: nPrompts }, (_, i) => {
          const list = segments.tags.get(i) ?? []
          return list.length === 0 ? Int32Array.of(tags.length) : Int32Array.from(list, (t) => byTag.get(t)!)
        })
        tagDim = dims.length
        dims.push(listDimension(name, 'tag', [...tags, null]))
        code.push(() => 0)
        break
      }
    }
  }
  // Mixed radix: the first dimension varies slowest.
  const stride: number[] = new Array<number>(dims.length)
  let s = 1
  for (let d = dims.length - 1; d >= 0; d--) {
    stride[d] = s
    s *= dims[d]!.cardinality
  }
  return { facts, promptPass, filter, countryIdx, dims, code, tagDim, tagCodes, stride }
}

/** First index in a day column sorted ascending whose day is >= `day`. */
function lowerBound(days: Int32Array, day: number): number {
  let lo = 0
  let hi = days.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (days[mid]! < day) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Adds the analyses of window `w` to `sums`: into new groups when `create` (the request's window),
 * else only into the groups already there (the previous window of a comparison).
 */
function accumulate(
  plan: Plan,
  w: DayWindow,
  index: GroupIndex,
  sums: Sums,
  create: boolean,
  slotOf: Int32Array,
  hostSlots: readonly Int32Array[],
): void {
  const { facts: f, promptPass, filter, countryIdx, code, tagDim, tagCodes, stride } = plan
  const nDims = plan.dims.length
  const slots = sums.slots
  const from = lowerBound(f.day, w.startDay)
  const to = lowerBound(f.day, w.endDay + 1)
  const groups: number[] = []
  for (let i = from; i < to; i++) {
    if (!passes(filter, f.channel[i]!, f.modelKey[i]!)) continue
    if (countryIdx !== null && f.countryIdx[i] !== countryIdx) continue
    const prompt = f.promptIdx[i]!
    if (promptPass !== null && promptPass[prompt] !== 1) continue
    let base = 0
    for (let d = 0; d < nDims; d++) if (d !== tagDim) base += code[d]!(i) * stride[d]!
    groups.length = 0
    const tagList = tagDim < 0 ? null : tagCodes[prompt]
    const nKeys = tagList === null ? 1 : tagList!.length
    for (let t = 0; t < nKeys; t++) {
      const key = tagList === null ? base : base + tagList![t]! * stride[tagDim]!
      let g = index.get(key)
      if (g < 0) {
        if (!create) continue
        g = index.add(key)
        sums.addGroup()
      }
      groups.push(g)
    }
    if (groups.length === 0) continue
    const m0 = f.mentionStart[i]!
    const m1 = f.mentionStart[i + 1]!
    const c0 = f.citationStart[i]!
    const c1 = f.citationStart[i + 1]!
    for (const g of groups) {
      sums.responses[g]!++
      sums.citationsTotal[g]! += c1 - c0
      const base = g * slots
      for (let j = m0; j < m1; j++) {
        const e = f.mentionEntity[j]!
        const slot = e < slotOf.length ? slotOf[e]! : -2
        if (slot === -2) continue // no entity of the domain
        const first = j === m0 || f.mentionEntity[j - 1] !== e
        if (first) sums.sovTotal[g]!++
        if (slot < 0) continue
        const at = base + slot
        if (first) sums.mentions[at]!++
        const pos = f.mentionPosition[j]!
        if (pos >= 0) {
          sums.posSum[at]! += pos
          sums.posCnt[at]!++
        }
        const sent = f.mentionSentiment[j]!
        if (sent >= 0) {
          sums.sentSum[at]! += sent
          sums.sentCnt[at]!++
        }
      }
      for (let j = c0; j < c1; j++) {
        const hs = hostSlots[f.citationHost[j]!]!
        for (let h = 0; h < hs.length; h++) sums.citations[base + hs[h]!]!++
      }
    }
  }
}
