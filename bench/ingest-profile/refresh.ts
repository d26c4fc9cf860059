/**
 * What a 500-analysis commit costs the reports after it (the aggregate store's refresh of the
 * changed days), in-process: a copy of the serving suite's store (bench/suites/serve.ts, its
 * `serve-store-<dataset>` cache, built by that suite), the four original reports at 365 days over
 * every domain (a cold pass, then warm passes), then `--commits` of the suite's held 500-analysis
 * batches, each followed by one pass (the first after the commit: the refresh) and another (warm).
 * Process CPU (every thread) and wall per pass, and the load queries each first pass ran.
 *
 * Usage: node dist/bench/ingest-profile/refresh.js [--tree=<built tree, default this one>]
 *        [--dataset=Serve] [--commits=4] [--threads=<DuckDB threads>]
 * Run it once per tree, alternating, to compare two trees.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Endpoint } from '../../src/api/index.js'
import type { ReadPool } from '../../src/db/read-pool.js'
import type { Engine, OpenEngineOptions } from '../../src/types.js'
import { BENCH_NOW } from '../data/generator.js'
import { ROOT, outPath, parseArgs } from '../lib/suite.js'

const args = parseArgs()
const tree = typeof args.tree === 'string' ? args.tree : ROOT
const dataset = typeof args.dataset === 'string' ? args.dataset : 'Serve'
const commits = Number(args.commits ?? 4)
const threads = typeof args.threads === 'string' ? Number(args.threads) : undefined
const load = async <T>(path: string): Promise<T> =>
  (await import(pathToFileURL(join(tree, 'dist', 'src', path)).href)) as T

const { openEngine } = await load<{ openEngine(o: OpenEngineOptions): Promise<Engine> }>('index.js')
const { ENDPOINTS } = await load<{ ENDPOINTS: readonly Endpoint[] }>(join('api', 'index.js'))
const { ReadPool: Pool } = await load<{ ReadPool: typeof ReadPool }>(join('db', 'read-pool.js'))

// Every query the read pool runs, counted by id (the tree's own class).
const queries = new Map<string, number>()
for (const method of ['loadColumns', 'loadStrings'] as const) {
  const original = Pool.prototype[method] as (this: ReadPool, id: string, ...rest: unknown[]) => unknown
  ;(Pool.prototype as unknown as Record<string, unknown>)[method] = function (
    this: ReadPool,
    id: string,
    ...rest: unknown[]
  ) {
    queries.set(id, (queries.get(id) ?? 0) + 1)
    return original.call(this, id, ...rest)
  }
}

const cache = outPath(`serve-store-${dataset}`)
const { batches } = JSON.parse(readFileSync(join(cache, 'meta.json'), 'utf8')) as { batches: string[] }
const dir = mkdtempSync(join(tmpdir(), 'va-refresh-'))
const store = join(dir, 'store.duckdb')
copyFileSync(join(cache, 'store.duckdb'), store)
const engine = await openEngine({ path: store, hardened: true, ...(threads ? { threads } : {}) })
const now = new Date(BENCH_NOW)
const domains = (await engine.computeDomainList()).data.items.map((d) => d.id)
const rows = ENDPOINTS.filter((e) =>
  [
    'computePromptSeries',
    'computeCompetitorSeries',
    'computeSentimentOverview',
    'computeSentimentThemes',
  ].includes(e.method),
)
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** The four reports at 365 days over every domain: [CPU ms, wall ms]. */
async function pass(): Promise<[number, number]> {
  const [c0, t0] = [cpuMs(), performance.now()]
  for (const domain_id of domains)
    for (const row of rows) {
      const query: Record<string, string> = { domain_id, days: '365' }
      if ('model' in row.params) query.model = 'all'
      await row.compute(engine, row.query.parse(query) as never, { now, caller: null })
    }
  return [Math.round(cpuMs() - c0), Math.round(performance.now() - t0)]
}

console.log(`tree ${tree}, ${domains.length} domains`)
console.log(`cold pass: CPU, wall ms ${(await pass()).join(', ')}`)
for (let i = 0; i < 2; i++) console.log(`warm pass: ${(await pass()).join(', ')}`)
for (let i = 0; i < commits && i < batches.length; i++) {
  const file = join(dir, 'batch.ndjson')
  writeFileSync(file, batches[i]!)
  const [c0, t0] = [cpuMs(), performance.now()]
  await engine.ingestFile(file)
  const ingest = [Math.round(cpuMs() - c0), Math.round(performance.now() - t0)]
  queries.clear()
  const first = await pass()
  const ran = [...queries].map(([id, n]) => `${id.replace('queries/', '')} x${n}`).join(', ')
  console.log(`commit ${i + 1}: ingest ${ingest.join(', ')}; first pass ${first.join(', ')} (${ran})`)
  console.log(`  next pass ${(await pass()).join(', ')}`)
}
await engine.close()
rmSync(dir, { recursive: true, force: true })
