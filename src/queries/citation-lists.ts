/**
 * Citations and cited domains: docs/API.md, "Citations, fan-out and sentiment over time".
 *
 * Both read the domain's per-(day, channel, model, prompt, URL) citation rows, grouped by URL and
 * sorted by day within each URL (src/tables/cited-index.ts). Every URL's frequency in the window
 * comes from its running sum of entries (two binary searches per URL) when every analysis passes
 * the model filter, else from its rows in the window; the report then keeps the first `limit` URLs
 * (or hosts) by frequency and UTF-16 order, and only for those reads the rows again for the rest
 * (citing analyses, prompts, channels, models, title, page type, first and last seen). Hosts take
 * their citing analyses from the per-(day, channel, model, host) rows, since one analysis may cite
 * several URLs of a host.
 */
import type { Catalog, DomainRow } from '../catalog.js'
import { citationListParamsSchema } from '../schemas/params.js'
import { isSiteOrSubdomain, siteHost } from '../schemas/records.js'
import type { Derived } from '../tables/aggregates.js'
import { readByDay, sumByDay, type CitedUrlRows, type Combos, type SmallInts } from '../tables/cited-index.js'
import type { Channel, CitationListParams } from '../types.js'
import { compareText } from '../foundation/compare.js'
import { parseRequest, type QueryContext } from './context.js'
import { channelNames, resolveModelFilter } from './model-filter.js'
import { DAY_MS, segmentFrom, segmentTo, type DayWindow } from '../foundation/window.js'

/**
 * The request resolved: parameters, domain, window, model filter (null: an unseen raw id), envelope,
 * and `get`, the domain's structures for the segment filters given (src/queries/segment.ts).
 */
export async function citationScope(base: QueryContext, params: CitationListParams) {
  const { p, scope, ctx } = parseRequest(base, citationListParamsSchema, params)
  const envelope = {
    domain_id: scope.domain.id,
    ...scope.echo,
    model: p.model,
    limit: p.limit,
    ...scope.segmentEcho,
    generated_at: scope.generatedAt,
  }
  const filter = resolveModelFilter(ctx.catalog, p.model)
  return {
    p,
    domain: scope.domain,
    window: scope.window,
    filter,
    envelope,
    get: derivedOf(ctx, scope.domain),
  }
}

/**
 * The URLs cited in the window (`url`, ascending) and their citation entries (`freq[j]` for
 * `url[j]`, positive): the window's URLs only, not the domain's whole catalogue.
 */
export interface UrlFrequencies {
  readonly url: Int32Array
  readonly freq: Float64Array
}

/**
 * Every URL's citation entries in the window, from rows whose combo passes (`mask` null: all pass),
 * for URL indexes below `n`: from each URL's running sum when all pass and the window holds many
 * rows per URL, else from the window's rows by day (see `readByDay`, `sumByDay`).
 */
export function urlFrequencies(
  rows: CitedUrlRows,
  w: DayWindow,
  mask: Uint8Array | null,
  n: number,
): UrlFrequencies {
  const urls = Math.min(n, rows.urlStart.length - 1)
  if (readByDay(rows.byDay, w, mask !== null, urls)) {
    const { key, sum } = sumByDay(rows.byDay, w, mask, n)
    return { url: key, freq: sum }
  }
  const { urlStart, day, entriesBefore, urlFirstDay, urlLastDay, urlEntries } = rows
  const { startDay, endDay } = w
  const url = new Int32Array(urls)
  const freq = new Float64Array(urls)
  let j = 0
  for (let u = 0; u < urls; u++) {
    const first = urlFirstDay[u]!
    const last = urlLastDay[u]!
    if (last < startDay || first > endDay) continue // none in the window (or no rows)
    let f: number
    if (first >= startDay && last <= endDay) f = urlEntries[u]!
    else {
      const end = urlStart[u + 1]!
      const from = segmentFrom(day, w, urlStart[u]!, end)
      f = entriesBefore[segmentTo(day, w, from, end)]! - entriesBefore[from]!
    }
    if (f === 0) continue
    url[j] = u
    freq[j++] = f
  }
  return { url: url.subarray(0, j), freq: freq.subarray(0, j) }
}

