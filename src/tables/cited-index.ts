/**
 * The per-domain structures the citations, cited-domains and fan-out reports read (docs/API.md,
 * "Citations, fan-out and sentiment over time"), built from the domain's `texts` and its `agg_cited_url`, `agg_cited_host` and
 * `agg_fanout` rows and kept by the aggregate store like an aggregate table:
 *
 * - texts: the domain's cited URLs (with their host), hosts, titles, page types and fan-out queries
 *   by index, and each text's rank in UTF-16 order (so orderings compare integers);
 * - rows as typed arrays, with a `combo` column: the index of the row's (channel, model) pair among
 *   the domain's pairs, so a model filter is one lookup per row. Cited-URL rows are grouped by URL
 *   and fan-out rows by (prompt, query, channel), each group sorted by day, with a running sum of
 *   their count: the count of a group over a window is two binary searches and a subtraction, so a
 *   year costs no more than a week. Cited-host rows (few) are sorted by day.
 */
import { compareText } from '../foundation/compare.js'
import type { DayWindow } from '../foundation/window.js'
import type { Derived } from './aggregates.js'

/** Kinds of `texts` (sql/schema/003_citations_fanout.sql). */
const KIND = { url: 1, host: 2, title: 3, pageType: 4, query: 5 } as const

/** One kind of a domain's texts: the texts by index, and each index's rank in UTF-16 order. */
export interface TextList {
  readonly text: readonly string[]
  readonly rank: Int32Array
}

/** The (channel, model key) pairs of a domain's rows; a row's `combo` indexes them. */
export interface Combos {
  readonly channel: Int32Array
  readonly modelKey: Int32Array
}

/** Rows with `day` (days since 1970-01-01) and `combo`. */
export interface ComboRows {
  readonly day: Int32Array
  readonly combo: Int32Array
  readonly combos: Combos
}

/** The same, `combo` narrowed (the grouped tables read it only on their slower paths). */
export interface SmallComboRows extends Omit<ComboRows, 'combo'> {
  readonly combo: SmallInts
}

/**
 * A copy of some columns of grouped rows sorted by day: what a short window reads (its rows are
 * a range here; fewer than the groups, they cost less to read than a search in every group).
 */
export interface ByDay {
  /** The rows of day `firstDay + d` are dayStart[d] to dayStart[d + 1]. */
  readonly firstDay: number
  readonly dayStart: Int32Array
  /** The row's group (URL, or (prompt, query) pair). */
  readonly key: Int32Array
  readonly combo: SmallInts
  /** The count summed by the running sums (entries, or analyses). */
  readonly count: Int32Array
}

/** A column of non-negative integers in the narrowest typed array that holds them. */
export type SmallInts = Uint8Array | Uint16Array | Int32Array

/** The column in the narrowest typed array that holds its values (those read off the hottest paths). */
function narrow(xs: Int32Array): SmallInts {
  let min = 0
  let max = 0
  for (let i = 0; i < xs.length; i++) {
    if (xs[i]! > max) max = xs[i]!
    if (xs[i]! < min) min = xs[i]!
  }
  if (min < 0) return xs
  return max < 256 ? Uint8Array.from(xs) : max < 65536 ? Uint16Array.from(xs) : xs
}

/**
 * agg_cited_url: per (day, channel, model, prompt, cited URL), grouped by URL (rows
 * `urlStart[u]` to `urlStart[u + 1]`), each URL's rows by day.
 */
export interface CitedUrlRows extends SmallComboRows {
  readonly urlStart: Int32Array
  /** entriesBefore[i]: the entries of rows [0, i). */
  readonly entriesBefore: Float64Array
  /** Per URL: the day of its first and last row, and its entries in all (a window holding both needs no search). */
  readonly urlFirstDay: Int32Array
  readonly urlLastDay: Int32Array
  readonly urlEntries: Float64Array
  /** URL, combo and entries of every row, by day. */
  readonly byDay: ByDay
  readonly prompt: SmallInts
  readonly analyses: SmallInts
  readonly brand: SmallInts
  /** answered_at of the row's first and last analysis, in milliseconds into the day. */
  readonly firstOff: Int32Array
  readonly lastOff: Int32Array
  /**
   * The row's latest entry with a title: its answered_at in milliseconds into the day (-1: none),
   * its title index, and its tie rank (agg_cited_url, sql/schema/002): the latest over rows of a URL
   * is the one of greatest (day, titleOff, titleTie). The same for page types.
   */
  readonly titleOff: Int32Array
  readonly titleIdx: Int32Array
  readonly titleTie: SmallInts
  readonly pageTypeOff: Int32Array
  readonly pageTypeIdx: Int32Array
  readonly pageTypeTie: SmallInts
}

