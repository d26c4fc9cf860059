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
import { formatDay, lowerBound, type DayWindow } from '../../foundation/window.js'
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
  /** Each dimension's kind (how an analysis's code is read: see {@link codeOf}). */
  kinds: Int32Array
  /** The date dimension: per day of the window, its bucket's first day; and the window's first day. */
  buckets: Int32Array
  startDay: number
  /** Per prompt index: its topic's code (the topic dimension). */
  topicCode: Int32Array
  /** The index of the tag dimension in dims; -1 when not grouped by tag. */
  tagDim: number
  /** Per prompt index: its tag codes (the null tag's code when untagged). */
  tagCodes: Int32Array[]
  stride: number[]
}

/** Sums of one window's groups: per group, and per group and entity slot (group * slots + slot). */
class Sums {
  readonly responses: Int32Array
  readonly citationsTotal: Int32Array
  readonly sovTotal: Int32Array
  readonly mentions: Int32Array
  readonly posSum: Float64Array
  readonly posCnt: Int32Array
  readonly sentSum: Float64Array
  readonly sentCnt: Int32Array
  readonly citations: Int32Array
  constructor(
    groups: number,
    readonly slots: number,
  ) {
    this.responses = new Int32Array(groups)
    this.citationsTotal = new Int32Array(groups)
    this.sovTotal = new Int32Array(groups)
    this.mentions = new Int32Array(groups * slots)
    this.posSum = new Float64Array(groups * slots)
    this.posCnt = new Int32Array(groups * slots)
    this.sentSum = new Float64Array(groups * slots)
    this.sentCnt = new Int32Array(groups * slots)
    this.citations = new Int32Array(groups * slots)
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

  // Per host, the slots whose site it is, as runs (hostStart[h] to hostStart[h + 1] in hostSlot).
  const hostStart = new Int32Array(hostSlots.length + 1)
  hostSlots.forEach((hs, h) => (hostStart[h + 1] = hostStart[h]! + hs.length))
  const hostSlot = Int32Array.from(hostSlots.flatMap((hs) => [...hs]))
  const sites = { slotOf, hostStart, hostSlot }

  const index = new GroupIndex(plan.stride.length === 0 ? 1 : plan.stride[0]! * plan.dims[0]!.cardinality)
  const inWindow = membership(plan, window, index, true)
  const current = new Sums(index.keys.length, entities.length)
  accumulate(plan.facts, inWindow, current, sites)
  let previous: Sums | null = null
  if (p.compare === 'previous') {
    const days = window.endDay - window.startDay + 1
    const before = { startDay: window.startDay - days, endDay: window.startDay - 1 }
    previous = new Sums(index.keys.length, entities.length)
    accumulate(plan.facts, membership(plan, before, index, false), previous, sites)
  }

  // The groups kept, in order; then the page's rows.
  const kept: number[] = []
  for (let g = 0; g < index.keys.length; g++) if (current.responses[g]! >= p.minResponses) kept.push(g)
  const codes = (g: number, d: number) =>
    Math.floor(index.keys[g]! / plan.stride[d]!) % plan.dims[d]!.cardinality
  // A group's sort key: its codes' ranks in the same mixed radix (the first dimension slowest).
  const sortKey = new Float64Array(index.keys.length)
  for (const g of kept) {
    let key = 0
    for (let d = 0; d < plan.dims.length; d++) key += plan.dims[d]!.rank[codes(g, d)]! * plan.stride[d]!
    sortKey[g] = key
  }
  kept.sort((a, b) => sortKey[a]! - sortKey[b]!)
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
  const kinds: number[] = []
  let topicCode = new Int32Array(0)
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
        kinds.push(DATE)
        break
      }
      case 'channel':
        dims.push(listDimension(name, 'channel', CHANNELS))
        kinds.push(CHANNEL)
        break
      case 'model':
        dims.push(listDimension(name, 'model', ctx.catalog.modelsByKey))
        kinds.push(MODEL)
        break
      case 'country':
        dims.push(listDimension(name, 'country', [...facts.countries, null]))
        kinds.push(COUNTRY)
        break
      case 'prompt':
        dims.push(
          listDimension(
            name,
            'prompt_id',
            Array.from({ length: nPrompts }, (_, i) => promptIds[i] ?? ''),
          ),
        )
        kinds.push(PROMPT)
        break
      case 'topic': {
        const topics = [...new Set(segments.topic.values())]
        const byTopic = new Map(topics.map((t, c) => [t, c]))
        topicCode = Int32Array.from({ length: nPrompts }, (_, i) => {
          const t = segments.topic.get(i)
          return t === undefined ? topics.length : byTopic.get(t)!
        })
        dims.push(listDimension(name, 'topic', [...topics, null]))
        kinds.push(TOPIC)
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
        kinds.push(TAG)
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
  return {
    facts,
    promptPass,
    filter,
    countryIdx,
    dims,
    kinds: Int32Array.from(kinds),
    buckets,
    startDay: window.startDay,
    topicCode,
    tagDim,
    tagCodes,
    stride,
  }
}

/** Dimension kinds (Plan.kinds). */
const DATE = 0
const CHANNEL = 1
const MODEL = 2
const COUNTRY = 3
const PROMPT = 4
const TOPIC = 5
const TAG = 6
/** 1 for the kinds whose code is the same over a run (one prompt and channel). */
const PER_RUN = Uint8Array.of(0, 1, 0, 0, 1, 1, 0)

/** The code of analysis i in a dimension of `kind` (not the tag dimension). */
function codeOf(plan: Plan, kind: number, i: number): number {
  const f = plan.facts
  switch (kind) {
    case DATE:
      return plan.buckets[f.day[i]! - plan.startDay]! - plan.startDay
    case CHANNEL:
      return f.channel[i]! - 1
    case MODEL:
      return f.modelKey[i]!
    case COUNTRY: {
      const c = f.countryIdx[i]!
      return c < 0 ? f.countries.length : c
    }
    case PROMPT:
      return f.promptIdx[i]!
    case TOPIC:
      return plan.topicCode[f.promptIdx[i]!]!
    default:
      return 0
  }
}

/** The groups of a window's analyses: entry q adds analysis `analysis[q]` to group `group[q]`. */
interface Membership {
  count: number
  analysis: Int32Array
  group: Int32Array
}

/**
 * The groups each analysis of window `w` that passes the filters belongs to (one per tag of its
 * prompt with the tag dimension), run by run (one prompt and channel, by day): new groups are
 * numbered when `create` (the request's window), else an analysis only joins the groups already
 * there (the previous window of a comparison).
 */
function membership(plan: Plan, w: DayWindow, index: GroupIndex, create: boolean): Membership {
  const { facts: f, promptPass, filter, countryIdx, kinds, tagDim, tagCodes, stride } = plan
  const nDims = kinds.length
  let analysis = new Int32Array(1024)
  let group = new Int32Array(1024)
  let count = 0
  for (let r = 0; r + 1 < f.runStart.length; r++) {
    const rs = f.runStart[r]!
    const prompt = f.promptIdx[rs]!
    if (promptPass !== null && promptPass[prompt] !== 1) continue
    if (filter.channel !== 0 && f.channel[rs] !== filter.channel) continue
    const lo = lowerBound(f.day, w.startDay, rs, f.runStart[r + 1]!)
    const hi = lowerBound(f.day, w.endDay + 1, lo, f.runStart[r + 1]!)
    const tagList = tagDim < 0 ? null : tagCodes[prompt]!
    const need = count + (hi - lo) * (tagList === null ? 1 : tagList.length)
    if (need > analysis.length) {
      const size = Math.max(need, analysis.length * 2)
      const a = new Int32Array(size)
      a.set(analysis)
      analysis = a
      const g = new Int32Array(size)
      g.set(group)
      group = g
    }
    // The codes of the dimensions a run shares (its prompt's and channel's), once per run.
    let runBase = 0
    for (let d = 0; d < nDims; d++)
      if (d !== tagDim && PER_RUN[kinds[d]!] === 1) runBase += codeOf(plan, kinds[d]!, rs) * stride[d]!
    for (let i = lo; i < hi; i++) {
      if (!passes(filter, f.channel[i]!, f.modelKey[i]!)) continue
      if (countryIdx !== null && f.countryIdx[i] !== countryIdx) continue
      let base = runBase
      for (let d = 0; d < nDims; d++)
        if (d !== tagDim && PER_RUN[kinds[d]!] === 0) base += codeOf(plan, kinds[d]!, i) * stride[d]!
      const nKeys = tagList === null ? 1 : tagList.length
      for (let t = 0; t < nKeys; t++) {
        const key = tagList === null ? base : base + tagList[t]! * stride[tagDim]!
        let g = index.get(key)
        if (g < 0) {
          if (!create) continue
          g = index.add(key)
        }
        analysis[count] = i
        group[count++] = g
      }
    }
  }
  return { count, analysis, group }
}

/** Which slot an entity of the facts counts in, and per cited host the slots whose site it is. */
interface Sites {
  /** -1: an entity of the domain not shown; -2: no entity of the domain. */
  slotOf: Int32Array
  hostStart: Int32Array
  hostSlot: Int32Array
}

/** Adds each entry of a membership (an analysis in one of its groups) to the group's sums. */
function accumulate(f: QueryFacts, m: Membership, sums: Sums, sites: Sites): void {
  const { slotOf, hostStart, hostSlot } = sites
  const nSlot = slotOf.length
  const slots = sums.slots
  const { responses, citationsTotal, sovTotal, mentions, posSum, posCnt, sentSum, sentCnt, citations } = sums
  for (let q = 0; q < m.count; q++) {
    const i = m.analysis[q]!
    const g = m.group[q]!
    const m0 = f.mentionStart[i]!
    const m1 = f.mentionStart[i + 1]!
    const c0 = f.citationStart[i]!
    const c1 = f.citationStart[i + 1]!
    responses[g]!++
    citationsTotal[g]! += c1 - c0
    const base = g * slots
    for (let j = m0; j < m1; j++) {
      const e = f.mentionEntity[j]!
      const slot = e < nSlot ? slotOf[e]! : -2
      if (slot === -2) continue // no entity of the domain
      const first = j === m0 || f.mentionEntity[j - 1] !== e
      if (first) sovTotal[g]!++
      if (slot < 0) continue
      const at = base + slot
      if (first) mentions[at]!++
      const pos = f.mentionPosition[j]!
      if (pos >= 0) {
        posSum[at]! += pos
        posCnt[at]!++
      }
      const sent = f.mentionSentiment[j]!
      if (sent >= 0) {
        sentSum[at]! += sent
        sentCnt[at]!++
      }
    }
    for (let j = c0; j < c1; j++) {
      const h = f.citationHost[j]!
      for (let x = hostStart[h]!; x < hostStart[h + 1]!; x++) citations[base + hostSlot[x]!]!++
    }
  }
}