/** `null` when every combo passes (the loops then skip the test). */
export function maskOrNull(mask: Uint8Array): Uint8Array | null {
  return mask.every((m) => m === 1) ? null : mask
}

/**
 * The first `k` of the candidates (positions j with a positive `value[j]`, whose rank is
 * `rank[id[j]]`, or `rank[j]` without `id`) by value descending, then rank ascending, in that
 * order; and how many candidates there were.
 */
export function topByValue(
  value: Float64Array,
  rank: Int32Array,
  k: number,
  id?: Int32Array,
): { top: number[]; total: number } {
  // The rank is read only on a tie of values, through `id` when given (no column of ranks is
  // gathered for all candidates: most never tie with the heap).
  const better =
    id === undefined
      ? (a: number, b: number) => value[a]! > value[b]! || (value[a] === value[b] && rank[a]! < rank[b]!)
      : (a: number, b: number) =>
          value[a]! > value[b]! || (value[a] === value[b] && rank[id[a]!]! < rank[id[b]!]!)
  // A heap of the best k so far, its worst at the root; most candidates lose to the root on
  // value alone, so its value is kept at hand.
  const heap: number[] = []
  let rootValue = -Infinity
  let total = 0
  for (let i = 0; i < value.length; i++) {
    const v = value[i]!
    if (!(v > 0)) continue
    total++
    if (heap.length < k) {
      heap.push(i)
      for (let c = heap.length - 1; c > 0;) {
        const parent = (c - 1) >> 1
        if (!better(heap[parent]!, heap[c]!)) break
        ;[heap[parent], heap[c]] = [heap[c]!, heap[parent]!]
        c = parent
      }
    } else if (v > rootValue || (v === rootValue && better(i, heap[0]!))) {
      heap[0] = i
      for (let c = 0; ;) {
        const l = 2 * c + 1
        const r = l + 1
        let worst = c
        if (l < heap.length && better(heap[worst]!, heap[l]!)) worst = l
        if (r < heap.length && better(heap[worst]!, heap[r]!)) worst = r
        if (worst === c) break
        ;[heap[worst], heap[c]] = [heap[c]!, heap[worst]!]
        c = worst
      }
    } else continue
    rootValue = value[heap[0]!]!
  }
  return { top: heap.sort((a, b) => (better(a, b) ? -1 : 1)), total }
}

/** The brand (the domain's website or a subdomain of it) and competitor (smallest id first) of a host. */
export function hostOwners(
  domain: DomainRow,
): (host: string) => { is_brand: boolean; competitor_id: string | null } {
  const competitors = domain.competitors
    .filter((c) => c !== undefined)
    .map((c) => ({ id: c.id, site: siteHost(c.website) }))
    .filter((c) => c.site !== null)
    .sort((a, b) => compareText(a.id, b.id))
  return (host) => ({
    is_brand: isSiteOrSubdomain(host, domain.site_host),
    competitor_id: competitors.find((c) => isSiteOrSubdomain(host, c.site))?.id ?? null,
  })
}

/** The sorted channel names and raw model ids of a set of combos (bits over combo indexes). */
export function channelsAndModels(
  bits: Uint32Array,
  at: number,
  combos: Combos,
  catalog: Catalog,
): { channels: Channel[]; models: string[] } {
  let channels = 0
  const models = new Set<string>()
  for (let c = 0; c < combos.channel.length; c++) {
    if ((bits[at + (c >>> 5)]! & (1 << (c & 31))) === 0) continue
    channels |= 1 << (combos.channel[c]! - 1)
    models.add(catalog.modelsByKey[combos.modelKey[c]!] ?? '')
  }
  return { channels: channelNames(channels), models: [...models].sort(compareText) }
}

/** ISO 8601 UTC with milliseconds. */
export const iso = (ms: number): string => new Date(ms).toISOString()

/**
 * The text of the latest entry with a title (or page type) among rows [from, to) of one URL
 * (sorted by day) whose combo passes: read from the last day back, the greatest (offset, tie) of
 * the last day that has one; -1 when none.
 */
