/**
 * Citations and cited domains: extensions section 6.
 *
 * Both read the domain's per-(day, channel, model, prompt, URL) citation rows for the window after
 * the model filter (src/tables/cited-index.ts). Every URL's frequency comes from one pass over
 * them; the report then keeps the first `limit` URLs (or hosts) by frequency and UTF-16 order, and
 * only for those a second pass gathers the rest (citing analyses, prompts, channels, models, title,
 * page type, first and last seen). Hosts take their citing analyses from the per-(day, channel,
 * model, host) rows, since one analysis may cite several URLs of a host.
 */
import type { Catalog, DomainRow } from '../catalog.js'
import { citationsParamsSchema } from '../schemas/params.js'
import { isSiteOrSubdomain, siteHost } from '../schemas/records.js'
import {
  citedHostRows,
  citedUrlRows,
  textsIndex,
  type CitedUrlRows,
  type Combos,
  type DomainTexts,
} from '../tables/cited-index.js'
import {
  CHANNELS,
  type Channel,
  type CitationItem,
  type CitationsParams,
  type CitationsPayload,
  type CitedDomainItem,
  type CitedDomainsParams,
  type CitedDomainsPayload,
} from '../types.js'
import { compareText } from './compare.js'
import { parseRequest, type QueryContext } from './context.js'
import { comboMask, resolveModelFilter } from './model-filter.js'
import { DAY_MS, rowRange, type DayWindow } from './window.js'

/** The request resolved: the rows' range in the window and which combos pass (null: none can). */
async function citationScope(ctx: QueryContext, params: CitationsParams) {
  const { p, scope } = parseRequest(ctx, citationsParamsSchema, params)
  const envelope = {
    domain_id: scope.domain.id,
    days: p.days,
    model: p.model,
    limit: p.limit,
    generated_at: scope.generatedAt,
  }
  const filter = resolveModelFilter(ctx.catalog, p.model)
  return { p, domain: scope.domain, window: scope.window, filter, envelope }
}

/** Every URL's citation entries in rows [from, to) whose combo passes (`mask` null: all pass). */
function urlFrequencies(rows: CitedUrlRows, from: number, to: number, mask: Uint8Array | null, n: number) {
  const freq = new Float64Array(n)
  const { url, entries, combo } = rows
  if (mask === null) for (let i = from; i < to; i++) freq[url[i]!]! += entries[i]!
  else for (let i = from; i < to; i++) if (mask[combo[i]!] === 1) freq[url[i]!]! += entries[i]!
  return freq
}

/** `null` when every combo passes (the loops then skip the test). */
function maskOrNull(mask: Uint8Array): Uint8Array | null {
  return mask.every((m) => m === 1) ? null : mask
}

/**
 * The first `k` of the candidates (indexes with a positive `value`) by value descending, then
 * rank ascending, in that order; and how many candidates there were.
 */
export function topByValue(
  value: Float64Array,
  rank: Int32Array,
  k: number,
): { top: number[]; total: number } {
  const better = (a: number, b: number) =>
    value[a]! > value[b]! || (value[a] === value[b] && rank[a]! < rank[b]!)
  // A heap of the best k so far, its worst at the root.
  const heap: number[] = []
  let total = 0
  for (let i = 0; i < value.length; i++) {
    if (!(value[i]! > 0)) continue
    total++
    if (heap.length < k) {
      heap.push(i)
      for (let c = heap.length - 1; c > 0;) {
        const parent = (c - 1) >> 1
        if (!better(heap[parent]!, heap[c]!)) break
        ;[heap[parent], heap[c]] = [heap[c]!, heap[parent]!]
        c = parent
      }
    } else if (better(i, heap[0]!)) {
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
    }
  }
  return { top: heap.sort((a, b) => (better(a, b) ? -1 : 1)), total }
}

