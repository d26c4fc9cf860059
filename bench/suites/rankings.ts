/**
 * Suite "rankings": the brand rankings, the model leaderboard and the four brand
 * time series at 30 and 365 days, in its own process.
 *
 * On a dataset without a crowd (S, L): the engine warm (file store, aggregates in memory) and cold
 * (the first call right after opening the store), beside the naive DuckDB SQL peer
 * (bench/peers/naive-sql-rankings.ts); every payload checked against the peer (and on S against
 * the reference model too) before anything is timed. A raw model id (the documented slower path)
 * is checked and timed too, outside the targets.
 *
 * On a dataset with a crowd (Crowd): the main domain alone in one store and with the crowd in
 * another, both warm, answering the same, timed in alternating rounds (alone, crowd, alone, ...;
 * the median of the rounds' medians, so drift on a shared machine hits both): the crowd / alone
 * ratio. `--reuse-stores` opens the stores of an earlier run instead of ingesting them again.
 */
import { existsSync } from 'node:fs'
import { ReferenceModel } from '../../test/reference/model.js'
import type { Engine } from '../../src/types.js'
import {
  BENCH_NOW,
  DATASETS,
  SAMPLE_RAW_MODEL,
  datasetRecords,
  mainDomainId,
  type DatasetSpec,
} from '../data/generator.js'
import { diffPayloads } from '../lib/compare.js'
import { loadEngineModule, type EngineModule } from '../lib/engine.js'
import { ingestInterleaved } from '../lib/stores.js'
import { gc, outPath, profiles, removeStore, startSuite, writeJson } from '../lib/suite.js'
import { quantile, stopwatch, timeCase, type Timing } from '../lib/timing.js'
import { NaiveSql } from '../peers/naive-sql.js'
import { NaiveSqlRankings, type BrandMetric } from '../peers/naive-sql-rankings.js'

const { args, quick, dsName, out, log } = startSuite('rankings', { defaultDataset: 'L' })
/** --reuse-stores: open the store files an earlier run of this suite left in bench/out, without ingesting. */
const reuseStores = args['reuse-stores'] === true
const spec: DatasetSpec = DATASETS[dsName]
const aloneSpec: DatasetSpec = { ...spec, name: `${spec.name}-alone` }
delete aloneSpec.crowd
const domainId = mainDomainId(spec)
const prof = profiles(quick)

type Fn = 'brandRankings' | 'modelLeaderboard' | 'brandSeries'
interface Case {
  key: string
  /** The report, as the targets name it. */
  report: string
  fn: Fn
  days: number
  params: Record<string, unknown>
  /** Timed against the targets (default model), or only checked (and timed apart: a raw model id). */
  timed: boolean
}

const METRICS: readonly BrandMetric[] = ['visibility', 'mentions', 'citations', 'citability']

function cases(): Case[] {
  const out: Case[] = []
  const add = (fn: Fn, report: string, days: number, extra: Record<string, unknown>, timed = true) => {
    const params = { domainId, days, now: BENCH_NOW, ...extra }
    const model = extra.model === undefined ? '' : ` model=${String(extra.model)}`
    out.push({ key: `${report} days=${days}${model}`, report, fn, days, params, timed })
  }
  for (const days of [30, 365]) {
    add('brandRankings', 'brand rankings', days, { model: 'all' })
    add('modelLeaderboard', 'model leaderboard', days, {})
    for (const metric of METRICS) add('brandSeries', `${metric} series`, days, { model: 'all', metric })
  }
  add('brandRankings', 'brand rankings', 30, { model: 'gemini' }, false)
  add('brandRankings', 'brand rankings', 365, { model: SAMPLE_RAW_MODEL }, false)
  add('brandSeries', 'citability series', 365, { model: SAMPLE_RAW_MODEL, metric: 'citability' }, false)
  add('brandSeries', 'visibility series', 1, { model: 'all', metric: 'visibility' }, false)
  return out
}

