/**
 * @module The details of every analysis of the answers listing's index (docs/API.md, "GET
 * /api/v1/answers"), kept in memory beside it by the aggregate store: its mentions, citations,
 * theme occurrences and fan-out queries as numbers (indexes into the domain's catalog and text
 * lists), grouped by the index's row. A page reads its details from here and only its answer texts
 * from DuckDB. Built from four reads in analysis_key order (the child tables' stored order) mapped
 * to the index's rows; after a commit only the changed days are read again and spliced in place of
 * their block of rows, like the index.
 */
import type { DayRange } from '../../db/changes.js'
import type { Derived } from '../../tables/aggregates.js'
import { countingOrder } from '../../foundation/counting.js'
import { SLICE_MASK, TimeSlice } from '../../foundation/slice.js'
import { lowerBound } from '../../foundation/window.js'
import { ALL_DAYS, dayBlock, dayValues, splice, type PageReader } from './index-rows.js'

/** A null position (sql/queries/answers_details_mentions.sql). */
export const NO_POSITION = -2147483648

/**
 * One kind of detail: the rows of index row r are `start[r]` to `start[r + 1] - 1` of each column
 * (`start` has one entry per row of the index, and one more).
 */
export interface DetailRows<C extends string> {
  readonly start: Int32Array
  readonly col: { readonly [K in C]: Int32Array | Float64Array }
}

export interface AnswerDetails {
  /** The index's answered_at (ms), row by row: the refresh finds the changed days' block with it. */
  readonly ms: Float64Array
  /** position NO_POSITION when null; sentiment NaN when null. */
  readonly mentions: DetailRows<'entity' | 'position' | 'sentiment'>
  /** In the record's order; indexes into the texts of kinds 1 to 4 (-1: no title, no page type). */
  readonly citations: DetailRows<'url' | 'host' | 'title' | 'pageType'>
  /**
   * The citations whose URL as ingested is not the text of its identity (`url`): their places in
   * the citations' columns (ascending) and their URLs.
   */
  readonly rawUrls: { readonly at: Int32Array; readonly url: readonly string[] }
  readonly themes: DetailRows<'theme' | 'occurrences'>
  /** In the record's order. */
  readonly fanout: DetailRows<'query'>
}

type Kind = 'mentions' | 'citations' | 'themes' | 'fanout'
type Arrays = readonly ('i32' | 'f64')[]

const KINDS: Record<Kind, { query: string; columns: readonly string[]; arrays: Arrays }> = {
  mentions: {
    query: 'queries/answers_details_mentions',
    columns: ['analysis_key', 'entity', 'position', 'sentiment'],
    arrays: ['f64', 'i32', 'i32', 'f64'],
  },
  citations: {
    query: 'queries/answers_details_citations',
    columns: ['analysis_key', 'url', 'host', 'title', 'pageType', 'ord'],
    arrays: ['f64', 'i32', 'i32', 'i32', 'i32', 'i32'],
  },
  themes: {
    query: 'queries/answers_details_themes',
    columns: ['analysis_key', 'theme', 'occurrences'],
    arrays: ['f64', 'i32', 'i32'],
  },
  fanout: {
    query: 'queries/answers_details_fanout',
    columns: ['analysis_key', 'query'],
    arrays: ['f64', 'i32'],
  },
}

/**
 * The index row of each child row: `keys` ascending (the child rows' analysis keys), `sortedKeys`
 * the index's keys ascending and `rowOf` their index rows. A walk of the two sorted lists.
 */
async function rowsOf(
  keys: Float64Array,
  sortedKeys: Float64Array,
  rowOf: Int32Array,
  slice: TimeSlice,
): Promise<Int32Array> {
  const out = new Int32Array(keys.length)
  let i = 0
  for (let j = 0; j < keys.length; j++) {
    if ((j & SLICE_MASK) === 0 && slice.spent) await slice.next()
    while (i < sortedKeys.length && sortedKeys[i]! < keys[j]!) i++
    if (sortedKeys[i] !== keys[j]) throw new Error(`answers details: analysis ${keys[j]} is not in the index`)
    out[j] = rowOf[i]!
  }
  return out
}

