/**
 * Hand-drawn inline SVG charts for the report page: a multi-line time chart, a sparkline and a
 * two-part donut. Every text goes through `esc`; every number is finite before it is written.
 */
import { dayNumber, esc, formatDay, formatMonth, formatPercent } from './format.js'

/** One line of a time chart. */
export interface LineSeries {
  name: string
  color: string
  /** Drawn thicker and on top. */
  emphasis: boolean
  points: { date: string; value: number }[]
}

export interface LineChartOptions {
  series: LineSeries[]
  /** Accessible title of the chart. */
  title: string
  width?: number
  height?: number
  /** Upper bound of the y axis (the nice maximum never exceeds it). */
  yCap?: number
}

const r2 = (n: number): string => (Math.round(n * 100) / 100).toString()

/**
 * A nice upper bound and step for a y axis from 0 to `max`, about four to five steps.
 * @example
 * niceScale(62) // { max: 80, step: 20 }
 */
export function niceScale(max: number, cap?: number): { max: number; step: number } {
  if (!(max > 0)) return { max: cap !== undefined ? Math.min(cap, 10) : 10, step: 2.5 }
  const rough = max / 4
  const pow = 10 ** Math.floor(Math.log10(rough))
  const n = rough / pow
  const step = (n <= 1 ? 1 : n <= 2 ? 2 : n <= 2.5 ? 2.5 : n <= 5 ? 5 : 10) * pow
  let top = Math.ceil(max / step - 1e-9) * step
  if (cap !== undefined && top > cap) top = cap
  return { max: top, step }
}

/**
 * Ticks for a day axis from `first` to `last` (day numbers), at most about seven: every 1, 2, 3,
 * 7 or 14 days up to two months, month starts beyond.
 * @example
 * dayTicks(dayNumber('2026-11-01'), dayNumber('2026-11-03')) // Nov 1, Nov 2, Nov 3
 */
export function dayTicks(first: number, last: number): { day: number; label: string }[] {
  const span = last - first
  if (span <= 0) return [{ day: first, label: formatDay(first) }]
  if (span <= 62) {
    const k = [1, 2, 3, 7, 14].find((s) => Math.floor(span / s) + 1 <= 7) ?? 14
    const ticks: { day: number; label: string }[] = []
    for (let d = first; d <= last; d += k) ticks.push({ day: d, label: formatDay(d) })
    return ticks
  }
  // Longer windows: month starts, every m months.
  const starts: number[] = []
  const d = new Date(first * 86_400_000)
  const y = d.getUTCFullYear()
  let m = d.getUTCMonth() + (d.getUTCDate() === 1 ? 0 : 1)
  for (;;) {
    const day = Date.UTC(y, m, 1) / 86_400_000
    if (day > last) break
    starts.push(day)
    m++
  }
  const every = [1, 2, 3, 6, 12].find((s) => Math.ceil(starts.length / s) <= 7) ?? 12
  return starts.filter((_, i) => i % every === 0).map((day) => ({ day, label: formatMonth(day) }))
}

/**
 * A multi-line chart over dates with a percent y axis, gridlines and date ticks.
 * @example
 * lineChart({ title: 'Visibility', series: [{ name: 'Acme', color: '#4f46e5', emphasis: true, points }] })
 */
