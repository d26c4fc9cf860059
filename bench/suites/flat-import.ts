/**
 * Parquet and Arrow import side by side with a baseline tree, and the event loop's longest stall
 * during each import. Setup (untimed): the dataset's NDJSON file, ingested once into a store by
 * this tree and exported with `exportParquet`; the export read back as Arrow tables. Then, run
 * after run, each tree in turn: `ingestFile(<export dir>)` into a fresh file store opened
 * `hardened` (as a shard serves: its connections have no file access, so the export is read by a
 * bare in-memory DuckDB instance, the path of a cluster move's import), and `ingestArrow(tables)`
 * into another.
 * Reported per tree and path: median wall ms, mention rows/s, and the longest event-loop stall
 * (perf_hooks monitorEventLoopDelay at 10 ms resolution, and a 5 ms setInterval probe's longest
 * gap); every tree's stored row counts and payloads must be equal.
 * Usage: npm run bench -- --only=flat-import-L [--runs=3] [--peer-tree=<built tree>]
 *   [--ndjson=PATH] [--paths=parquet,arrow]
 */
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { DATASETS, datasetRecords, mainDomainId } from '../data/generator.js'
import { writeNdjson } from '../data/ndjson.js'
import { arrowTablesOf } from '../lib/arrow-tables.js'
import { diffPayloads } from '../lib/compare.js'
import { callReport, caseList, gc, outPath, removeStore, ROOT, startSuite, writeJson } from '../lib/suite.js'
import type { Engine, OpenEngineOptions } from '../../src/types.js'

const suite = startSuite('flat-import', { defaultDataset: 'L' })
const args = suite.args
const ds = suite.dsName
const runs = typeof args.runs === 'string' ? Number(args.runs) : 3
const paths = typeof args.paths === 'string' ? args.paths.split(',') : ['parquet', 'arrow']
const spec = DATASETS[ds]
const domainId = mainDomainId(spec)

type Open = (o: OpenEngineOptions) => Promise<Engine>
const trees: { name: string; open: Open }[] = [{ name: 'this tree', open: await openerOf(ROOT) }]
if (typeof args['peer-tree'] === 'string')
  trees.push({ name: 'baseline', open: await openerOf(args['peer-tree']) })

async function openerOf(root: string): Promise<Open> {
  const m = (await import(join(root, 'dist', 'src', 'index.js'))) as { openEngine: Open }
  return m.openEngine
}

/** The longest event-loop stall while `fn` runs, two ways (ms). */
async function withStallProbe<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; histMaxMs: number; probeMaxMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 })
  h.enable()
  let last = performance.now()
  let probeMaxMs = 0
  const probe = setInterval(() => {
    const now = performance.now()
    const gap = now - last - 5
    // A long gap with the time it ended (the clock VA_TRACE_INGEST's phases print: "(at ...)").
    if (gap > 100) console.log(`  stall ${gap.toFixed(0)} ms, ended at ${now.toFixed(0)}`)
    probeMaxMs = Math.max(probeMaxMs, gap)
    last = now
  }, 5)
  try {
    const value = await fn()
    return { value, histMaxMs: h.max / 1e6, probeMaxMs }
  } finally {
    clearInterval(probe)
    h.disable()
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function payloadsOf(engine: Engine): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { stats: await engine.stats() }
  for (const c of caseList(domainId).filter((x) => x.timed))
    out[c.key] = await callReport(engine as never, c.fn, c.params)
  return out
}

// Setup: the export of the dataset.
const dir = outPath(`export-flat-import-${ds}`)
if (!existsSync(join(dir, 'manifest.json'))) {
  const file = typeof args.ndjson === 'string' ? args.ndjson : outPath(`${ds}.ndjson`)
  if (!existsSync(file)) await writeNdjson(file, datasetRecords(spec))
  const store = outPath(`store-flat-import-src-${ds}.duckdb`)
  removeStore(store)
  const e = await trees[0]!.open({ path: store })
  const t0 = performance.now()
  await e.ingestFile(file)
  console.log(`setup: NDJSON ingested in ${(performance.now() - t0).toFixed(0)} ms`)
  await e.close()
  const x = await trees[0]!.open({ path: store })
  rmSync(dir, { recursive: true, force: true })
  await x.exportParquet(dir)
  await x.close()
  removeStore(store)
}
const tables = paths.includes('arrow') ? await arrowTablesOf(dir) : {}