/** A kind's rows grouped by index row (in their read order within a row: the record's order). */
async function grouped<C extends string>(
  cols: readonly (Int32Array | Float64Array)[],
  names: readonly C[],
  rows: Int32Array,
  n: number,
  slice: TimeSlice,
): Promise<DetailRows<C>> {
  const { order, start } = countingOrder(rows, n)
  const col = {} as Record<C, Int32Array | Float64Array>
  for (const [c, name] of names.entries()) {
    const from = cols[c]!
    const to = new (from.constructor as new (n: number) => Int32Array | Float64Array)(from.length)
    for (let i = 0; i < order.length; i++) {
      if ((i & SLICE_MASK) === 0 && slice.spent) await slice.next()
      to[i] = from[order[i]!]!
    }
    col[name] = to
  }
  return { start, col }
}

async function loadDetails(pool: PageReader, domainKey: number, days: DayRange): Promise<AnswerDetails> {
  const values = dayValues(domainKey, days)
  const kinds = Object.keys(KINDS) as Kind[]
  const [keyed, raw, ...read] = await Promise.all([
    pool.loadColumns(
      'queries/answers_details_keys',
      values,
      ['analysis_key', 'r', 'ms'],
      ['f64', 'i32', 'f64'],
    ),
    pool.loadStrings('queries/answers_details_urls', values, ['analysis_key', 'ord', 'url']),
    ...kinds.map((k) => pool.loadColumns(KINDS[k].query, values, KINDS[k].columns, KINDS[k].arrays)),
  ])
  const [sortedKeys, rowOf, msByKey] = keyed as [Float64Array, Int32Array, Float64Array]
  const n = sortedKeys.length
  const ms = new Float64Array(n)
  for (let i = 0; i < n; i++) ms[rowOf[i]!] = msByKey[i]!
  // The rest is JavaScript over the loaded columns (L: 1.8M mention rows), cut into slices so
  // that a cold build never holds the event loop (a move's target, a server).
  const slice = new TimeSlice()
  const built = {} as Record<Kind, DetailRows<string>>
  for (const [i, k] of kinds.entries()) {
    const cols = read[i]!
    const rows = await rowsOf(cols[0] as Float64Array, sortedKeys, rowOf, slice)
    built[k] = await grouped(cols.slice(1), KINDS[k].columns.slice(1), rows, n, slice)
  }
  // The citations whose URL differs from its identity's text: their places, found by their
  // analysis and `ord` (read only to find them, not kept).
  const { ord, ...citationCols } = built.citations.col
  built.citations = { start: built.citations.start, col: citationCols }
  const rawAt: number[] = []
  const rawUrl: string[] = []
  const [rk, rord, rurl] = raw as [string[], string[], string[]]
  const rawRows = await rowsOf(Float64Array.from(rk, Number), sortedKeys, rowOf, slice)
  for (let i = 0; i < rk.length; i++) {
    const r = rawRows[i]!
    const want = Number(rord[i])
    let c = built.citations.start[r]!
    while (c < built.citations.start[r + 1]! && ord![c] !== want) c++
    if (c === built.citations.start[r + 1])
      throw new Error(`answers details: citation ${rk[i]}/${want} not read`)
    rawAt.push(c)
    rawUrl.push(rurl[i]!)
  }
  const order = rawAt.map((_, i) => i).sort((a, b) => rawAt[a]! - rawAt[b]!)
  return {
    ms,
    mentions: built.mentions as AnswerDetails['mentions'],
    citations: built.citations as AnswerDetails['citations'],
    rawUrls: { at: Int32Array.from(order, (i) => rawAt[i]!), url: order.map((i) => rawUrl[i]!) },
    themes: built.themes as AnswerDetails['themes'],
    fanout: built.fanout as AnswerDetails['fanout'],
  }
}

