/**
 * The "citations" suite in results.json and RESULTS.md: the targets of the
 * citations, cited-domains, fan-out and sentiment time series reports, and their section.
 */
import type { SuiteOutput, TimingRow } from './lib/suite.js'
import type { SuiteRun, Target } from './report.js'
import { crowdTarget, ms, ratio } from './lib/format.js'

export const CITATION_LABEL: Record<string, string> = {
  citations: 'citations',
  citedDomains: 'cited domains',
  fanoutQueries: 'fan-out queries',
  sentimentSeries: 'sentiment time series',
}

const find = (rows: TimingRow[], fn: string, days: number, impl: string) =>
  rows.find((r) => r.fn === fn && r.days === days && r.impl === impl)

function citationsRun(runs: SuiteRun[]): SuiteOutput | null {
  return runs.find((r) => r.id.startsWith('citations-'))?.output ?? null
}

/** Medians at 365 and 30 days, against the naive SQL peer, and crowd / alone (worst case). */
export function citationTargets(runs: SuiteRun[]): Target[] {
  const out = citationsRun(runs)
  if (out === null) return []
  const t: Target[] = []
  for (const [fn, label] of Object.entries(CITATION_LABEL)) {
    for (const [days, goal] of [
      [365, 15],
      [30, 3],
    ] as const) {
      const e = find(out.timings, fn, days, 'engine')
      const naive = find(out.timings, fn, days, 'naive-sql')
      t.push({
        name: `${label}, days=${days}: median`,
        goal: `<= ${goal} ms`,
        measured: e ? `${ms(e.median)} ms (${ratio(e.median / goal)} of target)` : 'not measured',
        met: e ? e.median <= goal : false,
      })
      t.push({
        name: `${label}, days=${days}: vs naive DuckDB SQL`,
        goal: '>= 10x faster',
        measured: e && naive ? ratio(naive.median / e.median) : 'not measured',
        met: e && naive ? naive.median / e.median >= 10 : false,
      })
    }
  }
  t.push(
    crowdTarget(
      'citations, cited domains, fan-out, sentiment series: crowd / alone (worst case, medians)',
      out.timings,
    ),
  )
  return t
}

/** The section of RESULTS.md. */
export function citationSection(runs: SuiteRun[]): string[] {
  const out = citationsRun(runs)
  if (out === null) return []
  const L: string[] = []
  L.push(`## Issue 11: citations, cited domains, fan-out queries, sentiment over time (${out.dataset})`)
  L.push('')
  L.push(
    "Warm engine (file store), model `all`, limit 100; cold = the first call after opening the store (its structures read from DuckDB first). naive-sql = bench/peers/naive-sql-citations.ts: the naive peer's raw tables, one GROUP BY per report. Crowd: the same domain in a store with " +
      `${(out.sizes.crowdDomains ?? 1) - 1} other domains, timed back to back with the lone store. Medians / p95 in ms.`,
  )
  L.push('')
  L.push(
    '| report | days | engine | engine cold | naive-sql | naive / engine | alone | crowd | crowd / alone |',
  )
  L.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
  for (const [fn, label] of Object.entries(CITATION_LABEL)) {
    for (const days of [30, 365]) {
      const cell = (impl: string) => {
        const r = find(out.timings, fn, days, impl)
        return { text: r ? `${ms(r.median)} / ${ms(r.p95)}` : '–', median: r?.median }
      }
      const e = cell('engine')
      const cold = cell('engine (cold: first call after open)')
      const naive = cell('naive-sql')
      const alone = cell('engine (alone)')
      const crowd = cell('engine (crowd)')
      L.push(
        `| ${label} | ${days} | ${e.text} | ${cold.text} | ${naive.text} | ${ratio((naive.median ?? NaN) / (e.median ?? NaN))} | ${alone.text} | ${crowd.text} | ${ratio((crowd.median ?? NaN) / (alone.median ?? NaN))} |`,
      )
    }
  }
  L.push('')
  return L
}
