/**
 * The analyst's question: docs/API.md, "GET /api/v1/query". The window's analyses that pass the
 * filters are grouped by up to three dimensions; each (group, entity) row gets its numerators and
 * denominators, the Wilson interval of its visibility and, with `compare=previous`, the same group
 * over the previous window and the two-proportion test of the change (src/foundation/stats.ts).
 *
 * The window's groups are resolved once per cell of the domain's facts (src/reports/query/facts.ts:
 * one prompt, channel, model and country; the segment filters are already applied by the facts'
 * SQL, the model filter here), each group a number in mixed radix over the dimensions' codes (one
 * key per tag of the cell's prompt with the tag dimension), numbered as they appear, their sums in
 * flat arrays (group * entities + entity). A cell the window holds whole adds its totals (its
 * mentions and citation hosts summed); the analyses in the window of the cells it cuts are added one
 * by one, read from the blocks of days the window overlaps (in a row) or, when the cut cells hold
 * fewer analyses than those blocks, cell by cell; with the date dimension every analysis in the
 * window goes to its day's group.
 * Every group's responses are counted first: the groups kept by min_responses are sorted by the
 * ranks of their codes (strings by UTF-16 code units, null last), and only the page's groups get
 * their other sums (mentions, positions, sentiments, citations: most of the work) and rows.
 */
import type { DomainRow } from '../../catalog.js'
import { compareText } from '../../foundation/compare.js'
import { twoProportionPValue, wilson } from '../../foundation/stats.js'
import { CHANNELS } from '../../foundation/vocabulary.js'
import { formatDay } from '../../foundation/window.js'
import { ValidationError } from '../../errors.js'
import { parseParams, resolveScope, type QueryContext } from '../../queries/context.js'
import { withSegment } from '../../queries/segment.js'
import { passes, resolveModelFilter, type ModelFilter } from '../../queries/model-filter.js'
import { isSiteOrSubdomain, siteHost } from '../../schemas/records.js'
import { blockRange, cutVisits, promptSegmentsOf, queryFacts, ranksOf, type Cuts } from './facts.js'
import type { HostRows, MentionRows, PromptSegments, QueryFacts } from './facts.js'
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

/**
 * One dimension's codes: how many, each code's sort rank, and each code's value in a row (an array,
 * not a function made per request: a call site fed a new closure on every request is compiled
 * again once the old closures are collected).
 */
interface Dimension {
  name: QueryDimension
  field: string
  cardinality: number
  rank: Int32Array
  values: readonly (string | null)[]
}

/** A dimension over listed values (code = index; the last one may be null) and their sort ranks. */
function dimensionOf(
  name: QueryDimension,
  field: string,
  values: readonly (string | null)[],
  rank: Int32Array,
): Dimension {
  return { name, field, cardinality: values.length, rank, values }
}

/** A dimension over listed values, ranked here. */
const listDimension = (name: QueryDimension, field: string, values: readonly (string | null)[]): Dimension =>
  dimensionOf(name, field, values, ranksOf(values))

/** What the request keeps and how it groups, resolved against the domain's facts. */
interface Plan {
  facts: QueryFacts
  dims: Dimension[]
  /** The date dimension: per day of the window, its bucket's first day; and the window's first day. */
  buckets: Int32Array
  startDay: number
  /** The stride of the date dimension; -1: not grouped by date. */
  dateStride: number
  /** Per cell, its group keys but the date's (one per tag of its prompt with the tag dimension; none when the model filter drops it): cellKeyStart[c] to cellKeyStart[c + 1] in cellKeys. */
  cellKeyStart: Int32Array
  cellKeys: Float64Array
  stride: number[]
}

/*
 * The objects the loops below read are object literals made in one place each (no class
 * instances, no optional fields, the same typed array kinds whatever the request), so their hidden
 * classes are the same for every request and stay alive with the literals' boilerplates. A class
 * instance's hidden class dies with the last instance at a full GC, and V8 then throws away the
 * optimized code that checks it ("weak objects" in --trace-deopt): every segment's warm-up started
 * with that code gone and compiled it again on a background thread while it was timed
 * (bench/NOTES.md, "/query: one shape whatever the request").
 */

