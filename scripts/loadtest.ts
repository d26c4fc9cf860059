/**
 * `npm run loadtest`: autocannon against real servers on 127.0.0.1 (child processes started and
 * stopped here), four scenarios, figures as JSON on stdout, exit code 1 when a bound is broken.
 *
 *   warm      50 connections, 30 s, one cached URL per endpoint: zero errors, zero non-2xx
 *   misses    10 connections, 30 s, cache off, random days/model: zero errors, zero non-2xx
 *   overload  200 connections, 20 s, small query queue and a per-key limit: only 200/429/503,
 *             then the service answers 200 again within 5 s
 *   soak      10 connections, 10 min, mixed hits and misses: RSS growth under 5 MB per minute
 *
 * LOADTEST_SHORT=1 (CI) shortens every duration (warm/misses/overload 5 s, soak 60 s).
 * LOADTEST_SOAK_S and LOADTEST_S override the durations.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type autocannonType from 'autocannon'
import { writeBatches } from './gen-ndjson.js'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
if (!existsSync(join(ROOT, 'src/http/index.ts'))) {
  console.error('loadtest: src/http is not in this tree (the HTTP service has not landed); nothing to load.')
  process.exit(2)
}
const autocannon = ((await import('autocannon' as string)) as { default: typeof autocannonType }).default
type AcOptions = autocannonType.Options
type AcRequest = autocannonType.Request
const SHORT = process.env.LOADTEST_SHORT === '1'
const S = Number(process.env.LOADTEST_S ?? (SHORT ? 5 : 30))
const SOAK_S = Number(process.env.LOADTEST_SOAK_S ?? (SHORT ? 60 : 600))
const PATHS = [
  '/api/v1/prompt-statistics-time-series',
  '/api/v1/competitor-time-series',
  '/api/v1/sentiment/overview',
  '/api/v1/sentiment/themes',
]
const MODELS = ['all', 'chatgpt', 'perplexity', 'gemini', 'gpt-4o-2024-08-06']

interface Server {
  url: string
  keys: string[]
  domains: string[]
  pid: number
  child: ChildProcess
  stop(): Promise<void>
}

async function startServer(
  name: string,
  files: string[],
  server: Record<string, unknown>,
  keys = 2,
): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), `va-load-${name}-`))
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'scripts/loadtest-server.ts'),
      JSON.stringify({ dir, files, server, keys }),
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const line = await new Promise<string>((done, fail) => {
    const rl = createInterface({ input: child.stdout! })
    rl.once('line', done)
    child.once('exit', (code) => fail(new Error(`server ${name} exited with ${code}`)))
  })
  const info = JSON.parse(line) as Omit<Server, 'child' | 'stop'>
  return {
    ...info,
    child,
    stop: () =>
      new Promise((done) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true })
          done()
        })
        child.kill('SIGTERM')
      }),
  }
}

/** Resident set size of a process in MB, from /proc. */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : NaN
}

type Result = autocannonType.Result & { statusCodeStats?: Record<string, { count: number }> }

function run(opts: AcOptions): Promise<Result> {
  return new Promise((done, fail) => {
    autocannon(opts, (err, result) => (err ? fail(err) : done(result as Result)))
  })
}

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!

function summary(r: Result) {
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]))
  return {
    requests: r.requests.total,
    rps: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statuses,
  }
}

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length
  const mx = xs.reduce((a, b) => a + b, 0) / n
  const my = ys.reduce((a, b) => a + b, 0) / n
  let num = 0
  let den = 0
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my)
    den += (xs[i]! - mx) ** 2
  }
  return den === 0 ? 0 : num / den
}

const dataDir = mkdtempSync(join(tmpdir(), 'va-load-data-'))
const files = writeBatches(dataDir, 2, 10_000, 3).map((f) => f.file)
const figures: Record<string, unknown> = { short: SHORT, data: '20000 analyses, 9 domains' }
const failures: string[] = []
const servers: Server[] = []

