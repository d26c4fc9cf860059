/**
 * The "columnar" suite in results.json and RESULTS.md: Parquet and Arrow ingest against
 * the target of 1M mention rows/s, with the NDJSON ingest of the same data in the same run.
 */
import type { SuiteOutput } from './lib/suite.js'
import type { SuiteRun, Target } from './report.js'
import { ratio } from './lib/format.js'

/** The issue's goal for `ingestFile(<Parquet export>)` and `ingestArrow(tables)`. */
export const COLUMNAR_GOAL = 1_000_000

interface PathRow {
  runs: number
  medianMs: number
  mentionRowsPerSec: number
  analysesPerSec: number
  vsNdjson: number
  samplesMs: number[]
}

const LABEL: Record<string, string> = {
  ndjson: 'NDJSON file (`ingestFile`, the baseline)',
  parquet: 'Parquet export (`ingestFile(dir)`)',
  arrow: 'Arrow tables (`ingestArrow`)',
}

function columnarRun(runs: SuiteRun[]): SuiteOutput | null {
  return runs.find((r) => r.id.startsWith('columnar-'))?.output ?? null
}

const paths = (out: SuiteOutput) => (out.extra?.paths ?? {}) as Record<string, PathRow>
const perSec = (x: number) => `${Math.round(x).toLocaleString('en-US')}/s`

/** Mention rows/s of the Parquet and Arrow paths against 1M/s. */
export function columnarTargets(runs: SuiteRun[]): Target[] {
  const out = columnarRun(runs)
  if (out === null) return []
  return (['parquet', 'arrow'] as const).map((p) => {
    const row = paths(out)[p]
    return {
      name: `ingest ${p === 'arrow' ? 'Arrow' : 'Parquet'}: mention rows/s`,
      goal: `>= ${COLUMNAR_GOAL.toLocaleString('en-US')}/s`,
      measured: row
        ? `${perSec(row.mentionRowsPerSec)} (${row.mentionRowsPerSec >= COLUMNAR_GOAL ? `${ratio(row.mentionRowsPerSec / COLUMNAR_GOAL)} of target` : `${ratio(COLUMNAR_GOAL / row.mentionRowsPerSec)} short`})`
        : 'not measured',
      met: row ? row.mentionRowsPerSec >= COLUMNAR_GOAL : false,
    }
  })
}

export function columnarSection(runs: SuiteRun[]): string[] {
  const out = columnarRun(runs)
  if (out === null) return []
  const L: string[] = [
    `## Case 4b: Parquet and Arrow ingest (${out.dataset}, ${out.sizes.analyses?.toLocaleString('en-US')} analyses, ${out.sizes.mentions?.toLocaleString('en-US')} mention rows)`,
    '',
    "Each run is one call into a fresh file store, in the suite's process: the NDJSON file, then the NDJSON store's own `exportParquet` read back with `ingestFile(dir)`, then the same export as Arrow tables (Utf8, Int32, Float64, TimestampMillisecond, DateDay) with `ingestArrow`. Median of the runs; every store's payloads and counts checked equal to the NDJSON store's.",
    '',
    '| path | runs | median (s) | mention rows/s | analyses/s | time vs NDJSON |',
    '|---|---:|---:|---:|---:|---:|',
  ]
  for (const [p, row] of Object.entries(paths(out))) {
    L.push(
      `| ${LABEL[p] ?? p} | ${row.runs} | ${(row.medianMs / 1000).toFixed(2)} | ${perSec(row.mentionRowsPerSec)} | ${perSec(row.analysesPerSec)} | ${ratio(row.vsNdjson)} |`,
    )
  }
  L.push('')
  return L
}
