/**
 * Suite "ingest" (issue case 4): an NDJSON file of the dataset into a committed file store, measured
 * in a child process (wall time, analyses/s, mentions/s, peak RSS from the child's
 * process.resourceUsage().maxRSS and, when present, /usr/bin/time -v), then the same file again into
 * the same store (idempotent upsert: counts and every report must be unchanged).
 * Beside it, in the same run and on the same file, the naive native load (ingest-native-child.ts:
 * DuckDB alone, typed read_ndjson, UNNEST of mentions and citations, a GROUP BY per day and entity,
 * into a file-backed store with the same memory limit), also in a child process; the ratio of the
 * engine's rate to it is reported. The file is written first, outside any timing.
 * A full run on L then ingests the 2 GB file of issue 26's peak-RSS target (bench/data/big.ts: L
 * and copies of its analyses with other ids) into a store of its own, in a child the same way.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { BENCH_NOW, DATASETS, datasetRecords, mainDomainId } from '../data/generator.js'
import { writeNdjson } from '../data/ndjson.js'
import { writeBigNdjson } from '../data/big.js'
import { TypedArrayStore } from '../peers/typed-arrays.js'
import { diffPayloads } from '../lib/compare.js'
import { stopwatch } from '../lib/timing.js'
import { outPath, removeStore, writeJson, startSuite } from '../lib/suite.js'
import type { FunctionName, ReportFunctions } from '../lib/semantics.js'
import type { IngestResult } from '../../src/types.js'

const { quick, dsName, out, log } = startSuite('ingest')
const spec = DATASETS[dsName]
const domainId = mainDomainId(spec)

interface ChildReport {
  openMs: number
  ingestMs: number
  closeMs: number
  result: IngestResult
  maxRssKB: number
  maxRssEndKB: number
  payloads: Record<string, unknown>
  timeMaxRssKB?: number
}

interface NativeReport {
  ms: number
  steps: Record<string, number>
  rows: { analyses: number; mentions: number; citations: number; aggEntityDay: number }
  maxRssKB: number
}

function runChild(file: string, store: string, tag: string, script = 'ingest-child'): ChildReport {
  const child = fileURLToPath(new URL(`./${script}.js`, import.meta.url))
  const report = outPath(`ingest-${dsName}-${tag}.json`)
  const nodeArgs = [child, `--file=${file}`, `--store=${store}`, `--out=${report}`, `--domain=${domainId}`]
  const useTime = existsSync('/usr/bin/time')
  const r = useTime
    ? spawnSync('/usr/bin/time', ['-v', process.execPath, ...nodeArgs], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      })
    : spawnSync(process.execPath, nodeArgs, { encoding: 'utf8', maxBuffer: 1 << 26 })
  if (r.status !== 0) throw new Error(`ingest child (${tag}) failed: ${r.stderr?.slice(-2000)}`)
  const rep = JSON.parse(readFileSync(report, 'utf8')) as ChildReport
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr ?? '')
  if (m?.[1]) rep.timeMaxRssKB = Number(m[1])
  return rep
}

function logIngest(label: string, r: ChildReport): void {
  log(label, r.result, `${r.ingestMs.toFixed(0)} ms`, `maxRSS ${(r.maxRssKB / 1024).toFixed(0)} MB`)
}

async function main(): Promise<void> {
  const file = outPath(`${dsName}.ndjson`)
  const w = await stopwatch(() => writeNdjson(file, datasetRecords(spec)))
  out.setup['write NDJSON file (not timed as ingest)'] = w.ms
  out.sizes = { lines: w.value.lines, fileMB: w.value.bytes / 2 ** 20 }
  log('NDJSON written', w.value, `${w.ms.toFixed(0)} ms`)

  const store = outPath(`store-ingest-${dsName}.duckdb`)
  removeStore(store)
  const first = runChild(file, store, 'first')
  logIngest('first ingest', first)
  const storeMB = statSync(store).size / 2 ** 20
  const nativeStore = outPath(`store-ingest-native-${dsName}.duckdb`)
  removeStore(nativeStore)
  const native = runChild(file, nativeStore, 'native', 'ingest-native-child') as unknown as NativeReport
  removeStore(nativeStore)
  log('naive native load', native.rows, `${native.ms.toFixed(0)} ms`, JSON.stringify(native.steps))
  if (native.rows.analyses !== first.result.analyses || native.rows.mentions !== first.result.mentions)
    out.failures.push(
      `naive native load read ${native.rows.analyses} analyses / ${native.rows.mentions} mentions, the engine stored ${first.result.analyses} / ${first.result.mentions}`,
    )
  const second = runChild(file, store, 'again')
  logIngest('re-ingest', second)

  const oracle = TypedArrayStore.build(datasetRecords(spec), domainId)
  for (const [k, got] of Object.entries(first.payloads)) {
    const fn = k.split(' ')[0] as FunctionName
    const days = Number(/days=(\d+)/.exec(k)?.[1])
    const params = (
      k.includes('limit=') ? { domainId, days, limit: 25 } : { domainId, days, model: 'all' }
    ) as Record<string, unknown>
    const want = (oracle[fn] as ReportFunctions[FunctionName]).call(oracle, {
      ...params,
      now: BENCH_NOW,
    } as never)
    for (const [impl, payload, against, ref] of [
      ['engine after ingestFile', got, 'typed-arrays', want],
      ['engine after re-ingest', second.payloads[k], 'engine after ingestFile', got],
    ] as const) {
      const diffs = diffPayloads(payload, ref)
      out.checks.push({ case: k, impl, ok: diffs.length === 0, against, diffs })
      if (diffs.length > 0) out.failures.push(`${impl} ${k}: wrong payload: ${diffs.slice(0, 3).join('; ')}`)
    }
  }
  const countDiffs = diffPayloads(second.result, first.result)
  if (countDiffs.length > 0)
    out.notes.push(`re-ingest counts differ from the first ingest: ${countDiffs.join('; ')}`)
  if (first.result.analyses !== oracle.analyses)
    out.failures.push(`ingest stored ${first.result.analyses} analyses, expected ${oracle.analyses}`)

  // Issue 26's peak RSS target is for a 2 GB file (not run by --quick: ~3 minutes and ~5 GB of disk).
  let big: { report: ChildReport; fileMB: number; lines: number } | null = null
  if (!quick && dsName === 'L') {
    const bigFile = outPath('big.ndjson')
    const wb = await stopwatch(() => writeBigNdjson(bigFile))
    out.setup['write the 2 GB NDJSON file (not timed as ingest)'] = wb.ms
    const bigStore = outPath('store-ingest-big.duckdb')
    removeStore(bigStore)
    try {
      const report = runChild(bigFile, bigStore, 'big')
      logIngest('2 GB file', report)
      if (report.result.analyses !== wb.value.analyses)
        out.failures.push(
          `the 2 GB file: ${report.result.analyses} analyses stored, ${wb.value.analyses} in the file`,
        )
      big = { report, fileMB: wb.value.bytes / 2 ** 20, lines: wb.value.lines }
    } finally {
      removeStore(bigStore)
      rmSync(bigFile, { force: true })
    }
  }

  const mk = (r: ChildReport) => ({
    ms: r.ingestMs,
    analysesPerSec: r.result.analyses / (r.ingestMs / 1000),
    mentionsPerSec: r.result.mentions / (r.ingestMs / 1000),
    peakRssMB: r.maxRssKB / 1024,
    peakRssMBTimeV: r.timeMaxRssKB !== undefined ? r.timeMaxRssKB / 1024 : null,
    openMs: r.openMs,
    closeMs: r.closeMs,
    result: r.result,
  })
  out.extra = {
    first: mk(first),
    again: mk(second),
    native: {
      ms: native.ms,
      analysesPerSec: native.rows.analyses / (native.ms / 1000),
      mentionsPerSec: native.rows.mentions / (native.ms / 1000),
      peakRssMB: native.maxRssKB / 1024,
      steps: native.steps,
      rows: native.rows,
    },
    /** The engine's first ingest rate over the naive native load's, same file, same run. */
    engineOverNative: native.ms / first.ingestMs,
    storeMB,
    storeMBAfterReingest: statSync(store).size / 2 ** 20,
    ...(big === null ? {} : { big: { ...mk(big.report), fileMB: big.fileMB, lines: big.lines } }),
  }
  out.sizes.analyses = first.result.analyses
  out.sizes.mentions = first.result.mentions
  if (!quick) removeStore(store)
}

main()
  .catch((e: unknown) => {
    out.failures.push(`suite crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
    console.error(e)
  })
  .finally(() => {
    writeJson(`suite-ingest-${dsName}.json`, out)
    process.exit(out.failures.length > 0 ? 1 : 0)
  })