/**
 * Sums of one window's groups: the responses of every group (min_responses and the paging need
 * them all), the other sums of the groups whose rows are built only (the page's: `summed` numbers
 * them, -1 for the others), per summed group p and per p and entity slot (p * slots + slot).
 */
interface Sums {
  readonly responses: Int32Array
  readonly summed: Int32Array
  readonly slots: number
  readonly sovTotal: Int32Array
  readonly citationsTotal: Int32Array
  readonly mentions: Int32Array
  readonly posSum: Float64Array
  readonly posCnt: Int32Array
  readonly sentSum: Float64Array
  readonly sentCnt: Int32Array
  readonly citations: Int32Array
}

/** Zeroed sums of `summedGroups` groups of `slots` entity slots each. */
function emptySums(responses: Int32Array, summed: Int32Array, summedGroups: number, slots: number): Sums {
  const n = summedGroups * slots
  return {
    responses,
    summed,
    slots,
    sovTotal: new Int32Array(summedGroups),
    citationsTotal: new Int32Array(summedGroups),
    mentions: new Int32Array(n),
    posSum: new Float64Array(n),
    posCnt: new Int32Array(n),
    sentSum: new Float64Array(n),
    sentCnt: new Int32Array(n),
    citations: new Int32Array(n),
  }
}

/**
 * Group numbers by key: a dense table when the keys are few (`sparse` false), a map otherwise. The
 * table holds group + 1 (0: none), so a new zeroed array serves: filled with -1 it cost more than
 * the rest of a 30-day request on L (up to 4 MB written per request, most of it never read).
 */
interface GroupIndex {
  readonly sparse: boolean
  readonly dense: Int32Array
  readonly map: Map<number, number>
  readonly keys: number[]
}

/** An empty index of keys below `keySpace`. */
function groupIndex(keySpace: number): GroupIndex {
  const sparse = keySpace > 1 << 20
  return { sparse, dense: new Int32Array(sparse ? 0 : keySpace), map: new Map(), keys: [] }
}

/** The group of a key, -1 when none. */
function groupOf(index: GroupIndex, key: number): number {
  return index.sparse ? (index.map.get(key) ?? -1) : index.dense[key]! - 1
}

