/**
 * The model filter (docs/API.md, "Model filter"): `all`, a channel name, or (sentiment endpoints only;
 * the parameter schemas decide which values reach here) a raw model identifier.
 */
import type { Catalog } from '../catalog.js'
import type { AggregateRows, ModelTable } from '../tables/aggregates.js'
import type { Combos } from '../tables/cited-index.js'
import { CHANNELS } from '../foundation/vocabulary.js'
import type { Channel } from '../types.js'
import { compareText } from '../foundation/compare.js'
import type { QueryContext } from './context.js'

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

const EVERY_ANALYSIS: ModelFilter = { channel: 0, modelKey: -1 }

/** Where a report reads aggregate rows for its `model` value, and the filter still to apply to them. */
export interface FilteredRows {
  readonly filter: ModelFilter
  /** Whether the rows are those the aggregate store keeps in memory (so an index may be kept with them). */
  readonly kept: boolean
  rows<T extends ModelTable>(table: T): Promise<AggregateRows<T>>
}

/**
 * The rows a report reads for `model`: for `all` or a channel, the domain's aggregate rows (kept in
 * memory), filtered by channel as they are read; for a raw model identifier, the same tables
 * computed from the raw tables for that model's analyses alone (a slower path: read from DuckDB at
 * every call), with nothing left to filter. null for a raw identifier never stored (the empty
 * result).
 * @example
 * const source = rowsForModel(ctx, domain.key, 'gpt-5')
 * const channelDay = source === null ? null : await source.rows('agg_channel_day')
 */
export function rowsForModel(ctx: QueryContext, domainKey: number, model: string): FilteredRows | null {
  const filter = resolveModelFilter(ctx.catalog, model)
  if (filter === null) return null
  if (filter.modelKey === -1) {
    return { filter, kept: ctx.aggregates.keepsRows, rows: (table) => ctx.aggregates.rows(table, domainKey) }
  }
  const modelKey = filter.modelKey
  return {
    filter: EVERY_ANALYSIS,
    kept: false,
    rows: (table) => ctx.aggregates.modelRows(table, domainKey, modelKey),
  }
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
