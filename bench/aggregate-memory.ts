/**
 * The memory an engine keeps for one domain once its reports have run (the aggregate store's rows
 * and the structures derived from them), measured in any built tree of this repository, so the
 * figures of two revisions can be put side by side:
 *
 *   node --expose-gc dist/bench/aggregate-memory.js [--tree=<built tree>] [--dataset=L] [--store=<file>]
 *     [--cache-rows=N]
 *
 * The tree's own engine (dist/src/index.js) and generator (dist/bench/data/generator.js) build the
 * store of the dataset's main domain when --store does not exist (kept for the next run; default
 * bench/out/memory-<dataset>-<tree's commit>.duckdb), then a fresh engine opens it (with an aggregate
 * cache budget no step reaches, so nothing is evicted; --cache-rows sets another) and, after a
 * full GC (several `gc()` calls with turns of the event loop between them), reads
 * `process.memoryUsage()` before and after each step:
 * 1. `unfiltered`: every report the tree has from a fixed list, at 7, 30, 90 and 365 days, no filter
 *    (and the prompts listing);
 * 2. `again`: the same calls once more (a kept structure does not grow: the delta is ~0);
 * 3. `query` (trees that have it): /query with dimensions prompt,channel,country, entity=all, 365 days;
 * 4. `segment`: the reports of step 1 at 365 days with country=DE (trees that have the filter).
 * A step's figure is JS heap used + external memory (typed arrays' buffers live there), the
 * difference to the step before; `status().aggregateCache` gives the kept rows and entries. RSS is
 * shown too, but it holds DuckDB's buffer pool as well. The payloads are not kept.
 */
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { ROOT, outPath, parseArgs } from './lib/suite.js'
import { ensureTreeStore, loadTree, treeDataset } from './lib/tree.js'

const args = parseArgs()
const dsName = typeof args.dataset === 'string' ? args.dataset : 'L'
const tree = await loadTree(typeof args.tree === 'string' ? args.tree : ROOT)
const commit = tree.commit
const { domainId } = treeDataset(tree, dsName)
const now = tree.generator.BENCH_NOW

/** The engine as this script calls it: its report methods by name (a tree has some of them). */
type EngineLike = Record<string, unknown> & {
  close(): Promise<void>
  status(): { aggregateCache: { rows: number; entries: number } }
}

/** The reports measured, with any parameter they need beyond the domain and the window. */
const REPORTS: [string, Record<string, unknown>][] = [
  ['computePromptSeries', { limit: 25 }],
  ['computeCompetitorSeries', { model: 'all' }],
  ['computeSentimentOverview', { model: 'all' }],
  ['computeSentimentThemes', { model: 'all' }],
  ['computeBrandRankings', {}],
  ['computeModelLeaderboard', {}],
  ['computeBrandSeries', { metric: 'visibility' }],
  ['computeCitations', {}],
  ['computeCitedDomains', {}],
  ['computeFanoutQueries', {}],
  ['computeSentimentSeries', {}],
]
const DAYS = [7, 30, 90, 365]
const CACHE_ROWS = Number(args['cache-rows'] ?? 1_000_000_000)
if (!Number.isInteger(CACHE_ROWS) || CACHE_ROWS < 1)
  throw new Error('--cache-rows must be a positive integer')

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with node --expose-gc')

/** Memory after a full collection. */
async function settled() {
  for (let i = 0; i < 4; i++) {
    gc!()
    await new Promise((r) => setImmediate(r))
  }
  const m = process.memoryUsage()
  return { heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, rss: m.rss }
}

async function main(): Promise<void> {
  const store =
    typeof args.store === 'string' ? resolve(args.store) : outPath(`memory-${dsName}-${commit}.duckdb`)
  await ensureTreeStore(tree, dsName, store, console.log)
  // The whole domain kept: a budget no step reaches (--cache-rows=N: that budget, e.g. the default 5,000,000).
  const engine = (await tree.openEngine({
    path: store,
    aggregateCacheRows: CACHE_ROWS,
  })) as unknown as EngineLike
  const call = async (method: string, params: Record<string, unknown>): Promise<string | null> => {
    const fn = engine[method]
    if (typeof fn !== 'function') return `${method}: not in this tree`
    try {
      await (fn as (p: unknown) => Promise<unknown>).call(engine, { domainId, now, ...params })
      return null
    } catch (e) {
      return `${method}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`
    }
  }
  const steps: {
    step: string
    calls: number
    skipped: string[]
    memory: Awaited<ReturnType<typeof settled>>
    cache: { rows: number; entries: number }
  }[] = []
  const record = async (step: string, calls: number, skipped: string[]) => {
    steps.push({
      step,
      calls,
      skipped: [...new Set(skipped)],
      memory: await settled(),
      cache: { ...engine.status().aggregateCache },
    })
  }
  await record('opened', 0, [])
  const unfiltered = async () => {
    const skipped: string[] = []
    let calls = 0
    for (const days of DAYS)
      for (const [m, p] of REPORTS) {
        const err = await call(m, { days, ...p })
        if (err === null) calls++
        else skipped.push(err)
      }
    // The prompts listing has no window.
    const err = await call('computePromptList', {})
    if (err === null) calls++
    else skipped.push(err)
    return { calls, skipped }
  }
  let u = await unfiltered()
  await record('unfiltered', u.calls, u.skipped)
  u = await unfiltered()
  await record('again', u.calls, u.skipped)
  const q = await call('computeQuery', {
    days: 365,
    dimensions: ['prompt', 'channel', 'country'],
    entity: 'all',
  })
  await record('query', q === null ? 1 : 0, q === null ? [] : [q])
  const skipped: string[] = []
  let calls = 0
  for (const [m, p] of REPORTS) {
    const err = await call(m, { days: 365, country: 'DE', ...p })
    if (err === null) calls++
    else skipped.push(err)
  }
  await record('segment', calls, skipped)
  await engine.close()

  const MB = (b: number) => (b / 2 ** 20).toFixed(1)
  console.log(
    `\ntree ${tree.dir} (${commit}), dataset ${dsName}, store ${store}, cache budget ${CACHE_ROWS} rows`,
  )
  console.log('step        calls  Δ heap+external MB  (Δ heap, Δ external)  Δ rss MB  kept rows  entries')
  for (let i = 1; i < steps.length; i++) {
    const a = steps[i - 1]!.memory
    const b = steps[i]!.memory
    const s = steps[i]!
    const dh = b.heapUsed - a.heapUsed
    const de = b.external - a.external
    console.log(
      `${s.step.padEnd(11)} ${String(s.calls).padStart(5)}  ${MB(dh + de).padStart(18)}  (${MB(dh)}, ${MB(de)})  ${MB(b.rss - a.rss).padStart(8)}  ${String(s.cache.rows).padStart(9)}  ${String(s.cache.entries).padStart(7)}`,
    )
    for (const k of s.skipped) console.log(`            skipped: ${k}`)
  }
  const file = outPath(`aggregate-memory-${dsName}-${commit}.json`)
  writeFileSync(
    file,
    JSON.stringify({ tree: tree.dir, commit, cacheRows: CACHE_ROWS, dataset: dsName, store, steps }, null, 1),
  )
  console.log(`wrote ${file}`)
}

await main()
