/**
 * The per-domain structures the citations, cited-domains and fan-out reports read (extensions
 * section 6), built from the domain's `texts` and its `agg_cited_url`, `agg_cited_host` and
 * `agg_fanout` rows and kept by the aggregate store like an aggregate table:
 *
 * - texts: the domain's cited URLs (with their host), hosts, titles, page types and fan-out queries
 *   by index, and each text's rank in UTF-16 order (so orderings compare integers);
 * - rows sorted by day, as typed arrays, with a `combo` column: the index of the row's (channel,
 *   model) pair among the domain's pairs, so a model filter is one lookup per row.
 */
import { compareText } from '../queries/compare.js'
import type { Derived } from './aggregates.js'

/** Kinds of `texts` (sql/schema/002_citations_fanout.sql). */
const KIND = { url: 1, host: 2, title: 3, pageType: 4, query: 5 } as const

/** One kind of text: the texts by index, and each index's rank in UTF-16 order. */
export interface TextList {
  readonly text: readonly string[]
  readonly rank: Int32Array
}

export interface DomainTexts {
  readonly urls: TextList
  /** The host index of each URL. */
  readonly urlHost: Int32Array
  readonly hosts: TextList
  readonly titles: TextList
  readonly pageTypes: TextList
  readonly queries: TextList
}

/** The (channel, model key) pairs of a domain's rows; a row's `combo` indexes them. */
export interface Combos {
  readonly channel: Int32Array
  readonly modelKey: Int32Array
}

/** Rows sorted by day: `day` (days since 1970-01-01) and `combo` in every table. */
export interface DayRows {
  readonly day: Int32Array
  readonly combo: Int32Array
  readonly combos: Combos
}

/** agg_cited_url: per (day, channel, model, prompt, cited URL). */
export interface CitedUrlRows extends DayRows {
  readonly prompt: Int32Array
  readonly url: Int32Array
  readonly entries: Int32Array
  readonly analyses: Int32Array
  readonly brand: Int32Array
  /** answered_at of the row's first and last analysis, in milliseconds into the day. */
  readonly firstOff: Int32Array
  readonly lastOff: Int32Array
  /** The latest titled entry's title index (-1: none), and its rank among the domain's rows (0: none). */
  readonly titleIdx: Int32Array
  readonly titleRank: Int32Array
  readonly pageTypeIdx: Int32Array
  readonly pageTypeRank: Int32Array
}

/** agg_cited_host: per (day, channel, model, cited host). */
export interface CitedHostRows extends DayRows {
  readonly host: Int32Array
  readonly entries: Int32Array
  readonly analyses: Int32Array
}

/** agg_fanout: per (day, channel, model, prompt, query). */
export interface FanoutRows extends DayRows {
  /** The row's (prompt, query) pair: an index into `pairPrompt` and `pairQuery`. */
  readonly pair: Int32Array
  readonly pairPrompt: Int32Array
  readonly pairQuery: Int32Array
  readonly analyses: Int32Array
}

/** The domain's texts by kind, each with its UTF-16 ranks. */
export const textsIndex: Derived<DomainTexts> = {
  name: 'texts',
  async build(pool, domainKey) {
    const [kinds, idxs, texts, hosts] = await pool.loadStrings(
      'queries/load_texts',
      { domain_key: domainKey },
      ['kind', 'idx', 'text', 'host'],
    )
    const byKind = new Map<number, { idx: number[]; text: string[]; host: (string | null)[] }>()
    for (let i = 0; i < kinds!.length; i++) {
      const kind = Number(kinds![i])
      let k = byKind.get(kind)
      if (k === undefined) byKind.set(kind, (k = { idx: [], text: [], host: [] }))
      k.idx.push(Number(idxs![i]))
      k.text.push(texts![i]!)
      k.host.push(hosts![i] ?? null)
    }
    const list = (kind: number): TextList => textList(byKind.get(kind))
    const urls = list(KIND.url)
    const hostList = list(KIND.host)
    const hostIndex = new Map<string, number>()
    hostList.text.forEach((h, i) => hostIndex.set(h, i))
    const urlHost = new Int32Array(urls.text.length).fill(-1)
    const u = byKind.get(KIND.url)
    if (u !== undefined) u.idx.forEach((idx, i) => (urlHost[idx] = hostIndex.get(u.host[i] ?? '') ?? -1))
    const value: DomainTexts = {
      urls,
      urlHost,
      hosts: hostList,
      titles: list(KIND.title),
      pageTypes: list(KIND.pageType),
      queries: list(KIND.query),
    }
    return { value, rows: kinds!.length }
  },
}

