/**
 * The per-domain structures GET /api/v1/query reads (docs/API.md, "GET /api/v1/query"): one row per
 * analysis, sorted by prompt, channel and day (a run per prompt and channel, by day), with its mentions and its citation hosts as runs of rows (CSR), built
 * from the raw tables (sql/queries/query/) and kept by the aggregate store like an aggregate table
 * (rebuilt after a commit changes the domain). The prompts' topics and tags are a second structure.
 */
import type { Derived } from '../../tables/aggregates.js'

/** A domain's analyses, mentions and citation hosts as columns (indexes: analysis ordinals). */
export interface QueryFacts {
  /** Per analysis, sorted by (prompt, channel, day): days since 1970-01-01. */
  readonly day: Int32Array
  /** The runs of one prompt and channel: run r is analyses runStart[r] to runStart[r + 1] (by day). */
  readonly runStart: Int32Array
  /** The channel as stored (its index in CHANNELS + 1). */
  readonly channel: Int32Array
  readonly modelKey: Int32Array
  readonly promptIdx: Int32Array
  /** Index in `countries`; -1: none. */
  readonly countryIdx: Int32Array
  /** 1 + the largest prompt index of an analysis (0 when none). */
  readonly promptCount: number
  /** Countries by index, ascending. */
  readonly countries: readonly string[]
  /** The mentions of analysis i are rows mentionStart[i] to mentionStart[i + 1], by entity. */
  readonly mentionStart: Int32Array
  readonly mentionEntity: Int32Array
  /** -1: none. */
  readonly mentionPosition: Int32Array
  /** -1: none (stored sentiments are 0-100). */
  readonly mentionSentiment: Float64Array
  /** The citation entries of analysis i are rows citationStart[i] to citationStart[i + 1]. */
  readonly citationStart: Int32Array
  /** Index in `hosts`. */
  readonly citationHost: Int32Array
  /** Cited hosts (compared form) by index. */
  readonly hosts: readonly string[]
}

/** Run starts of rows grouped by an ordinal column sorted ascending: `n + 1` offsets. */
function runStarts(ord: Int32Array, n: number): Int32Array {
  const start = new Int32Array(n + 1)
  for (let r = 0; r < ord.length; r++) start[ord[r]! + 1]!++
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!
  return start
}

export const queryFacts: Derived<QueryFacts> = {
  name: 'query_facts',
  async build(pool, domainKey) {
    const values = { domain_key: domainKey }
    const [analyses, countries, mentions, citations, hosts] = await Promise.all([
      pool.loadColumns(
        'queries/query/analyses',
        values,
        ['day', 'channel', 'model_key', 'prompt_idx', 'country_idx'],
        ['i32', 'i32', 'i32', 'i32', 'i32'],
      ),
      pool.loadStrings('queries/query/countries', values, ['country']),
      pool.loadColumns(
        'queries/query/mentions',
        values,
        ['ord', 'entity_idx', 'position', 'sentiment'],
        ['i32', 'i32', 'i32', 'f64'],
      ),
      pool.loadColumns('queries/query/citations', values, ['ord', 'host_idx'], ['i32', 'i32']),
      pool.loadStrings('queries/query/hosts', values, ['host']),
    ])
    const [day, channel, modelKey, promptIdx, countryIdx] = analyses as Int32Array[]
    const [mOrd, mEntity, mPosition] = mentions as Int32Array[]
    const [cOrd, cHost] = citations as Int32Array[]
    const n = day!.length
    let promptCount = 0
    const starts: number[] = []
    for (let i = 0; i < n; i++) {
      if (promptIdx![i]! >= promptCount) promptCount = promptIdx![i]! + 1
      if (i === 0 || promptIdx![i] !== promptIdx![i - 1] || channel![i] !== channel![i - 1]) starts.push(i)
    }
    starts.push(n)
    const value: QueryFacts = {
      day: day!,
      runStart: Int32Array.from(starts),
      channel: channel!,
      modelKey: modelKey!,
      promptIdx: promptIdx!,
      countryIdx: countryIdx!,
      promptCount,
      countries: countries[0]!.map((c) => c ?? ''),
      mentionStart: runStarts(mOrd!, n),
      mentionEntity: mEntity!,
      mentionPosition: mPosition!,
      mentionSentiment: mentions[3] as Float64Array,
      citationStart: runStarts(cOrd!, n),
      citationHost: cHost!,
      hosts: hosts[0]!.map((h) => h ?? ''),
    }
    // Sized against the store's budget in aggregate rows (about 64 bytes each: eight doubles): an
    // analysis here is 20 bytes, a mention 20, a citation entry 8.
    return { value, rows: Math.ceil((20 * n + 20 * mOrd!.length + 8 * cOrd!.length) / 64) }
  },
}

/** The topics and tags of a domain's prompts, by prompt index. */
export interface PromptSegments {
  readonly topic: ReadonlyMap<number, string>
  readonly tags: ReadonlyMap<number, readonly string[]>
}

/**
 * The prompts' segments as of the catalog's prompt rows. A commit that only re-ingests prompts
 * changes no aggregate day, so the store would keep the structure: its name carries the identity of
 * the domain's prompt rows (the catalog puts a new row object for every ingested prompt), so new
 * rows name a new structure, built at its first use.
 */
export function promptSegmentsOf(prompts: readonly (object | undefined)[]): Derived<PromptSegments> {
  let hash = 0x811c9dc5
  for (const row of prompts) {
    let id = 0
    if (row !== undefined) {
      id = rowIds.get(row) ?? ++lastRowId
      rowIds.set(row, id)
    }
    hash = Math.imul(hash ^ id, 0x01000193) >>> 0
  }
  return {
    ...promptSegments,
    name: `query_prompt_segments:${prompts.length}:${hash}:${lastRowIdOf(prompts)}`,
  }
}

const rowIds = new WeakMap<object, number>()
let lastRowId = 0
/** The largest identity among the rows (with the hash, a new row always changes the name). */
const lastRowIdOf = (prompts: readonly (object | undefined)[]): number =>
  prompts.reduce<number>((m, r) => (r === undefined ? m : Math.max(m, rowIds.get(r) ?? 0)), 0)

const promptSegments: Derived<PromptSegments> = {
  name: 'query_prompt_segments',
  async build(pool, domainKey) {
    const values = { domain_key: domainKey }
    const [[tIdx, tTopic], [gIdx, gTag]] = await Promise.all([
      pool.loadStrings('queries/query/prompt_topics', values, ['prompt_idx', 'topic']),
      pool.loadStrings('queries/query/prompt_tags', values, ['prompt_idx', 'tag']),
    ])
    const topic = new Map<number, string>()
    tIdx!.forEach((idx, i) => topic.set(Number(idx), tTopic![i]!))
    const tags = new Map<number, string[]>()
    gIdx!.forEach((idx, i) => {
      const list = tags.get(Number(idx)) ?? []
      list.push(gTag![i]!)
      tags.set(Number(idx), list)
    })
    return { value: { topic, tags }, rows: tIdx!.length + gIdx!.length }
  },
}