/** The brand (the domain's website or a subdomain of it) and competitor (smallest id first) of a host. */
function hostOwners(
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

/** Channel names in UTF-16 order, by channel number (1-based). */
const CHANNELS_SORTED = [...CHANNELS].sort(compareText)

/** The sorted channel names and raw model ids of a set of combos (bits over combo indexes). */
function channelsAndModels(
  bits: Uint32Array,
  at: number,
  combos: Combos,
  catalog: Catalog,
): { channels: Channel[]; models: string[] } {
  const channels = new Set<Channel>()
  const models = new Set<string>()
  for (let c = 0; c < combos.channel.length; c++) {
    if ((bits[at + (c >>> 5)]! & (1 << (c & 31))) === 0) continue
    channels.add(CHANNELS[combos.channel[c]! - 1]!)
    models.add(catalog.modelsByKey[combos.modelKey[c]!] ?? '')
  }
  return {
    channels: CHANNELS_SORTED.filter((ch) => channels.has(ch)),
    models: [...models].sort(compareText),
  }
}

const popcount = (x: number): number => {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  x = (x + (x >>> 4)) & 0x0f0f0f0f
  return Math.imul(x, 0x01010101) >>> 24
}

/** ISO 8601 UTC with milliseconds. */
const iso = (ms: number): string => new Date(ms).toISOString()

/** What the second pass gathers for each selected URL (slot s of `top`). */
function urlDetails(
  rows: CitedUrlRows,
  from: number,
  to: number,
  mask: Uint8Array | null,
  top: number[],
  nUrls: number,
  nPrompts: number,
) {
  const k = top.length
  const slotOf = new Int32Array(nUrls).fill(-1)
  top.forEach((u, s) => (slotOf[u] = s))
  const pw = (nPrompts + 31) >>> 5
  const cw = (rows.combos.channel.length + 31) >>> 5
  const d = {
    pw,
    cw,
    responses: new Float64Array(k),
    brand: new Float64Array(k),
    first: new Float64Array(k).fill(Infinity),
    last: new Float64Array(k).fill(-Infinity),
    prompts: new Uint32Array(k * pw),
    combos: new Uint32Array(k * cw),
    titleRank: new Int32Array(k),
    titleIdx: new Int32Array(k).fill(-1),
    pageTypeRank: new Int32Array(k),
    pageTypeIdx: new Int32Array(k).fill(-1),
  }
  const { url, combo, day, prompt } = rows
  for (let i = from; i < to; i++) {
    const s = slotOf[url[i]!]!
    if (s < 0) continue
    const c = combo[i]!
    if (mask !== null && mask[c] === 0) continue
    d.responses[s]! += rows.analyses[i]!
    d.brand[s]! += rows.brand[i]!
    const dayMs = day[i]! * DAY_MS
    const first = dayMs + rows.firstOff[i]!
    const last = dayMs + rows.lastOff[i]!
    if (first < d.first[s]!) d.first[s] = first
    if (last > d.last[s]!) d.last[s] = last
    const p = prompt[i]!
    d.prompts[s * pw + (p >>> 5)]! |= 1 << (p & 31)
    d.combos[s * cw + (c >>> 5)]! |= 1 << (c & 31)
    if (rows.titleRank[i]! > d.titleRank[s]!) {
      d.titleRank[s] = rows.titleRank[i]!
      d.titleIdx[s] = rows.titleIdx[i]!
    }
    if (rows.pageTypeRank[i]! > d.pageTypeRank[s]!) {
      d.pageTypeRank[s] = rows.pageTypeRank[i]!
      d.pageTypeIdx[s] = rows.pageTypeIdx[i]!
    }
  }
  return d
}

/** Rows of the window and the texts, for a domain whose model filter can match. */
async function windowRows(ctx: QueryContext, domain: DomainRow, window: DayWindow) {
  const [texts, rows] = await Promise.all([
    ctx.aggregates.derived(textsIndex, domain.key),
    ctx.aggregates.derived(citedUrlRows, domain.key),
  ])
  const [from, to] = rowRange(rows.day, window)
  return { texts, rows, from, to }
}

/**
 * GET /citations: one item per distinct cited URL of the window's filtered analyses, by frequency
 * descending then URL; the first `limit`, and `total` before the cap.
 */
export async function citations(ctx: QueryContext, params: CitationsParams): Promise<CitationsPayload> {
  const { p, domain, window, filter, envelope } = await citationScope(ctx, params)
  if (filter === null) return { data: { items: [], total: 0 }, ...envelope }
  const { texts, rows, from, to } = await windowRows(ctx, domain, window)
  const mask = maskOrNull(comboMask(rows.combos, filter))
  const nUrls = texts.urls.text.length
  const freq = urlFrequencies(rows, from, to, mask, nUrls)
  const { top, total } = topByValue(freq, texts.urls.rank, p.limit)
  const d = urlDetails(rows, from, to, mask, top, nUrls, domain.prompts.length)
  const owners = hostOwners(domain)
  const items = top.map((u, s): CitationItem => {
    const host = hostText(texts, u)
    let prompts = 0
    for (let w = 0; w < d.pw; w++) prompts += popcount(d.prompts[s * d.pw + w]!)
    const { channels, models } = channelsAndModels(d.combos, s * d.cw, rows.combos, ctx.catalog)
    return {
      url: texts.urls.text[u]!,
      domain: host,
      title: d.titleIdx[s]! < 0 ? null : texts.titles.text[d.titleIdx[s]!]!,
      page_type: d.pageTypeIdx[s]! < 0 ? null : texts.pageTypes.text[d.pageTypeIdx[s]!]!,
      frequency: freq[u]!,
      responses: d.responses[s]!,
      prompt_count: prompts,
      brand_mentions: d.brand[s]!,
      channels,
      models,
      ...owners(host),
      first_seen: iso(d.first[s]!),
      last_seen: iso(d.last[s]!),
    }
  })
  return { data: { items, total }, ...envelope }
}

function hostText(texts: DomainTexts, url: number): string {
  const h = texts.urlHost[url]!
  return h < 0 ? '' : texts.hosts.text[h]!
}

/**
 * GET /cited-domains: one item per cited host of the window's filtered analyses, by frequency
 * descending then host; the first `limit`, and `total` before the cap.
 */
export async function citedDomains(
  ctx: QueryContext,
  params: CitedDomainsParams,
): Promise<CitedDomainsPayload> {
  const { p, domain, window, filter, envelope } = await citationScope(ctx, params)
  if (filter === null) return { data: { items: [], total: 0 }, ...envelope }
  const [{ texts, rows, from, to }, hostRows] = await Promise.all([
    windowRows(ctx, domain, window),
    ctx.aggregates.derived(citedHostRows, domain.key),
  ])
  const urlMask = maskOrNull(comboMask(rows.combos, filter))
  const urlFreq = urlFrequencies(rows, from, to, urlMask, texts.urls.text.length)
  const nHosts = texts.hosts.text.length
  const freq = new Float64Array(nHosts)
  const urls = new Float64Array(nHosts)
  let all = 0
  urlFreq.forEach((f, u) => {
    if (f === 0) return
    const h = texts.urlHost[u]!
    freq[h]! += f
    urls[h]! += 1
    all += f
  })
  const { top, total } = topByValue(freq, texts.hosts.rank, p.limit)
  const slotOf = new Int32Array(nHosts).fill(-1)
  top.forEach((h, s) => (slotOf[h] = s))
  const responses = new Float64Array(top.length)
  const hostMask = comboMask(hostRows.combos, filter)
  const [hFrom, hTo] = rowRange(hostRows.day, window)
  for (let i = hFrom; i < hTo; i++) {
    const s = slotOf[hostRows.host[i]!]!
    if (s >= 0 && hostMask[hostRows.combo[i]!] === 1) responses[s]! += hostRows.analyses[i]!
  }
  const owners = hostOwners(domain)
  const items = top.map((h, s): CitedDomainItem => ({
    domain: texts.hosts.text[h]!,
    frequency: freq[h]!,
    responses: responses[s]!,
    urls: urls[h]!,
    share: (freq[h]! * 100) / all,
    ...owners(texts.hosts.text[h]!),
  }))
  return { data: { items, total }, ...envelope }
}
