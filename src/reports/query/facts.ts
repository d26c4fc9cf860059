/**
 * The per-domain structures GET /api/v1/query reads (docs/API.md, "GET /api/v1/query"), built from
 * the raw tables (sql/queries/query/) over the analyses that pass the segment filters (the query's
 * SQL selects from `segment_analyses`, the one filter rule of every report: without filters, every
 * analysis) and kept by the aggregate store like an aggregate table (rebuilt after a commit changes
 * the domain; one per segment, src/queries/segment.ts). The prompts' topics and tags, and their ids
 * in sort order, are a second structure.
 *
 * The analyses are sorted by (block of BLOCK_DAYS days, prompt, channel, day): a window's analyses
 * lie in the few blocks it overlaps, read in a row (not scattered over the whole history), and in a
 * block those of one prompt and channel come together, so neighbouring analyses add to the same
 * groups. They are put in cells, one per (prompt, channel, model, country): every dimension but the
 * date and every filter has one value per cell, so a request resolves its groups once per cell.
 * Each analysis has its mentions (one row per entity) and its citation hosts (one row per host) as
 * runs of rows, and each cell the same summed over its analyses (its totals), so a window that
 * holds a whole cell adds the cell's totals and only the cells the window cuts (or a request by
 * date) are read analysis by analysis.
 */
import type { Derived } from '../../tables/aggregates.js'
import type { ReadPool } from '../../db/read-pool.js'
import { compareText } from '../../foundation/compare.js'
import { countingOrder, groupStarts } from '../../foundation/counting.js'
import { SLICE_MASK, TimeSlice } from '../../foundation/slice.js'
import { CHANNELS } from '../../foundation/vocabulary.js'

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
  /** The blocks of days: block firstBlock + b (its days BLOCK_DAYS * (firstBlock + b) on) is analyses blockStart[b] to blockStart[b + 1]. */
  readonly firstBlock: number
  readonly blockStart: Int32Array
  /** Per cell, its analyses by day: cellOrder[cellStart[c]] to cellOrder[cellStart[c + 1] - 1]. */
  readonly cellStart: Int32Array
  readonly cellOrder: Int32Array
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
  readonly mention: AnalysisMentionRows
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

/** Mentions of one entity (0: the brand) in one analysis (each row counts 1). */
export interface AnalysisMentionRows {
  readonly entity: Int32Array
  readonly posSum: Float64Array
  readonly posCnt: Int32Array
  readonly sentSum: Float64Array
  readonly sentCnt: Int32Array
}

/** Mentions of one entity in a cell's analyses (count: in how many). */
export interface MentionRows extends AnalysisMentionRows {
  readonly count: Int32Array
}

/** Citation entries of one host (its index in `hosts`) in one analysis or in a cell's analyses. */
export interface HostRows {
  readonly host: Int32Array
  readonly count: Int32Array
}

/** The days of a block of the analyses' order (sql/queries/query/ordered_analyses.sql sorts by it). */
export const BLOCK_DAYS = 16

/** The block of a day (days since 1970-01-01). */
export const blockOf = (day: number): number => Math.floor(day / BLOCK_DAYS)

/**
 * The first analysis of each block from the first analysis's block to the last's (n + 1 offsets),
 * for analyses sorted by block; throws when they are not (the SQL's order and BLOCK_DAYS disagree).
 */
export function blockStarts(day: Int32Array): { firstBlock: number; blockStart: Int32Array } {
  const n = day.length
  const firstBlock = n === 0 ? 0 : blockOf(day[0]!)
  const blocks = n === 0 ? 0 : blockOf(day[n - 1]!) - firstBlock + 1
  const blockStart = new Int32Array(blocks + 1)
  let b = 0
  for (let i = 0; i < n; i++) {
    const bi = blockOf(day[i]!) - firstBlock
    if (bi < b || bi >= blocks) throw new Error('query facts: the analyses are not sorted by block of days')
    while (b < bi) blockStart[++b] = i
  }
  while (b < blocks) blockStart[++b] = n
  return { firstBlock, blockStart }
}

/**
 * The cells a window cuts (state 2) and how their analyses in the window are read: the blocks'
 * analyses blocks[0] to blocks[1] in a row (`inBlocks`), or cell by cell. Always the same fields
 * and kinds (no null), so the code reading them keeps one shape (src/reports/query/query.ts).
 */
export interface Cuts {
  state: Uint8Array
  from: number
  to: number
  blocks: [number, number]
  inBlocks: boolean
}

