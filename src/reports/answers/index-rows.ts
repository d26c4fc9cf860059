/**
 * @module The answers listing's per-domain index (docs/API.md, "GET /api/v1/answers"): every
 * analysis of the domain in the listing's order (answered_at descending, then id descending), with
 * what its filters read, kept by the aggregate store like any derived structure (rebuilt after a
 * commit that touches the domain). A page is a binary search (the window's first row, the cursor's
 * position) and a scan to the page's last item: its cost does not grow with its depth. The texts
 * and the other details of a page's analyses are read from DuckDB for those analyses only.
 */
import type { Derived } from '../../tables/aggregates.js'

/** The reads a page's details need (the aggregate store's watched pool: commits beside it are seen). */
export type PageReader = Parameters<Derived<unknown>['build']>[0]

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
  /** The ids, lower case. */
  readonly id: string[]
  /** Each prompt's topic (by prompt_idx; null when none) and tags. */
  readonly topics: (string | null)[]
  readonly tags: string[][]
}

export const answerIndex: Derived<AnswerIndex> = {
  name: 'answers_index',
  async build(pool, domainKey) {
    const values = { domain_key: domainKey }
    const [cols, [ids], [promptIdx, topic, tags]] = await Promise.all([
      pool.loadColumns(
        'queries/answers_index',
        values,
        ['analysis_key', 'ms', 'prompt_idx', 'channel', 'model_key', 'country'],
        ['f64', 'f64', 'i32', 'i32', 'i32', 'i32'],
      ),
      pool.loadStrings('queries/answers_index_ids', values, ['id']),
      pool.loadStrings('queries/answers_prompts', values, ['prompt_idx', 'topic', 'tags']),
    ])
    const topics: (string | null)[] = []
    const tagLists: string[][] = []
    promptIdx!.forEach((p, i) => {
      topics[Number(p)] = topic![i] ?? null
      tagLists[Number(p)] = JSON.parse(tags![i] ?? '[]') as string[]
    })
    const value: AnswerIndex = {
      analysisKey: cols[0] as Float64Array,
      ms: cols[1] as Float64Array,
      promptIdx: cols[2] as Int32Array,
      channel: cols[3] as Int32Array,
      modelKey: cols[4] as Int32Array,
      country: cols[5] as Int32Array,
      id: ids!.map((s) => s ?? ''),
      topics,
      tags: tagLists,
    }
    return { value, rows: value.id.length * 2 }
  },
}

/** The entities each analysis of the index mentions: `entity[start[r]..start[r + 1])` for row r. */
export interface AnswerMentions {
  readonly start: Int32Array
  readonly entity: Int32Array
}

export const answerMentions: Derived<AnswerMentions> = {
  name: 'answers_mentions',
  async build(pool, domainKey) {
    const rows = await pool.loadColumns(
      'queries/answers_mentions',
      { domain_key: domainKey },
      ['r', 'entity_idx'],
      ['i32', 'i32'],
    )
    const [r, entity] = rows as [Int32Array, Int32Array]
    // Rows past the last one with a mention have none (`mentionsOf`).
    const n = r.length === 0 ? 0 : r[r.length - 1]! + 1
    const start = new Int32Array(n + 1)
    for (let i = 0; i < r.length; i++) start[r[i]! + 1]!++
    for (let i = 0; i < n; i++) start[i + 1]! += start[i]!
    return { value: { start, entity }, rows: entity.length }
  },
}

/** Whether row `row` of the index mentions entity `entityIdx`. */
export function mentions(m: AnswerMentions, row: number, entityIdx: number): boolean {
  if (row + 1 >= m.start.length) return false
  for (let i = m.start[row]!; i < m.start[row + 1]!; i++) if (m.entity[i] === entityIdx) return true
  return false
}

/** The aggregate store's reader, for the details of a page. */
export const pageReader: Derived<PageReader> = {
  name: 'answers_reader',
  build: (pool) => Promise.resolve({ value: pool, rows: 1 }),
}