/** agg_cited_host: per (day, channel, model, cited host), by day. */
export interface CitedHostRows extends ComboRows {
  readonly host: Int32Array
  readonly entries: Int32Array
  readonly analyses: Int32Array
}

/**
 * agg_fanout: per (day, channel, model, prompt, query), grouped by (prompt, query, channel): group
 * g holds rows `groupStart[g]` to `groupStart[g + 1]` by day, of pair `groupPair[g]` and channel
 * `groupChannel[g]`; a pair is a (prompt, query).
 */
export interface FanoutRows extends SmallComboRows {
  readonly groupStart: Int32Array
  readonly groupPair: Int32Array
  readonly groupChannel: Int32Array
  readonly pairPrompt: Int32Array
  readonly pairQuery: Int32Array
  readonly analyses: SmallInts
  /** analysesBefore[i]: the analyses of rows [0, i). */
  readonly analysesBefore: Float64Array
  /** Pair, combo and analyses of every row, by day. */
  readonly byDay: ByDay
}

/** One kind of the domain's texts, with their UTF-16 ranks (each kind loaded when a report needs it). */
function textsOf(kind: number): Derived<TextList> {
  return {
    name: `texts_${kind}`,
    analysisFree: true,
    async build(pool, domainKey) {
      const values = { domain_key: domainKey, kind }
      const [[idxs], [texts]] = await Promise.all([
        pool.loadColumns('queries/load_texts', values, ['idx'], ['i32']),
        pool.loadStrings('queries/load_texts_text', values, ['text']),
      ])
      const value = textList(
        [...idxs!],
        texts!.map((t) => t ?? ''),
      )
      return { value, rows: Math.ceil(value.text.length / 4) }
    },
  }
}

/** The domain's texts by kind. */
export const TEXTS = {
  urls: textsOf(KIND.url),
  hosts: textsOf(KIND.host),
  titles: textsOf(KIND.title),
  pageTypes: textsOf(KIND.pageType),
  queries: textsOf(KIND.query),
} as const

/** The host index of each cited URL (by URL index; -1 when none). */
export const urlHosts: Derived<Int32Array> = {
  name: 'url_hosts',
  analysisFree: true,
  async build(pool, domainKey) {
    const [idxs, hosts] = (await pool.loadColumns(
      'queries/load_url_hosts',
      { domain_key: domainKey },
      ['idx', 'host_idx'],
      ['i32', 'i32'],
    )) as Int32Array[]
    let n = 0
    for (const idx of idxs!) n = Math.max(n, idx + 1)
    const value = new Int32Array(n).fill(-1)
    idxs!.forEach((idx, i) => (value[idx] = hosts![i]!))
    return { value, rows: Math.ceil(n / 10) }
  },
}

/**
 * Texts placed at their index, ranked in UTF-16 order. They arrive in binary (UTF-8) order, which
 * is the UTF-16 order unless characters beyond U+FFFF meet U+E000-U+FFFF; then they are sorted
 * again.
 */
function textList(idx: number[], texts: string[]): TextList {
  let n = 0
  for (const i of idx) n = Math.max(n, i + 1)
  const text: string[] = new Array<string>(n).fill('')
  const rank = new Int32Array(n)
  let order = idx.map((_, i) => i)
  for (let i = 1; i < texts.length; i++) {
    if (compareText(texts[i - 1]!, texts[i]!) > 0) {
      order = order.sort((a, b) => compareText(texts[a]!, texts[b]!))
      break
    }
  }
  order.forEach((i, r) => {
    text[idx[i]!] = texts[i]!
    rank[idx[i]!] = r
  })
  return { text, rank }
}

