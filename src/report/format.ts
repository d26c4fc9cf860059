/**
 * Small, locale-independent formatting helpers for the report page: HTML escaping, numbers,
 * percents and UTC dates. No Intl locale lookups, so the output is the same on every machine.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/**
 * Escapes text for HTML/SVG element content and for quoted attribute values.
 * @example
 * escapeHtml('<b>"Tom" & Jerry</b>') // '&lt;b&gt;&quot;Tom&quot; &amp; Jerry&lt;/b&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)
}

/**
 * Shorter alias of {@link escapeHtml}, used throughout the renderer.
 * @example
 * `<td>${esc(name)}</td>`
 */
export const esc = escapeHtml

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** Milliseconds in a day. */
export const MS_PER_DAY = 86_400_000

/**
 * 'YYYY-MM-DD' -> days since the epoch (UTC), or NaN when not a date.
 * @example
 * dayNumber('1970-01-02') // 1
 */
export function dayNumber(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (!m) return Number.NaN
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / MS_PER_DAY
}

/**
 * A day as 'Nov 18' (or 'Nov 18, 2026' with the year).
 * @example
 * formatDay(dayNumber('2026-11-18'), true) // 'Nov 18, 2026'
 */
export function formatDay(day: number, withYear = false): string {
  const d = new Date(day * MS_PER_DAY)
  const base = `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`
  return withYear ? `${base}, ${d.getUTCFullYear()}` : base
}

/**
 * A month start as "Jan '26".
 * @example
 * formatMonth(dayNumber('2026-01-01')) // "Jan '26"
 */
export function formatMonth(day: number): string {
  const d = new Date(day * MS_PER_DAY)
  return `${MONTHS[d.getUTCMonth()]} '${String(d.getUTCFullYear()).slice(2)}`
}

/**
 * An ISO timestamp as '2026-11-20 15:00 UTC'; anything unparsable comes back unchanged.
 * @example
 * formatTimestamp('2026-11-20T15:00:00Z') // '2026-11-20 15:00 UTC'
 */
export function formatTimestamp(iso: string): string {
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return iso
  const s = new Date(ms).toISOString()
  return `${s.slice(0, 10)} ${s.slice(11, 16)} UTC`
}

/**
 * An integer with thousands separators ('12,345'); '—' for a missing value.
 * @example
 * formatInt(8100) // '8,100'
 */
export function formatInt(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—'
  const sign = n < 0 ? '-' : ''
  return sign + String(Math.round(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/**
 * A number with fixed decimals; '—' for a missing value.
 * @example
 * formatNumber(1.456, 1) // '1.5'
 */
export function formatNumber(n: number | null | undefined, digits = 1): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—'
  return n.toFixed(digits)
}

/**
 * A percent (0-100 scale) as '52.3%'.
 * @example
 * formatPercent(33.333333333333336) // '33.3%'
 */
export function formatPercent(n: number | null | undefined, digits = 1): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—'
  return `${n.toFixed(digits)}%`
}
