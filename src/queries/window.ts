/**
 * The window (semantics.md section 2): the UTC dates a report covers, as an inclusive range of day
 * numbers (days since 1970-01-01), and the one place that turns it into rows of a day-sorted table.
 *
 * Every report takes a `DayWindow`, never `days`: a window of `days` ending today is one way to
 * build it (`windowOfDays`); an explicit start and end date is another.
 */

export const DAY_MS = 86_400_000

/** UTC dates `startDay` through `endDay`, both included, as days since 1970-01-01. */
export interface DayWindow {
  readonly startDay: number
  readonly endDay: number
}

/** The window of `days` UTC dates ending at the UTC date of `nowMs`. */
export function windowOfDays(nowMs: number, days: number): DayWindow {
  const endDay = Math.floor(nowMs / DAY_MS)
  return { startDay: endDay - days + 1, endDay }
}

/** Day columns: loaded as doubles (aggregate tables) or 32-bit integers (src/tables/cited-index.ts). */
type DayColumn = Float64Array | Int32Array

/** First index in [lo, hi) whose day is >= `day` (days ascending there), else hi. */
function lowerBound(days: DayColumn, day: number, lo = 0, hi = days.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (days[mid]! < day) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The rows [from, to) of a table sorted by day whose day is in the window. */
export function rowRange(days: DayColumn, w: DayWindow): [from: number, to: number] {
  return [lowerBound(days, w.startDay), lowerBound(days, w.endDay + 1)]
}

/**
 * The same within the rows [lo, hi) of a table sorted by day only there (a segment): the window's
 * first row there (`segmentFrom`), and the row after its last (`segmentTo`, from that first row);
 * equal: none. A segment wholly inside the window costs a comparison each. Two functions rather
 * than a pair: they run once per segment, tens of thousands of times a query.
 */
export function segmentFrom(days: DayColumn, w: DayWindow, lo: number, hi: number): number {
  return lo >= hi || days[lo]! >= w.startDay ? lo : lowerBound(days, w.startDay, lo, hi)
}
export function segmentTo(days: DayColumn, w: DayWindow, from: number, hi: number): number {
  return from >= hi || days[hi - 1]! <= w.endDay ? hi : lowerBound(days, w.endDay + 1, from, hi)
}

const dateCache = new Map<number, string>()
/** `YYYY-MM-DD` of a day number (days since 1970-01-01). */
export function formatDay(day: number): string {
  let s = dateCache.get(day)
  if (s === undefined) {
    s = new Date(day * DAY_MS).toISOString().slice(0, 10)
    if (dateCache.size < 100_000) dateCache.set(day, s)
  }
  return s
}