/** Replaces the channel and model columns by a combo column and the combos. */
function toCombos(channel: Int32Array, modelKey: Int32Array): { combo: Int32Array; combos: Combos } {
  const index = new Map<number, number>()
  const ch: number[] = []
  const mk: number[] = []
  const combo = new Int32Array(channel.length)
  for (let i = 0; i < channel.length; i++) {
    const key = modelKey[i]! * 16 + channel[i]!
    let c = index.get(key)
    if (c === undefined) {
      c = ch.length
      index.set(key, c)
      ch.push(channel[i]!)
      mk.push(modelKey[i]!)
    }
    combo[i] = c
  }
  return { combo, combos: { channel: Int32Array.from(ch), modelKey: Int32Array.from(mk) } }
}

/**
 * Whether a window's counts are better read from its rows by day than from the running sums of
 * `groups` groups: always when rows must be filtered one by one, else when the window holds fewer
 * than a few rows per group (a row costs a few nanoseconds; a search in a group, tens).
 */
export function readByDay(byDay: ByDay, w: DayWindow, filtered: boolean, groups: number): boolean {
  if (filtered) return true
  const [from, to] = byDayRange(byDay, w)
  return to - from < 8 * groups
}

/** The rows [from, to) of the window in a by-day copy. */
export function byDayRange(byDay: ByDay, w: DayWindow): [from: number, to: number] {
  const { firstDay, dayStart } = byDay
  const days = dayStart.length - 1
  const at = (day: number) => dayStart[Math.min(days, Math.max(0, day - firstDay))]!
  return [at(w.startDay), at(w.endDay + 1)]
}

/**
 * Positive sums by key, compact: key `key[j]` has sum `sum[j]` (and, when asked, the OR of its
 * rows' bits `bits[j]`), each key once, ascending.
 */
export interface KeySums {
  readonly key: Int32Array
  readonly sum: Float64Array
  readonly bits: Int32Array
}

/**
 * Dense scratch columns shared by every call of `sumByDay`: all zero between calls (each call
 * clears what it wrote before it returns; it never awaits, so no other call sees them in between).
 */
let scratchSum = new Float64Array(0)
let scratchBits = new Int32Array(0)

/**
 * The count of the window's rows whose combo passes (`mask` null: all pass), summed by key (keys
 * below `n` only), with the OR of `bitOf[combo]` over those rows when `bitOf` is given. The work is
 * the window's rows, plus a pass over the `n` keys only when the window holds at least n / 4
 * rows (else the keys met are listed as they are met, then sorted).
 */
export function sumByDay(
  byDay: ByDay,
  w: DayWindow,
  mask: Uint8Array | null,
  n: number,
  bitOf?: Int32Array,
): KeySums {
  const [from, to] = byDayRange(byDay, w)
  if (scratchSum.length < n) {
    scratchSum = new Float64Array(n)
    scratchBits = new Int32Array(n)
  }
  const sums = scratchSum
  const bits = scratchBits
  const { key, combo, count } = byDay
  const sparse = (to - from) * 4 < n
  const met = new Int32Array(sparse ? to - from : 0)
  let m = 0
  // The common case (no row filter, no bits) in loops of its own: it reads two columns a row.
  if (mask === null && bitOf === undefined && !sparse)
    for (let i = from; i < to; i++) {
      const k = key[i]!
      if (k < n) sums[k]! += count[i]!
    }
  else if (mask === null && bitOf === undefined)
    for (let i = from; i < to; i++) {
      const k = key[i]!
      const x = count[i]!
      if (x === 0 || k >= n) continue
      if (sums[k] === 0) met[m++] = k
      sums[k]! += x
    }
  else
    for (let i = from; i < to; i++) {
      const c = combo[i]!
      const x = count[i]!
      const k = key[i]!
      if (x === 0 || k >= n || (mask !== null && mask[c] === 0)) continue
      if (sparse && sums[k] === 0) met[m++] = k
      sums[k]! += x
      if (bitOf !== undefined) bits[k]! |= bitOf[c]!
    }
  let keys: Int32Array
  if (sparse) keys = met.subarray(0, m).sort()
  else {
    const all = new Int32Array(n)
    let j = 0
    for (let k = 0; k < n; k++) if (sums[k]! > 0) all[j++] = k
    keys = all.subarray(0, j)
  }
  const out: KeySums = {
    key: keys,
    sum: new Float64Array(keys.length),
    bits: new Int32Array(bitOf === undefined ? 0 : keys.length),
  }
  for (let j = 0; j < keys.length; j++) {
    const k = keys[j]!
    out.sum[j] = sums[k]!
    sums[k] = 0
    if (bitOf !== undefined) {
      out.bits[j] = bits[k]!
      bits[k] = 0
    }
  }
  return out
}

