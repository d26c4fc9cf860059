/**
 * Time in the reference model: the clock, stored timestamps, the window of `days` (semantics.md
 * section 2) or of an explicit range, and the day / ISO week / month buckets of extensions
 * section 9. Dates are `YYYY-MM-DD` strings in UTC throughout, compared as strings.
 */
import type { Clock } from '../../src/types.js'
import { ValidationError } from '../../src/errors.js'
import type { ParamIssue } from '../../src/errors.js'
import { rejectGranularity } from './params.js'
import type { Granularity, WindowEcho } from './types.js'

export const DAY_MS = 86_400_000
const GRANULARITIES: readonly string[] = ['day', 'week', 'month']

/** `YYYY-MM-DD` of a UTC instant. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/** The UTC midnight of a `YYYY-MM-DD` date, in ms. */
function dateMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`)
}

function addDays(date: string, n: number): string {
  return utcDate(dateMs(date) + n * DAY_MS)
}

export function toMs(clock: Clock): number {
  const ms = clock instanceof Date ? clock.getTime() : new Date(clock).getTime()
  if (Number.isNaN(ms))
    throw new ValidationError([{ path: 'now', message: 'now must be an ISO 8601 timestamp.' }])
  return ms
}

/** `now` as ISO 8601 UTC; the milliseconds are dropped when they are zero. */
export function formatGeneratedAt(ms: number): string {
  const iso = new Date(ms).toISOString()
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso
}

/**
 * A timestamp as stored and returned (extensions section 1): finer digits than the millisecond
 * truncated (not rounded), then ISO 8601 UTC with milliseconds, `2026-05-04T09:15:02.118Z`.
 */
export function storedTimestamp(ts: string): string {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(.*)$/.exec(ts)
  if (m === null) return new Date(ts).toISOString()
  const millis = `${m[2] ?? ''}000`.slice(0, 3)
  return new Date(`${m[1]}.${millis}${m[3]}`).toISOString()
}

/** A window of UTC dates, both ends included, and how to bucket it. */
export interface Window {
  first: string
  last: string
  /** What the payload echoes: `days`, and `start_date`, `end_date` when a range was given. */
  echo: WindowEcho
  /** The bucket size; null when the request gave none (`day` then, and nothing echoed). */
  granularity: Granularity | null
  /** The segment filters given (segments.md section 2), normalized: what the window's analyses must pass. */
  segment?: Segment
}

/** The segment filters of a request, normalized (country upper case, topic and tag trimmed). */
export interface Segment {
  country?: string
  topic?: string
  tag?: string
}

/** The parameters of section 2 and 9 that make a window, in the library's spelling. */
export interface WindowInput {
  days?: number
  startDate?: string
  endDate?: string
  granularity?: string
  country?: string
  topic?: string
  tag?: string
}

/** The segment filters of a request, checked (segments.md section 2) and normalized. */
function segmentOf(p: WindowInput, issues: ParamIssue[]): Segment {
  const out: Segment = {}
  if (p.country !== undefined) {
    if (/^[A-Za-z]{2}$/.test(p.country)) out.country = p.country.toUpperCase()
    else
      issues.push({
        path: 'country',
        message: 'country must be two letters A-Z (an ISO 3166-1 alpha-2 country code, any case).',
      })
  }
  for (const [name, max] of [
    ['topic', 100],
    ['tag', 50],
  ] as const) {
    const v = p[name]
    if (v === undefined) continue
    const t = v.trim()
    if (t.length >= 1 && t.length <= max) out[name] = t
    else
      issues.push({ path: name, message: `${name} must be a text of 1 to ${max} characters after trimming.` })
  }
  return out
}

/** The segment filters' echo: after every other parameter (granularity too), each only when given. */
export function segmentEcho(w: Window): Segment {
  return { ...w.segment }
}

/** A real calendar date `YYYY-MM-DD` (Date.parse accepts 2025-02-31 and rolls it over: round-trip it). */
function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false
  const ms = dateMs(s)
  return !Number.isNaN(ms) && utcDate(ms) === s
}

/**
 * The window of a request: `days` (default 30) ending today, or `startDate` through `endDate`.
 * `series`: whether the endpoint takes `granularity` (a 400 anywhere else).
 */
export function resolveWindow(p: WindowInput, nowMs: number, series: boolean): Window {
  const issues: ParamIssue[] = []
  let granularity: Granularity | null = null
  if (p.granularity !== undefined) {
    if (!series) {
      rejectGranularity(p)
    } else if (!GRANULARITIES.includes(p.granularity)) {
      issues.push({ path: 'granularity', message: 'granularity must be day, week or month.' })
    } else {
      granularity = p.granularity as Granularity
    }
  }
  const today = utcDate(nowMs)
  const ranged = p.startDate !== undefined || p.endDate !== undefined
  let first = ''
  let last = today
  let days = 0
  if (!ranged) {
    days = p.days ?? 30
    if (!Number.isInteger(days) || days < 1 || days > 365) {
      issues.push({ path: 'days', message: 'days must be an integer from 1 to 365.' })
    } else {
      first = addDays(today, -(days - 1))
    }
  } else if (p.days !== undefined) {
    issues.push({ path: 'days', message: 'days cannot be combined with start_date and end_date.' })
  } else if (p.startDate === undefined || p.endDate === undefined) {
    issues.push({
      path: p.startDate === undefined ? 'start_date' : 'end_date',
      message: 'start_date and end_date must be given together.',
    })
  } else if (!isDate(p.startDate) || !isDate(p.endDate)) {
    for (const [path, value] of [
      ['start_date', p.startDate],
      ['end_date', p.endDate],
    ] as const) {
      if (!isDate(value)) issues.push({ path, message: `${path} must be a date YYYY-MM-DD.` })
    }
  } else if (p.startDate > p.endDate) {
    issues.push({ path: 'start_date', message: 'start_date must not be after end_date.' })
  } else if (p.endDate > today) {
    issues.push({ path: 'end_date', message: `end_date must not be after today (${today}).` })
  } else {
    first = p.startDate
    last = p.endDate
    days = (dateMs(last) - dateMs(first)) / DAY_MS + 1
    if (days > 365) {
      issues.push({ path: 'start_date', message: 'start_date to end_date must span at most 365 days.' })
    }
  }
  const segment = segmentOf(p, issues)
  if (issues.length > 0) throw new ValidationError(issues)
  return {
    first,
    last,
    echo: ranged ? { days, start_date: first, end_date: last } : { days },
    granularity,
    segment,
  }
}

/** The `granularity` echo: after the endpoint's other parameters, only when it was given. */
export function granularityEcho(w: Window): { granularity?: Granularity } {
  return w.granularity === null ? {} : { granularity: w.granularity }
}

/**
 * The bucket of a date of the window, named by its first date inside the window: the date itself
 * (day), the Monday of its ISO week (week) or the 1st of its month (month), or the window's first
 * date when that comes later.
 */
export function bucketOf(date: string, w: Window): string {
  let start = date
  if (w.granularity === 'week') {
    const weekday = (new Date(dateMs(date)).getUTCDay() + 6) % 7 // Monday 0 ... Sunday 6
    start = addDays(date, -weekday)
  } else if (w.granularity === 'month') {
    start = `${date.slice(0, 7)}-01`
  }
  return start < w.first ? w.first : start
}
