/**
 * Suite "query": GET /api/v1/query (docs/API.md, "GET /api/v1/query") through the engine, warm (file
 * store, the domain's query structures in memory after the first call), beside the naive DuckDB SQL
 * peer (bench/peers/naive-sql-query.ts: plain GROUP BYs over the raw tables, the Wilson interval and
 * the p-value in TS) computing the same payloads in the same run. Cases: dimensions
 * prompt,channel,country with entity=all at 365 days, the same with compare=previous, at 30 days,
 * and with a country filter. Every payload is checked against the peer's before anything is timed:
 * on S every row (one page holds them all), on L the first page and a page further on (a sample);
 * the last payload of each timed loop is checked again.
 *
 *   npm run bench -- --only=query-L [--store=STORE.duckdb]   (--store: an L store reused when there)
 *   [--iterations=N]   (the engine's timed calls; its CPU per call is measured over as many more)
 */
import { existsSync } from 'node:fs'
import type { Engine } from '../../src/types.js'
import { BENCH_NOW, DATASETS, datasetRecords, mainDomainId, type DatasetSpec } from '../data/generator.js'
import { diffPayloads } from '../lib/compare.js'
import { loadEngineModule } from '../lib/engine.js'
import { gc, outPath, profiles, removeStore, startSuite, writeJson } from '../lib/suite.js'
import { cpuMedian, stopwatch, timeCase } from '../lib/timing.js'
import { NaiveSql } from '../peers/naive-sql.js'
import { NaiveSqlQuery, type NaiveQueryParams } from '../peers/naive-sql-query.js'

const { quick, dsName, out, log, args } = startSuite('query', { defaultDataset: 'L' })
const spec: DatasetSpec = { ...DATASETS[dsName] }
delete spec.crowd
const domainId = mainDomainId(spec)
const prof = profiles(quick)
/** On S one page holds every row (the check is whole); on L pages of the default size. */
const limit = dsName === 'L' ? 1000 : 10_000

type Case = Omit<NaiveQueryParams, 'domainId' | 'now'>
const base: Case = { days: 365, dimensions: ['prompt', 'channel', 'country'], entity: 'all', limit }
const CASES: Record<string, Case> = {
  'prompt,channel,country entity=all days=365': base,
  'prompt,channel,country entity=all days=365 compare=previous': { ...base, compare: 'previous' },
  'prompt,channel,country entity=all days=30': { ...base, days: 30 },
  'prompt,channel,country entity=all days=365 country=DE': { ...base, country: 'DE' },
}

/** The engine's parameters for a case (the library's names). */
function engineParams(c: Case, page = 1): Record<string, unknown> {
  const { minResponses, ...rest } = c
  return { domainId, now: BENCH_NOW, ...rest, page, ...(minResponses === undefined ? {} : { minResponses }) }
}

/** The engine's timing (`--iterations=N`: N timed calls after the profile's warm-up). */
const fast =
  typeof args.iterations === 'string' ? { ...prof.fast, iterations: Number(args.iterations) } : prof.fast

async function main(): Promise<void> {
  const loaded = await loadEngineModule()
  if (!loaded.module) {
    out.failures.push(`engine not available: ${loaded.error}`)
    return
  }
  // Generated again for each reader, not held: 511k analyses in the heap made every timed call pay
  // for scavenging a multi-GB heap (CPU per call 33 -> 53 ms at 365 days, 31 -> 169 at 30 days).
  const records = () => datasetRecords(spec)
  const given = typeof args.store === 'string' ? args.store : null
  const path = given ?? outPath('store-query.duckdb')
  if (given === null) removeStore(path)
  const reuse = given !== null && existsSync(path)
  const engine: Engine = await loaded.module.openEngine({ path })
  if (!reuse) out.setup['engine: ingest'] = (await stopwatch(() => engine.ingest(records()))).ms
  out.sizes = { ...(await engine.stats()) }
  const naive = await stopwatch(() => NaiveSql.load(records()))
  out.setup['naive-sql: load'] = naive.ms
  const peer = new NaiveSqlQuery(naive.value)

  for (const [key, c] of Object.entries(CASES)) {
    const q = { ...c, domainId, now: BENCH_NOW }
    const want = await peer.query(q)
    const first = await stopwatch(() => engine.computeQuery(engineParams(c) as never))
    out.setup[`engine ${key}: first call`] = first.ms
    const diffs = diffPayloads(first.value, want)
    // A page further on (L: a sample of the rows beyond the first page).
    const total = (want as { data: { total: number } }).data.total
    const later = Math.max(1, Math.ceil(total / (c.limit ?? 1000) / 2))
    if (later > 1) {
      const got = await engine.computeQuery(engineParams(c, later) as never)
      diffs.push(
        ...diffPayloads(got, await peer.query({ ...q, page: later })).map((d) => `page ${later}: ${d}`),
      )
    }
    out.checks.push({ case: key, impl: 'engine', ok: diffs.length === 0, against: 'naive-sql', diffs })
    if (diffs.length > 0) {
      out.failures.push(`engine ${key}: wrong payload: ${diffs.slice(0, 3).join('; ')}`)
      continue
    }
    log(`checked ${key}: ${total} rows${later > 1 ? `, pages 1 and ${later}` : ''}`)
    for (const [impl, call, slow] of [
      ['engine', () => engine.computeQuery(engineParams(c) as never), false],
      ['naive-sql', () => peer.query(q), true],
    ] as const) {
      gc()
      const { timing, last } = await timeCase(`${impl} ${key}`, call, slow ? prof.slow : fast)
      if (diffPayloads(last, want).length > 0) out.failures.push(`${impl} ${key}: wrong while timed`)
      out.timings.push({ case: key, fn: 'query', days: c.days, impl, ...timing })
      // CPU per call (less load-sensitive than wall time on a shared machine): the engine only.
      const cpu = impl === 'engine' ? await cpuMedian(call, fast.iterations) : null
      if (cpu !== null) out.setup[`engine ${key}: CPU median`] = cpu
      const cpuText = cpu === null ? '' : `, CPU ${cpu.toFixed(2)} ms`
      log(impl.padEnd(10), key.padEnd(64), `median ${timing.median.toFixed(2)} ms${cpuText}`)
    }
  }
  await naive.value.close()
  await engine.close()
  out.memory = { rssMB: process.memoryUsage().rss / 2 ** 20, maxRssMB: process.resourceUsage().maxRSS / 1024 }
}

main()
  .catch((e: unknown) => {
    out.failures.push(`suite crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
    console.error(e)
  })
  .finally(() => {
    writeJson(`suite-query-${dsName}.json`, out)
    process.exit(out.failures.length > 0 ? 1 : 0)
  })