/** Columns of rows sorted by day (a stable counting sort: rows of one day keep their order). */
function sortByDay(day: Int32Array, key: Int32Array, combo: Int32Array, count: Int32Array): ByDay {
  const n = day.length
  let min = n === 0 ? 0 : Infinity
  let max = n === 0 ? -1 : -Infinity
  for (let i = 0; i < n; i++) {
    if (day[i]! < min) min = day[i]!
    if (day[i]! > max) max = day[i]!
  }
  const dayStart = new Int32Array(max - min + 2)
  for (let i = 0; i < n; i++) dayStart[day[i]! - min + 1]!++
  for (let d = 1; d < dayStart.length; d++) dayStart[d]! += dayStart[d - 1]!
  const next = dayStart.slice()
  const out = { key: new Int32Array(n), combo: new Int32Array(n), count: new Int32Array(n) }
  for (let i = 0; i < n; i++) {
    const j = next[day[i]! - min]!++
    out.key[j] = key[i]!
    out.combo[j] = combo[i]!
    out.count[j] = count[i]!
  }
  return { firstDay: min, dayStart, key: out.key, combo: narrow(out.combo), count: out.count }
}

/** Running sums: out[i] is the sum of xs[0, i). */
function runningSum(xs: Int32Array): Float64Array {
  const out = new Float64Array(xs.length + 1)
  for (let i = 0; i < xs.length; i++) out[i + 1] = out[i]! + xs[i]!
  return out
}

/**
 * Loads a domain's rows by query `id` (columns `day`, `channel`, `model_key`, then `columns`'
 * values, every one an integer) into Int32Arrays named by `columns`' keys, the channel and model
 * replaced by combos.
 */
async function loadRows<K extends string>(
  pool: Parameters<Derived<unknown>['build']>[0],
  id: string,
  domainKey: number,
  columns: Readonly<Record<K, string>>,
): Promise<ComboRows & Record<K, Int32Array>> {
  const keys = Object.keys(columns) as K[]
  const names = ['day', 'channel', 'model_key', ...keys.map((k) => columns[k])]
  const arrays = (await pool.loadColumns(
    id,
    { domain_key: domainKey },
    names,
    names.map(() => 'i32' as const),
  )) as Int32Array[]
  const [day, channel, modelKey, ...rest] = arrays
  const rows: Record<string, unknown> = { day, ...toCombos(channel!, modelKey!) }
  keys.forEach((k, i) => (rows[k] = rest[i]))
  return rows as ComboRows & Record<K, Int32Array>
}

/** Bytes of an aggregate-store row (its budget counts rows of about this size). */
const ROW_BYTES = 40

/** The bytes of the typed arrays of a structure (one level of nesting). */
function bytesOf(value: object): number {
  let bytes = 0
  for (const v of Object.values(value)) {
    if (ArrayBuffer.isView(v)) bytes += v.byteLength
    else if (typeof v === 'object' && v !== null) bytes += bytesOf(v)
  }
  return bytes
}