const store = outPath(`store-flat-import-${ds}.duckdb`)
const results: Record<
  string,
  { ms: number[]; cpuMs: number[]; stallHist: number[]; stallProbe: number[]; mentions: number }
> = {}
let reference: Record<string, unknown> | null = null
for (let r = 0; r < runs; r++) {
  for (const tree of trees) {
    for (const path of paths) {
      removeStore(store)
      rmSync(`${store}.tmp`, { recursive: true, force: true })
      gc()
      const engine = await tree.open({ path: store, hardened: path === 'parquet' })
      const t0 = performance.now()
      const cpu0 = process.cpuUsage()
      const m = await withStallProbe(() =>
        path === 'parquet' ? engine.ingestFile(dir) : engine.ingestArrow(tables as never),
      )
      const ms = performance.now() - t0
      // The process's CPU (JavaScript and DuckDB's threads): less noisy than wall on a loaded machine.
      const cpu = process.cpuUsage(cpu0)
      const cpuMs = (cpu.user + cpu.system) / 1000
      const key = `${tree.name} ${path}`
      const entry = (results[key] ??= {
        ms: [],
        cpuMs: [],
        stallHist: [],
        stallProbe: [],
        mentions: m.value.mentions,
      })
      entry.ms.push(ms)
      entry.cpuMs.push(cpuMs)
      entry.stallHist.push(m.histMaxMs)
      entry.stallProbe.push(m.probeMaxMs)
      console.log(
        `${key} run ${r + 1}: ${ms.toFixed(0)} ms (CPU ${cpuMs.toFixed(0)} ms), ${Math.round(m.value.mentions / (ms / 1000)).toLocaleString('en-US')} mention rows/s, longest stall ${m.histMaxMs.toFixed(0)} ms (probe ${m.probeMaxMs.toFixed(0)} ms)`,
      )
      if (r === 0) {
        const got = await payloadsOf(engine)
        if (reference === null) reference = got
        else {
          const diffs = diffPayloads(got, reference)
          if (diffs.length > 0) throw new Error(`${key}: payloads differ: ${diffs.slice(0, 3).join('; ')}`)
        }
      }
      await engine.close()
    }
  }
}
removeStore(store)
console.log('\nmedians:')
for (const [key, e] of Object.entries(results)) {
  const ms = median(e.ms)
  console.log(
    `${key}: ${ms.toFixed(0)} ms (CPU ${median(e.cpuMs).toFixed(0)} ms), ${Math.round(e.mentions / (ms / 1000)).toLocaleString('en-US')} mention rows/s, longest stall (max over runs) ${Math.max(...e.stallHist).toFixed(0)} ms (probe ${Math.max(...e.stallProbe).toFixed(0)} ms)`,
  )
}
for (const path of paths) {
  const a = results[`this tree ${path}`]
  const b = results[`baseline ${path}`]
  if (a && b) console.log(`${path}: this tree / baseline speed ${(median(b.ms) / median(a.ms)).toFixed(2)}x`)
}
suite.out.sizes = { runs, paths: paths.length }
suite.out.extra = Object.fromEntries(
  Object.entries(results).map(([key, e]) => [
    key,
    {
      median_ms: median(e.ms),
      median_cpu_ms: median(e.cpuMs),
      mention_rows_per_s: Math.round(e.mentions / (median(e.ms) / 1000)),
      longest_stall_ms: Math.max(...e.stallHist),
      longest_stall_probe_ms: Math.max(...e.stallProbe),
    },
  ]),
)
writeJson(`suite-flat-import-${ds}.json`, suite.out)
