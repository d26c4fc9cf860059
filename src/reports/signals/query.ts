/**
 * The signals (docs/API.md, "GET /api/v1/signals"): for one domain, the visibility of the brand and
 * of each competitor in each segment (all analyses, each channel, each country, each topic) over
 * the last `window` days, tested against the `window` days before with the pooled two-proportion
 * z-test (docs/API.md, "Confidence intervals and tests"); the candidates that pass the thresholds,
 * each with a stable id.
 *
 * The counts come from one per-domain structure (`SIGNAL_COUNTS`, kept by the aggregate store):
 * per (day, segment, entity) the analyses and the analyses mentioning the entity, sorted by day, so
 * a request adds up the rows of 2 x `window` days. After a commit that changed some days of the
 * domain, only those days are read again and spliced in (a change of the prompts' topics, which
 * renumbers or moves the topic rows, rebuilds it whole).
 */
import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import { CHANNELS } from '../../foundation/vocabulary.js'
import { compareText } from '../../foundation/compare.js'
import { twoProportionPValue, wilson } from '../../foundation/stats.js'
import { DAY_MS, formatDay, lowerBound, rowRange } from '../../foundation/window.js'
import { clockMs, parseParams, resolveDomain, type QueryContext } from '../../queries/context.js'
import { formatGeneratedAt } from '../../schemas/payloads.js'
import type { DayRange } from '../../db/changes.js'
import type { Derived } from '../../tables/aggregates.js'
import { signalsParamsSchema } from './contract.js'
import type {
  SegmentKind,
  Signal,
  SignalPeriod,
  SignalsParams,
  SignalsPayload,
  SignalTier,
} from './contract.js'

/** One domain's counts per (day, segment, entity), rows sorted by day (sql/queries/load_signal_counts.sql). */
export interface SignalCounts {
  day: Int32Array
  /** 1 channel, 2 country, 3 topic. */
  kind: Int32Array
  code: Int32Array
  /** -1: the segment's analyses; otherwise the entity_idx (0 = the brand). */
  entity: Int32Array
  n: Int32Array
  /** The topic of each topic code. */
  topics: string[]
  /** The domain's prompts (prompt_idx) and their topics when the counts were read. */
  prompts: Map<number, string | null>
}

// The segment kinds of the counts' `kind` column (3: topic).
const KIND_CHANNEL = 1
const KIND_COUNTRY = 2

type Pool = Parameters<Derived<unknown>['build']>[0]
const COUNT_COLUMNS = ['day', 'kind', 'code', 'entity', 'n'] as const
/** Every day: a whole domain's counts. */
const ALL_DAYS: DayRange = { from: -1_000_000, to: 1_000_000 }

/** The counts of `days` (both included), as the columns of SignalCounts. */
async function loadCounts(pool: Pool, domainKey: number, days: DayRange): Promise<Int32Array[]> {
  const values = { domain_key: domainKey, from_day: days.from, to_day: days.to }
  const arrays = await pool.loadColumns('queries/load_signal_counts', values, COUNT_COLUMNS, [
    'i32',
    'i32',
    'i32',
    'i32',
    'i32',
  ])
  return arrays as Int32Array[]
}

/** The topic of each topic code, and each prompt's topic. */
async function loadTopics(pool: Pool, domainKey: number): Promise<Pick<SignalCounts, 'topics' | 'prompts'>> {
  const values = { domain_key: domainKey }
  const [[topics], [idx, topic]] = await Promise.all([
    pool.loadStrings('queries/load_signal_topics', values, ['topic']),
    pool.loadStrings('queries/load_signal_prompt_topics', values, ['prompt_idx', 'topic']),
  ])
  const prompts = new Map(idx!.map((i, r) => [Number(i), topic![r]!] as const))
  return { topics: topics as string[], prompts }
}

function countsOf(arrays: Int32Array[], topics: Pick<SignalCounts, 'topics' | 'prompts'>) {
  const [day, kind, code, entity, n] = arrays
  const value: SignalCounts = { day: day!, kind: kind!, code: code!, entity: entity!, n: n!, ...topics }
  return { value, rows: day!.length }
}

/** Whether the topic codes and every kept prompt's topic are those of `now` (new prompts aside). */
function sameTopics(kept: SignalCounts, now: Pick<SignalCounts, 'topics' | 'prompts'>): boolean {
  if (kept.topics.length !== now.topics.length || kept.topics.some((t, i) => t !== now.topics[i]))
    return false
  for (const [idx, topic] of kept.prompts)
    if (!now.prompts.has(idx) || now.prompts.get(idx) !== topic) return false
  return true
}