/** The analyses in the window of the cells it cuts. */
export function cutVisits(
  f: Pick<QueryFacts, 'day' | 'cell' | 'cellStart' | 'cellOrder'>,
  cuts: Cuts,
): Int32Array {
  const { day, cell, cellStart, cellOrder } = f
  const { state, from, to, blocks, inBlocks } = cuts
  let out = new Int32Array(inBlocks ? blocks[1] - blocks[0] : 64)
  let n = 0
  if (inBlocks)
    for (let i = blocks[0]; i < blocks[1]; i++) {
      const d = day[i]!
      if (d >= from && d < to && state[cell[i]!] === 2) out[n++] = i
    }
  else
    for (let c = 0; c < state.length; c++) {
      if (state[c] !== 2) continue
      for (let x = cellStart[c]!; x < cellStart[c + 1]!; x++) {
        const i = cellOrder[x]!
        const d = day[i]!
        if (d >= to) break
        if (d < from) continue
        if (n === out.length) {
          const grown = new Int32Array(n * 2)
          grown.set(out)
          out = grown
        }
        out[n++] = i
      }
    }
  return out.subarray(0, n)
}

/** The analyses of the blocks of days that window [from, to) overlaps: from lo to hi. */
export function blockRange(
  f: Pick<QueryFacts, 'firstBlock' | 'blockStart'>,
  from: number,
  to: number,
): [number, number] {
  const blocks = f.blockStart.length - 1
  const at = (b: number) => f.blockStart[Math.min(blocks, Math.max(0, b - f.firstBlock))]!
  return [at(blockOf(from)), at(blockOf(to - 1) + 1)]
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
async function cellTotals(
  key: Int32Array,
  rowStart: Int32Array,
  byCell: Int32Array,
  cellStart: Int32Array,
  keys: number,
  slice: TimeSlice,
): Promise<{ start: Int32Array; first: Int32Array; of: Int32Array }> {
  const slot = new Int32Array(keys).fill(-1)
  const of = new Int32Array(key.length)
  const first: number[] = []
  const start = new Int32Array(cellStart.length)
  for (let c = 0; c + 1 < cellStart.length; c++) {
    if (slice.spent) await slice.next()
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
    // One after the other: each result is materialized in DuckDB's memory before it is copied, so
    // five at once hold five results on a large domain (L: 1.8M mention rows) under the 160 MB
    // limit; a cold build of L ran out of memory once that way (bench/NOTES.md, "lead 12").
    const analyses = await pool.loadColumns(
      'queries/query/analyses',
      values,
      ['day', 'channel', 'model_key', 'prompt_idx', 'country_idx'],
      ['i32', 'i32', 'i32', 'i32', 'i32'],
    )
    const countries = await pool.loadStrings('queries/query/countries', { domain_key: domainKey }, [
      'country',
    ])
    const mentions = await pool.loadColumns(
      'queries/query/mentions',
      values,
      ['ord', 'entity_idx', 'pos_sum', 'pos_cnt', 'sent_sum', 'sent_cnt'],
      ['i32', 'i32', 'f64', 'i32', 'f64', 'i32'],
    )
    const citations = await pool.loadColumns(
      'queries/query/citations',
      values,
      ['ord', 'host_idx', 'n'],
      ['i32', 'i32', 'i32'],
    )
    const hosts = await pool.loadStrings('queries/query/hosts', { domain_key: domainKey }, ['host'])
    // The rest is JavaScript over the loaded columns (L: 511k analyses, 1.8M mention rows), cut
    // into slices so that a cold build never holds the event loop (a move's target, a server).
    const slice = new TimeSlice()
    const [day, channel, modelKey, promptIdx, countryIdx] = analyses as Int32Array[]
    const [mOrd, mEntity] = mentions as Int32Array[]
    const [cOrd, cHost, cCount] = citations as Int32Array[]
    const n = day!.length

    // Cells of one (prompt, channel, model, country), numbered as they come, then renumbered in
    // the order of their key (so that a request adds the cells of one group one after the other).
    const cell = new Int32Array(n)
    let firstOf: number[] = []
    const cellKey: number[] = []
    const cellOf = new Map<number, number>()
    let promptCount = 0
    let models = 0
    for (let i = 0; i < n; i++) if (modelKey![i]! >= models) models = modelKey![i]! + 1
    const channels = CHANNELS.length + 1 // stored channels: 1 + an index in CHANNELS
    const countrySpan = countries[0]!.length + 1
    for (let i = 0; i < n; i++) {
      if ((i & SLICE_MASK) === 0 && slice.spent) await slice.next()
      if (promptIdx![i]! >= promptCount) promptCount = promptIdx![i]! + 1
      const key =
        ((promptIdx![i]! * channels + channel![i]!) * models + modelKey![i]!) * countrySpan +
        countryIdx![i]! +
        1
      let c = cellOf.get(key)
      if (c === undefined) {
        c = firstOf.length
        firstOf.push(i)
        cellKey.push(key)
        cellOf.set(key, c)
      }
      cell[i] = c
    }
    const byKey = firstOf.map((_, c) => c).sort((a, b) => cellKey[a]! - cellKey[b]!)
    const renumbered = new Int32Array(byKey.length)
    byKey.forEach((c, r) => (renumbered[c] = r))
    for (let i = 0; i < n; i++) cell[i] = renumbered[cell[i]!]!
    firstOf = byKey.map((c) => firstOf[c]!)
    await slice.breathe()
    const { firstBlock, blockStart } = blockStarts(day!)
    const nCells = firstOf.length
    const byCell = countingOrder(cell, nCells)
    await slice.breathe()
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
    await slice.breathe()
    const mention: AnalysisMentionRows = {
      entity: mEntity!,
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
    await slice.breathe()

    let nEntities = 0
    for (let r = 0; r < mEntity!.length; r++) if (mEntity![r]! >= nEntities) nEntities = mEntity![r]! + 1
    const mt = await cellTotals(mEntity!, mentionStart, byCell.order, cellStart, nEntities, slice)
    const cellMention: MentionRows = {
      entity: pick(mEntity!, mt.first),
      count: new Int32Array(mt.first.length),
      posSum: new Float64Array(mt.first.length),
      posCnt: new Int32Array(mt.first.length),
      sentSum: new Float64Array(mt.first.length),
      sentCnt: new Int32Array(mt.first.length),
    }
    for (let r = 0; r < mt.of.length; r++) {
      if ((r & SLICE_MASK) === 0 && slice.spent) await slice.next()
      const x = mt.of[r]!
      cellMention.count[x]!++
      cellMention.posSum[x]! += mention.posSum[r]!
      cellMention.posCnt[x]! += mention.posCnt[r]!
      cellMention.sentSum[x]! += mention.sentSum[r]!
      cellMention.sentCnt[x]! += mention.sentCnt[r]!
    }
    const hostNames = hosts[0]!.map((h) => h ?? '')
    const ht = await cellTotals(cHost!, hostStart, byCell.order, cellStart, hostNames.length, slice)
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
      firstBlock,
      blockStart,
      cellStart,
      cellOrder: byCell.order,
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

/** Sort ranks of values (null last; strings by UTF-16 code units). */
export function ranksOf(values: readonly (string | null)[]): Int32Array {
  const order = values.map((_, i) => i)
  order.sort((a, b) => {
    const x = values[a]!
    const y = values[b]!
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1
    return compareText(x, y)
  })
  const rank = new Int32Array(values.length)
  order.forEach((code, r) => (rank[code] = r))
  return rank
}

/**
 * The topics and tags of a domain's prompts, by prompt index; and their ids by index ('' for an
 * index without a prompt) with each one's sort rank (ranked once, not at every request).
 */
export interface PromptSegments {
  readonly topic: ReadonlyMap<number, string>
  readonly tags: ReadonlyMap<number, readonly string[]>
  readonly promptIds: readonly string[]
  readonly promptRank: Int32Array
}

/**
 * The prompts' segments as of the catalog's prompt rows. A commit that only re-ingests prompts
 * changes no aggregate day, so the store would keep the structure: its name carries the identity of
 * the domain's prompt rows (the catalog puts a new row object for every ingested prompt), so new
 * rows name a new structure, built at its first use.
 */
export function promptSegmentsOf(
  prompts: readonly ({ readonly idx: number; readonly id: string } | undefined)[],
): Derived<PromptSegments> {
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
    name: `query_prompt_segments:${prompts.length}:${hash}:${lastRowIdOf(prompts)}`,
    async build(pool, domainKey) {
      const { topic, tags, rows } = await loadPromptSegments(pool, domainKey)
      const byIdx: string[] = []
      for (const prompt of prompts) if (prompt !== undefined) byIdx[prompt.idx] = prompt.id
      const promptIds = Array.from({ length: byIdx.length }, (_, i) => byIdx[i] ?? '')
      const value = { topic, tags, promptIds, promptRank: ranksOf(promptIds) }
      return { value, rows: rows + promptIds.length }
    },
  }
}

const rowIds = new WeakMap<object, number>()
let lastRowId = 0
/** The largest identity among the rows (with the hash, a new row always changes the name). */
const lastRowIdOf = (prompts: readonly (object | undefined)[]): number =>
  prompts.reduce<number>((m, r) => (r === undefined ? m : Math.max(m, rowIds.get(r) ?? 0)), 0)

/** The prompts' topics and tags by prompt index, and how many rows they were read from. */
async function loadPromptSegments(
  pool: Pick<ReadPool, 'loadStrings'>,
  domainKey: number,
): Promise<{ topic: Map<number, string>; tags: Map<number, string[]>; rows: number }> {
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
  return { topic, tags, rows: tIdx!.length + gIdx!.length }
}
