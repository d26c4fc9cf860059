/**
 * The window (docs/API.md, "Parameters", docs/API.md, "Date ranges and buckets"): the UTC dates a report covers, as an
 * inclusive range of day numbers (days since 1970-01-01), the one place that turns it into rows of
 * a day-sorted table, and its buckets (day, ISO week, calendar month).
 *
 * Every report takes a `DayWindow`, never `days`: a window of `days` ending today is one way to
 * build it (`windowOfDays`); an explicit start and end date is another (`resolveWindow` decides
 * which, with every rule of the pair: both or neither, not with `days`, start <= end <= today, at
 * most 365 days). A series groups its rows by `bucketStarts`.
 */
import { ValidationError, type ParamIssue } from '../errors.js'
import type { Granularity } from '../types.js'
export { GRANULARITIES } from './vocabulary.js'
export type { Granularity } from '../types.js'

export const DAY_MS = 86_400_000

/** The longest window, in days (both `days` and an explicit range). */
export const MAX_WINDOW_DAYS = 365

/** The day number of a calendar date `YYYY-MM-DD` (checked by its parameter's schema). */
export function dayOfDate(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / DAY_MS
}

/** A window request in the library's spelling: `days`, or `startDate` and `endDate`. */
export interface WindowRequest {
  days?: number | undefined
  startDate?: string | undefined
  endDate?: string | undefined
}

/** What a payload echoes of its window: `days`, and the dates when a range was given. */
export type WindowEcho = { days: number } | { days: number; start_date: string; end_date: string }

/**
 * The rules of the pair that need no clock, as issues naming the parameters (wire names): not both
 * forms, both dates or neither, start <= end, at most 365 days. The dates' own shape is checked by
 * their parameters (src/schemas/params.ts).
 */
export function rangeIssues(p: WindowRequest): ParamIssue[] {
  const { startDate, endDate } = p
  if (startDate === undefined && endDate === undefined) return []
  if (p.days !== undefined) {
    return [
      {
        path: 'days',
        message: 'days cannot be combined with start_date and end_date: give one or the other.',
      },
    ]
  }
  if (startDate === undefined || endDate === undefined) {
    const [missing, given] = startDate === undefined ? ['start_date', 'end_date'] : ['end_date', 'start_date']
    return [
      {
        path: missing,
        message: `${missing} is required with ${given}: give both dates (YYYY-MM-DD) or neither.`,
      },
    ]
  }
  const start = dayOfDate(startDate)
  const end = dayOfDate(endDate)
  if (start > end) return [{ path: 'start_date', message: 'start_date must not be after end_date.' }]
  if (end - start + 1 > MAX_WINDOW_DAYS) {
    return [
      {
        path: 'start_date',
        message: `start_date to end_date must span at most ${MAX_WINDOW_DAYS} days, both included.`,
      },
    ]
  }
  return []
}

/**
 * The window of a request whose parameters passed their own checks: `days` (default 30) ending at
 * the UTC date of `nowMs`, or `startDate` through `endDate` (end not after that date); and its echo.
 * Throws a ValidationError naming the parameter.
 * @example
 * resolveWindow({ startDate: '2026-01-01', endDate: '2026-01-31' }, Date.now()).echo
 * // { days: 31, start_date: '2026-01-01', end_date: '2026-01-31' }
 */
export function resolveWindow(p: WindowRequest, nowMs: number): { window: DayWindow; echo: WindowEcho } {
  const issues = rangeIssues(p)
  if (issues.length > 0) throw new ValidationError(issues)
  if (p.startDate === undefined || p.endDate === undefined) {
    const days = p.days ?? 30
    return { window: windowOfDays(nowMs, days), echo: { days } }
  }
  const today = Math.floor(nowMs / DAY_MS)
  const window = { startDay: dayOfDate(p.startDate), endDay: dayOfDate(p.endDate) }
  if (window.endDay > today) {
    throw new ValidationError([
      { path: 'end_date', message: `end_date must not be after today (${formatDay(today)} UTC).` },
    ])
  }
  const days = window.endDay - window.startDay + 1
  return { window, echo: { days, start_date: p.startDate, end_date: p.endDate } }
}

/** The first day of the ISO week (Monday) of a day number; day 0, 1970-01-01, was a Thursday. */
function mondayOf(day: number): number {
  return day - ((((day + 3) % 7) + 7) % 7)
}

/** The first day of the calendar month of a day number. */
function firstOfMonth(day: number): number {
  const d = new Date(day * DAY_MS)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY_MS
}

/**
 * The bucket of each date of the window, as the day number that names it: its first date inside
 * the window (the date itself by day; the Monday of its ISO week or the 1st of its month, or the
 * window's first date when that comes later). Index: day - w.startDay. All in UTC: day numbers are
 * UTC dates, so the server's time zone plays no part.
 * @example
 * const starts = bucketStarts(w, 'week')
 * const bucket = starts[row.day - w.startDay]
 */
export function bucketStarts(w: DayWindow, granularity: Granularity): Int32Array {
  const out = new Int32Array(w.endDay - w.startDay + 1)
  const start = granularity === 'week' ? mondayOf : granularity === 'month' ? firstOfMonth : null
  for (let day = w.startDay; day <= w.endDay; day++) {
    out[day - w.startDay] = start === null ? day : Math.max(start(day), w.startDay)
  }
  return out
}

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
export type DayColumn = Float64Array | Int32Array

/** First index in [lo, hi) whose day is >= `day` (days ascending there), else hi. */
export function lowerBound(days: DayColumn, day: number, lo = 0, hi = days.length): number {
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

/**
 * For each date of the window (index: day - w.startDay), the index in `starts` (bucket days,
 * ascending, as `bucketStarts` names them) of its bucket; -1 when its bucket is not among them.
 * @example
 * const at = bucketPositions(scope.buckets, dates.day)
 * const d = at[row.day - w.startDay] // the row's datapoint, or -1
 */
export function bucketPositions(buckets: Int32Array, starts: readonly number[]): Int32Array {
  const pos = new Int32Array(buckets.length).fill(-1)
  for (let off = 0, k = 0; off < buckets.length; off++) {
    const b = buckets[off]!
    while (k < starts.length && starts[k]! < b) k++
    if (k < starts.length && starts[k] === b) pos[off] = k
  }
  return pos
}
