/**
 * @module The dates of a time series: the window's buckets with an analysis passing the model
 * filter (the competitor and brand series, docs/API.md, "Date ranges and buckets").
 */
import type { AggregateRows } from '../tables/aggregates.js'
import { passes, type ModelFilter } from './model-filter.js'
import { rowRange, type DayWindow } from '../foundation/window.js'

/**
 * The window's buckets (`buckets`: `bucketStarts` of the window; by day when absent) with at least
 * one analysis passing the filter, ascending by the day that names them, and those analyses.
 */
export function datesWithAnalyses(
  t: AggregateRows<'agg_channel_day'>,
  w: DayWindow,
  f: ModelFilter,
  buckets?: Int32Array,
): { day: number[]; analyses: number[] } {
  const out = { day: [] as number[], analyses: [] as number[] }
  const [from, to] = rowRange(t.day, w)
  const bucketOf = (i: number) => (buckets === undefined ? t.day[i]! : buckets[t.day[i]! - w.startDay]!)
  for (let i = from; i < to;) {
    const d = bucketOf(i)
    let sum = 0
    let seen = false
    for (; i < to && bucketOf(i) === d; i++) {
      if (passes(f, t.channel[i]!)) {
        sum += t.analyses[i]!
        seen = true
      }
    }
    if (seen) {
      out.day.push(d)
      out.analyses.push(sum)
    }
  }
  return out
}
