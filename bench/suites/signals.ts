/**
 * Suite "signals" (docs/API.md, "GET /api/v1/signals"), on a file store of the dataset:
 *  - warm: the domain's signals (window 7 with the defaults; window 30, min_delta 1; window 90,
 *    min_responses 1, min_delta 0: the most candidates) beside the naive DuckDB SQL peer
 *    (bench/peers/naive-sql-signals.ts) computing the same payload in the same run;
 *  - the payloads checked equal to the peer's before anything is timed: on S for every day of the
 *    dataset as `now` (fully), on L for a sample of days across the year;
 *  - the first signals call after a 500-analysis commit on the domain's last day (the counts kept
 *    in memory refreshed for the committed days), beside the same first call after the domain's
 *    kept entries are dropped whole (what every commit did before: the counts rebuilt from the
 *    whole history); the two payloads checked equal each round.
 *
 *   npm run bench -- --only=signals-L   (--rounds=5; --quick: S, 2 rounds)
 */
import type { Engine, SignalsParams } from '../../src/index.js'
import type { AggregateStore } from '../../src/tables/aggregate-store.js'
import {
  BENCH_NOW,
  DATASETS,
  DomainGenerator,
  datasetDays,
  datasetRecords,
  mainDomainId,
  type DatasetSpec,
} from '../data/generator.js'
import { diffPayloads } from '../lib/compare.js'
import { loadEngineModule } from '../lib/engine.js'
import { gc, outPath, profiles, removeStore, startSuite, withRoundIds, writeJson } from '../lib/suite.js'
import { stopwatch, summarize, timeCase } from '../lib/timing.js'
import { NaiveSqlSignals } from '../peers/naive-sql-signals.js'

const { args, quick, dsName, out, log } = startSuite('signals', { defaultDataset: 'L' })
const spec: DatasetSpec = { ...DATASETS[dsName] }
delete spec.crowd
const domainId = mainDomainId(spec)
const prof = profiles(quick)
const ROUNDS = Number(args.rounds ?? (quick ? 2 : 5))

/**
 * The timed parameter sets (the library's names; `now` added per case): the defaults, a longer
 * window with a smaller min_delta, and the longest window the dataset holds twice with no
 * threshold but the test (the most candidates).
 */
const [mid, long] = datasetDays(spec) >= 180 ? [30, 90] : [14, 15]
const CASES: Record<string, Omit<SignalsParams, 'domainId' | 'now'>> = {
  'window=7 (defaults)': { window: 7 },
  [`window=${mid} min_delta=1`]: { window: mid, minDelta: 1 },
  [`window=${long} min_responses=1 min_delta=0`]: { window: long, minResponses: 1, minDelta: 0 },
}
const withDefaults = (p: Omit<SignalsParams, 'domainId' | 'now'>) => ({
  window: p.window ?? 7,
  minResponses: p.minResponses ?? 30,
  minDelta: p.minDelta ?? 5,
})

/** The `now` of each checked case: every day of S; on larger datasets a sample across the period. */
function checkedNows(): string[] {
  const days = datasetDays(spec)
  const end = Date.parse(BENCH_NOW)
  const back = dsName === 'S' ? Array.from({ length: days }, (_, i) => i) : [0, 1, 6, 45, 120, 200, 300]
  return back.filter((b) => b < days).map((b) => new Date(end - b * 86_400_000).toISOString())
}