export function lineChart(opts: LineChartOptions): string {
  const width = opts.width ?? 560
  const height = opts.height ?? 250
  const m = { top: 12, right: 18, bottom: 28, left: 46 }
  const iw = width - m.left - m.right
  const ih = height - m.top - m.bottom

  const days = opts.series.flatMap((s) => s.points.map((p) => dayNumber(p.date))).filter(Number.isFinite)
  const values = opts.series.flatMap((s) => s.points.map((p) => p.value)).filter(Number.isFinite)
  const first = Math.min(...days)
  const last = Math.max(...days)
  const { max: yMax, step } = niceScale(Math.max(0, ...values), opts.yCap)
  const x = (day: number): number =>
    last > first ? m.left + ((day - first) / (last - first)) * iw : m.left + iw / 2
  const y = (v: number): number => m.top + ih - (Math.min(Math.max(v, 0), yMax) / yMax) * ih

  const parts: string[] = []
  // Horizontal gridlines with percent labels.
  for (let v = 0; v <= yMax + 1e-9; v += step) {
    const yy = r2(y(v))
    parts.push(
      `<line x1="${m.left}" x2="${m.left + iw}" y1="${yy}" y2="${yy}" class="grid${v === 0 ? ' axis' : ''}"/>`,
      `<text x="${m.left - 8}" y="${yy}" class="tick" text-anchor="end" dominant-baseline="middle">${esc(
        formatPercent(v, step < 1 ? 1 : 0),
      )}</text>`,
    )
  }
  // Date ticks.
  if (days.length > 0) {
    for (const t of dayTicks(first, last)) {
      const xx = r2(x(t.day))
      parts.push(
        `<line x1="${xx}" x2="${xx}" y1="${m.top + ih}" y2="${m.top + ih + 4}" class="axis"/>`,
        `<text x="${xx}" y="${m.top + ih + 18}" class="tick" text-anchor="middle">${esc(t.label)}</text>`,
      )
    }
  }
  // Lines, emphasised ones last so they sit on top.
  const ordered = [
    ...opts.series.filter((s) => !s.emphasis).reverse(),
    ...opts.series.filter((s) => s.emphasis),
  ]
  const dense = days.length === 0 ? 0 : new Set(days).size
  for (const s of ordered) {
    const pts = s.points
      .map((p) => ({ day: dayNumber(p.date), value: p.value, date: p.date }))
      .filter((p) => Number.isFinite(p.day) && Number.isFinite(p.value))
    if (pts.length === 0) continue
    const cls = s.emphasis ? 'line brand' : 'line'
    if (pts.length > 1) {
      const d = pts.map((p, i) => `${i === 0 ? 'M' : 'L'}${r2(x(p.day))},${r2(y(p.value))}`).join('')
      parts.push(
        `<path d="${d}" class="${cls}" stroke="${esc(s.color)}"><title>${esc(s.name)}</title></path>`,
      )
    }
    if (pts.length === 1 || dense <= 16) {
      for (const p of pts) {
        parts.push(
          `<circle cx="${r2(x(p.day))}" cy="${r2(y(p.value))}" r="${s.emphasis ? 3.5 : 2.5}" fill="${esc(
            s.color,
          )}" class="dot"><title>${esc(`${s.name} · ${formatDay(p.day, true)}: ${formatPercent(p.value)}`)}</title></circle>`,
        )
      }
    }
  }
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="${esc(
    opts.title,
  )}" preserveAspectRatio="xMidYMid meet">${parts.join('')}</svg>`
}

/**
 * A tiny area sparkline of values over days between `first` and `last` (day numbers).
 * @example
 * sparkline([{ day: 20000, value: 1 }, { day: 20001, value: 3 }], 20000, 20001, '#4f46e5')
 */
export function sparkline(
  points: { day: number; value: number }[],
  first: number,
  last: number,
  color: string,
  width = 120,
  height = 28,
): string {
  const pts = points
    .filter((p) => Number.isFinite(p.day) && Number.isFinite(p.value))
    .sort((a, b) => a.day - b.day)
  if (pts.length === 0) return ''
  const max = Math.max(1, ...pts.map((p) => p.value))
  const pad = 2
  const x = (day: number): number =>
    last > first ? pad + ((day - first) / (last - first)) * (width - 2 * pad) : width / 2
  const y = (v: number): number => height - pad - (v / max) * (height - 2 * pad)
  const base = height - pad
  const line = pts.map((p, i) => `${i === 0 ? 'M' : 'L'}${r2(x(p.day))},${r2(y(p.value))}`).join('')
  const area = `${line}L${r2(x(pts[pts.length - 1]!.day))},${base}L${r2(x(pts[0]!.day))},${base}Z`
  const lastPt = pts[pts.length - 1]!
  return `<svg class="spark" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" aria-hidden="true"><path d="${area}" fill="${esc(
    color,
  )}" fill-opacity="0.12"/><path d="${line}" fill="none" stroke="${esc(color)}" stroke-width="1.5" stroke-linejoin="round"/><circle cx="${r2(
    x(lastPt.day),
  )}" cy="${r2(y(lastPt.value))}" r="2" fill="${esc(color)}"/></svg>`
}

