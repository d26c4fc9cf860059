/**
 * The model filter (semantics.md section 3): `all`, a channel name, or (sentiment endpoints only;
 * the parameter schemas decide which values reach here) a raw model identifier.
 */
import type { Catalog } from '../catalog.js'
import type { Combos } from '../tables/cited-index.js'
import { CHANNELS, type Channel } from '../types.js'
import { compareText } from './compare.js'

/** A resolved filter over the aggregate tables' `channel` and `model_key` columns. */
export interface ModelFilter {
  /** 0: any channel; else the channel's number as stored (its index in CHANNELS + 1). */
  readonly channel: number
  /** -1: any model; else the raw model's key. */
  readonly modelKey: number
}

/** The filter of a `model` value, or null for a raw model identifier never stored (the empty result). */
export function resolveModelFilter(catalog: Catalog, model: string): ModelFilter | null {
  if (model === 'all') return { channel: 0, modelKey: -1 }
  const c = CHANNELS.indexOf(model as Channel)
  if (c >= 0) return { channel: c + 1, modelKey: -1 }
  const key = catalog.models.get(model)
  return key === undefined ? null : { channel: 0, modelKey: key }
}

/** Whether a row of (channel, model key) passes; tables without a model column pass -1. */
export function passes(f: ModelFilter, channel: number, modelKey = -1): boolean {
  return (f.channel === 0 || channel === f.channel) && (f.modelKey === -1 || modelKey === f.modelKey)
}

/** Which of a domain's (channel, model) combos pass: 1 or 0 by combo index. */
export function comboMask(combos: Combos, f: ModelFilter): Uint8Array {
  const out = new Uint8Array(combos.channel.length)
  for (let c = 0; c < out.length; c++) out[c] = passes(f, combos.channel[c]!, combos.modelKey[c]!) ? 1 : 0
  return out
}

/** Channel names in UTF-16 order, each with its bit: 1 << (its number - 1). */
const CHANNELS_BY_NAME = CHANNELS.map((name, i) => ({ name, bit: 1 << i })).sort((a, b) =>
  compareText(a.name, b.name),
)

/** The names of the channels whose bits are set (1 << (number - 1)), in UTF-16 order. */
export function channelNames(bits: number): Channel[] {
  return CHANNELS_BY_NAME.filter((ch) => (bits & ch.bit) !== 0).map((ch) => ch.name)
}
