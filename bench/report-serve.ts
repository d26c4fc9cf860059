/**
 * The "serve" suite in results.json and RESULTS.md: serving at the probe's size over
 * HTTP, with an ingest POST every second, and cached answers, each beside the peer tree (the
 * previous main) measured in the same run when `--serve-peer` was given.
 */
import type { SuiteOutput } from './lib/suite.js'
import type { SuiteRun, Target } from './report.js'
import { ratio } from './lib/format.js'

interface Load {
  requests: number
  rps: number
  p50_ms: number
  p99_ms: number
  max_ms: number
  cpu_ms_per_request: number
}
interface TreeFigures {
  serve?: Load
  serveIngest?: Load
  health?: { p50_ms: number; p99_ms: number; max_ms: number }
  ingest?: { posts: number; analyses_each: number; p50_ms: number; p99_ms: number; max_ms: number }
  cached?: Load
  cachedCompressed?: Load
  cachedNotModified?: Load
}

function serveRun(runs: SuiteRun[]): SuiteOutput | null {
  return runs.find((r) => r.id.startsWith('serve-'))?.output ?? null
}
const trees = (out: SuiteOutput) =>
  Object.entries((out.extra?.trees ?? {}) as Record<string, TreeFigures>) as [string, TreeFigures][]
const n = (x: number) => Math.round(x).toLocaleString('en-US')

/** The issue's serving targets, on this tree's figures (quick runs judge no time). */
export function serveTargets(runs: SuiteRun[], quick: boolean): Target[] {
  const out = serveRun(runs)
  if (out === null) return []
  const f = trees(out)[0]?.[1]
  const met = (ok: boolean | undefined) => (quick || ok === undefined ? null : ok)
  return [
    {
      name: 'serve with an ingest every second: requests/s',
      goal: '>= 2,000/s',
      measured: f?.serveIngest ? `${n(f.serveIngest.rps)}/s` : 'not measured',
      met: met(f?.serveIngest && f.serveIngest.rps >= 2000),
    },
    {
      name: 'serve with an ingest every second: p99',
      goal: '<= 25 ms',
      measured: f?.serveIngest ? `${f.serveIngest.p99_ms} ms` : 'not measured',
      met: met(f?.serveIngest && f.serveIngest.p99_ms <= 25),
    },
    {
      name: `ingest POST (${f?.ingest?.analyses_each ?? 500} analyses) while serving: p99`,
      goal: '<= 200 ms',
      measured: f?.ingest ? `${f.ingest.p99_ms} ms (${f.ingest.posts} posts)` : 'not measured',
      met: met(f?.ingest && f.ingest.p99_ms <= 200),
    },
    {
      name: '/healthz while serving and ingesting: p99',
      goal: '<= 5 ms',
      measured: f?.health ? `${f.health.p99_ms} ms` : 'not measured',
      met: met(f?.health && f.health.p99_ms <= 5),
    },
    {
      name: 'cached answers: requests/s',
      goal: '>= 20,000/s',
      measured: f?.cached ? `${n(f.cached.rps)}/s` : 'not measured',
      met: met(f?.cached && f.cached.rps >= 20_000),
    },
  ]
}

