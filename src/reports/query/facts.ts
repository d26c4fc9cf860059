/**
 * The per-domain structures GET /api/v1/query reads (docs/API.md, "GET /api/v1/query"), built from
 * the raw tables (sql/queries/query/) over the analyses that pass the segment filters (the query's
 * SQL selects from `segment_analyses`, the one filter rule of every report: without filters, every
 * analysis) and kept by the aggregate store like an aggregate table (rebuilt after a commit changes
 * the domain; one per segment, src/queries/segment.ts). The prompts' topics and tags are a second
 * structure.
 *
 * The analyses are sorted by (prompt, channel, day) (a run per prompt and channel, by day, so that
 * a short window reads neighbouring rows) and put in cells, one per (prompt, channel, model,
 * country): every dimension but the date and every filter has one value per cell, so a request
 * resolves its groups once per cell. Each analysis has its mentions (one row per entity) and its
 * citation hosts (one row per host) as runs of rows, and each cell the same summed over its
 * analyses (its totals), so a window that holds a whole cell adds the cell's totals and only the
 * cells the window cuts (or a request by date) are read analysis by analysis.
 */
import type { Derived } from '../../tables/aggregates.js'
import { countingOrder, groupStarts } from '../../foundation/counting.js'

/** A domain's analyses, mentions and citation hosts as cells (see the module comment). */
export interface QueryFacts {
  /** Per cell: its prompt index, stored channel (its index in CHANNELS + 1), model key, country index (in `countries`; -1: none). */
  readonly cellPrompt: Int32Array
  readonly cellChannel: Int32Array
  readonly cellModel: Int32Array
  readonly cellCountry: Int32Array
  /** Per cell: its analyses, first and last day. */
  readonly cellResponses: Int32Array
  readonly cellFirstDay: Int32Array
  readonly cellLastDay: Int32Array
  /** The runs of one prompt and channel: run r is analyses runStart[r] to runStart[r + 1] (by day). */
  readonly runStart: Int32Array
  /** Per analysis: days since 1970-01-01, its cell and its citation entries. */
  readonly day: Int32Array
  readonly cell: Int32Array
  readonly citations: Int32Array
  /** 1 + the largest prompt index of an analysis (0 when none). */
  readonly promptCount: number
  /** Countries by index, ascending. */
  readonly countries: readonly string[]
  /** Mention rows: analysis i's are mentionStart[i] to mentionStart[i + 1], one per entity. */
  readonly mentionStart: Int32Array
  readonly mention: MentionRows
  /** Citation host rows: analysis i's are hostStart[i] to hostStart[i + 1], one per host. */
  readonly hostStart: Int32Array
  readonly host: HostRows
  /** Per cell: its analyses' citation entries, mentions (cellMentionStart[c] to cellMentionStart[c + 1]: one per entity, `count` its analyses) and citation hosts. */
  readonly cellCitations: Int32Array
  readonly cellMentionStart: Int32Array
  readonly cellMention: MentionRows
  readonly cellHostStart: Int32Array
  readonly cellHost: HostRows
  /** Cited hosts (compared form) by index. */
  readonly hosts: readonly string[]
}

/** Mentions of one entity (0: the brand) in one analysis (count 1) or in a cell's analyses (count: how many). */
export interface MentionRows {
  readonly entity: Int32Array
  readonly count: Int32Array
  readonly posSum: Float64Array
  readonly posCnt: Int32Array
  readonly sentSum: Float64Array
  readonly sentCnt: Int32Array
}

/** Citation entries of one host (its index in `hosts`) in one analysis or in a cell's analyses. */
export interface HostRows {
  readonly host: Int32Array
  readonly count: Int32Array
}

/** `values` taken at the positions `at`. */
function pick<A extends Int32Array | Float64Array>(values: A, at: ArrayLike<number>): A {
  const out = new (values.constructor as new (n: number) => A)(at.length)
  for (let x = 0; x < at.length; x++) out[x] = values[at[x]!]!
  return out
}