/** Numbers a new key's group. */
function addGroup(index: GroupIndex, key: number): number {
  const g = index.keys.length
  index.keys.push(key)
  if (index.sparse) index.map.set(key, g)
  else index.dense[key] = g + 1
  return g
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
  // The segment filters apply in the facts' SQL (segment_analyses, as every report's): the facts
  // of a segment are kept per segment.
  const [facts, segments] = await Promise.all([
    withSegment(ctx, p).aggregates.derived(queryFacts, domain.key),
    ctx.aggregates.derived(promptSegmentsOf(domain.prompts), domain.key),
  ])
  const plan = planOf(
    ctx.catalog.modelsByKey,
    facts,
    segments,
    Math.max(segments.promptIds.length, facts.promptCount),
    p.dimensions,
    window.startDay,
    window.endDay,
    scope.buckets,
    filter,
  )
  const request: PageRequest = {
    from: window.startDay,
    to: window.endDay + 1,
    compare: p.compare === 'previous',
    minResponses: p.minResponses,
    page: p.page,
    limit: p.limit,
  }
  const { items, total } = pageOf(plan, entities, sitesOf(domain, facts, entities), request)
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

/**
 * What a request asks of its plan: the window's days [from, to), whether to compare with the
 * previous window of as many days, min_responses and the page.
 */
interface PageRequest {
  from: number
  to: number
  compare: boolean
  minResponses: number
  page: number
  limit: number
}

/**
 * The entity slots: which facts entity counts in which slot (-1: an entity of the domain not shown,
 * -2: no entity of the domain); and per host, the slots whose site it is.
 */
function sitesOf(domain: DomainRow, facts: QueryFacts, entities: readonly Entity[]): Sites {
  const maxEntity = domain.competitors.reduce((m, c) => (c === undefined ? m : Math.max(m, c.idx)), 0)
  const slotOf = new Int32Array(maxEntity + 1).fill(-2)
  slotOf[0] = -1
  for (const c of domain.competitors) if (c !== undefined) slotOf[c.idx] = -1
  entities.forEach((e, s) => (slotOf[e.idx] = s))
  // Per host, its slots as runs: hostStart[h] to hostStart[h + 1] in hostSlot.
  const hostStart = new Int32Array(facts.hosts.length + 1)
  const hostSlots: number[] = []
  for (let h = 0; h < facts.hosts.length; h++) {
    for (let s = 0; s < entities.length; s++)
      if (isSiteOrSubdomain(facts.hosts[h]!, entities[s]!.site)) hostSlots.push(s)
    hostStart[h + 1] = hostSlots.length
  }
  return { slotOf, hostStart, hostSlot: Int32Array.from(hostSlots) }
}

/** The page's rows of a plan and their total (groups kept times entities). */
function pageOf(
  plan: Plan,
  entities: readonly Entity[],
  sites: Sites,
  request: PageRequest,
): { items: QueryRow[]; total: number } {
  const { dims, stride } = plan
  const index = groupIndex(stride.length === 0 ? 1 : stride[0]! * dims[0]!.cardinality)
  const { from: start, to: end } = request
  const visits = visitsOf(plan, start, end, index, true)
  const before = request.compare ? visitsOf(plan, 2 * start - end, start, index, false) : null

  // The groups kept, in order; then the page's rows.
  const kept: number[] = []
  for (let g = 0; g < index.keys.length; g++) if (visits.responses[g]! >= request.minResponses) kept.push(g)
  // A group's sort key: its codes' ranks in the same mixed radix (the first dimension slowest).
  const nDims = dims.length
  const keys = index.keys
  const sortKey = new Float64Array(keys.length)
  for (let x = 0; x < kept.length; x++) {
    const g = kept[x]!
    let key = 0
    for (let d = 0; d < nDims; d++) {
      const dim = dims[d]!
      key += dim.rank[Math.floor(keys[g]! / stride[d]!) % dim.cardinality]! * stride[d]!
    }
    sortKey[g] = key
  }
  sortGroups(kept, sortKey)
  const E = entities.length
  const total = kept.length * E
  const items: QueryRow[] = []
  const from = (request.page - 1) * request.limit
  const to = Math.min(total, from + request.limit)
  // Only the page's groups get their other sums (numbered in page order; -1: not summed).
  const summed = new Int32Array(keys.length).fill(-1)
  let nSummed = 0
  for (let x = Math.floor(from / E); x < Math.ceil(to / E); x++) summed[kept[x]!] = nSummed++
  const current = sumsOf(plan, visits, summed, nSummed, E, sites)
  const previous = before === null ? null : sumsOf(plan, before, summed, nSummed, E, sites)
  for (let r = from; r < to; r++) {
    const g = kept[Math.floor(r / E)]!
    const s = r % E
    const row: Record<string, unknown> = {}
    for (let d = 0; d < nDims; d++) {
      const dim = dims[d]!
      row[dim.field] = dim.values[Math.floor(keys[g]! / stride[d]!) % dim.cardinality]!
    }
    items.push(rowOf(row, entities[s]!, current, g, s, previous))
  }
  if (items.length > 0) keepShape(dims, previous !== null, items[0]!)
  return { items, total }
}

/**
 * One row of each shape made so far (its dimension fields, with or without the comparison): a
 * row's fields are added one by one, so its hidden class is not a literal's, and it would die
 * with the last payload that holds such rows, taking the optimized code of the rows' loop with
 * it (see the note above Sums). At most one row per list of dimensions and comparison (a few
 * hundred lists). What is kept is a blank copy (`blankOf`): no tenant's ids or names stay behind.
 */
const rowShapes = new Map<string, QueryRow>()
function keepShape(dims: readonly Dimension[], compared: boolean, row: QueryRow): void {
  let key = compared ? '+' : '-'
  for (const dim of dims) key += `${dim.field},`
  if (!rowShapes.has(key)) rowShapes.set(key, blankOf(row))
}

/**
 * A row copied field by field in its order, so the copy takes the same hidden class, with every
 * string (ids, names, dimension values) blanked; the numbers and the comparison's number-only
 * objects stay as they are (a string stays a string, so no field changes representation).
 */
export function blankOf(row: QueryRow): QueryRow {
  const copy: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(row)) copy[field] = typeof value === 'string' ? '' : value
  return copy as unknown as QueryRow
}

