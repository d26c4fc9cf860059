/**
 * Scratch profile of one NDJSON ingest into a fresh in-memory engine: wall time, CPU time of the
 * process (DuckDB's threads included), peak RSS, and the CPU time of each busy thread (from
 * /proc, Linux only) so that the critical path shows even on a loaded machine.
 * Usage: node dist/bench/ingest-profile/run.js FILE [REPEAT]; VA_BENCH_DB=path.duckdb for a file-backed
 * store (removed first), VA_INGEST_WORKER=never|always to force a path.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { openEngine } from '../../src/index.js'

const TICK = 100 // USER_HZ
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>()
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      out.set(`${tid === String(process.pid) ? 'main' : comm}#${tid}`, (Number(f[11]) + Number(f[12])) / TICK)
    }
  } catch {
    // not Linux
  }
  return out
}

const [file, repeat = '1'] = process.argv.slice(2)
if (file === undefined) throw new Error('usage: run.js FILE [REPEAT]')
for (let i = 0; i < Number(repeat); i++) {
  const db = process.env.VA_BENCH_DB
  if (db) for (const f of [db, `${db}.wal`]) rmSync(f, { force: true })
  const engine = await openEngine(db ? { path: db } : {})
  const before = threadCpu()
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  const r = await engine.ingestFile(file)
  const wall = (performance.now() - t0) / 1000
  const c = process.cpuUsage(c0)
  const after = threadCpu()
  const threads = [...after]
    .map(([k, v]) => [k.split('#')[0]!, v - (before.get(k) ?? 0)] as const)
    .filter(([, v]) => v >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
  const cpu = (c.user + c.system) / 1e6
  console.log(
    JSON.stringify({
      analyses: r.analyses,
      mentions: r.mentions,
      wall_s: +wall.toFixed(2),
      cpu_s: +cpu.toFixed(2),
      analyses_per_s_wall: Math.round(r.analyses / wall),
      analyses_per_s_cpu: Math.round(r.analyses / cpu),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      threads_cpu_s: threads.join(', '),
    }),
  )
  await engine.close()
}