try {
  // 1. warm cache
  const warm = await startServer('warm', files, { rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } })
  servers.push(warm)
  const auth = { authorization: `Bearer ${warm.keys[0]}` }
  const warmUrls = PATHS.map((p) => `${p}?domain_id=${warm.domains[0]}&days=30`)
  for (const u of warmUrls) await fetch(warm.url + u, { headers: auth })
  const w = summary(
    await run({
      url: warm.url,
      connections: 50,
      duration: S,
      headers: auth,
      requests: warmUrls.map((path) => ({ method: 'GET', path })),
    }),
  )
  figures.warm = { connections: 50, seconds: S, ...w }
  if (w.errors || w.timeouts || w.non2xx)
    failures.push(`warm: ${w.errors} errors, ${w.timeouts} timeouts, ${w.non2xx} non-2xx`)

  // 2. cache misses
  const miss = await startServer('misses', files, {
    rateLimit: { limit: 1_000_000_000, windowSeconds: 60 },
    cacheTtl: { sentimentSeconds: 0, seriesSeconds: 0 },
  })
  servers.push(miss)
  const missAuth = { authorization: `Bearer ${miss.keys[0]}` }
  const m = summary(
    await run({
      url: miss.url,
      connections: 10,
      duration: S,
      headers: missAuth,
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => {
            const p = pick(PATHS)
            const model = p.includes('prompt')
              ? ''
              : `&model=${pick(MODELS.slice(0, p.includes('competitor') ? 4 : 5))}`
            return {
              ...req,
              path: `${p}?domain_id=${pick(miss.domains)}&days=${1 + Math.floor(Math.random() * 365)}${model}`,
            }
          },
        },
      ],
    }),
  )
  figures.misses = { connections: 10, seconds: S, ...m }
  if (m.errors || m.timeouts || m.non2xx)
    failures.push(`misses: ${m.errors} errors, ${m.timeouts} timeouts, ${m.non2xx} non-2xx`)
  await miss.stop()
  servers.splice(servers.indexOf(miss), 1)

  // 3. overload: a small query queue (503) and one key over its limit (429)
  const over = await startServer(
    'overload',
    files,
    {
      rateLimit: { limit: 300, windowSeconds: 60 },
      cacheTtl: { sentimentSeconds: 0, seriesSeconds: 0 },
      maxConcurrentQueries: 2,
      maxQueuedQueries: 8,
    },
    6,
  )
  servers.push(over)
  // Warm the engine's per-domain aggregates first: on a cold server under this load every request
  // is refused 503 until the first loads finish (see docs/RELIABILITY.md).
  for (const d of over.domains) {
    for (const p of PATHS)
      await (
        await fetch(`${over.url}${p}?domain_id=${d}`, {
          headers: { authorization: `Bearer ${over.keys[4]}` },
        })
      ).arrayBuffer()
  }
  const randomReport = (key: string) => ({
    method: 'GET' as const,
    headers: { authorization: `Bearer ${key}` },
    setupRequest: (req: AcRequest) => ({
      ...req,
      path: `${pick(PATHS)}?domain_id=${pick(over.domains)}&days=${1 + Math.floor(Math.random() * 365)}`,
    }),
  })
  const [a, b] = await Promise.all([
    run({ url: over.url, connections: 100, duration: S, requests: [randomReport(over.keys[0]!)] }),
    run({
      url: over.url,
      connections: 100,
      duration: S,
      requests: [randomReport(over.keys[1]!)],
      headers: {},
    }),
  ])
  const o = [summary(a), summary(b)]
  const statuses: Record<string, number> = {}
  for (const s of o)
    for (const [k, v] of Object.entries(s.statuses)) statuses[k] = (statuses[k] ?? 0) + (v ?? 0)
  const unexpected = Object.keys(statuses).filter((k) => !['200', '429', '503'].includes(k))
  // recovery: with a fresh key, a request answers 200 within 5 s
  const t0 = performance.now()
  let recovered = -1
  while (performance.now() - t0 < 5000) {
    const r = await fetch(`${over.url}${PATHS[2]}?domain_id=${over.domains[0]}&days=7`, {
      headers: { authorization: `Bearer ${over.keys[5]}` },
    })
    await r.arrayBuffer()
    if (r.status === 200) {
      recovered = Math.round(performance.now() - t0)
      break
    }
    await new Promise((go) => setTimeout(go, 100))
  }
  figures.overload = {
    connections: 200,
    seconds: S,
    statuses,
    errors: o[0]!.errors + o[1]!.errors,
    timeouts: o[0]!.timeouts + o[1]!.timeouts,
    p99_ms: Math.max(o[0]!.p99_ms, o[1]!.p99_ms),
    recovered_ms: recovered,
  }
  if (unexpected.length) failures.push(`overload: unexpected statuses ${unexpected.join(', ')}`)
  if (o[0]!.errors + o[1]!.errors > 0)
    failures.push(`overload: ${o[0]!.errors + o[1]!.errors} connection errors`)
  if (recovered < 0) failures.push('overload: no 200 within 5 s after the load stopped')
  await over.stop()
  servers.splice(servers.indexOf(over), 1)

  // 4. soak on the warm server: mixed hits and misses, RSS sampled from /proc. The first 20 % of
  // the run (cache filling) is left out of the slope.
  const samples: Array<[number, number]> = []
  const started = performance.now()
  const timer = setInterval(
    () => samples.push([(performance.now() - started) / 60_000, rssMb(warm.pid)]),
    2000,
  )
  const soak = summary(
    await run({
      url: warm.url,
      connections: 10,
      duration: SOAK_S,
      headers: auth,
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => {
            const p = pick(PATHS)
            // one request in 5 asks another window of 1-60 days (a miss until the cache holds it)
            const days = Math.random() < 0.2 ? 1 + Math.floor(Math.random() * 60) : 30
            return { ...req, path: `${p}?domain_id=${pick(warm.domains)}&days=${days}` }
          },
        },
      ],
    }),
  )
  clearInterval(timer)
  const steady = samples.filter(([t]) => t >= (SOAK_S / 60) * 0.2)
  const mbPerMin = slope(
    steady.map(([t]) => t),
    steady.map(([, r]) => r),
  )
  figures.soak = {
    connections: 10,
    seconds: SOAK_S,
    ...soak,
    rss_start_mb: Math.round(samples[0]?.[1] ?? 0),
    rss_end_mb: Math.round(samples.at(-1)?.[1] ?? 0),
    rss_slope_mb_per_min: Math.round(mbPerMin * 100) / 100,
    samples: samples.length,
  }
  if (mbPerMin >= 5) failures.push(`soak: RSS grows ${mbPerMin.toFixed(2)} MB/min`)
  if (soak.errors || soak.non2xx) failures.push(`soak: ${soak.errors} errors, ${soak.non2xx} non-2xx`)
} finally {
  for (const s of servers) await s.stop()
  rmSync(dataDir, { recursive: true, force: true })
}

figures.failures = failures
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`)
process.exitCode = failures.length ? 1 : 0
