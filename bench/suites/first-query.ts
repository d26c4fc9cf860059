/**
 * Suite "first-query": the first query of a domain after a commit that touched it, on the L store:
 * the domain's reports (every row of the endpoint table with `domain_id` and `days`) are warm, then a 500-analysis call lands on the domain's last day, and the first call
 * of each report after it is timed; beside it, the same first call after the domain's kept
 * aggregates are dropped whole (what every commit did before: the reload of the whole domain).
 *
 *   npm run bench -- --only=first-query-L [--store=STORE.duckdb] [--rounds=5]
 *
 * The L store is built at --store first when missing. Each figure is the median of --rounds rounds
 * (a new call each round). Prints one JSON object; writes bench/out/suite-first-query-L.json.
 */
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { openEngine, type Engine } from '../../src/index.js'
import type { AggregateStore } from '../../src/tables/aggregate-store.js'
import { BENCH_NOW, DATASETS, DomainGenerator, datasetRecords } from '../data/generator.js'
import { writeNdjson } from '../data/ndjson.js'
import { startSuite, withRoundIds, writeJson } from '../lib/suite.js'

const suite = startSuite('first-query', { defaultDataset: 'L' })
const ROUNDS = Number(suite.args.rounds ?? (suite.quick ? 2 : 5))
const spec = DATASETS[suite.dsName]
const store =
  typeof suite.args.store === 'string'
    ? suite.args.store
    : join(tmpdir(), `va-first-query-${spec.name}.duckdb`)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function main(): Promise<void> {
  if (!existsSync(store)) {
    const file = join(tmpdir(), `va-first-query-${spec.name}.ndjson`)
    await writeNdjson(file, datasetRecords(spec))
    const e = await openEngine({ path: store })
    await e.ingestFile(file)
    await e.close()
  }
  const engine = await openEngine({ path: store })
  const gen = new DomainGenerator(spec.seed, 0, spec.main, spec.endDate)
  const domainId = gen.domainId
  // The domain's reports over 30 days, from the endpoint table (one per engine method).
  const rows = (ENDPOINTS as readonly Endpoint[]).filter((e) => 'domain_id' in e.params && 'days' in e.params)
  const reports: Record<string, (e: Engine) => Promise<unknown>> = Object.fromEntries(
    [...new Map(rows.map((row) => [row.method, row])).values()].map((row) => [
      row.method,
      (e: Engine) =>
        row.compute(e, row.normalize({ domain_id: domainId, days: 30 } as never), {
          now: new Date(BENCH_NOW),
          caller: null,
        }),
    ]),
  )
  // 500 analyses of the last day, as new ids each round (copies of the day's analyses).
  const lastDay = [...gen.analysesOfDay(spec.main.days - 1)].slice(0, 500)
  const call = (round: number) => withRoundIds(lastDay, round)
  const internals = engine as unknown as {
    aggregates: AggregateStore
    catalog: { domains: Map<string, { key: number }> }
  }
  const key = internals.catalog.domains.get(domainId)!.key
  const after: Record<string, number[]> = {}
  const reload: Record<string, number[]> = {}
  const ingestMs: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    for (const run of Object.values(reports)) await run(engine) // warm
    const t0 = performance.now()
    await engine.ingest(call(round))
    ingestMs.push(performance.now() - t0)
    for (const [name, run] of Object.entries(reports)) {
      const t = performance.now()
      await run(engine)
      ;(after[name] ??= []).push(performance.now() - t)
    }
    // The old behaviour, on the same store: the domain's kept aggregates dropped whole.
    for (const [name, run] of Object.entries(reports)) {
      internals.aggregates.invalidate([key])
      const t = performance.now()
      await run(engine)
      ;(reload[name] ??= []).push(performance.now() - t)
    }
  }
  await engine.close()
  const out = Object.fromEntries(
    Object.keys(reports).map((name) => [
      name,
      {
        first_after_commit_ms: +median(after[name]!).toFixed(1),
        whole_reload_ms: +median(reload[name]!).toFixed(1),
        ratio: +(median(after[name]!) / median(reload[name]!)).toFixed(2),
      },
    ]),
  )
  const result = { store, rounds: ROUNDS, ingest_500_ms: +median(ingestMs).toFixed(0), ...out }
  console.log(JSON.stringify(result, null, 2))
  suite.out.sizes = { rounds: ROUNDS, analyses_per_call: lastDay.length }
  for (const name of Object.keys(reports)) {
    for (const [impl, samples] of [
      ['first call after the commit', after[name]!],
      ['after a whole reload', reload[name]!],
    ] as const) {
      const sorted = [...samples].sort((a, b) => a - b)
      suite.out.timings.push({
        case: `${name} days=30`,
        fn: name,
        days: 30,
        impl,
        median: median(samples),
        p95: sorted[sorted.length - 1]!,
        mean: samples.reduce((a, b) => a + b, 0) / samples.length,
        min: sorted[0]!,
        max: sorted[sorted.length - 1]!,
        samples: samples.length,
      })
    }
  }
  suite.out.notes.push(`p95 column: the slowest of ${ROUNDS} rounds`)
  suite.out.extra = result
  writeJson(`suite-first-query-${spec.name}.json`, suite.out)
}

await main()
