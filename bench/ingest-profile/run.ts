/**
 * Scratch profile of one NDJSON ingest into a fresh in-memory engine: wall time, CPU time of the
 * process (DuckDB's threads included), peak RSS. Usage: tsx bench/ingest-profile/run.ts FILE [REPEAT]
 */
import { openEngine } from '../../src/index.js'

const [file, repeat = '1'] = process.argv.slice(2)
if (file === undefined) throw new Error('usage: run.ts FILE [REPEAT]')
for (let i = 0; i < Number(repeat); i++) {
  const engine = await openEngine()
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  const r = await engine.ingestFile(file)
  const wall = (performance.now() - t0) / 1000
  const c = process.cpuUsage(c0)
  const cpu = (c.user + c.system) / 1e6
  console.log(
    JSON.stringify({
      analyses: r.analyses,
      mentions: r.mentions,
      wall_s: +wall.toFixed(2),
      cpu_s: +cpu.toFixed(2),
      analyses_per_s_wall: Math.round(r.analyses / wall),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  )
  await engine.close()
}
