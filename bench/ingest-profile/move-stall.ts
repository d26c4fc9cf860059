/**
 * The event loop's longest stall on a move's target: one domain of N analyses (test/support
 * generator, 200 prompts, 20 competitors; optional answer texts) ingested into a file store and
 * exported with `exportParquet({ domainIds })` (untimed, kept for the next run), then imported
 * by a fresh store opened `hardened`, as a shard's internal import endpoint does (`ingestFile` of
 * the export directory: the SQL flat path, the export read by a bare in-memory DuckDB instance), under a 5 ms
 * interval probe and perf_hooks' monitorEventLoopDelay; then the 15 payload digests the move
 * computes on the target, under the same probe. Prints every gap over 25 ms, with the main thread's
 * CPU time within it and the gap less its time waiting for a core (Linux schedstat: on a loaded
 * machine a gap includes that wait; the rest is what the loop is held with a free core).
 * Usage: node dist/bench/ingest-profile/move-stall.js [ANALYSES=100000] [--texts[=large]] [--out=DIR]
 * (add `node --cpu-prof` to see what holds the loop; VA_TRACE_INGEST=1 prints the phases).
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { payloadDigests } from '../../src/cluster/index.js'
import { openEngine } from '../../src/index.js'
import { dimRecords, makeAnalyses, makeDims } from '../../test/support/generate.js'
import { outPath } from '../lib/suite.js'
import { mainThreadTimes } from '../lib/timing.js'

const args = process.argv.slice(2)
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000)
/** Answer texts: `--texts` 0.1-1.1 KB each, `--texts=large` 1-6 KB. */
const texts = args.find((a) => a.startsWith('--texts'))
const repeats = texts === '--texts=large' ? [30, 150] : [3, 30]
const root =
  args.find((a) => a.startsWith('--out='))?.slice(6) ??
  outPath(`move-stall-${n}${texts === undefined ? '' : texts.slice(1)}`)
const dims = makeDims(5, { teams: 1, domainsPerTeam: 1, promptsPerDomain: 200, competitorsPerDomain: 20 })
const domainId = dims.domains[0]!.id
const dir = join(root, 'export')

if (!existsSync(join(dir, 'manifest.json'))) {
  rmSync(root, { recursive: true, force: true })
  mkdirSync(root, { recursive: true })
  const source = await openEngine({ path: join(root, 'source.duckdb'), memoryLimitMB: 1500 })
  await source.ingest(dimRecords(dims))
  const t0 = performance.now()
  for (let b = 0; b * 20_000 < n; b++) {
    const batch = makeAnalyses(5, dims, b + 1, Math.min(20_000, n - b * 20_000))
    await source.ingest(
      texts !== undefined
        ? batch.map((a, i) => ({
            ...a,
            response: `Answer ${i}: lorem ipsum dolor sit amet. `.repeat(repeats[0]! + (i % repeats[1]!)),
          }))
        : batch,
    )
  }
  console.log(`setup: ${n} analyses ingested in ${(performance.now() - t0).toFixed(0)} ms`)
  await source.exportParquet(dir, { domainIds: [domainId] })
  await source.close()
}

/**
 * Runs `fn` under a 5 ms interval probe; the longest gap (two ways), the longest gap less the
 * time waiting for a core (`free`), and every gap over 25 ms (at+wall ms/CPU ms/free ms). On a
 * loaded machine a gap includes time the main thread waited for a core: the gap less that wait is
 * what it would hold the loop with a free core (its CPU, and any time blocked in a synchronous call).
 */
async function probed<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; ms: number; probe: number; hist: number; free: number; gaps: string[] }> {
  const h = monitorEventLoopDelay({ resolution: 10 })
  h.enable()
  const t0 = performance.now()
  let last = t0
  let lastTimes = mainThreadTimes()
  let probe = 0
  let free = 0
  const gaps: string[] = []
  const timer = setInterval(() => {
    const now = performance.now()
    const times = mainThreadTimes()
    const gap = now - last - 5
    const cpu = times.cpu - lastTimes.cpu
    const gapFree = Math.max(0, gap - (times.wait - lastTimes.wait))
    if (gap > 25)
      gaps.push(`${(last - t0).toFixed(0)}+${gap.toFixed(0)}/${cpu.toFixed(0)}/${gapFree.toFixed(0)}`)
    probe = Math.max(probe, gap)
    free = Math.max(free, gapFree)
    last = now
    lastTimes = times
  }, 5)
  try {
    const value = await fn()
    return { value, ms: performance.now() - t0, probe, hist: h.max / 1e6, free, gaps }
  } finally {
    clearInterval(timer)
    h.disable()
  }
}

const store = join(root, `target-${process.pid}.duckdb`)
const target = await openEngine({ path: store, hardened: true })
try {
  const imported = await probed(() => target.ingestFile(dir))
  console.log(
    `import: ${imported.value.analyses} analyses, ${imported.value.mentions} mentions in ${imported.ms.toFixed(0)} ms; longest stall ${imported.probe.toFixed(0)} ms (histogram ${imported.hist.toFixed(0)} ms; less waiting for a core ${imported.free.toFixed(0)} ms)`,
  )
  console.log(`  gaps over 25 ms (at+wall/CPU/less waiting ms): ${imported.gaps.join(' ')}`)
  const digests = await probed(() => payloadDigests(target, domainId, new Date().toISOString()))
  console.log(
    `digests: ${Object.keys(digests.value).length} endpoints in ${digests.ms.toFixed(0)} ms; longest stall ${digests.probe.toFixed(0)} ms (histogram ${digests.hist.toFixed(0)} ms; less waiting for a core ${digests.free.toFixed(0)} ms)`,
  )
  console.log(`  gaps over 25 ms (at+wall/CPU/less waiting ms): ${digests.gaps.join(' ')}`)
} finally {
  await target.close()
  for (const f of [store, `${store}.wal`]) rmSync(f, { force: true })
  rmSync(`${store}.tmp`, { recursive: true, force: true })
}
