/**
 * Profile of the small ingest call (the serve suite's 500-analysis POST, through `engine.ingest`):
 * a store at the serving probe's size (200 domains, each domain's last 30 days held back as
 * batches of 500 analyses), then `--calls` batches ingested one after the other into a copy of it,
 * by this tree and by `--peer-tree=<built tree>`, alternating `--rounds` times: each call's wall
 * time (median, p99, max), the process's CPU time (DuckDB's threads included: less sensitive to a
 * loaded machine than wall time) and the longest the event loop was held during each (max_stall_ms:
 * perf_hooks.monitorEventLoopDelay's max; a request arriving then waits that long). VA_TRACE_INGEST=1 prints each SQL step's time and the phases of each call.
 * Also per call: its main-thread turns (the asynchronous resources it waited on, counted with
 * async_hooks by type: DuckDB's work on the libuv pool, setImmediate yields, file and worker I/O;
 * under serving load each one waits behind a turn of the requests' callbacks) and its main-thread
 * CPU time (Linux: the main thread's schedstat; the CPU the call takes from the requests).
 * Usage: node dist/bench/ingest-profile/call.js [--calls=20] [--rounds=2] [--peer-tree=/work/wt/base] [--turns] [--ndjson]
 *   [--cache=DIR] (the store and its batches, built once there)
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createHook } from 'node:async_hooks'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { CHANNELS } from '../../src/foundation/vocabulary.js'
import { openEngine } from '../../src/index.js'
import type { Engine, OpenEngineOptions } from '../../src/types.js'
import { BENCH_NOW, datasetRecords, type DatasetSpec } from '../data/generator.js'
import { writeNdjson } from '../data/ndjson.js'
import { ROOT, parseArgs } from '../lib/suite.js'
import { mainThreadTimes } from '../lib/timing.js'

const args = parseArgs()
const CALLS = Number(args.calls ?? 20)
const ROUNDS = Number(args.rounds ?? 2)
const NDJSON = Boolean(args.ndjson)
const DAYS = 365
const HELD_DAYS = 30
const BATCH = 500
const shape = { prompts: 10, competitors: 5, themes: 10, channels: CHANNELS, days: DAYS, analyses: 3_600 }
const spec: DatasetSpec = {
  name: 'Serve',
  seed: 26,
  endDate: BENCH_NOW.slice(0, 10),
  main: shape,
  crowd: { domains: 199, shape },
}
const cache = String(args.cache ?? join(tmpdir(), 'va-call-profile'))

type Open = (options: OpenEngineOptions) => Promise<Engine>

async function buildStore(): Promise<string[][]> {
  const batchesPath = join(cache, 'batches.json')
  if (existsSync(batchesPath)) return JSON.parse(readFileSync(batchesPath, 'utf8')) as string[][]
  mkdirSync(cache, { recursive: true })
  const initial = join(cache, 'initial.ndjson')
  await writeNdjson(initial, datasetRecords(spec, { toDay: DAYS - HELD_DAYS }))
  const batches: string[][] = []
  let batch: string[] = []
  for (const r of datasetRecords(spec, { fromDay: DAYS - HELD_DAYS, entities: false })) {
    batch.push(JSON.stringify(r))
    if (batch.length === BATCH) {
      batches.push(batch)
      batch = []
      if (batches.length >= 200) break
    }
  }
  // The store's one large ingest (660k analyses) runs out of the default limit's memory.
  const engine = await openEngine({ path: join(cache, 'store.duckdb'), memoryLimitMB: 1024 })
  await engine.ingestFile(initial)
  await engine.close()
  rmSync(initial)
  writeFileSync(batchesPath, JSON.stringify(batches))
  return batches
}

async function run(
  open: Open,
  batches: string[][],
  dir: string,
): Promise<{ times: number[]; stalls: number[]; cpu: number[]; turns: number[]; busy: number[] }> {
  const store = join(dir, 'store.duckdb')
  rmSync(store, { force: true })
  rmSync(`${store}.wal`, { force: true })
  copyFileSync(join(cache, 'store.duckdb'), store)
  const engine = await open({ path: store })
  const times: number[] = []
  const stalls: number[] = []
  const cpu: number[] = []
  const turns: number[] = []
  const busy: number[] = []
  let kinds = new Map<string, number>()
  const hook = createHook({
    init(_id, type) {
      if (type !== 'PROMISE') kinds.set(type, (kinds.get(type) ?? 0) + 1)
    },
  })
  for (const [i, batch] of batches.slice(0, CALLS).entries()) {
    // --ndjson: the call as the ingest endpoint makes it (its body spooled to a file, read by the
    // NDJSON worker); otherwise records through engine.ingest.
    const file = join(dir, `batch-${i}.ndjson`)
    if (NDJSON) writeFileSync(file, `${batch.join('\n')}\n`)
    const records = NDJSON ? [] : batch.map((l) => JSON.parse(l) as unknown)
    const delay = monitorEventLoopDelay({ resolution: 1 })
    delay.enable()
    kinds = new Map()
    hook.enable()
    const m0 = mainThreadTimes().cpu
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    await (NDJSON ? engine.ingestFile(file) : engine.ingest(records))
    times.push(performance.now() - t0)
    const c = process.cpuUsage(c0)
    busy.push(mainThreadTimes().cpu - m0)
    hook.disable()
    cpu.push((c.user + c.system) / 1000)
    delay.disable()
    stalls.push(delay.max / 1e6)
    // The delay monitor's own timer is not the call's.
    kinds.delete('ELDHISTOGRAM')
    turns.push([...kinds.values()].reduce((a, b) => a + b, 0))
    if (args.turns) process.stderr.write(`  turns ${JSON.stringify(Object.fromEntries(kinds))}\n`)
  }
  await engine.close()
  return { times, stalls, cpu, turns, busy }
}

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!
}

const batches = await buildStore()
const trees: [string, Open][] = [['this tree', openEngine]]
if (typeof args['peer-tree'] === 'string') {
  const mod = (await import(pathToFileURL(join(args['peer-tree'], 'dist/src/index.js')).href)) as {
    openEngine: Open
  }
  trees.push(['peer', mod.openEngine])
}
const dir = mkdtempSync(join(tmpdir(), 'va-call-'))
const all = new Map<string, number[]>(trees.map(([n]) => [n, []]))
const allStalls = new Map<string, number[]>(trees.map(([n]) => [n, []]))
const allCpu = new Map<string, number[]>(trees.map(([n]) => [n, []]))
const allTurns = new Map<string, number[]>(trees.map(([n]) => [n, []]))
const allBusy = new Map<string, number[]>(trees.map(([n]) => [n, []]))
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? trees : [...trees].reverse()
    for (const [name, open] of order) {
      const { times: t, stalls, cpu, turns, busy } = await run(open, batches, dir)
      allCpu.get(name)!.push(...cpu.slice(1))
      allTurns.get(name)!.push(...turns.slice(1))
      allBusy.get(name)!.push(...busy.slice(1))
      all.get(name)!.push(...t.slice(1)) // the first call warms the engine's caches
      allStalls.get(name)!.push(...stalls.slice(1))
      process.stderr.write(
        `${name} round ${round}: ${t.map((x) => x.toFixed(0)).join(' ')} (max stall ${stalls.map((x) => x.toFixed(0)).join(' ')})\n`,
      )
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
const summary = Object.fromEntries(
  [...all].map(([n, t]) => [
    n,
    {
      calls: t.length,
      median_ms: +q(t, 0.5).toFixed(1),
      p99_ms: +q(t, 0.99).toFixed(1),
      max_ms: +Math.max(...t).toFixed(1),
      cpu_median_ms: +q(allCpu.get(n)!, 0.5).toFixed(1),
      main_thread_cpu_median_ms: +q(allBusy.get(n)!, 0.5).toFixed(1),
      turns_median: q(allTurns.get(n)!, 0.5),
      max_stall_median_ms: +q(allStalls.get(n)!, 0.5).toFixed(1),
      max_stall_max_ms: +Math.max(...allStalls.get(n)!).toFixed(1),
    },
  ]),
)
console.log(JSON.stringify({ root: ROOT, summary }, null, 1))
