/**
 * Suite "columnar" (target: "Arrow and Parquet ingest at least 1M mention rows/s"): the dataset
 * as NDJSON into a fresh file store (the baseline), that store's own `exportParquet`, then
 * `engine.ingestFile(<export dir>)` and `engine.ingestArrow(tables)` of the same data, each into a
 * fresh file store, one transaction per call. Reports wall ms, mention rows/s and analyses/s (median
 * of `--runs` runs per path, all in this process, stores removed between runs) and the ratio to the
 * NDJSON ingest measured in the same run. Every store's payloads and counts must equal the NDJSON
 * store's. The NDJSON file, the export and the Arrow tables are made outside any timing.
 * `--paths=ndjson,parquet,arrow` runs a subset (NDJSON always runs once, as the reference).
 */
import { rmSync } from 'node:fs'
import { arrowTablesOf } from '../lib/arrow-tables.js'
import { DATASETS, datasetRecords, mainDomainId } from '../data/generator.js'
import { writeNdjson } from '../data/ndjson.js'
import { diffPayloads } from '../lib/compare.js'
import { loadEngineModule, type EngineModule } from '../lib/engine.js'
import { stopwatch, summarize } from '../lib/timing.js'
import { callReport, caseList, gc, outPath, removeStore, startSuite, writeJson } from '../lib/suite.js'
import type { Engine, IngestResult } from '../../src/types.js'

const { args, quick, dsName, out, log } = startSuite('columnar')
const spec = DATASETS[dsName]
const domainId = mainDomainId(spec)
const runs = typeof args.runs === 'string' ? Number(args.runs) : quick ? 1 : 3
const paths = typeof args.paths === 'string' ? args.paths.split(',') : ['ndjson', 'parquet', 'arrow']

/** The payloads every store is checked on: all cases of the suites (timed or not). */
async function payloadsOf(engine: Engine): Promise<Record<string, unknown>> {
  const outp: Record<string, unknown> = {}
  for (const c of caseList(domainId)) outp[c.key] = await callReport(engine as never, c.fn, c.params)
  return outp
}

interface RunResult {
  ms: number
  result: IngestResult
}

async function main(): Promise<void> {
  const mod = await loadEngineModule()
  if (!mod.module) throw new Error(`engine not available: ${mod.error}`)
  const engineMod: EngineModule = mod.module

  const file = outPath(`${dsName}.ndjson`)
  const w = await stopwatch(() => writeNdjson(file, datasetRecords(spec)))
  out.setup['write NDJSON file'] = w.ms
  out.sizes = { lines: w.value.lines, fileMB: w.value.bytes / 2 ** 20 }
  log('NDJSON written', w.value, `${w.ms.toFixed(0)} ms`)

  const store = outPath(`store-columnar-${dsName}.duckdb`)
  const exportDir = outPath(`export-columnar-${dsName}`)

  /**
   * One ingest into a fresh file store with the engine's defaults (its memory limit included), then
   * `keep` on the committed store reopened, also with the defaults (the checks and the export are
   * not what is measured).
   */
  const ingestOnce = async (
    name: string,
    feed: (e: Engine) => Promise<IngestResult>,
    keep?: (e: Engine) => Promise<void>,
  ): Promise<RunResult> => {
    removeStore(store)
    gc()
    try {
      const engine = (await engineMod.openEngine({ path: store })) as Engine
      let run: RunResult
      try {
        log(`${name}: ingesting`)
        const t0 = performance.now()
        const result = await feed(engine)
        run = { ms: performance.now() - t0, result }
      } finally {
        await engine.close()
      }
      log(`${name}: ${run.ms.toFixed(0)} ms`, JSON.stringify(run.result))
      if (keep) {
        const check = (await engineMod.openEngine({ path: store })) as Engine
        try {
          await keep(check)
        } finally {
          await check.close()
        }
      }
      return run
    } finally {
      removeStore(store)
    }
  }

  // The reference: NDJSON, whose store gives the expected payloads and the export.
  let expected: Record<string, unknown> = {}
  const measured: Record<string, RunResult[]> = { ndjson: [], parquet: [], arrow: [] }
  const ndjsonRuns = paths.includes('ndjson') ? runs : 1
  for (let i = 0; i < ndjsonRuns; i++) {
    const r = await ingestOnce(
      `ndjson run ${i + 1}`,
      (e) => e.ingestFile(file),
      i > 0
        ? undefined
        : async (e) => {
            expected = await payloadsOf(e)
            rmSync(exportDir, { recursive: true, force: true })
            const x = await stopwatch(() => e.exportParquet(exportDir))
            out.setup['exportParquet of the NDJSON store'] = x.ms
          },
    )
    measured.ndjson!.push(r)
  }
  const reference = measured.ndjson![0]!.result
  const a = await stopwatch(() => arrowTablesOf(exportDir))
  out.setup['Arrow tables from the export'] = a.ms
  const tables = a.value

  const feeds: Record<string, (e: Engine) => Promise<IngestResult>> = {
    parquet: (e) => e.ingestFile(exportDir),
    arrow: (e) => e.ingestArrow(tables),
  }
  for (const path of ['parquet', 'arrow'] as const) {
    if (!paths.includes(path)) continue
    for (let i = 0; i < runs; i++) {
      let got: Record<string, unknown> = {}
      const r = await ingestOnce(`${path} run ${i + 1}`, feeds[path]!, async (e) => {
        got = await payloadsOf(e)
      })
      measured[path]!.push(r)
      const impl = `${path} ingest run ${i + 1}`
      for (const [k, want] of Object.entries(expected)) {
        const diffs = diffPayloads(got[k], want, { relTol: 0 })
        out.checks.push({ case: k, impl, ok: diffs.length === 0, against: 'NDJSON ingest', diffs })
        if (diffs.length > 0)
          out.failures.push(`${impl} ${k}: wrong payload: ${diffs.slice(0, 3).join('; ')}`)
      }
      const countDiffs = diffPayloads(r.result, reference)
      out.checks.push({
        case: 'ingest counts',
        impl,
        ok: countDiffs.length === 0,
        against: 'NDJSON ingest',
        diffs: countDiffs,
      })
      if (countDiffs.length > 0) out.failures.push(`${impl}: counts differ: ${countDiffs.join('; ')}`)
    }
  }

  const rows: Record<string, unknown> = {}
  const ndjsonMedian = summarize(measured.ndjson!.map((r) => r.ms)).median
  for (const [path, rs] of Object.entries(measured)) {
    if (rs.length === 0) continue
    const t = summarize(rs.map((r) => r.ms))
    out.timings.push({ case: `${path} ingest`, fn: `ingest ${path}`, days: 0, impl: 'engine', ...t })
    rows[path] = {
      runs: rs.length,
      medianMs: t.median,
      mentionRowsPerSec: reference.mentions / (t.median / 1000),
      analysesPerSec: reference.analyses / (t.median / 1000),
      vsNdjson: t.median / ndjsonMedian,
      samplesMs: rs.map((r) => Math.round(r.ms)),
    }
    log(path, rows[path])
  }
  out.sizes.analyses = reference.analyses
  out.sizes.mentions = reference.mentions
  out.extra = { paths: rows, target: 'Arrow and Parquet ingest at least 1,000,000 mention rows/s' }
  rmSync(exportDir, { recursive: true, force: true })
  if (!quick) rmSync(file, { force: true })
}

main()
  .catch((e: unknown) => {
    out.failures.push(`suite crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
    console.error(e)
  })
  .finally(() => {
    writeJson(`suite-columnar-${dsName}.json`, out)
    process.exit(out.failures.length > 0 ? 1 : 0)
  })