/** Per statistic, the median over the rounds; samples add up. */
function medianOfRounds(timings: Timing[]): Timing {
  const mid = (pick: (t: Timing) => number) =>
    quantile(
      [...timings.map(pick)].sort((a, b) => a - b),
      0.5,
    )
  return {
    median: mid((t) => t.median),
    p95: mid((t) => t.p95),
    mean: mid((t) => t.mean),
    min: Math.min(...timings.map((t) => t.min)),
    max: Math.max(...timings.map((t) => t.max)),
    samples: timings.reduce((n, t) => n + t.samples, 0),
  }
}

/** Something that answers the three functions: the engine, the peer, the reference model. */
type Impl = Record<Fn, (p: never) => unknown>
const call = (impl: Impl, c: Case): Promise<unknown> =>
  Promise.resolve((impl[c.fn] as (p: unknown) => unknown)(c.params))

const engineImpl = (e: Engine): Impl => ({
  brandRankings: (p) => e.computeBrandRankings(p),
  modelLeaderboard: (p) => e.computeModelLeaderboard(p),
  brandSeries: (p) => e.computeBrandSeries(p),
})

const referenceImpl = (r: ReferenceModel): Impl => ({
  brandRankings: (p) => r.computeBrandRankings(p),
  modelLeaderboard: (p) => r.computeModelLeaderboard(p),
  brandSeries: (p) => r.computeBrandSeries(p),
})

function check(c: Case, impl: string, got: unknown, want: unknown, against: string): boolean {
  const diffs = diffPayloads(got, want)
  out.checks.push({ case: c.key, impl, ok: diffs.length === 0, against, diffs })
  if (diffs.length > 0) out.failures.push(`${impl} ${c.key}: wrong payload: ${diffs.slice(0, 3).join('; ')}`)
  return diffs.length === 0
}

async function time(c: Case, impl: string, fn: () => Promise<unknown>, want: unknown, slow: boolean) {
  gc()
  const { timing, last } = await timeCase(`${impl} ${c.key}`, fn, slow ? prof.slow : prof.fast)
  if (diffPayloads(last, want).length > 0) out.failures.push(`${impl} ${c.key}: wrong payload while timed`)
  out.timings.push({ case: c.key, fn: c.report, days: c.days, impl, ...timing })
  log(
    impl.padEnd(16),
    c.key.padEnd(44),
    `median ${timing.median.toFixed(2)} ms  p95 ${timing.p95.toFixed(2)} ms`,
  )
}

async function openStore(mod: EngineModule, name: string, fill: (e: Engine) => Promise<unknown>) {
  const path = outPath(`store-rankings-${name}.duckdb`)
  if (reuseStores && existsSync(path)) {
    out.notes.push(`${name}: the store of an earlier run of this suite, reused (--reuse-stores)`)
    return { engine: await mod.openEngine({ path }), path }
  }
  removeStore(path)
  const engine = await mod.openEngine({ path })
  const t = await stopwatch(() => fill(engine))
  out.setup[`engine ${name}: ingest`] = t.ms
  log(`${name} store ingested in ${t.ms.toFixed(0)} ms`)
  return { engine, path }
}

