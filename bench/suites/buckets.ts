/**
 * Suite "buckets": every time series (prompt, competitor, the four brand series,
 * sentiment) over 365 days by day, week and month, the engine warm (file store, aggregates in
 * memory) beside the naive DuckDB SQL peer, whose statements group by the bucket date
 * (`NaiveSql.granularity`: DuckDB's date_trunc, cut at the window's first date). Every payload's
 * `data` is checked against the peer (and on S against the reference model, whole payload) before
 * anything is timed; a range of the same dates must answer the same `data` as `days`.
 */
import { ReferenceModel } from '../../test/reference/model.js'
import type { Engine, Granularity } from '../../src/types.js'
import { BENCH_NOW, DATASETS, datasetRecords, mainDomainId, type DatasetSpec } from '../data/generator.js'
import { diffPayloads } from '../lib/compare.js'
import { loadEngineModule, type EngineModule } from '../lib/engine.js'
import { gc, outPath, profiles, removeStore, startSuite, writeJson } from '../lib/suite.js'
import { stopwatch, timeCase } from '../lib/timing.js'
import { NaiveSql } from '../peers/naive-sql.js'
import { NaiveSqlCitations } from '../peers/naive-sql-citations.js'
import { NaiveSqlRankings, type BrandMetric } from '../peers/naive-sql-rankings.js'

const { quick, dsName, out, log } = startSuite('buckets', { defaultDataset: 'L' })
const spec: DatasetSpec = { ...DATASETS[dsName] }
delete spec.crowd
const domainId = mainDomainId(spec)
const prof = profiles(quick)
const DAYS = 365
const GRANULARITIES: readonly Granularity[] = ['day', 'week', 'month']
const METRICS: readonly BrandMetric[] = ['visibility', 'mentions', 'citations', 'citability']

interface Case {
  key: string
  report: string
  granularity: Granularity
  params: Record<string, unknown>
  engine: (e: Engine, p: never) => Promise<unknown>
  peer: (peers: Peers, p: never) => Promise<unknown>
  reference: (m: ReferenceModel, p: never) => unknown
}
interface Peers {
  sql: NaiveSql
  rankings: NaiveSqlRankings
  citations: NaiveSqlCitations
}

function cases(): Case[] {
  const list: Case[] = []
  for (const granularity of GRANULARITIES) {
    const base = { domainId, days: DAYS, now: BENCH_NOW, granularity }
    const add = (
      report: string,
      extra: Record<string, unknown>,
      c: Omit<Case, 'key' | 'report' | 'granularity' | 'params'>,
    ) =>
      list.push({ key: `${report} ${granularity}`, report, granularity, params: { ...base, ...extra }, ...c })
    add(
      'prompt series',
      { limit: 25 },
      {
        engine: (e, p) => e.computePromptSeries(p),
        peer: (x, p) => x.sql.computePromptSeries(p),
        reference: (m, p) => m.computePromptSeries(p),
      },
    )
    add(
      'competitor series',
      { model: 'all' },
      {
        engine: (e, p) => e.computeCompetitorSeries(p),
        peer: (x, p) => x.sql.computeCompetitorSeries(p),
        reference: (m, p) => m.computeCompetitorSeries(p),
      },
    )
    for (const metric of METRICS) {
      add(
        `${metric} series`,
        { model: 'all', metric },
        {
          engine: (e, p) => e.brandSeries(p),
          peer: (x, p) => x.rankings.brandSeries(p),
          reference: (m, p) => m.computeBrandSeries(p),
        },
      )
    }
    add(
      'sentiment series',
      { model: 'all' },
      {
        engine: (e, p) => e.sentimentSeries(p),
        peer: (x, p) => x.citations.sentimentSeries(p),
        reference: (m, p) => m.computeSentimentSeries(p),
      },
    )
  }
  return list
}

