/**
 * Suite "compute" (issue cases 1, 2 and 5) on one dataset, in its own process:
 * the engine's four functions at days 7/30/90/365 on a warm engine, the peers on the same data,
 * every answer checked against the oracle before anything is timed, and the scan-only floor.
 *
 * Oracle: the reference model's payloads (bench/out/expected-<dataset>.json, written by the
 * "reference" suite in the same run) when present, else the typed-array peer's.
 */
import { DATASETS, BENCH_NOW, datasetRecords, mainDomainId } from '../data/generator.js'
import { TypedArrayStore } from '../peers/typed-arrays.js'
import { NaiveSql, buildFloorTable } from '../peers/naive-sql.js'
import { loadPolarsPeer } from '../peers/polars.js'
import { loadEngineModule, type EngineModule } from '../lib/engine.js'
import { diffPayloads } from '../lib/compare.js'
import { quantile, timeCase, stopwatch, type TimingOptions } from '../lib/timing.js'
import {
  DAYS,
  caseList,
  gc,
  outPath,
  profiles,
  readJson,
  removeStore,
  writeJson,
  type CaseSpec,
  startSuite,
  callReport,
} from '../lib/suite.js'
import type { ReportFunctions } from '../lib/semantics.js'

interface Impl {
  name: string
  fns: ReportFunctions
  profile: TimingOptions
}

const { quick, dsName, out, log } = startSuite('compute')
const spec = DATASETS[dsName]
const domainId = mainDomainId(spec)
const prof = profiles(quick)

async function main(): Promise<void> {
  // Peers, loaded from the generator (outside any timing).
  const typed = await stopwatch(() => TypedArrayStore.build(datasetRecords(spec), domainId))
  out.setup['typed-arrays: load'] = typed.ms
  out.sizes = {
    analyses: typed.value.analyses,
    mentions: typed.value.mentionRows,
    citations: typed.value.cHost.length,
    theme_occurrences: typed.value.tTheme.length,
    prompts: typed.value.prompts.length,
    competitors: typed.value.competitors.length,
    themes: typed.value.themes.length,
    days: spec.main.days,
  }
  log('typed arrays loaded', out.sizes, `${typed.ms.toFixed(0)} ms`)
  const naive = await stopwatch(() => NaiveSql.load(datasetRecords(spec)))
  out.setup['naive-sql: load (appenders)'] = naive.ms
  const floorBuild = await stopwatch(() => buildFloorTable(naive.value))
  out.setup['floor table: build'] = floorBuild.ms
  log('naive sql loaded', `${naive.ms.toFixed(0)} ms`)

  const impls: Impl[] = []
  const engineMod = await loadEngineModule()
  let closeEngine: (() => Promise<void>) | null = null
  if (engineMod.module) {
    const path = outPath(`store-${dsName}.duckdb`)
    removeStore(path)
    const engine = await engineMod.module.openEngine({ path })
    const ing = await stopwatch(() => engine.ingest(datasetRecords(spec)))
    out.setup['engine: ingest records -> file store (one call)'] = ing.ms
    out.extra = { engineIngest: ing.value }
    log('engine ingested', ing.value, `${ing.ms.toFixed(0)} ms`)
    impls.push({ name: 'engine', fns: engine, profile: prof.fast })
    closeEngine = () => engine.close()
  } else {
    out.notes.push(`engine not available: ${engineMod.error}`)
    out.failures.push(`engine not available: ${engineMod.error}`)
  }
  impls.push({ name: 'typed-arrays', fns: typed.value, profile: prof.fast })
  impls.push({ name: 'naive-sql', fns: naive.value, profile: prof.slow })
  const polars = await loadPolarsPeer(typed.value)
  if (polars.peer) {
    out.setup['nodejs-polars: load'] = polars.ms
    impls.push({ name: 'nodejs-polars', fns: polars.peer, profile: prof.slow })
  } else out.notes.push(`nodejs-polars not run: ${polars.error}`)

  // Correctness gate: every implementation against the oracle, for every case, before timing.
  const expected = readJson<Record<string, unknown>>(`expected-${dsName}.json`)
  const oracleName = expected ? 'reference-model' : 'typed-arrays'
  if (!expected)
    out.notes.push('no reference-model payloads for this dataset: the oracle is the typed-array peer')
  const oracle: Record<string, unknown> = {}
  const wrong = new Set<string>()
  const cases = caseList(domainId)
  for (const c of cases) {
    const want = expected?.[c.key] ?? (await callReport(typed.value, c.fn, c.params))
    oracle[c.key] = want
    for (const impl of impls) {
      if (impl.name === oracleName) continue
      let diffs: string[]
      try {
        diffs = diffPayloads(await callReport(impl.fns, c.fn, c.params), want)
      } catch (e) {
        diffs = [`threw: ${e instanceof Error ? e.message : String(e)}`]
      }
      out.checks.push({ case: c.key, impl: impl.name, ok: diffs.length === 0, against: oracleName, diffs })
      if (diffs.length > 0) {
        wrong.add(`${impl.name}|${c.key}`)
        out.failures.push(`${impl.name} ${c.key}: wrong payload: ${diffs.slice(0, 3).join('; ')}`)
        log('WRONG', impl.name, c.key, diffs.slice(0, 5))
      }
    }
  }
  writeJson(`oracle-${dsName}.json`, oracle)
  log(`checked ${cases.length} cases x ${impls.length} implementations; ${wrong.size} wrong`)

  // Timing: per case, every implementation back to back (same machine conditions).
  for (const c of cases.filter((x) => x.timed)) {
    for (const impl of impls) {
      if (wrong.has(`${impl.name}|${c.key}`)) continue
      gc()
      const { timing, last } = await timeCase(
        `${impl.name} ${c.key}`,
        () => callReport(impl.fns, c.fn, c.params),
        impl.profile,
      )
      const diffs = diffPayloads(last, oracle[c.key])
      if (diffs.length > 0) out.failures.push(`${impl.name} ${c.key}: wrong payload while timed: ${diffs[0]}`)
      out.timings.push({ case: c.key, fn: c.fn, days: c.params.days as number, impl: impl.name, ...timing })
      log(
        impl.name.padEnd(14),
        c.key.padEnd(48),
        `median ${timing.median.toFixed(2)} ms  p95 ${timing.p95.toFixed(2)} ms  n=${timing.samples}`,
      )
    }
  }

  // The floor: scan-only sums over the columns the competitor query reads, in JS and in DuckDB.
  for (const days of DAYS) {
    const p = { domainId, days, now: BENCH_NOW }
    const key = `floor days=${days}`
    for (const [name, fn, profile] of [
      ['floor: typed-array scan', () => typed.value.scanMentionColumns(p), prof.fast],
      ['floor: duckdb scan-only SUM', () => naive.value.scanMentionColumns(p), prof.fast],
    ] as const) {
      gc()
      const { timing } = await timeCase(`${name} ${key}`, fn, profile)
      out.timings.push({ case: key, fn: 'floor', days, impl: name, ...timing })
      log(name.padEnd(28), key, `median ${timing.median.toFixed(2)} ms`)
    }
  }
  out.memory = { rssMB: process.memoryUsage().rss / 2 ** 20, maxRssMB: process.resourceUsage().maxRSS / 1024 }
  await closeEngine?.()
  if (engineMod.module) await engineCold(engineMod.module, cases, oracle)
  await naive.value.close()
  polars.peer?.close()
}