/**
 * Per cell, its analyses' rows summed by key (entity or host): `byCell` lists the analyses by cell
 * (cell c's are byCell[cellStart[c]] to byCell[cellStart[c + 1]]), rows rowStart[i] to
 * rowStart[i + 1] are analysis i's. Returns each cell's rows (start[c] to start[c + 1]), the first
 * row of each (for its key) and, per row, the cell row it adds to.
 */
function cellTotals(
  key: Int32Array,
  rowStart: Int32Array,
  byCell: Int32Array,
  cellStart: Int32Array,
  keys: number,
): { start: Int32Array; first: Int32Array; of: Int32Array } {
  const slot = new Int32Array(keys).fill(-1)
  const of = new Int32Array(key.length)
  const first: number[] = []
  const start = new Int32Array(cellStart.length)
  for (let c = 0; c + 1 < cellStart.length; c++) {
    start[c] = first.length
    for (let x = cellStart[c]!; x < cellStart[c + 1]!; x++) {
      const i = byCell[x]!
      for (let r = rowStart[i]!; r < rowStart[i + 1]!; r++) {
        const k = key[r]!
        if (slot[k]! < 0) {
          slot[k] = first.length
          first.push(r)
        }
        of[r] = slot[k]!
      }
    }
    for (let x = start[c]!; x < first.length; x++) slot[key[first[x]!]!] = -1
  }
  start[cellStart.length - 1] = first.length
  return { start, first: Int32Array.from(first), of }
}

