/**
 * Distinct prompts over a window from bitmask aggregates (agg_entity_prompts, agg_channel_prompts):
 * each row holds, for one day, channel and chunk of 64 prompts, the prompts seen as two 32-bit
 * masks; OR-ing a group's masks over the window and counting the bits gives its distinct prompts
 * without COUNT(DISTINCT) over raw rows.
 */
import { passes, type ModelFilter } from './model-filter.js'
import { rowRange, type DayWindow } from '../foundation/window.js'

/** The columns a bitmask table shares. */
export interface PromptMaskRows {
  readonly day: Float64Array
  readonly channel: Float64Array
  readonly chunk: Float64Array
  readonly lo: Float64Array
  readonly hi: Float64Array
}

/**
 * Per group, the distinct prompts of the window's rows passing the filter. `group` is the column
 * that names each row's group (rows of a group >= `groups` are skipped), or null for one group.
 * @example
 * distinctPrompts(entityPrompts, window, filter, entityPrompts.entity_idx, entities)
 */
export function distinctPrompts(
  t: PromptMaskRows,
  w: DayWindow,
  f: ModelFilter,
  group: Float64Array | null,
  groups: number,
): Float64Array {
  const [from, to] = rowRange(t.day, w)
  let chunks = 0
  for (let i = from; i < to; i++) if (t.chunk[i]! >= chunks) chunks = t.chunk[i]! + 1
  // Group g's chunk c: words (g * chunks + c) * 2 (lo) and + 1 (hi).
  const masks = new Uint32Array(groups * chunks * 2)
  for (let i = from; i < to; i++) {
    const g = group === null ? 0 : group[i]!
    if (g >= groups || !passes(f, t.channel[i]!)) continue
    const at = (g * chunks + t.chunk[i]!) * 2
    masks[at] = masks[at]! | t.lo[i]!
    masks[at + 1] = masks[at + 1]! | t.hi[i]!
  }
  const out = new Float64Array(groups)
  for (let g = 0; g < groups; g++)
    for (let x = g * chunks * 2; x < (g + 1) * chunks * 2; x++) out[g]! += popcount32(masks[x]!)
  return out
}

/** The number of bits set in a 32-bit integer. */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  x = (x + (x >>> 4)) & 0x0f0f0f0f
  return Math.imul(x, 0x01010101) >>> 24
}