async function main(): Promise<void> {
  const loaded = await loadEngineModule()
  if (!loaded.module) {
    out.failures.push(`engine not available: ${loaded.error}`)
    return
  }
  const records = [...datasetRecords(spec)]
  const path = outPath(`store-signals-${dsName}.duckdb`)
  removeStore(path)
  const engine: Engine = await loaded.module.openEngine({ path })
  out.setup['engine: ingest'] = (await stopwatch(() => engine.ingest(records))).ms
  out.sizes = { ...(await engine.stats()) }
  const naive = await stopwatch(() => NaiveSqlSignals.load(records))
  out.setup['naive-sql: load (appenders)'] = naive.ms
  const peer = naive.value
  records.length = 0

  // 1. Every checked case: the engine's payload equal to the peer's.
  let checked = 0
  for (const now of checkedNows()) {
    for (const [name, c] of Object.entries(CASES)) {
      const p = { domainId, ...withDefaults(c), now }
      const [got, want] = [await engine.computeSignals(p), await peer.computeSignals(p)]
      const diffs = diffPayloads(got, want)
      checked++
      if (diffs.length > 0 || now === BENCH_NOW)
        out.checks.push({
          case: `${name} now=${now}`,
          impl: 'engine',
          ok: diffs.length === 0,
          against: 'naive-sql',
          diffs,
        })
      if (diffs.length > 0)
        out.failures.push(`engine ${name} now=${now}: wrong payload: ${diffs.slice(0, 3).join('; ')}`)
    }
  }
  out.notes.push(
    `payloads checked equal to the naive SQL peer's: ${checked} cases (${checkedNows().length} days as now)`,
  )
  log(`checked ${checked} cases against the peer`)

  // 2. Warm medians, the engine beside the peer.
  for (const [name, c] of Object.entries(CASES)) {
    const p = { domainId, ...withDefaults(c), now: BENCH_NOW }
    const want = await peer.computeSignals(p)
    const items = (want as { data: { items: unknown[] } }).data.items.length
    for (const [impl, call, slow] of [
      ['engine', () => engine.computeSignals(p), false],
      ['naive-sql', () => peer.computeSignals(p), true],
    ] as const) {
      gc()
      const { timing, last } = await timeCase(`${impl} ${name}`, call, slow ? prof.slow : prof.fast)
      if (diffPayloads(last, want).length > 0) out.failures.push(`${impl} ${name}: wrong while timed`)
      out.timings.push({ case: name, fn: 'computeSignals', days: p.window, impl, ...timing })
      log(impl.padEnd(10), name.padEnd(40), `median ${timing.median.toFixed(2)} ms (${items} signals)`)
    }
  }
  await peer.close()

  // 3. The first call after a 500-analysis commit: counts refreshed for the committed days, beside
  // the same first call after the domain's kept entries are dropped whole (a rebuild).
  const gen = new DomainGenerator(spec.seed, 0, spec.main, spec.endDate)
  const lastDay = [...gen.analysesOfDay(spec.main.days - 1)].slice(0, 500)
  const call = (round: number) => withRoundIds(lastDay, round)
  const internals = engine as unknown as {
    aggregates: AggregateStore
    catalog: { domains: Map<string, { key: number }> }
  }
  const key = internals.catalog.domains.get(domainId)!.key
  const p = { domainId, now: BENCH_NOW }
  const delta: number[] = []
  const rebuild: number[] = []
  const ingestMs: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    await engine.computeSignals(p) // warm
    const t0 = performance.now()
    await engine.ingest(call(round))
    ingestMs.push(performance.now() - t0)
    const t1 = performance.now()
    const afterCommit = await engine.computeSignals(p)
    delta.push(performance.now() - t1)
    internals.aggregates.invalidate([key])
    const t2 = performance.now()
    const rebuilt = await engine.computeSignals(p)
    rebuild.push(performance.now() - t2)
    const diffs = diffPayloads(afterCommit, rebuilt)
    if (diffs.length > 0)
      out.failures.push(`first call after a commit, round ${round + 1}: ${diffs.slice(0, 3).join('; ')}`)
    log(
      `round ${round + 1}: ingest ${ingestMs.at(-1)!.toFixed(0)} ms, first call ${delta.at(-1)!.toFixed(1)} ms, after a drop ${rebuild.at(-1)!.toFixed(1)} ms`,
    )
  }
  const first = 'first call after a 500-analysis commit'
  out.timings.push({ case: first, fn: 'computeSignals', days: 7, impl: 'engine', ...summarize(delta) })
  out.timings.push({
    case: first,
    fn: 'computeSignals',
    days: 7,
    impl: 'engine, counts rebuilt whole',
    ...summarize(rebuild),
  })
  out.extra = {
    firstCallAfterCommit: {
      rounds: ROUNDS,
      refreshed_ms: +summarize(delta).median.toFixed(1),
      rebuilt_ms: +summarize(rebuild).median.toFixed(1),
      ratio: +(summarize(rebuild).median / summarize(delta).median).toFixed(1),
      ingest_call_ms: +summarize(ingestMs).median.toFixed(0),
    },
  }
  log(JSON.stringify(out.extra))
  await engine.close()
  removeStore(path)
  out.memory = { rssMB: process.memoryUsage().rss / 2 ** 20, maxRssMB: process.resourceUsage().maxRSS / 1024 }
}

main()
  .catch((e: unknown) => {
    out.failures.push(`suite crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
    console.error(e)
  })
  .finally(() => {
    writeJson(`suite-signals-${dsName}.json`, out)
    process.exit(out.failures.length > 0 ? 1 : 0)
  })