export const queryFacts: Derived<QueryFacts> = {
  name: 'query_facts',
  async build(pool, domainKey) {
    // The segment filters ('': not given): src/queries/segment.ts puts a segment's in their place.
    const values = { domain_key: domainKey, country: '', topic: '', tag: '' }
    const [analyses, countries, mentions, citations, hosts] = await Promise.all([
      pool.loadColumns(
        'queries/query/analyses',
        values,
        ['day', 'channel', 'model_key', 'prompt_idx', 'country_idx'],
        ['i32', 'i32', 'i32', 'i32', 'i32'],
      ),
      pool.loadStrings('queries/query/countries', { domain_key: domainKey }, ['country']),
      pool.loadColumns(
        'queries/query/mentions',
        values,
        ['ord', 'entity_idx', 'pos_sum', 'pos_cnt', 'sent_sum', 'sent_cnt'],
        ['i32', 'i32', 'f64', 'i32', 'f64', 'i32'],
      ),
      pool.loadColumns('queries/query/citations', values, ['ord', 'host_idx', 'n'], ['i32', 'i32', 'i32']),
      pool.loadStrings('queries/query/hosts', { domain_key: domainKey }, ['host']),
    ])
    const [day, channel, modelKey, promptIdx, countryIdx] = analyses as Int32Array[]
    const [mOrd, mEntity] = mentions as Int32Array[]
    const [cOrd, cHost, cCount] = citations as Int32Array[]
    const n = day!.length

    // Runs of one prompt and channel; cells of one (prompt, channel, model, country), numbered as
    // they come.
    const runs: number[] = []
    const cell = new Int32Array(n)
    const firstOf: number[] = []
    const inRun = new Map<number, number>()
    let promptCount = 0
    for (let i = 0; i < n; i++) {
      if (promptIdx![i]! >= promptCount) promptCount = promptIdx![i]! + 1
      if (i === 0 || promptIdx![i] !== promptIdx![i - 1] || channel![i] !== channel![i - 1]) {
        runs.push(i)
        inRun.clear()
      }
      const key = modelKey![i]! * 65_536 + countryIdx![i]! + 1
      let c = inRun.get(key)
      if (c === undefined) {
        c = firstOf.length
        firstOf.push(i)
        inRun.set(key, c)
      }
      cell[i] = c
    }
    runs.push(n)
    const nCells = firstOf.length
    const byCell = countingOrder(cell, nCells)
    const cellStart = byCell.start
    const cellResponses = new Int32Array(nCells)
    const cellFirstDay = new Int32Array(nCells)
    const cellLastDay = new Int32Array(nCells)
    for (let c = 0; c < nCells; c++) {
      cellResponses[c] = cellStart[c + 1]! - cellStart[c]!
      cellFirstDay[c] = day![byCell.order[cellStart[c]!]!]!
      cellLastDay[c] = day![byCell.order[cellStart[c + 1]! - 1]!]!
    }

    const mentionStart = groupStarts(mOrd!, n)
    const mention: MentionRows = {
      entity: mEntity!,
      count: new Int32Array(mEntity!.length).fill(1),
      posSum: mentions[2] as Float64Array,
      posCnt: mentions[3] as Int32Array,
      sentSum: mentions[4] as Float64Array,
      sentCnt: mentions[5] as Int32Array,
    }
    const hostStart = groupStarts(cOrd!, n)
    const host: HostRows = { host: cHost!, count: cCount! }
    const citationsOf = new Int32Array(n)
    for (let r = 0; r < cOrd!.length; r++) citationsOf[cOrd![r]!]! += cCount![r]!
    const cellCitations = new Int32Array(nCells)
    for (let i = 0; i < n; i++) cellCitations[cell[i]!]! += citationsOf[i]!

    let nEntities = 0
    for (let r = 0; r < mEntity!.length; r++) if (mEntity![r]! >= nEntities) nEntities = mEntity![r]! + 1
    const mt = cellTotals(mEntity!, mentionStart, byCell.order, cellStart, nEntities)
    const cellMention: MentionRows = {
      entity: pick(mEntity!, mt.first),
      count: new Int32Array(mt.first.length),
      posSum: new Float64Array(mt.first.length),
      posCnt: new Int32Array(mt.first.length),
      sentSum: new Float64Array(mt.first.length),
      sentCnt: new Int32Array(mt.first.length),
    }
    for (let r = 0; r < mt.of.length; r++) {
      const x = mt.of[r]!
      cellMention.count[x]!++
      cellMention.posSum[x]! += mention.posSum[r]!
      cellMention.posCnt[x]! += mention.posCnt[r]!
      cellMention.sentSum[x]! += mention.sentSum[r]!
      cellMention.sentCnt[x]! += mention.sentCnt[r]!
    }
    const hostNames = hosts[0]!.map((h) => h ?? '')
    const ht = cellTotals(cHost!, hostStart, byCell.order, cellStart, hostNames.length)
    const cellHost: HostRows = { host: pick(cHost!, ht.first), count: new Int32Array(ht.first.length) }
    for (let r = 0; r < ht.of.length; r++) cellHost.count[ht.of[r]!]! += cCount![r]!

    const value: QueryFacts = {
      cellPrompt: pick(promptIdx!, firstOf),
      cellChannel: pick(channel!, firstOf),
      cellModel: pick(modelKey!, firstOf),
      cellCountry: pick(countryIdx!, firstOf),
      cellResponses,
      cellFirstDay,
      cellLastDay,
      runStart: Int32Array.from(runs),
      day: day!,
      cell,
      citations: citationsOf,
      promptCount,
      countries: countries[0]!.map((c) => c ?? ''),
      mentionStart,
      mention,
      hostStart,
      host,
      cellCitations,
      cellMentionStart: mt.start,
      cellMention,
      cellHostStart: ht.start,
      cellHost,
      hosts: hostNames,
    }
    return { value, rows: Math.ceil(factsBytes(value) / 64) }
  },
}

/**
 * The bytes of a domain's facts' arrays (sized against the store's budget in aggregate rows of about
 * 64 bytes each: eight doubles).
 */
export function factsBytes(f: QueryFacts): number {
  const arrays = (o: object): number =>
    Object.values(o).reduce<number>(
      (sum, v) =>
        sum +
        (ArrayBuffer.isView(v)
          ? v.byteLength
          : typeof v === 'object' && v !== null && !Array.isArray(v)
            ? arrays(v as object)
            : 0),
      0,
    )
  return arrays(f)
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