/** Whether every prompt of the catalog has the topic the counts were read with, and no other prompt. */
function sameTopicsAs(
  counts: SignalCounts,
  prompts: readonly { idx: number; topic: string | null }[],
): boolean {
  return prompts.length === counts.prompts.size && prompts.every((q) => counts.prompts.get(q.idx) === q.topic)
}

/** The kept columns with their rows of `days` replaced by `delta`'s (all sorted by day). */
export function spliceCountDays(kept: Int32Array[], delta: Int32Array[], days: DayRange): Int32Array[] {
  const start = lowerBound(kept[0]!, days.from)
  const end = lowerBound(kept[0]!, days.to + 1)
  const n = delta[0]!.length
  return kept.map((k, c) => {
    const out = new Int32Array(k.length - (end - start) + n)
    out.set(k.subarray(0, start), 0)
    out.set(delta[c]!, start)
    out.set(k.subarray(end), start + n)
    return out
  })
}

/**
 * The per-domain counts the signals read (kept by the aggregate store like the aggregates: a
 * commit's changed days are read again and spliced in).
 */
export const SIGNAL_COUNTS: Derived<SignalCounts> = {
  name: 'signal_counts',
  async build(pool, domainKey) {
    const [arrays, topics] = await Promise.all([
      loadCounts(pool, domainKey, ALL_DAYS),
      loadTopics(pool, domainKey),
    ])
    return countsOf(arrays, topics)
  },
  async refresh(pool, domainKey, kept, days) {
    const topics = await loadTopics(pool, domainKey)
    if (!sameTopics(kept, topics)) return countsOf(await loadCounts(pool, domainKey, ALL_DAYS), topics)
    const columns = [kept.day, kept.kind, kept.code, kept.entity, kept.n]
    return countsOf(spliceCountDays(columns, await loadCounts(pool, domainKey, days), days), topics)
  },
}

/** The 1e-9 slack of the min_delta comparison (docs/API.md, "GET /api/v1/signals"). */
const DELTA_SLACK = 1e-9

/**
 * A signal's id (docs/API.md, "What a signal id is"): a UUID of version 8 (RFC 9562) made of the
 * first 128 bits of the SHA-256 of what identifies the signal, its version and variant bits set:
 * the same domain, entity, segment, metric, window and window end give the same id, whatever the
 * counts or the other parameters.
 */
export function signalId(parts: {
  domainId: string
  entityId: string
  kind: SegmentKind
  value: string | null
  window: number
  endDate: string
}): string {
  const text = JSON.stringify([
    'visibility',
    parts.domainId,
    parts.entityId,
    parts.kind,
    parts.value,
    parts.window,
    parts.endDate,
  ])
  let id = IDS.get(text)
  if (id === undefined) IDS.set(text, (id = hashId(text)))
  return id
}

/**
 * The ids already made, by the text they hash (a repeated request makes the same ones: the
 * SHA-256s were 40% of a warm call with 437 signals). An id depends on its text alone, so an
 * entry is never stale; the least recently used go first.
 */
const IDS = new LRUCache<string, string>({ max: 100_000 })