/**
 * Texts placed at their index, ranked in UTF-16 order. They arrive in binary (UTF-8) order, which
 * is the UTF-16 order unless characters beyond U+FFFF meet U+E000-U+FFFF; then they are sorted
 * again.
 */
function textList(k: { idx: number[]; text: string[] } | undefined): TextList {
  if (k === undefined) return { text: [], rank: new Int32Array(0) }
  let n = 0
  for (const idx of k.idx) n = Math.max(n, idx + 1)
  const text: string[] = new Array<string>(n).fill('')
  const rank = new Int32Array(n)
  let order = k.idx.map((_, i) => i)
  for (let i = 1; i < k.text.length; i++) {
    if (compareText(k.text[i - 1]!, k.text[i]!) > 0) {
      order = order.sort((a, b) => compareText(k.text[a]!, k.text[b]!))
      break
    }
  }
  order.forEach((i, r) => {
    text[k.idx[i]!] = k.text[i]!
    rank[k.idx[i]!] = r
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

/** Numbers the distinct (a, b) pairs of two columns of non-negative integers, in order of appearance. */
function densePairs(
  a: Int32Array,
  b: Int32Array,
): { pair: Int32Array; pairPrompt: Int32Array; pairQuery: Int32Array } {
  let nb = 0
  for (let i = 0; i < b.length; i++) nb = Math.max(nb, b[i]! + 1)
  let na = 0
  for (let i = 0; i < a.length; i++) na = Math.max(na, a[i]! + 1)
  // A lookup table while it stays small, else a map.
  const table = na * nb <= 1 << 22 ? new Int32Array(na * nb).fill(-1) : null
  const map = table === null ? new Map<number, number>() : null
  const pair = new Int32Array(a.length)
  const pa: number[] = []
  const pb: number[] = []
  for (let i = 0; i < a.length; i++) {
    const key = a[i]! * nb + b[i]!
    let p = table !== null ? table[key]! : (map!.get(key) ?? -1)
    if (p < 0) {
      p = pa.length
      pa.push(a[i]!)
      pb.push(b[i]!)
      if (table !== null) table[key] = p
      else map!.set(key, p)
    }
    pair[i] = p
  }
  return { pair, pairPrompt: Int32Array.from(pa), pairQuery: Int32Array.from(pb) }
}

/**
 * A per-domain table of rows sorted by day, loaded by query `id` (columns `day`, `channel`,
 * `model_key`, then `columns`' values, every one an integer) into Int32Arrays named by `columns`'
 * keys, the channel and model replaced by combos.
 */
function dayRows<K extends string>(
  name: string,
  id: string,
  columns: Readonly<Record<K, string>>,
): Derived<DayRows & Record<K, Int32Array>> {
  const keys = Object.keys(columns) as K[]
  const names = ['day', 'channel', 'model_key', ...keys.map((k) => columns[k])]
  return {
    name,
    async build(pool, domainKey) {
      const arrays = (await pool.loadColumns(
        id,
        { domain_key: domainKey },
        names,
        names.map(() => 'i32' as const),
      )) as Int32Array[]
      const [day, channel, modelKey, ...rest] = arrays
      const value: Record<string, unknown> = { day, ...toCombos(channel!, modelKey!) }
      keys.forEach((k, i) => (value[k] = rest[i]))
      return { value: value as DayRows & Record<K, Int32Array>, rows: day!.length }
    },
  }
}

export const citedUrlRows: Derived<CitedUrlRows> = dayRows('cited_url', 'queries/load_agg_cited_url', {
  prompt: 'prompt_idx',
  url: 'url_idx',
  entries: 'entries',
  analyses: 'analyses',
  brand: 'brand',
  firstOff: 'first_off',
  lastOff: 'last_off',
  titleIdx: 'title_idx',
  titleRank: 'title_rank',
  pageTypeIdx: 'page_type_idx',
  pageTypeRank: 'page_type_rank',
})

export const citedHostRows: Derived<CitedHostRows> = dayRows('cited_host', 'queries/load_agg_cited_host', {
  host: 'host_idx',
  entries: 'entries',
  analyses: 'analyses',
})

const fanoutColumns = dayRows('fanout_columns', 'queries/load_agg_fanout', {
  prompt: 'prompt_idx',
  query: 'query_idx',
  analyses: 'analyses',
})

export const fanoutRows: Derived<FanoutRows> = {
  name: 'fanout',
  async build(pool, domainKey, source) {
    const built = await fanoutColumns.build(pool, domainKey, source)
    const { prompt, query, ...rest } = built.value
    return { value: { ...rest, ...densePairs(prompt, query) }, rows: built.rows }
  },
}
