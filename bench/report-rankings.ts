/**
 * The brand rankings, model leaderboard and brand time series in the report (bench/suites/rankings.ts):
 * their targets and their section of RESULTS.md.
 */
import type { SuiteRun, Target } from './report.js'
import { crowdTarget, ms, ratio } from './lib/format.js'
import type { TimingRow } from './lib/suite.js'

const REPORTS = [
  'brand rankings',
  'model leaderboard',
  'visibility series',
  'mentions series',
  'citations series',
  'citability series',
]

/** The timed row of a report at `days` for `impl`, with the default model (`all`, or none: the leaderboard). */
const row = (rows: TimingRow[], report: string, days: number, impl: string): TimingRow | undefined =>
  rows.find(
    (r) =>
      r.fn === report &&
      r.days === days &&
      r.impl === impl &&
      (!r.case.includes('model=') || r.case.endsWith('model=all')),
  )

/** The targets: warm <= 15 ms at 365 days and <= 3 ms at 30, >= 10x the naive SQL, crowd / alone <= 1.2x. */
export function rankingsTargets(runs: SuiteRun[], quick: boolean): Target[] {
  const t: Target[] = []
  const main = runs.find((r) => r.id === (quick ? 'rankings-S' : 'rankings-L'))?.output
  if (main) {
    for (const report of REPORTS) {
      for (const [days, goal] of [
        [365, 15],
        [30, 3],
      ] as const) {
        const e = row(main.timings, report, days, 'engine')
        const n = row(main.timings, report, days, 'naive-sql')
        t.push({
          name: `${report}, days=${days}: median`,
          goal: `<= ${goal} ms`,
          measured: e ? `${ms(e.median)} ms` : 'not measured',
          met: e ? e.median <= goal : false,
        })
        t.push({
          name: `${report}, days=${days}: vs naive DuckDB SQL`,
          goal: '>= 10x faster',
          measured: e && n ? ratio(n.median / e.median) : 'not measured',
          met: e && n ? n.median / e.median >= 10 : false,
        })
      }
    }
  }
  const crowd = runs.find((r) => r.id === 'rankings-Crowd')?.output
  if (crowd) {
    t.push(crowdTarget('listings and rankings: Crowd / alone (worst case, medians)', crowd.timings))
  }
  return t
}

/** The section of RESULTS.md: engine warm and cold beside the naive SQL, and crowd / alone. */
export function rankingsSection(runs: SuiteRun[]): string[] {
  const L: string[] = []
  for (const r of runs.filter((x) => x.id.startsWith('rankings-') && x.output)) {
    const out = r.output!
    if (out.timings.some((x) => x.impl === 'engine (crowd)')) {
      L.push(`## Brand rankings, model leaderboard, brand series: tenant independence (${out.dataset})`, '')
      L.push(
        '| case | alone median / p95 (ms) | crowd median / p95 (ms) | crowd / alone |',
        '|---|---:|---:|---:|',
      )
      for (const a of out.timings.filter((x) => x.impl === 'engine (alone)')) {
        const c = out.timings.find((x) => x.case === a.case && x.impl === 'engine (crowd)')
        L.push(
          `| ${a.case} | ${ms(a.median)} / ${ms(a.p95)} | ${c ? `${ms(c.median)} / ${ms(c.p95)}` : '–'} | ${c ? ratio(c.median / a.median) : '–'} |`,
        )
      }
      L.push('')
      continue
    }
    L.push(`## Brand rankings, model leaderboard, brand series on ${out.dataset}: engine and naive SQL`, '')
    L.push(
      'Warm engine (file store, aggregates in memory), cold engine (first call after opening the store) and the naive DuckDB SQL peer (bench/peers/naive-sql-rankings.ts), medians and p95 in ms. Rows with `model=` other than `all` are outside the targets (a raw model id takes the documented slower path).',
      '',
    )
    L.push('| case | engine warm | engine cold | naive SQL | naive / engine |', '|---|---:|---:|---:|---:|')
    for (const e of out.timings.filter((x) => x.impl === 'engine')) {
      const cold = out.timings.find((x) => x.case === e.case && x.impl === 'engine (cold)')
      const n = out.timings.find((x) => x.case === e.case && x.impl === 'naive-sql')
      L.push(
        `| ${e.case} | ${ms(e.median)} / ${ms(e.p95)} | ${ms(cold?.median)} | ${n ? `${ms(n.median)} / ${ms(n.p95)}` : '–'} | ${n ? ratio(n.median / e.median) : '–'} |`,
      )
    }
    L.push('')
  }
  return L
}