export function latestText(
  rows: CitedUrlRows,
  from: number,
  to: number,
  mask: Uint8Array | null,
  off: Int32Array,
  tie: SmallInts,
  idx: Int32Array,
): number {
  const { day, combo } = rows
  let best = -1
  let bestDay = 0
  let bestOff = -1
  let bestTie = 0
  for (let i = to - 1; i >= from; i--) {
    if (best >= 0 && day[i]! < bestDay) break
    if (off[i]! < 0 || (mask !== null && mask[combo[i]!] === 0)) continue
    if (best < 0 || off[i]! > bestOff || (off[i] === bestOff && tie[i]! > bestTie)) {
      best = idx[i]!
      bestDay = day[i]!
      bestOff = off[i]!
      bestTie = tie[i]!
    }
  }
  return best
}

/** What the second pass gathers for each selected URL (slot s of the selection). */
class UrlDetails {
  readonly responses: Float64Array
  readonly brand: Float64Array
  readonly firstSeen: Float64Array
  readonly lastSeen: Float64Array
  /** Bits over prompt indexes, `pw` words per slot. */
  readonly prompts: Uint32Array
  /** Bits over combo indexes, `cw` words per slot. */
  readonly combos: Uint32Array
  /** Text indexes (-1: none). */
  readonly title: Int32Array
  readonly pageType: Int32Array
  constructor(
    k: number,
    readonly pw: number,
    readonly cw: number,
  ) {
    this.responses = new Float64Array(k)
    this.brand = new Float64Array(k)
    this.firstSeen = new Float64Array(k).fill(Infinity)
    this.lastSeen = new Float64Array(k).fill(-Infinity)
    this.prompts = new Uint32Array(k * pw)
    this.combos = new Uint32Array(k * cw)
    this.title = new Int32Array(k)
    this.pageType = new Int32Array(k)
  }
}

/** The details of the URLs `top` (slot s: top[s]) over their rows in the window whose combo passes. */
export function urlDetails(
  rows: CitedUrlRows,
  w: DayWindow,
  mask: Uint8Array | null,
  top: number[],
  nPrompts: number,
): UrlDetails {
  const d = new UrlDetails(top.length, (nPrompts + 31) >>> 5, (rows.combos.channel.length + 31) >>> 5)
  top.forEach((u, s) => {
    const end = rows.urlStart[u + 1]!
    const from = segmentFrom(rows.day, w, rows.urlStart[u]!, end)
    const to = segmentTo(rows.day, w, from, end)
    gatherUrlDetails(d, s, rows, from, to, mask)
    d.title[s] = latestText(rows, from, to, mask, rows.titleOff, rows.titleTie, rows.titleIdx)
    d.pageType[s] = latestText(rows, from, to, mask, rows.pageTypeOff, rows.pageTypeTie, rows.pageTypeIdx)
  })
  return d
}

/** Adds rows [from, to) whose combo passes to slot `s` of the details. */
export function gatherUrlDetails(
  d: UrlDetails,
  s: number,
  rows: CitedUrlRows,
  from: number,
  to: number,
  mask: Uint8Array | null,
): void {
  const { combo, day, prompt, analyses, brand, firstOff, lastOff } = rows
  const { responses, firstSeen, lastSeen, prompts, combos, pw, cw } = d
  for (let i = from; i < to; i++) {
    const c = combo[i]!
    if (mask !== null && mask[c] === 0) continue
    responses[s]! += analyses[i]!
    d.brand[s]! += brand[i]!
    const dayMs = day[i]! * DAY_MS
    const first = dayMs + firstOff[i]!
    const last = dayMs + lastOff[i]!
    if (first < firstSeen[s]!) firstSeen[s] = first
    if (last > lastSeen[s]!) lastSeen[s] = last
    const p = prompt[i]!
    prompts[s * pw + (p >>> 5)]! |= 1 << (p & 31)
    combos[s * cw + (c >>> 5)]! |= 1 << (c & 31)
  }
}

/** What a report of the domain's structures needs, read (or taken from the store) at once. */
export function derivedOf(ctx: QueryContext, domain: DomainRow) {
  return <T>(d: Derived<T>) => ctx.aggregates.derived(d, domain.key)
}