export const citedUrlRows: Derived<CitedUrlRows> = {
  name: 'cited_url',
  async build(pool, domainKey) {
    const r = await loadRows(pool, 'queries/load_agg_cited_url', domainKey, {
      url: 'url_idx',
      prompt: 'prompt_idx',
      entries: 'entries',
      analyses: 'analyses',
      brand: 'brand',
      firstOff: 'first_off',
      lastOff: 'last_off',
      titleOff: 'title_off',
      titleIdx: 'title_idx',
      titleTie: 'title_tie',
      pageTypeOff: 'page_type_off',
      pageTypeIdx: 'page_type_idx',
      pageTypeTie: 'page_type_tie',
    })
    // Rows come grouped by URL: count each URL's rows, then run the counts.
    let nUrls = 0
    for (let i = 0; i < r.url.length; i++) nUrls = Math.max(nUrls, r.url[i]! + 1)
    const urlStart = new Int32Array(nUrls + 1)
    for (let i = 0; i < r.url.length; i++) urlStart[r.url[i]! + 1]!++
    for (let u = 0; u < nUrls; u++) urlStart[u + 1]! += urlStart[u]!
    const { url, ...rest } = r
    const byDay = sortByDay(r.day, url, r.combo, r.entries)
    const entriesBefore = runningSum(r.entries)
    const urlFirstDay = new Int32Array(nUrls)
    const urlLastDay = new Int32Array(nUrls).fill(-1)
    const urlEntries = new Float64Array(nUrls)
    for (let u = 0; u < nUrls; u++) {
      const [from, to] = [urlStart[u]!, urlStart[u + 1]!]
      if (from === to) continue
      urlFirstDay[u] = r.day[from]!
      urlLastDay[u] = r.day[to - 1]!
      urlEntries[u] = entriesBefore[to]! - entriesBefore[from]!
    }
    const { entries: _entries, ...kept } = rest
    const value: CitedUrlRows = {
      ...kept,
      combo: narrow(r.combo),
      prompt: narrow(r.prompt),
      analyses: narrow(r.analyses),
      brand: narrow(r.brand),
      titleTie: narrow(r.titleTie),
      pageTypeTie: narrow(r.pageTypeTie),
      urlStart,
      entriesBefore,
      urlFirstDay,
      urlLastDay,
      urlEntries,
      byDay,
    }
    return { value, rows: Math.ceil(bytesOf(value) / ROW_BYTES) }
  },
}

export const citedHostRows: Derived<CitedHostRows> = {
  name: 'cited_host',
  async build(pool, domainKey) {
    const rows = await loadRows(pool, 'queries/load_agg_cited_host', domainKey, {
      host: 'host_idx',
      entries: 'entries',
      analyses: 'analyses',
    })
    return { value: rows, rows: Math.ceil(bytesOf(rows) / ROW_BYTES) }
  },
}

export const fanoutRows: Derived<FanoutRows> = {
  name: 'fanout',
  async build(pool, domainKey) {
    const r = await loadRows(pool, 'queries/load_agg_fanout', domainKey, {
      prompt: 'prompt_idx',
      query: 'query_idx',
      analyses: 'analyses',
    })
    const channel = (i: number) => r.combos.channel[r.combo[i]!]!
    // Rows come grouped by (prompt, query, channel): a group starts where one of them changes.
    const starts: number[] = []
    const pairs: number[] = []
    const channels: number[] = []
    const pairPrompt: number[] = []
    const pairQuery: number[] = []
    for (let i = 0; i < r.day.length; i++) {
      const newPair = i === 0 || r.prompt[i] !== r.prompt[i - 1] || r.query[i] !== r.query[i - 1]
      if (newPair) {
        pairPrompt.push(r.prompt[i]!)
        pairQuery.push(r.query[i]!)
      }
      if (newPair || channel(i) !== channel(i - 1)) {
        starts.push(i)
        pairs.push(pairPrompt.length - 1)
        channels.push(channel(i))
      }
    }
    starts.push(r.day.length)
    const pairOfRow = new Int32Array(r.day.length)
    for (let g = 0; g < pairs.length; g++) pairOfRow.fill(pairs[g]!, starts[g]!, starts[g + 1]!)
    const value: FanoutRows = {
      day: r.day,
      combo: narrow(r.combo),
      combos: r.combos,
      groupStart: Int32Array.from(starts),
      groupPair: Int32Array.from(pairs),
      groupChannel: Int32Array.from(channels),
      pairPrompt: Int32Array.from(pairPrompt),
      pairQuery: Int32Array.from(pairQuery),
      analyses: narrow(r.analyses),
      analysesBefore: runningSum(r.analyses),
      byDay: sortByDay(r.day, pairOfRow, r.combo, r.analyses),
    }
    return { value, rows: Math.ceil(bytesOf(value) / ROW_BYTES) }
  },
}