/**
 * One more view of the engine on the same store, after the headline timings: each function's first
 * call after opening the store (its aggregates not loaded yet).
 */
async function engineCold(
  mod: EngineModule,
  cases: CaseSpec[],
  oracle: Record<string, unknown>,
): Promise<void> {
  const path = outPath(`store-${dsName}.duckdb`)
  const timed = cases.filter((c) => c.timed)
  const reps = quick ? 1 : 3
  for (const c of timed) {
    const samples: number[] = []
    for (let i = 0; i < reps; i++) {
      const engine = await mod.openEngine({ path })
      gc()
      const { ms: t, value } = await stopwatch(() => callReport(engine, c.fn, c.params))
      await engine.close()
      const diffs = diffPayloads(value, oracle[c.key])
      if (diffs.length > 0) {
        out.failures.push(`engine (cold) ${c.key}: wrong payload: ${diffs[0]}`)
        break
      }
      samples.push(t)
    }
    if (samples.length === 0) continue
    samples.sort((a, b) => a - b)
    const row = {
      median: quantile(samples, 0.5),
      p95: quantile(samples, 0.95),
      mean: samples.reduce((a, b) => a + b, 0) / samples.length,
      min: samples[0]!,
      max: samples[samples.length - 1]!,
      samples: samples.length,
    }
    out.timings.push({
      case: c.key,
      fn: c.fn,
      days: c.params.days as number,
      impl: 'engine (cold: first call after open)',
      ...row,
    })
    log(
      'engine cold'.padEnd(14),
      c.key.padEnd(48),
      `median ${row.median.toFixed(2)} ms (n=${samples.length})`,
    )
  }
}

main()
  .catch((e: unknown) => {
    out.failures.push(`suite crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
    console.error(e)
  })
  .finally(() => {
    writeJson(`suite-compute-${dsName}.json`, out)
    process.exit(out.failures.length > 0 ? 1 : 0)
  })
