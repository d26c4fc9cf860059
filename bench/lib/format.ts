/** Number formats and the crowd / alone target shared by the RESULTS.md sections (bench/report*.ts). */
import type { Target } from '../report.js'
import type { TimingRow } from './suite.js'

/** Milliseconds with two, one or no decimals as they grow; '–' when not measured. */
export const ms = (x: number | undefined): string =>
  x === undefined || !Number.isFinite(x)
    ? '–'
    : x >= 100
      ? x.toFixed(0)
      : x >= 10
        ? x.toFixed(1)
        : x.toFixed(2)

/** A ratio such as `3.8x` or `92x`; '–' when not measured. */
export const ratio = (x: number | undefined): string =>
  x === undefined || !Number.isFinite(x) ? '–' : `${x >= 10 ? x.toFixed(0) : x.toFixed(1)}x`

/** The largest crowd / alone ratio of medians over the cases timed both ways, and its case. */
export function worstCrowdRatio(rows: TimingRow[]): { worst: number; at: string } {
  let worst = 0
  let at = ''
  for (const a of rows.filter((r) => r.impl === 'engine (alone)')) {
    const c = rows.find((r) => r.case === a.case && r.impl === 'engine (crowd)')
    if (c && c.median / a.median > worst) {
      worst = c.median / a.median
      at = a.case
    }
  }
  return { worst, at }
}

/** The tenant-independence target: crowd / alone <= 1.2x in the worst case. */
export function crowdTarget(name: string, rows: TimingRow[]): Target {
  const { worst, at } = worstCrowdRatio(rows)
  return {
    name,
    goal: '<= 1.2x',
    measured: worst ? `${ratio(worst)} (${at})` : 'not measured',
    met: worst ? worst <= 1.2 : false,
  }
}