function hashId(text: string): string {
  const b = createHash('sha256').update(text).digest().subarray(0, 16)
  b[6] = (b[6]! & 0x0f) | 0x80
  b[8] = (b[8]! & 0x3f) | 0x80
  const hex = b.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** The tier of a p-value below 0.05. */
export function tierOf(p: number): SignalTier {
  return p < 0.001 ? 'high' : p < 0.01 ? 'confident' : 'worth_a_look'
}

/** The segment of a (kind, code) key. */
function segmentOf(
  kind: number,
  code: number,
  topics: readonly string[],
): { kind: SegmentKind; value: string } {
  if (kind === KIND_CHANNEL) return { kind: 'channel', value: CHANNELS[code - 1]! }
  if (kind === KIND_COUNTRY)
    return { kind: 'country', value: String.fromCharCode(65 + Math.floor(code / 26), 65 + (code % 26)) }
  return { kind: 'topic', value: topics[code]! }
}

export async function computeSignals(ctx: QueryContext, params: SignalsParams): Promise<SignalsPayload> {
  const p = parseParams(signalsParamsSchema, params)
  const nowMs = clockMs(p.now)
  const domain = resolveDomain(ctx.catalog, p.domainId)
  const today = Math.floor(nowMs / DAY_MS)
  const w = p.window
  const current = { startDay: today - w + 1, endDay: today }
  const baseline = { startDay: today - 2 * w + 1, endDay: today - w }
  let counts = await ctx.aggregates.derived(SIGNAL_COUNTS, domain.key)
  // A commit that changed only prompts' topics changes no day: the kept counts still have the
  // topics they were read with. Then they are read again under a name that says the topics.
  if (!sameTopicsAs(counts, domain.prompts)) {
    const topics = JSON.stringify(domain.prompts.map((q) => [q.idx, q.topic]))
    const name = `${SIGNAL_COUNTS.name} ${createHash('sha256').update(topics).digest('hex')}`
    counts = await ctx.aggregates.segmented({ name, build: SIGNAL_COUNTS.build }, domain.key)
  }

  // Per segment key (kind * 2^20 + code; `all` is key 0): [n1, n2, k1(e0), k2(e0), k1(e1), ...].
  const entities = domain.competitors.length + 1
  const width = 2 + 2 * entities
  const sums = new Map<number, Float64Array>()
  const acc = (key: number): Float64Array => {
    let a = sums.get(key)
    if (a === undefined) sums.set(key, (a = new Float64Array(width)))
    return a
  }
  const [from, to] = rowRange(counts.day, { startDay: baseline.startDay, endDay: current.endDay })
  let all: Float64Array | undefined
  // The rows of one (day, segment) are consecutive (sorted by day, kind, code, entity): one map
  // lookup per run of them.
  let runKey = -1
  let run: Float64Array = new Float64Array(0)
  for (let i = from; i < to; i++) {
    const period = counts.day[i]! >= current.startDay ? 1 : 0
    const e = counts.entity[i]!
    if (e >= entities) continue
    const kind = counts.kind[i]!
    const slot = e < 0 ? period : 2 + 2 * e + period
    const n = counts.n[i]!
    const key = kind * 1_048_576 + counts.code[i]!
    if (key !== runKey) {
      runKey = key
      run = acc(key)
    }
    run[slot]! += n
    if (kind === KIND_CHANNEL) (all ??= acc(0))[slot]! += n
  }

  const endDate = formatDay(current.endDay)
  const period = (days: { startDay: number; endDay: number }, n: number, k: number): SignalPeriod => ({
    start_date: formatDay(days.startDay),
    end_date: formatDay(days.endDay),
    responses: n,
    mentions: k,
    visibility: (k * 100) / n,
    visibility_ci: wilson(k, n)!,
  })
  const items: Signal[] = []
  for (const [key, a] of sums) {
    const n1 = a[0]!
    const n2 = a[1]!
    if (n1 < p.minResponses || n2 < p.minResponses) continue
    const segment =
      key === 0 ? { kind: 'all' as const, value: null } : segmentOf(key >> 20, key & 1_048_575, counts.topics)
    for (let e = 0; e < entities; e++) {
      const k1 = a[2 + 2 * e]!
      const k2 = a[3 + 2 * e]!
      const delta = (k2 * 100) / n2 - (k1 * 100) / n1
      if (Math.abs(delta) < p.minDelta - DELTA_SLACK) continue
      const pValue = twoProportionPValue(k1, n1, k2, n2)
      if (pValue === null || !(pValue < 0.05)) continue
      const competitor = e === 0 ? undefined : domain.competitors[e - 1]
      if (e > 0 && competitor === undefined) continue
      const entityId = competitor === undefined ? `user-brand-${domain.id}` : competitor.id
      items.push({
        id: signalId({ domainId: domain.id, entityId, ...segment, window: w, endDate }),
        metric: 'visibility',
        entity_id: entityId,
        entity_name: competitor === undefined ? domain.brand_name : competitor.name,
        is_brand: competitor === undefined,
        segment,
        baseline: period(baseline, n1, k1),
        current: period(current, n2, k2),
        visibility_delta: delta,
        direction: delta > 0 ? 'up' : 'down',
        p_value: pValue,
        tier: tierOf(pValue),
      })
    }
  }
  items.sort(
    (x, y) =>
      x.p_value - y.p_value ||
      Math.abs(y.visibility_delta) - Math.abs(x.visibility_delta) ||
      compareText(x.id, y.id),
  )
  return {
    data: { items },
    domain_id: domain.id,
    window: w,
    min_responses: p.minResponses,
    min_delta: p.minDelta,
    generated_at: formatGeneratedAt(nowMs),
  }
}