/** `kept`'s rows of index rows [a, b) replaced by `delta`'s (which has `m` index rows). */
function spliceRows<C extends string>(
  kept: DetailRows<C>,
  a: number,
  b: number,
  delta: DetailRows<C>,
  m: number,
): DetailRows<C> {
  const n = kept.start.length - 1
  const e0 = kept.start[a]!
  const e1 = kept.start[b]!
  const added = delta.start[m]!
  const col = {} as Record<C, Int32Array | Float64Array>
  for (const name of Object.keys(kept.col) as C[]) col[name] = splice(kept.col[name], e0, e1, delta.col[name])
  // Offsets: those before the block as kept, the block's shifted by e0, those after it by the
  // change in the number of rows.
  const start = new Int32Array(n - (b - a) + m + 1)
  start.set(kept.start.subarray(0, a))
  for (let i = 0; i < m; i++) start[a + i] = e0 + delta.start[i]!
  const shift = e0 + added - e1
  for (let i = b; i <= n; i++) start[a + m + (i - b)] = kept.start[i]! + shift
  return { start, col }
}

const sizeOf = (d: AnswerDetails): number => {
  let bytes = d.ms.byteLength + d.rawUrls.at.byteLength
  for (const rows of [d.mentions, d.citations, d.themes, d.fanout] as DetailRows<string>[]) {
    bytes += rows.start.byteLength
    for (const c of Object.values(rows.col)) bytes += c.byteLength
  }
  for (const u of d.rawUrls.url) bytes += 2 * u.length
  return bytes
}

/** The bytes a kept aggregate row takes about (a few numbers of 8 bytes): the store's budget unit. */
const ROW_BYTES = 32
const detailRows = (d: AnswerDetails) => ({ value: d, rows: Math.ceil(sizeOf(d) / ROW_BYTES) })

export const answerDetails: Derived<AnswerDetails> = {
  name: 'answers_details',
  build: async (pool, domainKey) => detailRows(await loadDetails(pool, domainKey, ALL_DAYS)),
  async refresh(pool, domainKey, kept, days) {
    const delta = await loadDetails(pool, domainKey, days)
    const [a, b] = dayBlock(kept.ms, days)
    const m = delta.ms.length
    const ms = splice(kept.ms, a, b, delta.ms)
    const citations = spliceRows(kept.citations, a, b, delta.citations, m)
    // The differing URLs: before the block as kept, the block's shifted, after it shifted too.
    const e0 = kept.citations.start[a]!
    const e1 = kept.citations.start[b]!
    const shift = e0 + delta.citations.start[m]! - e1
    const at: number[] = []
    const url: string[] = []
    const add = (p: number, u: string) => {
      at.push(p)
      url.push(u)
    }
    kept.rawUrls.at.forEach((p, i) => p < e0 && add(p, kept.rawUrls.url[i]!))
    delta.rawUrls.at.forEach((p, i) => add(p + e0, delta.rawUrls.url[i]!))
    kept.rawUrls.at.forEach((p, i) => p >= e1 && add(p + shift, kept.rawUrls.url[i]!))
    return detailRows({
      ms,
      mentions: spliceRows(kept.mentions, a, b, delta.mentions, m),
      citations,
      rawUrls: { at: Int32Array.from(at), url },
      themes: spliceRows(kept.themes, a, b, delta.themes, m),
      fanout: spliceRows(kept.fanout, a, b, delta.fanout, m),
    })
  },
}

/** The URL as ingested of citation `c` (a place in the citations' columns), or undefined when it is its identity's text. */
export function rawUrl(d: AnswerDetails, c: number): string | undefined {
  const at = lowerBound(d.rawUrls.at, c)
  return d.rawUrls.at[at] === c ? d.rawUrls.url[at] : undefined
}

/** Whether row `row` of the index mentions entity `entityIdx`. */
export function mentions(d: AnswerDetails, row: number, entityIdx: number): boolean {
  const entity = d.mentions.col.entity
  for (let i = d.mentions.start[row]!; i < d.mentions.start[row + 1]!; i++)
    if (entity[i] === entityIdx) return true
  return false
}
