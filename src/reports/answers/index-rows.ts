/**
 * @module The answers listing's per-domain index (docs/API.md, "GET /api/v1/answers"): every
 * analysis of the domain in the listing's order (answered_at descending, then id descending), with
 * what its filters read, kept by the aggregate store like any derived structure. A page is a binary
 * search (the window's first row, the cursor's position) and a scan to the page's last item: its
 * cost does not grow with its depth. A page's details are kept beside it (details.ts); only its
 * answer texts are read from DuckDB, for its analyses only. After a commit the index is refreshed, not rebuilt: the
 * changed days are one block of rows in this order (a day's analyses are contiguous), so only
 * those days are read again and spliced in place of the block.
 */
import type { DayRange } from '../../db/changes.js'
import type { Derived } from '../../tables/aggregates.js'

/** The reads a page's details need (the aggregate store's watched pool: commits beside it are seen). */
export type PageReader = Parameters<Derived<unknown>['build']>[0]

const DAY_MS = 86_400_000
/** Every day (the whole history). */
export const ALL_DAYS: DayRange = { from: -1_000_000, to: 1_000_000 }

/** A domain's analyses in the listing's order. */
export interface AnswerIndex {
  readonly analysisKey: Float64Array
  /** answered_at, ms since the epoch. */
  readonly ms: Float64Array
  readonly promptIdx: Int32Array
  readonly channel: Int32Array
  readonly modelKey: Int32Array
  /** (letter 1 - 65) * 26 + (letter 2 - 65); -1 when none. */
  readonly country: Int32Array
  /**
   * The ids, four words a row (`idWords[4 * r + w]`): the id's 128 bits in words of 32 bits from
   * the first, each minus 2^31, so they compare as the ids' texts do.
   */
  readonly idWords: Int32Array
}

const WORD_OFFSET = 2 ** 31