export function serveSection(runs: SuiteRun[]): string[] {
  const out = serveRun(runs)
  if (out === null) return []
  const all = trees(out)
  const s = out.sizes
  const L: string[] = [
    `## Serving over HTTP (${out.dataset}: ${n(s.domains ?? 0)} domains, ${n(s.analyses ?? 0)} analyses)`,
    '',
    `The service in its own process, autocannon (${s.connections} connections, ${s.seconds} s per phase) on 127.0.0.1: the four original reports at random domains, windows and models with the response cache off; the same with a ${s.batchAnalyses}-analysis NDJSON POST every second and /healthz probed 50 times a second; then cached answers (fixed URLs) plain, with \`Accept-Encoding: gzip, br\`, and with a matching If-None-Match (304). CPU is the server process's (Node and DuckDB threads) per request. A sample of answers was checked equal to the engine's payloads before the load and after the ingests.${all.length > 1 ? ` Peer: ${String(out.extra?.peer)}, on a copy of the same store, in the same run.` : ''}`,
    '',
    `| phase | ${all.map(([t]) => `${t}: req/s, p50 / p99 ms, CPU ms/req`).join(' | ')} |${all.length > 1 ? ` req/s, ${all[0]![0]} / ${all[1]![0]} | CPU ms/req, ${all[1]![0]} / ${all[0]![0]} |` : ''}`,
    `|---|${all.map(() => '---:').join('|')}|${all.length > 1 ? '---:|---:|' : ''}`,
  ]
  const phases: [keyof TreeFigures, string][] = [
    ['serve', 'reports, cache off'],
    ['serveIngest', 'reports, cache off, ingest every second'],
    ['cached', 'cached answers'],
    ['cachedCompressed', 'cached answers, gzip/br accepted'],
    ['cachedNotModified', 'cached answers, If-None-Match (304)'],
  ]
  for (const [key, label] of phases) {
    const cells = all.map(([, f]) => {
      const x = f[key] as Load | undefined
      return x ? `${n(x.rps)}, ${x.p50_ms} / ${x.p99_ms}, ${x.cpu_ms_per_request}` : '–'
    })
    const a = all[0]?.[1][key] as Load | undefined
    const b = all[1]?.[1][key] as Load | undefined
    L.push(
      `| ${label} | ${cells.join(' | ')} |${all.length > 1 ? ` ${a && b ? ratio(a.rps / b.rps) : '–'} | ${a && b ? ratio(b.cpu_ms_per_request / a.cpu_ms_per_request) : '–'} |` : ''}`,
    )
  }
  L.push(
    `| ingest POST p50 / p99 / max ms | ${all.map(([, f]) => (f.ingest ? `${f.ingest.p50_ms} / ${f.ingest.p99_ms} / ${f.ingest.max_ms} (${f.ingest.posts} posts)` : '–')).join(' | ')} |${all.length > 1 ? ' | |' : ''}`,
  )
  L.push(
    `| /healthz p50 / p99 / max ms | ${all.map(([, f]) => (f.health ? `${f.health.p50_ms} / ${f.health.p99_ms} / ${f.health.max_ms}` : '–')).join(' | ')} |${all.length > 1 ? ' | |' : ''}`,
  )
  L.push('')
  const inject = out.extra?.inject as Record<string, { cpu_ms_per_request: number }> | undefined
  if (inject && Object.keys(inject).length > 0) {
    const names = Object.keys(inject)
    L.push(
      `The HTTP path without sockets (each tree's server in the suite's process, \`inject()\`, the same random requests, passes alternating the trees, median): ${names.map((t) => `${t} ${inject[t]!.cpu_ms_per_request} ms CPU per request`).join(', ')}${names.length > 1 ? ` (${ratio(inject[names[1]!]!.cpu_ms_per_request / inject[names[0]!]!.cpu_ms_per_request)})` : ''}.`,
      '',
    )
  }
  const over = out.extra?.overload as { statuses: Record<string, number>; recovered_ms: number } | undefined
  const soak = out.extra?.soak as
    { seconds: number; rps: number; rss_slope_mb_per_min: number; heap_slope_mb_per_min?: number } | undefined
  if (over)
    L.push(
      `Overload (200 connections, 2 query slots, 8 queued, 300 requests a minute per key): statuses ${Object.entries(
        over.statuses,
      )
        .map(([k, v]) => `${k}: ${n(v)}`)
        .join(', ')}; 200 again after ${over.recovered_ms} ms.`,
    )
  if (soak)
    L.push(
      soak.heap_slope_mb_per_min === undefined
        ? `Soak (${soak.seconds} s, 10 connections, hits and misses): ${n(soak.rps)} req/s, RSS slope ${soak.rss_slope_mb_per_min} MB/min.`
        : `Soak (${soak.seconds} s, 10 connections, hits and misses): ${n(soak.rps)} req/s; sampled every 5 s after a full collection, RSS slope ${soak.rss_slope_mb_per_min} MB/min, JS heap slope ${soak.heap_slope_mb_per_min} MB/min.`,
    )
  L.push('')
  return L
}
