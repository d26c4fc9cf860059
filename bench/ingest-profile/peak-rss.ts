/**
 * Peak RSS of one NDJSON file ingested into a file-backed store at a memory limit (issue 26: a 2 GB
 * file under 500 MB at 160 MB), and where the memory goes over the call: `openEngine({ path,
 * memoryLimitMB })` then `ingestFile`, in this tree or in another built tree (`--tree`, e.g. the
 * previous main). Every `--every` ms a separate process reads this one's RSS and its anonymous part
 * from /proc (the main thread's event loop turns too seldom during the feed to sample itself), and
 * this process samples, when its loop turns, the main thread's V8 heap and external memory and the
 * size of the store's temp (spill) directory; with VA_TRACE_MEMORY=1 the NDJSON worker prints its own heap every 64 batches (here:
 * timestamped). The call's phases come from VA_TRACE_INGEST=1 (set here): the feed ends at the
 * "stage:" line. Prints the samples' maximum per phase and one JSON line: analyses, wall, CPU
 * (every thread), peak RSS (the process's maxRSS; `/usr/bin/time -v` gives the same figure).
 * Usage: node dist/bench/ingest-profile/peak-rss.js FILE STORE [--limit=160] [--tree=/work/wt/base]
 *   [--every=200] [--samples=OUT.json]   (STORE, STORE.wal and STORE.tmp are removed first)
 * e.g. /usr/bin/time -v node dist/bench/ingest-profile/peak-rss.js /tmp/big.ndjson /tmp/s.duckdb
 */
import { spawn } from 'node:child_process'
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Engine, OpenEngineOptions } from '../../src/types.js'
import { parseArgs } from '../lib/suite.js'

const args = parseArgs()
const [file, store] = process.argv.slice(2).filter((a) => !a.startsWith('--'))
if (file === undefined || store === undefined)
  throw new Error('usage: peak-rss.js FILE STORE [--limit=160] [--tree=DIR] [--every=200] [--samples=OUT]')
const limit = Number(args.limit ?? 160)
const every = Number(args.every ?? 200)
const MB = 2 ** 20

process.env.VA_TRACE_INGEST = '1'
const tree = args.tree === undefined ? null : resolve(String(args.tree))
const { openEngine } = (await import(
  tree === null ? '../../src/index.js' : pathToFileURL(`${tree}/dist/src/index.js`).href
)) as { openEngine: (o: OpenEngineOptions) => Promise<Engine> }

for (const f of [store, `${store}.wal`]) rmSync(f, { force: true })
rmSync(`${store}.tmp`, { recursive: true, force: true })

function tempMb(): number {
  try {
    let s = 0
    for (const f of readdirSync(`${store}.tmp`)) s += statSync(`${store}.tmp/${f}`).size
    return Math.round(s / MB)
  } catch {
    return 0
  }
}

/**
 * The /proc sampler, in its own process: [ms since `start`, VmRSS MB, RssAnon MB] every `every` ms,
 * printed as JSON when its stdin closes.
 */
const SAMPLER = `
const [pid, every, start] = process.argv.slice(1).map(Number)
const out = []
const read = () => {
  try {
    const s = require('fs').readFileSync('/proc/' + pid + '/status', 'utf8')
    const kb = (k) => {
      const line = s.split(String.fromCharCode(10)).find((l) => l.startsWith(k + ':'))
      return Math.round(Number(line.slice(k.length + 1).trim().split(' ')[0]) / 1024)
    }
    out.push([Date.now() - start, kb('VmRSS'), kb('RssAnon')])
  } catch {}
}
setInterval(read, every)
process.stdin.on('end', () => process.stdout.write(JSON.stringify(out), () => process.exit(0)))
process.stdin.resume()
`
const epoch = Date.now()
const sampler = spawn(process.execPath, ['-e', SAMPLER, String(process.pid), String(every), String(epoch)], {
  stdio: ['pipe', 'pipe', 'inherit'],
})
let procText = ''
sampler.stdout.on('data', (d: Buffer) => (procText += d.toString()))
const procDone = new Promise((r) => sampler.once('exit', r))

interface Sample {
  t: number
  heap: number
  external: number
  tmp: number
}
const samples: Sample[] = []
/** Timestamped trace lines (the phases, the worker's heap). */
const marks: { t: number; line: string }[] = []
const now = () => Date.now() - epoch
const write = process.stderr.write.bind(process.stderr)
process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
  const text = String(chunk)
  for (const line of text.split('\n'))
    if (line.startsWith('stage:') || line.startsWith('ndjson worker') || line.startsWith('ingest call'))
      marks.push({ t: now(), line })
  return write(chunk, ...rest)
}) as typeof process.stderr.write

const engine = await openEngine({ path: store, memoryLimitMB: limit })
const timer = setInterval(() => {
  const m = process.memoryUsage()
  samples.push({
    t: now(),
    heap: Math.round(m.heapUsed / MB),
    external: Math.round(m.external / MB),
    tmp: tempMb(),
  })
}, every)
const c0 = process.cpuUsage()
const w0 = performance.now()
let outcome: Record<string, unknown>
try {
  const r = await engine.ingestFile(file)
  outcome = { ok: true, analyses: r.analyses, citations: r.citations }
} catch (e) {
  outcome = { ok: false, error: String(e).slice(0, 400) }
}
const cpu = process.cpuUsage(c0)
const wall = performance.now() - w0
clearInterval(timer)
await engine.close()
sampler.stdin.end()
await procDone
const proc = JSON.parse(procText || '[]') as [number, number, number][]

const feedEnd = marks.find((m) => m.line.startsWith('stage:'))?.t ?? Infinity
const phase = (name: string, from: number, to: number) => {
  const rss = proc.filter(([t]) => t >= from && t < to)
  const part = samples.filter((s) => s.t >= from && s.t < to)
  if (rss.length === 0) return
  const peak = rss.reduce((a, s) => (s[1] > a[1] ? s : a))
  const max = (k: keyof Sample) => Math.max(0, ...part.map((s) => s[k]))
  process.stdout.write(
    `${name}: max rss ${peak[1]} MB at ${(peak[0] / 1000).toFixed(1)} s (anon ${peak[2]}), ` +
      `${part.length} samples of this thread: main heap max ${max('heap')}, external ${max('external')}, ` +
      `temp dir ${max('tmp')} MB\n`,
  )
}
phase('feed', 0, feedEnd)
phase('steps', feedEnd, Infinity)
if (args.samples !== undefined) writeFileSync(String(args.samples), JSON.stringify({ proc, samples, marks }))
console.log(
  JSON.stringify({
    tree: tree ?? 'this',
    limit_mb: limit,
    ...outcome,
    wall_s: +(wall / 1000).toFixed(1),
    cpu_s: +((cpu.user + cpu.system) / 1e6).toFixed(1),
    feed_s: +(feedEnd / 1000).toFixed(1),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    temp_peak_mb: Math.max(0, ...samples.map((s) => s.tmp)),
  }),
)