/** The blank rows kept, one per shape (for tests: that no tenant's string is kept). */
export function keptShapes(): readonly QueryRow[] {
  return [...rowShapes.values()]
}

/**
 * Sorts the groups by their (distinct) sort keys: as numbers key * groups + group in a typed array
 * (a numeric sort, no comparator) when those are exact doubles, else with a comparator.
 */
function sortGroups(kept: number[], sortKey: Float64Array): void {
  const groups = sortKey.length
  let max = 0
  for (let x = 0; x < kept.length; x++) if (sortKey[kept[x]!]! > max) max = sortKey[kept[x]!]!
  if ((max + 1) * groups > Number.MAX_SAFE_INTEGER) {
    kept.sort((a, b) => sortKey[a]! - sortKey[b]!)
    return
  }
  const packed = new Float64Array(kept.length)
  for (let x = 0; x < kept.length; x++) packed[x] = sortKey[kept[x]!]! * groups + kept[x]!
  packed.sort()
  for (let x = 0; x < packed.length; x++) kept[x] = packed[x]! % groups
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
  const summed = sums.summed[g]!
  const at = summed * sums.slots + s
  const n = sums.responses[g]!
  const k = sums.mentions[at]!
  const visibility = (k / n) * 100
  const sovTotal = sums.sovTotal[summed]!
  const posCnt = sums.posCnt[at]!
  const sentCnt = sums.sentCnt[at]!
  const citations = sums.citations[at]!
  const citationsTotal = sums.citationsTotal[summed]!
  // Stored one by one (the fields in the payload's order): an object literal assigned onto the row
  // costs several times more per row.
  row.entity_id = e.id
  row.entity_name = e.name
  row.is_brand = e.isBrand
  row.responses = n
  row.mentions = k
  row.visibility = visibility
  row.visibility_ci = wilson(k, n)!
  row.sov = sovTotal === 0 ? 0 : (k / sovTotal) * 100
  row.sov_total = sovTotal
  row.position_sum = sums.posSum[at]!
  row.position_count = posCnt
  row.avg_position = posCnt === 0 ? null : sums.posSum[at]! / posCnt
  row.sentiment_sum = sums.sentSum[at]!
  row.sentiment_count = sentCnt
  row.avg_sentiment = sentCnt === 0 ? null : sums.sentSum[at]! / sentCnt
  row.citations = citations
  row.citations_total = citationsTotal
  row.citability = citationsTotal === 0 ? 0 : (citations / citationsTotal) * 100
  const out = row as unknown as QueryRow
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

/**
 * The filters and dimensions of a request over a domain's facts (its window: days startDay to
 * endDay; the catalog's models by key for the model dimension).
 */
function planOf(
  models: readonly string[],
  facts: QueryFacts,
  segments: PromptSegments,
  nPrompts: number,
  dimensions: readonly QueryDimension[],
  startDay: number,
  endDay: number,
  buckets: Int32Array,
  filter: ModelFilter,
): Plan {
  const dims: Dimension[] = []
  const kinds: number[] = []
  let topicCode = new Int32Array(0)
  let tagDim = -1
  let tagCodes: Int32Array[] = []
  for (const name of dimensions) {
    switch (name) {
      case 'date': {
        const size = endDay - startDay + 1
        dims.push(
          dimensionOf(
            name,
            'date',
            Array.from({ length: size }, (_, c) => formatDay(startDay + c)),
            Int32Array.from({ length: size }, (_, c) => c),
          ),
        )
        kinds.push(DATE)
        break
      }
      case 'channel':
        dims.push(listDimension(name, 'channel', CHANNELS))
        kinds.push(CHANNEL)
        break
      case 'model':
        dims.push(listDimension(name, 'model', models))
        kinds.push(MODEL)
        break
      case 'country':
        dims.push(listDimension(name, 'country', [...facts.countries, null]))
        kinds.push(COUNTRY)
        break
      case 'prompt':
        // The prompts' ranks come with their ids (kept per domain); ranked here only when an
        // analysis names a prompt index past the catalog's.
        dims.push(
          nPrompts === segments.promptIds.length
            ? dimensionOf(name, 'prompt_id', segments.promptIds, segments.promptRank)
            : listDimension(
                name,
                'prompt_id',
                Array.from({ length: nPrompts }, (_, i) => segments.promptIds[i] ?? ''),
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
  // Per cell, its keys but the date's: the codes of its prompt, channel, model and country.
  const nCells = facts.cellPrompt.length
  const cellKeyStart = new Int32Array(nCells + 1)
  const keys: number[] = []
  for (let c = 0; c < nCells; c++) {
    cellKeyStart[c] = keys.length
    if (!passes(filter, facts.cellChannel[c]!, facts.cellModel[c]!)) continue
    let base = 0
    for (let d = 0; d < dims.length; d++)
      if (d !== tagDim) base += cellCode(facts, topicCode, kinds[d]!, c) * stride[d]!
    const prompt = facts.cellPrompt[c]!
    if (tagDim < 0) keys.push(base)
    else for (const t of tagCodes[prompt]!) keys.push(base + t * stride[tagDim]!)
  }
  cellKeyStart[nCells] = keys.length
  const dateDim = kinds.indexOf(DATE)
  return {
    facts,
    dims,
    buckets,
    startDay,
    dateStride: dateDim < 0 ? -1 : stride[dateDim]!,
    cellKeyStart,
    cellKeys: Float64Array.from(keys),
    stride,
  }
}

/** Dimension kinds. */
const DATE = 0
const CHANNEL = 1
const MODEL = 2
const COUNTRY = 3
const PROMPT = 4
const TOPIC = 5
const TAG = 6

/** The code of cell c in a dimension of `kind` (0 for the date and tag dimensions: added apart). */
function cellCode(f: QueryFacts, topicCode: Int32Array, kind: number, c: number): number {
  switch (kind) {
    case CHANNEL:
      return f.cellChannel[c]! - 1
    case MODEL:
      return f.cellModel[c]!
    case COUNTRY: {
      const k = f.cellCountry[c]!
      return k < 0 ? f.countries.length : k
    }
    case PROMPT:
      return f.cellPrompt[c]!
    case TOPIC:
      return topicCode[f.cellPrompt[c]!]!
    default:
      return 0
  }
}

/** Which slot an entity of the facts counts in, and per cited host the slots whose site it is. */
interface Sites {
  /** -1: an entity of the domain not shown; -2: no entity of the domain. */
  slotOf: Int32Array
  hostStart: Int32Array
  hostSlot: Int32Array
}

/** Adds mention rows r0 to r1 (one entity each) to summed group g's sums. */
function addMentionRows(
  rows: MentionRows,
  r0: number,
  r1: number,
  g: number,
  slotOf: Int32Array,
  sums: Sums,
): void {
  const nSlot = slotOf.length
  const base = g * sums.slots
  for (let r = r0; r < r1; r++) {
    const e = rows.entity[r]!
    const slot = e < nSlot ? slotOf[e]! : -2
    if (slot === -2) continue // no entity of the domain
    const k = rows.count[r]!
    sums.sovTotal[g]! += k
    if (slot < 0) continue
    const at = base + slot
    sums.mentions[at]! += k
    sums.posSum[at]! += rows.posSum[r]!
    sums.posCnt[at]! += rows.posCnt[r]!
    sums.sentSum[at]! += rows.sentSum[r]!
    sums.sentCnt[at]! += rows.sentCnt[r]!
  }
}

/** Adds citation host rows r0 to r1 to summed group g's citations of the slots whose site each host is. */
function addHostRows(rows: HostRows, r0: number, r1: number, g: number, sites: Sites, sums: Sums): void {
  const { hostStart, hostSlot } = sites
  const base = g * sums.slots
  for (let r = r0; r < r1; r++) {
    const h = rows.host[r]!
    const n = rows.count[r]!
    for (let y = hostStart[h]!; y < hostStart[h + 1]!; y++) sums.citations[base + hostSlot[y]!]! += n
  }
}

/** A window's cells and analyses as sumsOf reads them, and the responses of every group. */
interface WindowVisits {
  /** Per cell: 1 when the window holds it whole, 2 when it cuts it (0: misses it or the model filter drops it). */
  state: Uint8Array
  /** The groups of the cells looked up (not dated): gStart[c] to gStart[c + 1] in gList. */
  gStart: Int32Array
  gList: Int32Array
  /** The analyses in the window of the cells it cuts, and the groups each adds to: visitStart[x] to visitStart[x + 1] in visitGroup. */
  visits: Int32Array
  visitStart: Int32Array
  visitGroup: Int32Array
  responses: Int32Array
}

/**
 * The groups of the window of days [from, to) and their responses: a cell's groups are looked up once (new ones numbered
 * when `create`: the request's window; else a cell only adds to the groups already there: the
 * previous window of a comparison). A cell the window holds whole adds its analyses; then the
 * analyses of the blocks the window overlaps are read in a row, those in the window of a cell it
 * cuts added one by one. With the date dimension every analysis in the window finds its day's group.
 */
function visitsOf(plan: Plan, from: number, to: number, index: GroupIndex, create: boolean): WindowVisits {
  const f = plan.facts
  const { cellKeyStart, cellKeys, dateStride, buckets, startDay } = plan
  const dated = dateStride >= 0
  const nCells = f.cellPrompt.length

  const state = new Uint8Array(nCells)
  const gStart = new Int32Array(nCells + 1)
  const gList = new Int32Array(dated ? 0 : cellKeys.length)
  let nG = 0
  let cut = 0
  let cutAnalyses = 0
  for (let c = 0; c < nCells; c++) {
    gStart[c] = nG
    if (cellKeyStart[c] === cellKeyStart[c + 1]) continue
    if (f.cellLastDay[c]! < from || f.cellFirstDay[c]! >= to) continue
    state[c] = !dated && f.cellFirstDay[c]! >= from && f.cellLastDay[c]! < to ? 1 : 2
    if (state[c] === 2) {
      cut++
      cutAnalyses += f.cellResponses[c]!
    }
    if (dated) continue
    for (let k = cellKeyStart[c]!; k < cellKeyStart[c + 1]!; k++) {
      let g = groupOf(index, cellKeys[k]!)
      if (g < 0) {
        if (!create || state[c] === 2) continue // a cut cell's groups come with its analyses
        g = addGroup(index, cellKeys[k]!)
      }
      gList[nG++] = g
    }
  }
  gStart[nCells] = nG
  // The cut cells' analyses in the window are read from the blocks the window overlaps, in a row,
  // or, when the cut cells hold fewer analyses than those blocks, cell by cell (scattered).
  const blocks = blockRange(f, from, to)
  const cuts: Cuts = { state, from, to, blocks, inBlocks: cut > 0 && blocks[1] - blocks[0] <= cutAnalyses }
  const visits = cutVisits(f, cuts)
  const { day, cell } = f
  // Each visit's groups, looked up once (the cut cells' new groups, and with the date dimension
  // every group, numbered here when `create`): visitStart[x] to visitStart[x + 1] in visitGroup.
  const visitStart = new Int32Array(visits.length + 1)
  let visitGroup = new Int32Array(visits.length)
  let nV = 0
  for (let x = 0; x < visits.length; x++) {
    const i = visits[x]!
    const c = cell[i]!
    const dk = dated ? (buckets[day[i]! - startDay]! - startDay) * dateStride : 0
    visitStart[x] = nV
    for (let k = cellKeyStart[c]!; k < cellKeyStart[c + 1]!; k++) {
      let g = groupOf(index, cellKeys[k]! + dk)
      if (g < 0) {
        if (!create) continue
        g = addGroup(index, cellKeys[k]! + dk)
      }
      if (nV === visitGroup.length) {
        const grown = new Int32Array(nV * 2 + 1)
        grown.set(visitGroup)
        visitGroup = grown
      }
      visitGroup[nV++] = g
    }
  }
  // The responses, sized once every group is numbered: the whole cells' totals, then the visits.
  const responses = new Int32Array(index.keys.length)
  for (let c = 0; c < nCells; c++) {
    if (state[c] !== 1) continue
    for (let x = gStart[c]!; x < gStart[c + 1]!; x++) responses[gList[x]!]! += f.cellResponses[c]!
  }
  for (let y = 0; y < nV; y++) responses[visitGroup[y]!]!++
  visitStart[visits.length] = nV
  return { state, gStart, gList, visits, visitStart, visitGroup, responses }
}

/**
 * The sums of a window's groups (`v`, from visitsOf) but the responses for the groups `summed`
 * numbers (nSummed of them; -1: not summed): the whole cells' totals, then the cut cells' analyses
 * one by one, in visitsOf's order.
 */
function sumsOf(
  plan: Plan,
  v: WindowVisits,
  summed: Int32Array,
  nSummed: number,
  slots: number,
  sites: Sites,
): Sums {
  const f = plan.facts
  const nCells = f.cellPrompt.length
  const { state, gStart, gList, visits, visitStart, visitGroup } = v
  const sums = emptySums(v.responses, summed, nSummed, slots)
  const { citationsTotal } = sums
  const { slotOf } = sites
  for (let c = 0; c < nCells; c++) {
    if (state[c] !== 1) continue
    for (let x = gStart[c]!; x < gStart[c + 1]!; x++) {
      const g = summed[gList[x]!]!
      if (g < 0) continue
      citationsTotal[g]! += f.cellCitations[c]!
      addMentionRows(f.cellMention, f.cellMentionStart[c]!, f.cellMentionStart[c + 1]!, g, slotOf, sums)
      addHostRows(f.cellHost, f.cellHostStart[c]!, f.cellHostStart[c + 1]!, g, sites, sums)
    }
  }
  if (nSummed === 0) return sums
  // The visits' rows added here rather than through addMentionRows/addHostRows: the same sums,
  // without two calls per visit (the calls stay until the optimizing compiler inlines them, and
  // the first calls after a segment's facts are built run before it does).
  const { mentionStart, hostStart, citations } = f
  const { entity: mEntity, posSum, posCnt, sentSum, sentCnt } = f.mention
  const { host: hHost, count: hCount } = f.host
  const { hostStart: siteStart, hostSlot } = sites
  const nSlot = slotOf.length
  const { sovTotal, mentions } = sums
  const sPosSum = sums.posSum
  const sPosCnt = sums.posCnt
  const sSentSum = sums.sentSum
  const sSentCnt = sums.sentCnt
  const sCitations = sums.citations
  for (let x = 0; x < visits.length; x++) {
    const i = visits[x]!
    for (let y = visitStart[x]!; y < visitStart[x + 1]!; y++) {
      const g = summed[visitGroup[y]!]!
      if (g < 0) continue
      citationsTotal[g]! += citations[i]!
      const base = g * slots
      // An analysis's mention rows count 1 each (one analysis).
      for (let r = mentionStart[i]!; r < mentionStart[i + 1]!; r++) {
        const e = mEntity[r]!
        const slot = e < nSlot ? slotOf[e]! : -2
        if (slot === -2) continue // no entity of the domain
        sovTotal[g]!++
        if (slot < 0) continue
        const at = base + slot
        mentions[at]!++
        sPosSum[at]! += posSum[r]!
        sPosCnt[at]! += posCnt[r]!
        sSentSum[at]! += sentSum[r]!
        sSentCnt[at]! += sentCnt[r]!
      }
      for (let r = hostStart[i]!; r < hostStart[i + 1]!; r++) {
        const h = hHost[r]!
        const n = hCount[r]!
        for (let z = siteStart[h]!; z < siteStart[h + 1]!; z++) sCitations[base + hostSlot[z]!]! += n
      }
    }
  }
  return sums
}
