/**
 * Per (entity, prompt) sums over a window of agg_entity_prompt_day (mentions, position sum and
 * count), for the brand rankings.
 *
 * A long window over a large domain would add up every row of every day (one per mention of a
 * busy domain: about 1.8 million rows for a year of 200 prompts on 7 channels). Instead, for the
 * rows the aggregate store keeps, an index built once per loaded table (and dropped with it) holds
 * every BLOCK days the running sums of every cell over all channels; a window's sums are then the
 * difference of two of them plus the rows of fewer than BLOCK days at each edge. A channel filter,
 * a short window or rows not kept (a raw model id's) add up the window's rows directly.
 */
import type { AggregateRows } from '../tables/aggregates.js'
import { passes, type ModelFilter } from './model-filter.js'
import { rowRange, type DayWindow } from '../foundation/window.js'

/** Days between two snapshots of the index. */
const BLOCK = 8
/** Windows with fewer rows are added up directly. */
const INDEX_MIN_ROWS = 1 << 15
/** Values kept per cell: mentions, position sum, position count. */
const VALUES = 3

type Rows = AggregateRows<'agg_entity_prompt_day'>

/** Per cell `entity * prompts + prompt`: the window's sums. */
export interface EntityPromptSums {
  mentions: Float64Array
  posSum: Float64Array
  posCnt: Float64Array
}

interface Index {
  /** Cell dimensions of the rows (the domain may have gained prompts or competitors since). */
  entities: number
  prompts: number
  /** The day of the first snapshot, a multiple of BLOCK; snapshot k is at first + k * BLOCK. */
  first: number
  /** Snapshot k: per cell, the sums of the rows of every channel with day < first + k * BLOCK. */
  snapshots: Float64Array[]
}

const indexes = new WeakMap<Rows, Index>()

function buildIndex(t: Rows): Index {
  const n = t.day.length
  let entities = 0
  let prompts = 0
  for (let i = 0; i < n; i++) {
    entities = Math.max(entities, t.entity_idx[i]! + 1)
    prompts = Math.max(prompts, t.prompt_idx[i]! + 1)
  }
  const first = Math.floor(t.day[0]! / BLOCK) * BLOCK
  const last = Math.floor(t.day[n - 1]! / BLOCK) * BLOCK + BLOCK
  const running = new Float64Array(entities * prompts * VALUES)
  const snapshots: Float64Array[] = []
  let i = 0
  for (let boundary = first; boundary <= last; boundary += BLOCK) {
    for (; i < n && t.day[i]! < boundary; i++) {
      const at = (t.entity_idx[i]! * prompts + t.prompt_idx[i]!) * VALUES
      running[at]! += t.mentions[i]!
      running[at + 1]! += t.pos_sum[i]!
      running[at + 2]! += t.pos_cnt[i]!
    }
    snapshots.push(running.slice())
  }
  return { entities, prompts, first, snapshots }
}

/** The snapshot at a multiple of BLOCK: the sums of the rows with day < boundary. */
function snapshotAt(index: Index, boundary: number): Float64Array {
  const k = (boundary - index.first) / BLOCK
  return index.snapshots[Math.max(0, Math.min(index.snapshots.length - 1, k))]!
}

/**
 * The window's sums per cell of the domain (`entities` x `prompts`), over the rows passing the
 * filter; rows outside those dimensions are left out. `kept`: the rows are the
 * aggregate store's (an index may be built and kept with them).
 */
export function entityPromptSums(
  t: Rows,
  w: DayWindow,
  f: ModelFilter,
  entities: number,
  prompts: number,
  kept: boolean,
): EntityPromptSums {
  const size = entities * prompts
  const out = {
    mentions: new Float64Array(size),
    posSum: new Float64Array(size),
    posCnt: new Float64Array(size),
  }
  const add = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const e = t.entity_idx[i]!
      const p = t.prompt_idx[i]!
      if (e >= entities || p >= prompts || !passes(f, t.channel[i]!)) continue
      const at = e * prompts + p
      out.mentions[at]! += t.mentions[i]!
      out.posSum[at]! += t.pos_sum[i]!
      out.posCnt[at]! += t.pos_cnt[i]!
    }
  }
  const [from, to] = rowRange(t.day, w)
  const lo = Math.ceil(w.startDay / BLOCK) * BLOCK
  const hi = Math.floor((w.endDay + 1) / BLOCK) * BLOCK
  if (!kept || f.channel !== 0 || f.modelKey !== -1 || to - from < INDEX_MIN_ROWS || lo >= hi) {
    add(from, to)
    return out
  }
  let index = indexes.get(t)
  if (index === undefined) indexes.set(t, (index = buildIndex(t)))
  const upper = snapshotAt(index, hi)
  const lower = snapshotAt(index, lo)
  const ents = Math.min(entities, index.entities)
  const ps = Math.min(prompts, index.prompts)
  for (let e = 0; e < ents; e++) {
    for (let p = 0; p < ps; p++) {
      const at = e * prompts + p
      const from3 = (e * index.prompts + p) * VALUES
      out.mentions[at] = upper[from3]! - lower[from3]!
      out.posSum[at] = upper[from3 + 1]! - lower[from3 + 1]!
      out.posCnt[at] = upper[from3 + 2]! - lower[from3 + 2]!
    }
  }
  add(from, rowRange(t.day, { startDay: w.startDay, endDay: lo - 1 })[1])
  add(rowRange(t.day, { startDay: hi, endDay: w.endDay })[0], to)
  return out
}