/**
 * A two-part donut (for example positive vs negative), with a centre label.
 * @example
 * donut([{ value: 62.5, color: '#16a34a', label: 'Positive' }, { value: 37.5, color: '#dc2626', label: 'Negative' }], '62.5%', 'positive')
 */
export function donut(
  parts: { value: number; color: string; label: string }[],
  centre: string,
  caption: string,
  size = 180,
): string {
  const r = size / 2 - 14
  const c = 2 * Math.PI * r
  const total = parts.reduce((s, p) => s + (Number.isFinite(p.value) && p.value > 0 ? p.value : 0), 0)
  let offset = 0
  const arcs = parts.map((p) => {
    const v = Number.isFinite(p.value) && p.value > 0 ? p.value : 0
    const len = total > 0 ? (v / total) * c : 0
    const arc = `<circle cx="${size / 2}" cy="${size / 2}" r="${r2(r)}" fill="none" stroke="${esc(
      p.color,
    )}" stroke-width="22" stroke-dasharray="${r2(len)} ${r2(c - len)}" stroke-dashoffset="${r2(-offset)}" transform="rotate(-90 ${
      size / 2
    } ${size / 2})"><title>${esc(`${p.label}: ${formatPercent(p.value)}`)}</title></circle>`
    offset += len
    return arc
  })
  return `<svg class="donut" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}" role="img" aria-label="${esc(
    `${centre} ${caption}`,
  )}"><circle cx="${size / 2}" cy="${size / 2}" r="${r2(r)}" fill="none" stroke="#eef0f3" stroke-width="22"/>${arcs.join(
    '',
  )}<text x="50%" y="${size / 2 - 4}" text-anchor="middle" class="donut-value">${esc(centre)}</text><text x="50%" y="${
    size / 2 + 18
  }" text-anchor="middle" class="donut-caption">${esc(caption)}</text></svg>`
}

/** The width of an interval strip and the inset of its axis at each end. */
export const STRIP = { width: 220, height: 22, inset: 6 } as const

/**
 * A percent and its confidence interval on a fixed 0-100% axis (the same axis on every row, so
 * the rows compare): a band with whiskers from `low` to `high` and a dot at `value`. Values are
 * clamped to the axis; an interval that is not two finite numbers draws the dot alone.
 * @example
 * intervalStrip(40, 25.1, 56.7, '#4338ca', 'Visibility 40% (95% interval 25.1%-56.7%)')
 */
export function intervalStrip(
  value: number,
  interval: readonly number[] | null,
  color: string,
  title: string,
): string {
  const { width, height, inset } = STRIP
  const x = (v: number): string => r2(inset + (Math.max(0, Math.min(100, v)) / 100) * (width - 2 * inset))
  const mid = height / 2
  const [low, high] = interval ?? []
  const band =
    low !== undefined && high !== undefined && Number.isFinite(low) && Number.isFinite(high)
      ? `<rect class="ci-band" x="${x(low)}" y="${mid - 4}" width="${r2(Number(x(high)) - Number(x(low)))}" height="8" fill="${esc(color)}" fill-opacity="0.22"/><line class="ci-whisker" x1="${x(low)}" x2="${x(low)}" y1="${mid - 6}" y2="${mid + 6}" stroke="${esc(color)}" stroke-width="1.5"/><line class="ci-whisker" x1="${x(high)}" x2="${x(high)}" y1="${mid - 6}" y2="${mid + 6}" stroke="${esc(color)}" stroke-width="1.5"/>`
      : ''
  const ticks = [0, 25, 50, 75, 100]
    .map((t) => `<line class="ci-tick" x1="${x(t)}" x2="${x(t)}" y1="${mid - 3}" y2="${mid + 3}"/>`)
    .join('')
  const dot = Number.isFinite(value)
    ? `<circle class="ci-dot" cx="${x(value)}" cy="${mid}" r="3.5" fill="${esc(color)}"/>`
    : ''
  return `<svg class="ci" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title><line class="ci-axis" x1="${x(0)}" x2="${x(100)}" y1="${mid}" y2="${mid}"/>${ticks}${band}${dot}</svg>`
}