/** The id of row `r`, lower case. */
export function idText(index: AnswerIndex, r: number): string {
  let hex = ''
  for (let w = 0; w < 4; w++) hex += (index.idWords[4 * r + w]! + WORD_OFFSET).toString(16).padStart(8, '0')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** The words of an id (a UUID's text), as `idWords` holds them. */
export function idWordsOf(id: string): Int32Array {
  const hex = id.replaceAll('-', '')
  const words = new Int32Array(4)
  for (let w = 0; w < 4; w++) words[w] = parseInt(hex.slice(8 * w, 8 * w + 8), 16) - WORD_OFFSET
  return words
}

/** Whether the id of row `r` is before (smaller than) the id of words `words`. */
export function idBefore(index: AnswerIndex, r: number, words: Int32Array): boolean {
  for (let w = 0; w < 4; w++) {
    const a = index.idWords[4 * r + w]!
    if (a !== words[w]) return a < words[w]!
  }
  return false
}

/** The first row in [from, to) for which `after` holds (it holds from some row on). */
export function firstWhere(from: number, to: number, after: (row: number) => boolean): number {
  let lo = from
  let hi = to
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (after(mid)) hi = mid
    else lo = mid + 1
  }
  return lo
}

/** The rows [a, b) of an order by answered_at descending whose UTC day is in `days`. */
export function dayBlock(ms: Float64Array, days: DayRange): [number, number] {
  const a = firstWhere(0, ms.length, (r) => ms[r]! < (days.to + 1) * DAY_MS)
  return [a, firstWhere(a, ms.length, (r) => ms[r]! < days.from * DAY_MS)]
}

/** `kept` with its rows [a, b) replaced by `delta`. */
export function splice<A extends Float64Array | Int32Array>(kept: A, a: number, b: number, delta: A): A {
  const out = new (kept.constructor as new (n: number) => A)(kept.length - (b - a) + delta.length)
  out.set(kept.subarray(0, a))
  out.set(delta, a)
  out.set(kept.subarray(b), a + delta.length)
  return out
}

/** The parameters of a read of a domain's days (the index's and the details' queries). */
export const dayValues = (domainKey: number, days: DayRange) => ({
  domain_key: domainKey,
  from_day: days.from,
  to_day: days.to,
})

const INDEX_COLUMNS = [
  'analysis_key',
  'ms',
  'prompt_idx',
  'channel',
  'model_key',
  'country',
  'w0',
  'w1',
  'w2',
  'w3',
]
const INDEX_ARRAYS = ['f64', 'f64', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32'] as const

async function loadIndex(pool: PageReader, domainKey: number, days: DayRange): Promise<AnswerIndex> {
  const values = dayValues(domainKey, days)
  const cols = await pool.loadColumns('queries/answers_index', values, INDEX_COLUMNS, INDEX_ARRAYS)
  const n = cols[0]!.length
  const idWords = new Int32Array(4 * n)
  for (let w = 0; w < 4; w++) {
    const word = cols[6 + w]!
    for (let r = 0; r < n; r++) idWords[4 * r + w] = word[r]!
  }
  return {
    analysisKey: cols[0] as Float64Array,
    ms: cols[1] as Float64Array,
    promptIdx: cols[2] as Int32Array,
    channel: cols[3] as Int32Array,
    modelKey: cols[4] as Int32Array,
    country: cols[5] as Int32Array,
    idWords,
  }
}

const indexRows = (index: AnswerIndex) => ({ value: index, rows: index.ms.length * 2 })

export const answerIndex: Derived<AnswerIndex> = {
  name: 'answers_index',
  build: async (pool, domainKey) => indexRows(await loadIndex(pool, domainKey, ALL_DAYS)),
  async refresh(pool, domainKey, kept, days) {
    const delta = await loadIndex(pool, domainKey, days)
    const [a, b] = dayBlock(kept.ms, days)
    return indexRows({
      analysisKey: splice(kept.analysisKey, a, b, delta.analysisKey),
      ms: splice(kept.ms, a, b, delta.ms),
      promptIdx: splice(kept.promptIdx, a, b, delta.promptIdx),
      channel: splice(kept.channel, a, b, delta.channel),
      modelKey: splice(kept.modelKey, a, b, delta.modelKey),
      country: splice(kept.country, a, b, delta.country),
      idWords: splice(kept.idWords, 4 * a, 4 * b, delta.idWords),
    })
  },
}

/** One kind of the domain's texts by index (`at[idx]`; holes where an index has no text), and the largest index read. */
export interface TextsByIndex {
  readonly at: readonly (string | undefined)[]
  readonly last: number
}

async function loadTexts(
  pool: PageReader,
  domainKey: number,
  kind: number,
  kept: TextsByIndex | null,
): Promise<{ value: TextsByIndex; rows: number }> {
  const after = kept === null ? -1 : kept.last
  const [idx, text] = await pool.loadStrings(
    'queries/answers_texts',
    { domain_key: domainKey, kind, after },
    ['idx', 'text'],
  )
  // Appended to the kept list: texts are never changed and their indexes never reused.
  const at = kept === null ? [] : [...kept.at]
  let last = after
  for (let i = 0; i < idx!.length; i++) {
    const k = Number(idx![i])
    at[k] = text![i] ?? ''
    if (k > last) last = k
  }
  return { value: { at, last }, rows: Math.ceil(at.length / 4) }
}

/**
 * One kind of the domain's texts (1 cited URL identities, 2 hosts, 3 titles, 4 page types, 5
 * fan-out queries) by index, for a page's details. After a commit only the texts it added are read (sql/queries/answers_texts.sql).
 */
function textsByIndex(kind: number): Derived<TextsByIndex> {
  return {
    name: `answers_texts_${kind}`,
    analysisFree: true,
    build: (pool, domainKey) => loadTexts(pool, domainKey, kind, null),
    refresh: (pool, domainKey, kept) => loadTexts(pool, domainKey, kind, kept),
  }
}

export const ANSWER_TEXTS = {
  urls: textsByIndex(1),
  hosts: textsByIndex(2),
  titles: textsByIndex(3),
  pageTypes: textsByIndex(4),
  queries: textsByIndex(5),
} as const

/** The aggregate store's reader, for the details of a page. */
export const pageReader: Derived<PageReader> = {
  name: 'answers_reader',
  build: (pool) => Promise.resolve({ value: pool, rows: 1 }),
  refresh: (pool) => Promise.resolve({ value: pool, rows: 1 }),
}