/** Engine (warm and cold) beside the naive SQL peer, on a dataset without a crowd. */
async function againstPeer(mod: EngineModule): Promise<void> {
  const naive = await stopwatch(() => NaiveSql.load(datasetRecords(aloneSpec)))
  out.setup['naive-sql: load (appenders)'] = naive.ms
  const peer = new NaiveSqlRankings(naive.value)
  const { engine, path } = await openStore(mod, dsName, (e) => e.ingest(datasetRecords(aloneSpec)))
  out.sizes = { ...(await engine.stats()), days: spec.main.days }
  let reference: ReferenceModel | null = null
  if (quick) {
    reference = new ReferenceModel()
    reference.ingest([...datasetRecords(aloneSpec)])
  }
  const all = cases()
  const wanted = new Map<string, unknown>()
  for (const c of all) {
    const want = await call(peer as unknown as Impl, c)
    wanted.set(c.key, want)
    const got = await call(engineImpl(engine), c)
    let ok = check(c, 'engine', got, want, 'naive-sql')
    if (reference !== null) {
      ok = check(c, 'engine', got, await call(referenceImpl(reference), c), 'reference-model') && ok
    }
    if (!ok) wanted.delete(c.key)
  }
  for (const c of all) {
    const want = wanted.get(c.key)
    if (want === undefined) continue
    await time(c, 'engine', () => call(engineImpl(engine), c), want, false)
    if (c.timed) await time(c, 'naive-sql', () => call(peer as unknown as Impl, c), want, true)
  }
  await engine.close()
  await naive.value.close()
  // Cold: each case's first call right after opening the store (its aggregates read from DuckDB).
  for (const c of all.filter((x) => x.timed && wanted.has(x.key))) {
    const samples: number[] = []
    for (let i = 0; i < (quick ? 1 : 3); i++) {
      const cold = await mod.openEngine({ path })
      gc()
      const { ms, value } = await stopwatch(() => call(engineImpl(cold), c))
      await cold.close()
      if (diffPayloads(value, wanted.get(c.key)).length > 0)
        out.failures.push(`engine (cold) ${c.key}: wrong`)
      samples.push(ms)
    }
    samples.sort((a, b) => a - b)
    const median = quantile(samples, 0.5)
    out.timings.push({
      case: c.key,
      fn: c.report,
      days: c.days,
      impl: 'engine (cold)',
      median,
      p95: quantile(samples, 0.95),
      mean: samples.reduce((a, b) => a + b, 0) / samples.length,
      min: samples[0]!,
      max: samples[samples.length - 1]!,
      samples: samples.length,
    })
    log('engine (cold)'.padEnd(16), c.key.padEnd(44), `median ${median.toFixed(2)} ms`)
  }
}

/** The main domain alone and in a crowd: the same answers, and the time ratio. */
async function againstCrowd(mod: EngineModule): Promise<void> {
  const alone = await openStore(mod, `${dsName}-alone`, (e) => e.ingest(datasetRecords(aloneSpec)))
  const crowd = await openStore(mod, dsName, (e) => ingestInterleaved(e, spec, log))
  out.sizes = {
    domains: 1 + (spec.crowd?.domains ?? 0),
    crowdAnalyses: (await crowd.engine.stats()).analyses!,
  }
  const timed = cases().filter((c) => c.timed)
  for (const c of timed) {
    const want = await call(engineImpl(alone.engine), c)
    if (!check(c, 'engine (crowd)', await call(engineImpl(crowd.engine), c), want, 'engine (alone)')) continue
    const rounds: Record<string, Timing[]> = { 'engine (alone)': [], 'engine (crowd)': [] }
    for (let round = 0; round < (quick ? 1 : 3); round++) {
      for (const [impl, engine] of [
        ['engine (alone)', alone.engine],
        ['engine (crowd)', crowd.engine],
      ] as const) {
        gc()
        const { timing, last } = await timeCase(
          `${impl} ${c.key}`,
          () => call(engineImpl(engine), c),
          prof.fast,
        )
        if (diffPayloads(last, want).length > 0)
          out.failures.push(`${impl} ${c.key}: wrong payload while timed`)
        rounds[impl]!.push(timing)
      }
    }
    for (const [impl, timings] of Object.entries(rounds)) {
      const timing = medianOfRounds(timings)
      out.timings.push({ case: c.key, fn: c.report, days: c.days, impl, ...timing })
      log(
        impl.padEnd(16),
        c.key.padEnd(44),
        `median ${timing.median.toFixed(2)} ms (${timings.length} rounds)`,
      )
    }
  }
  await alone.engine.close()
  await crowd.engine.close()
}

async function main(): Promise<void> {
  const mod = await loadEngineModule()
  if (!mod.module) {
    out.failures.push(`engine not available: ${mod.error}`)
    return
  }
  if (spec.crowd === undefined) await againstPeer(mod.module)
  else await againstCrowd(mod.module)
  out.memory = { rssMB: process.memoryUsage().rss / 2 ** 20, maxRssMB: process.resourceUsage().maxRSS / 1024 }
}

main()
  .catch((e: unknown) => {
    out.failures.push(`suite crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
    console.error(e)
  })
  .finally(() => {
    writeJson(`suite-rankings-${dsName}.json`, out)
    process.exit(out.failures.length > 0 ? 1 : 0)
  })