/** The peer answers by the case's bucket. */
function onPeer(peers: Peers, c: Case): Promise<unknown> {
  peers.sql.granularity = c.granularity
  return c.peer(peers, c.params as never)
}
const dataOf = (payload: unknown): unknown => (payload as { data: unknown }).data

function check(c: Case, impl: string, got: unknown, want: unknown, against: string): boolean {
  const diffs = diffPayloads(got, want)
  out.checks.push({ case: c.key, impl, ok: diffs.length === 0, against, diffs })
  if (diffs.length > 0) out.failures.push(`${impl} ${c.key}: wrong payload: ${diffs.slice(0, 3).join('; ')}`)
  return diffs.length === 0
}

async function time(c: Case, impl: string, fn: () => Promise<unknown>, want: unknown, slow: boolean) {
  gc()
  const { timing, last } = await timeCase(`${impl} ${c.key}`, fn, slow ? prof.slow : prof.fast)
  if (diffPayloads(dataOf(last), want).length > 0)
    out.failures.push(`${impl} ${c.key}: wrong payload while timed`)
  out.timings.push({ case: c.key, fn: c.report, days: DAYS, impl, ...timing })
  log(
    impl.padEnd(12),
    c.key.padEnd(32),
    `median ${timing.median.toFixed(2)} ms  p95 ${timing.p95.toFixed(2)} ms`,
  )
}

async function run(mod: EngineModule): Promise<void> {
  const naive = await stopwatch(() => NaiveSql.load(datasetRecords(spec)))
  out.setup['naive-sql: load (appenders)'] = naive.ms
  const peers: Peers = {
    sql: naive.value,
    rankings: new NaiveSqlRankings(naive.value),
    citations: new NaiveSqlCitations(naive.value),
  }
  const path = outPath(`store-buckets-${dsName}.duckdb`)
  removeStore(path)
  const engine = await mod.openEngine({ path })
  const ingest = await stopwatch(() => engine.ingest(datasetRecords(spec)))
  out.setup[`engine ${dsName}: ingest`] = ingest.ms
  out.sizes = { ...(await engine.stats()), days: spec.main.days }
  let reference: ReferenceModel | null = null
  if (quick) {
    reference = new ReferenceModel()
    reference.ingest([...datasetRecords(spec)])
  }
  const end = new Date(Date.parse(BENCH_NOW)).toISOString().slice(0, 10)
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10)
  const wanted = new Map<string, unknown>()
  for (const c of cases()) {
    const want = dataOf(await onPeer(peers, c))
    const got = await c.engine(engine, c.params as never)
    let ok = check(c, 'engine', dataOf(got), want, 'naive-sql (data)')
    // The same dates as a range: the same data.
    const { days: _days, ...rest } = c.params
    const ranged = await c.engine(engine, { ...rest, startDate: start, endDate: end } as never)
    ok = check(c, 'engine (range)', dataOf(ranged), dataOf(got), 'engine (days)') && ok
    if (reference !== null)
      ok = check(c, 'engine', got, c.reference(reference, c.params as never), 'reference-model') && ok
    if (ok) wanted.set(c.key, want)
  }
  for (const c of cases()) {
    const want = wanted.get(c.key)
    if (want === undefined) continue
    await time(c, 'engine', () => c.engine(engine, c.params as never), want, false)
    await time(c, 'naive-sql', () => onPeer(peers, c), want, true)
  }
  await engine.close()
  await naive.value.close()
  removeStore(path)
}

async function main(): Promise<void> {
  const mod = await loadEngineModule()
  if (!mod.module) {
    out.failures.push(`engine not available: ${mod.error}`)
    return
  }
  await run(mod.module)
  out.memory = { rssMB: process.memoryUsage().rss / 2 ** 20, maxRssMB: process.resourceUsage().maxRSS / 1024 }
}

main()
  .catch((e: unknown) => {
    out.failures.push(`suite crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
    console.error(e)
  })
  .finally(() => {
    writeJson(`suite-buckets-${dsName}.json`, out)
    process.exit(out.failures.length > 0 ? 1 : 0)
  })
