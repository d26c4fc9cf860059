/**
 * First query of a domain after a commit that touched it (issue 14), on the L store: the four
 * reports are warm, then a 500-analysis call lands on the domain's last day, and the first call
 * of each report after it is timed; beside it, the same first call after the domain's kept
 * aggregates are dropped whole (what every commit did before: the reload of the whole domain).
 *
 *   npx tsx bench/first-query.ts [STORE.duckdb]   # the L store is built there first when missing
 *
 * Each figure is the median of ROUNDS rounds (a new call each round). Prints one JSON object.
 */
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEngine, type Engine } from '../src/index.js'
import type { AggregateStore } from '../src/tables/aggregate-store.js'
import { BENCH_NOW, DATASETS, DomainGenerator, datasetRecords } from './data/generator.js'
import { writeNdjson } from './data/ndjson.js'

const ROUNDS = Number(process.env.FIRST_QUERY_ROUNDS ?? 5)
const spec = DATASETS.L
const store = process.argv[2] ?? join(tmpdir(), 'va-first-query-L.duckdb')

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function main(): Promise<void> {
  if (!existsSync(store)) {
    const file = join(tmpdir(), 'va-first-query-L.ndjson')
    await writeNdjson(file, datasetRecords(spec))
    const e = await openEngine({ path: store })
    await e.ingestFile(file)
    await e.close()
  }
  const engine = await openEngine({ path: store })
  const gen = new DomainGenerator(spec.seed, 0, spec.main, spec.endDate)
  const domainId = gen.domainId
  const p = { domainId, days: 30, now: BENCH_NOW }
  const reports: Record<string, (e: Engine) => Promise<unknown>> = {
    prompt_series: (e) => e.computePromptSeries({ ...p, limit: 25 }),
    competitor_series: (e) => e.computeCompetitorSeries(p),
    sentiment_overview: (e) => e.sentimentOverview(p),
    sentiment_themes: (e) => e.sentimentThemes(p),
  }
  // 500 analyses of the last day, as new ids each round (copies of the day's analyses).
  const lastDay = [...gen.analysesOfDay(spec.main.days - 1)].slice(0, 500)
  const call = (round: number) =>
    lastDay.map((a, i) => ({
      ...a,
      id: `${a.id.slice(0, 24)}${(round * 1000 + i).toString(16).padStart(12, 'e')}`,
    }))
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
  console.log(
    JSON.stringify({ store, rounds: ROUNDS, ingest_500_ms: +median(ingestMs).toFixed(0), ...out }, null, 2),
  )
}

await main()
