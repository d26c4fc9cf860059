/**
 * Serving at the probe's size: 200 domains, 720k analyses, the HTTP service in its own process,
 * autocannon on 127.0.0.1 (docs/API.md for the endpoints; their rows come from the endpoint table).
 *
 *   serve       the four original reports, random domain, window (`days` 1-365) and model, the
 *               response cache off, 20 connections; warm first (every domain's aggregates loaded)
 *   serve+ingest the same while a 500-analysis NDJSON POST reaches the ingest endpoint every second
 *               (new analyses: each domain's last days are held back from the initial store), and
 *               /healthz probed 50 times a second beside the load
 *   cached      cache on, a fixed set of report URLs (warmed), 20 connections; identity, then with
 *               `Accept-Encoding: gzip, br` (what compression costs), and each with If-None-Match
 *               of the answer's ETag (what a 304 costs)
 *   overload    (this tree only) 200 connections on a 2-slot, 8-place query queue and a per-key limit
 *               of 300 a minute (two keys): only 200, 429 and 503 answers, and 200 again within 5 s
 *   soak        (this tree only, `--soak=<seconds>`, default 60; 0 in --quick) 10 connections of
 *               the four reports over the team's domains and 1-60 days, answers cached 5 s (so
 *               they are computed again and again), after one request of each such URL (the cache
 *               and the aggregates at their steady size first): every 5 s the server's memory
 *               right after a full collection; slopes over the run (first 20 % left out): RSS
 *               < 5 MB/min, JS heap (used + external) < 1 MB/min
 *
 * Every figure comes with the server's CPU time per request (Node and DuckDB threads together,
 * less sensitive to a shared machine than requests/s) and its event loop's longest stall and p99
 * delay over the phase (`loop_max_ms`, `loop_p99_ms`: what a /healthz probe can wait). `--peer-tree=<dir>` runs every phase again
 * against another built tree (the previous main) on a copy of the same store, one tree after the
 * other in the same run, in alternating rounds (`--rounds`, default 2: A B B A), medians reported. `--cpu-prof` profiles the server of each tree during each timed phase
 * (bench/out/serve-profile-<tree>/<phase>.cpuprofile) and summarizes the profiles (top self and
 * total frames, self time by module; bench/lib/cpu-profile.ts).
 *
 * Answers are checked, never only timed: before the load, a sample of random requests is answered
 * by each server and compared to the engine's own payloads for the same parameters (exact text);
 * after the ingest phase, the same sample against a store that ingested the same posted batches.
 * `--quick` (CI): a small store and short phases; it judges no time, only the answers and that
 * every request got a 2xx.
 */
import { fork, type ChildProcess } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import autocannon from 'autocannon'
import { ENDPOINTS, type ComputeMethod, type Endpoint } from '../../src/api/index.js'
import { CHANNELS } from '../../src/foundation/vocabulary.js'
import { API_PATHS } from '../../src/http/index.js'
import { openEngine } from '../../src/index.js'
import type { Engine } from '../../src/types.js'
import { Rng } from '../../test/support/random.js'
import { BENCH_NOW, datasetRecords, type DatasetSpec } from '../data/generator.js'
import { writeNdjson } from '../data/ndjson.js'
import { summarizeProfile, type ProfileSummary } from '../lib/cpu-profile.js'
import type { ServeServerOptions } from '../lib/serve-server.js'
import { ROOT, outPath, removeStore, startSuite, writeJson } from '../lib/suite.js'

const { args, quick, dsName, out, log } = startSuite('serve', { defaultDataset: 'L' })

/** The four original reports, found in the endpoint table by their engine method. */
const REPORTS: readonly ComputeMethod[] = [
  'computePromptSeries',
  'computeCompetitorSeries',
  'computeSentimentOverview',
  'computeSentimentThemes',
]
const ROWS = (ENDPOINTS as readonly Endpoint[]).filter((e) => REPORTS.includes(e.method))
if (ROWS.length !== REPORTS.length) throw new Error('the endpoint table lacks one of the four reports')
const MODELS = ['all', ...CHANNELS]

const SIZE = quick
  ? { domains: 8, analyses: 400, seconds: 3, batch: 100, sample: 24 }
  : { domains: 200, analyses: 3_600, seconds: Number(args.seconds ?? 20), batch: 500, sample: 60 }
const HELD_DAYS = 30
const DAYS = 365
const CONNECTIONS = 20
const ADMIN = 'bench-admin-token-0123456789abcdef'
const NOW_MS = Date.parse(BENCH_NOW)
const shape = {
  prompts: 10,
  competitors: 5,
  themes: 10,
  channels: CHANNELS,
  days: DAYS,
  analyses: SIZE.analyses,
}
const spec: DatasetSpec = {
  name: dsName,
  seed: 26,
  endDate: BENCH_NOW.slice(0, 10),
  main: shape,
  crowd: { domains: SIZE.domains - 1, shape },
}

interface Tree {
  name: string
  dir: string
  /** Environment variables of this tree's server processes (besides the suite's own). */
  env: Record<string, string>
}
/** `--peer-env=K=V,K=V`: the peer's servers run with these variables (e.g. this tree against itself). */
const peerEnv = Object.fromEntries(
  (typeof args['peer-env'] === 'string' ? args['peer-env'].split(',') : []).map((kv) => {
    const at = kv.indexOf('=')
    return [kv.slice(0, at), kv.slice(at + 1)]
  }),
)
const trees: Tree[] = [{ name: 'this tree', dir: ROOT, env: {} }]
if (typeof args['peer-tree'] === 'string') trees.push({ name: 'peer', dir: args['peer-tree'], env: peerEnv })
const profile = args['cpu-prof'] === true
const SOAK_S = Number(args.soak ?? (quick ? 0 : 60))
const ROUNDS = Number(args.rounds ?? (quick ? 1 : 2))
/** `--uv-threads=<n>`: the servers' libuv pool size (UV_THREADPOOL_SIZE; Node's default is 4). */
const UV_THREADS = typeof args['uv-threads'] === 'string' ? args['uv-threads'] : undefined

/** One request of the load: an endpoint row and its query string. */
interface Ask {
  row: Endpoint
  query: Record<string, string>
}

function randomAsk(rand: Rng, domains: readonly string[]): Ask {
  const row = rand.pick(ROWS)
  const query: Record<string, string> = {
    domain_id: rand.pick(domains),
    days: String(rand.int(1, DAYS)),
  }
  if ('model' in row.params) query.model = rand.pick(MODELS)
  return { row, query }
}
const pathOf = (a: Ask) => `${a.row.path}?${new URLSearchParams(a.query).toString()}`

/** GETs every path of `paths` once on `base`, 8 at a time, reading each body (a warm-up). */
async function fetchEach(base: string, paths: readonly string[], headers: Record<string, string>) {
  let next = 0
  const worker = async () => {
    while (next < paths.length) await (await fetch(base + paths[next++]!, { headers })).arrayBuffer()
  }
  await Promise.all(Array.from({ length: 8 }, worker))
}

/** The body the service must send for `ask`: the engine's payload, checked by the row's schema. */
async function expectedBody(engine: Engine, a: Ask): Promise<string> {
  const params = a.row.query.parse(a.query)
  const payload = await a.row.compute(engine, params as never, { now: new Date(NOW_MS), caller: null })
  return JSON.stringify(a.row.payload.parse(payload))
}

/** The server's event loop since the previous reading: its longest stall and p99 delay. */
interface LoopDelay {
  max_ms: number
  p99_ms: number
}

/** `process.memoryUsage()` of a server after a full collection, in MB. */
interface ServerMemory {
  rss: number
  heapUsed: number
  external: number
  arrayBuffers: number
}

interface Server {
  url: string
  child: ChildProcess
  /** The server's CPU time so far (ms), and its event loop's delays since the last call. */
  cpu(): Promise<{ cpuMs: number; loop: LoopDelay }>
  /** The server's memory (MB) right after a full garbage collection. */
  memory(): Promise<ServerMemory>
  /** Profiles what the server runs during `during` into `file` (when `file` is set). */
  profiled<T>(file: string | undefined, during: () => Promise<T>): Promise<T>
  stop(): Promise<void>
}

async function startServer(tree: Tree, store: string, server: Record<string, unknown>) {
  const options: ServeServerOptions = { tree: tree.dir, store, nowMs: NOW_MS, server }
  const script = fileURLToPath(new URL('../lib/serve-server.js', import.meta.url))
  const child = fork(script, [JSON.stringify(options)], {
    cwd: ROOT,
    // The soak asks for a full collection before each memory sample (`memory()`).
    execArgv: [...process.execArgv, '--expose-gc'],
    env: {
      ...process.env,
      ...(UV_THREADS !== undefined && { UV_THREADPOOL_SIZE: UV_THREADS }),
      ...tree.env,
    },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  })
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once('line', done)
    child.once('exit', (code) => fail(new Error(`the ${tree.name} server exited with ${code}`)))
  })
  const { url } = JSON.parse(line) as { url: string }
  const s: Server = {
    url,
    child,
    cpu: () =>
      new Promise((done) => {
        child.once('message', (m) => done(m as { cpuMs: number; loop: LoopDelay }))
        child.send('cpu')
      }),
    memory: () =>
      new Promise((done) => {
        child.once('message', (m) => done((m as { memory: ServerMemory }).memory))
        child.send('memory')
      }),
    profiled: async (file, during) => {
      if (file === undefined) return during()
      const reply = (key: string) =>
        new Promise<void>((done) => {
          const on = (m: unknown) => {
            if (typeof m === 'object' && m !== null && key in m) {
              child.off('message', on)
              done()
            }
          }
          child.on('message', on)
        })
      const started = reply('profiling')
      child.send('profile-start')
      await started
      try {
        return await during()
      } finally {
        const written = reply('profiled')
        child.send({ profileStop: file })
        await written
      }
    },
    stop: () =>
      new Promise((done) => {
        child.once('exit', () => done())
        child.send('close')
      }),
  }
  return s
}

interface LoadFigures {
  requests: number
  rps: number
  p50_ms: number
  p90_ms: number
  p99_ms: number
  max_ms: number
  errors: number
  non2xx: number
  cpu_ms_per_request: number
  /** The server's longest event-loop stall during the phase, and its p99 delay. */
  loop_max_ms: number
  loop_p99_ms: number
}

async function load(
  server: Server,
  headers: Record<string, string>,
  requests: autocannon.Request[],
  seconds: number,
): Promise<LoadFigures> {
  const cpu0 = (await server.cpu()).cpuMs
  const r = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: seconds,
    headers,
    requests,
  })
  const after = await server.cpu()
  const cpu = after.cpuMs - cpu0
  return {
    requests: r.requests.total,
    rps: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p90_ms: r.latency.p90,
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    cpu_ms_per_request: +(cpu / Math.max(1, r.requests.total)).toFixed(3),
    loop_max_ms: after.loop.max_ms,
    loop_p99_ms: after.loop.p99_ms,
  }
}

/** Compares each server answer of `sample` to the engine's; returns the failures. */
async function checkSample(server: Server, headers: Record<string, string>, expected: Map<Ask, string>) {
  const bad: string[] = []
  for (const [a, body] of expected) {
    const res = await fetch(server.url + pathOf(a), { headers })
    const text = await res.text()
    if (res.status !== 200 || text !== body)
      bad.push(`${pathOf(a)}: status ${res.status}, body ${text === body ? 'equal' : 'differs'}`)
  }
  return bad
}

const quantile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? NaN : Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]!)
}

/** Each number of the rounds' figures (phase -> field -> value) as its median; the rest from the last round. */
function medianFigures(all: Record<string, unknown>[]): Record<string, unknown> {
  const last = all.at(-1) ?? {}
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b)
    const m = s.length >> 1
    return s.length % 2 ? s[m]! : +((s[m - 1]! + s[m]!) / 2).toFixed(3)
  }
  return Object.fromEntries(
    Object.entries(last).map(([phase, fig]) => {
      if (typeof fig !== 'object' || fig === null || Array.isArray(fig)) return [phase, fig]
      const fields = Object.entries(fig as Record<string, unknown>).map(([k, v]) => {
        if (typeof v !== 'number') return [k, v]
        const xs = all.map((r) => (r[phase] as Record<string, unknown> | undefined)?.[k])
        return [k, median(xs.filter((x): x is number => typeof x === 'number'))]
      })
      return [phase, Object.fromEntries(fields)]
    }),
  )
}

interface TreeModules {
  openEngine(o: Record<string, unknown>): Promise<Engine>
  buildServer(o: Record<string, unknown>): Promise<{
    ready(): Promise<unknown>
    close(): Promise<unknown>
    inject(o: { url: string; headers: Record<string, string> }): Promise<{ statusCode: number; body: string }>
  }>
}

/**
 * The HTTP path's CPU per request without sockets or a load generator: each tree's server in this
 * process (`inject()`), the same random requests (cache off, 20 domains, aggregates warm) in
 * passes that alternate the trees; the median pass of each. Steadier than the figures over
 * sockets on a shared machine.
 */
async function injectCpu(store: string, dir: string, domains: string[], headers: Record<string, string>) {
  const apps: { tree: Tree; app: Awaited<ReturnType<TreeModules['buildServer']>>; engine: Engine }[] = []
  const rand = new Rng(29)
  const asks = Array.from({ length: quick ? 40 : 400 }, () => randomAsk(rand, domains))
  const passes: Record<string, number[]> = {}
  try {
    for (const [i, tree] of trees.entries()) {
      const copy = join(dir, `inject-${i}.duckdb`)
      copyFileSync(store, copy)
      const load = async (path: string) =>
        (await import(pathToFileURL(join(tree.dir, 'dist', 'src', path)).href)) as Partial<TreeModules>
      const { openEngine: open } = await load('index.js')
      const { buildServer } = await load(join('http', 'index.js'))
      const engine = await open!({ path: copy, hardened: true })
      const app = await buildServer!({
        engine,
        logger: false,
        clock: () => NOW_MS,
        rateLimit: { limit: 1_000_000_000, windowSeconds: 60 },
        cacheTtl: { seriesSeconds: 0, sentimentSeconds: 0 },
      })
      await app.ready()
      apps.push({ tree, app, engine })
    }
    const pass = async (app: (typeof apps)[number]['app']) => {
      const cpu0 = process.cpuUsage()
      for (const a of asks) {
        const res = await app.inject({ url: pathOf(a), headers })
        if (res.statusCode !== 200) throw new Error(`inject ${pathOf(a)}: ${res.statusCode} ${res.body}`)
      }
      const cpu = process.cpuUsage(cpu0)
      return (cpu.user + cpu.system) / 1000 / asks.length
    }
    for (const a of apps) await pass(a.app) // warm: every domain's aggregates loaded
    for (let p = 0; p < (quick ? 1 : 6); p++)
      for (const a of p % 2 ? [...apps].reverse() : apps) (passes[a.tree.name] ??= []).push(await pass(a.app))
  } finally {
    for (const a of apps) {
      await a.app.close()
      await a.engine.close()
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
  return Object.fromEntries(
    Object.entries(passes).map(([t, xs]) => [
      t,
      { cpu_ms_per_request: +median(xs).toFixed(3), passes: xs.map((x) => +x.toFixed(3)) },
    ]),
  )
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

type Result = autocannon.Result & { statusCodeStats?: Record<string, { count: number }> }
const statuses = (rs: Result[]) => {
  const all: Record<string, number> = {}
  for (const r of rs)
    for (const [k, v] of Object.entries(r.statusCodeStats ?? {})) all[k] = (all[k] ?? 0) + (v?.count ?? 0)
  return all
}

/** The bounds of the service under overload, and its memory over a soak (this tree only). */
async function overloadAndSoak(store: string, domains: string[], team: string, dir: string) {
  const copy = join(dir, 'bounds.duckdb')
  copyFileSync(store, copy)
  const keyed = await openEngine({ path: copy })
  const keys: string[] = []
  for (let i = 0; i < 3; i++) keys.push((await keyed.createApiKey({ teamId: team, name: `load ${i}` })).key)
  const own = (await keyed.computeDomainList()).data.items.map((d) => d.id).filter((d) => domains.includes(d))
  const mine = [] as string[]
  for (const d of own) if ((await keyed.getDomain(d))!.team_id === team) mine.push(d)
  await keyed.close()
  const rand = new Rng(28)
  const seconds = Math.max(3, SIZE.seconds / 2)
  const server = await startServer(trees[0]!, copy, {
    rateLimit: { limit: 300, windowSeconds: 60 },
    cacheTtl: { sentimentSeconds: 0, seriesSeconds: 0 },
    maxConcurrentQueries: 2,
    maxQueuedQueries: 8,
  })
  const bounds: Record<string, unknown> = {}
  try {
    // Warm the domain's aggregates with the third key (a cold server sheds everything: RELIABILITY.md).
    for (const row of ROWS)
      await (
        await fetch(server.url + pathOf({ row, query: { domain_id: mine[0]! } }), {
          headers: { authorization: `Bearer ${keys[2]}` },
        })
      ).arrayBuffer()
    const random = (key: string): autocannon.Request[] => [
      {
        method: 'GET',
        headers: { authorization: `Bearer ${key}` },
        setupRequest: (req) => ({ ...req, path: pathOf(randomAsk(rand, mine)) }),
      },
    ]
    log(`overload: 200 connections, ${seconds} s`)
    const rs = (await Promise.all(
      [keys[0]!, keys[1]!].map((k) =>
        autocannon({ url: server.url, connections: 100, duration: seconds, requests: random(k) }),
      ),
    )) as Result[]
    const seen = statuses(rs)
    const t0 = performance.now()
    let recovered = -1
    while (performance.now() - t0 < 5000) {
      const res = await fetch(server.url + pathOf({ row: ROWS[0]!, query: { domain_id: mine[0]! } }), {
        headers: { authorization: `Bearer ${keys[2]}` },
      })
      await res.arrayBuffer()
      if (res.status === 200) {
        recovered = Math.round(performance.now() - t0)
        break
      }
      await new Promise((go) => setTimeout(go, 100))
    }
    const errors = rs.reduce((a, r) => a + r.errors, 0)
    const timeouts = rs.reduce((a, r) => a + r.timeouts, 0)
    bounds.overload = { connections: 200, seconds, statuses: seen, errors, timeouts, recovered_ms: recovered }
    const unexpected = Object.keys(seen).filter((k) => !['200', '429', '503'].includes(k))
    if (unexpected.length) out.failures.push(`overload: unexpected statuses ${unexpected.join(', ')}`)
    if (errors > 0) out.failures.push(`overload: ${errors} connection errors`)
    if (recovered < 0) out.failures.push('overload: no 200 within 5 s after the load stopped')
  } finally {
    await server.stop()
  }
  if (SOAK_S > 0) {
    const soak = await startServer(trees[0]!, copy, {
      rateLimit: { limit: 1_000_000_000, windowSeconds: 60 },
      cacheTtl: { sentimentSeconds: 5, seriesSeconds: 5 },
    })
    try {
      // Every URL of the soak's mix once, 8 at a time: the response cache then holds the whole mix
      // (it only expires and is computed again), so RSS growth after this is not the cache filling.
      const urls = ROWS.flatMap((row) =>
        mine.flatMap((d) =>
          Array.from({ length: 60 }, (_, i) => pathOf({ row, query: { domain_id: d, days: String(i + 1) } })),
        ),
      )
      const w0 = performance.now()
      await fetchEach(soak.url, urls, { authorization: `Bearer ${keys[2]}` })
      log(`soak: ${urls.length} URLs warmed in ${(performance.now() - w0).toFixed(0)} ms`)
      // Every 5 s, the server's memory right after a full collection: without it a minute's RSS
      // slope mixed V8's heap growing toward its next major collection with growth that stays.
      const samples: Array<[number, ServerMemory]> = []
      const started = performance.now()
      let sampling = Promise.resolve()
      const timer = setInterval(() => {
        sampling = sampling.then(async () => {
          samples.push([(performance.now() - started) / 60_000, await soak.memory()])
        })
      }, 5000)
      log(`soak: ${SOAK_S} s`)
      const r = (await autocannon({
        url: soak.url,
        connections: 10,
        duration: SOAK_S,
        headers: { authorization: `Bearer ${keys[2]}` },
        requests: [
          {
            method: 'GET',
            setupRequest: (req) => {
              const row = rand.pick(ROWS)
              const days = String(rand.int(1, 60))
              return { ...req, path: pathOf({ row, query: { domain_id: rand.pick(mine), days } }) }
            },
          },
        ],
      })) as Result
      clearInterval(timer)
      await sampling
      const steady = samples.filter(([t]) => t >= (SOAK_S / 60) * 0.2)
      const slopeOf = (of: (m: ServerMemory) => number) =>
        slope(
          steady.map(([t]) => t),
          steady.map(([, m]) => of(m)),
        )
      const mbPerMin = slopeOf((m) => m.rss)
      const heapPerMin = slopeOf((m) => m.heapUsed + m.external)
      bounds.soak = {
        connections: 10,
        seconds: SOAK_S,
        requests: r.requests.total,
        rps: Math.round(r.requests.average),
        p99_ms: r.latency.p99,
        errors: r.errors + r.timeouts,
        non2xx: r.non2xx,
        rss_start_mb: Math.round(samples[0]?.[1].rss ?? 0),
        rss_end_mb: Math.round(samples.at(-1)?.[1].rss ?? 0),
        rss_slope_mb_per_min: +mbPerMin.toFixed(2),
        heap_start_mb: Math.round(samples[0]?.[1].heapUsed ?? 0),
        heap_end_mb: Math.round(samples.at(-1)?.[1].heapUsed ?? 0),
        heap_slope_mb_per_min: +heapPerMin.toFixed(2),
      }
      if (SOAK_S >= 60 && mbPerMin >= 5)
        out.failures.push(`soak: RSS after a full collection grows ${mbPerMin.toFixed(2)} MB/min`)
      if (SOAK_S >= 60 && heapPerMin >= 1)
        out.failures.push(`soak: the JS heap after a full collection grows ${heapPerMin.toFixed(2)} MB/min`)
      if (r.errors || r.non2xx) out.failures.push(`soak: ${r.errors} errors, ${r.non2xx} non-2xx`)
    } finally {
      await soak.stop()
    }
  }
  removeStore(copy)
  return bounds
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'va-bench-serve-'))
  try {
    // The store: every domain's records except its last HELD_DAYS days, which are POSTed later.
    // Built once and kept in bench/out/ (its size and seed in meta.json; `--fresh` builds it again).
    const t0 = performance.now()
    const cacheDir = outPath(`serve-store-${dsName}`)
    const store = join(dir, 'initial.duckdb')
    const metaPath = join(cacheDir, 'meta.json')
    const specKey = JSON.stringify({ spec, HELD_DAYS, batch: SIZE.batch })
    type Meta = { specKey: string; key: string; batches: string[]; initialLines: number }
    let meta = existsSync(metaPath) ? (JSON.parse(readFileSync(metaPath, 'utf8')) as Meta) : null
    if (meta?.specKey !== specKey || args.fresh === true) {
      rmSync(cacheDir, { recursive: true, force: true })
      mkdirSync(cacheDir, { recursive: true })
      const initialFile = join(dir, 'initial.ndjson')
      const written = await writeNdjson(initialFile, datasetRecords(spec, { toDay: DAYS - HELD_DAYS }))
      const batches: string[] = []
      let body = ''
      let n = 0
      for (const r of datasetRecords(spec, { fromDay: DAYS - HELD_DAYS, entities: false })) {
        body += `${JSON.stringify(r)}\n`
        if (++n === SIZE.batch) {
          batches.push(body)
          body = ''
          n = 0
        }
      }
      // Setup, not measured: a memory limit that holds the whole initial file in one call.
      const building = await openEngine({ path: join(cacheDir, 'store.duckdb'), memoryLimitMB: 2048 })
      await building.ingestFile(initialFile)
      rmSync(initialFile)
      const ids = (await building.computeDomainList()).data.items.map((d) => d.id)
      const owners = await Promise.all(ids.map(async (d) => (await building.getDomain(d))!.team_id))
      const all = [...new Set(owners)]
      // One key reading every team's domains.
      const { key } = await building.createApiKey({ teamId: all[0]!, scopeTeamIds: all, name: 'bench' })
      await building.close()
      meta = { specKey, key, batches, initialLines: written.lines }
      writeFileSync(metaPath, JSON.stringify(meta))
    } else log('store: reused from', cacheDir)
    copyFileSync(join(cacheDir, 'store.duckdb'), store)
    const { key, batches } = meta
    const engine = await openEngine({ path: store })
    const stored = { analyses: Number((await engine.stats()).analyses) }
    out.setup.storeMs = performance.now() - t0
    const domains = (await engine.computeDomainList()).data.items.map((d) => d.id)
    const teams = [
      ...new Set(await Promise.all(domains.map(async (d) => (await engine.getDomain(d))!.team_id))),
    ]
    const headers = { authorization: `Bearer ${key}` }
    const rand = new Rng(26)
    const sample = Array.from({ length: SIZE.sample }, () => randomAsk(rand, domains))
    const expectBefore = new Map<Ask, string>()
    for (const a of sample) expectBefore.set(a, await expectedBody(engine, a))
    await engine.close()
    out.sizes = {
      domains: domains.length,
      analyses: stored.analyses + batches.length * SIZE.batch,
      initialAnalyses: stored.analyses,
      initialLines: meta.initialLines,
      ingestBatches: batches.length,
      batchAnalyses: SIZE.batch,
      connections: CONNECTIONS,
      seconds: SIZE.seconds,
    }
    log(`store: ${domains.length} domains, ${stored.analyses} analyses (+${batches.length} batches held)`)

    const rounds: Record<string, Record<string, unknown>[]> = {}
    // Rounds alternate the trees (A B, then B A, ...) so that a change of the machine's load
    // between them weighs on both; each figure is the median of a tree's rounds.
    const order = Array.from({ length: ROUNDS }, (_, r) =>
      r % 2 === 0 ? trees : [...trees].reverse(),
    ).flat()
    for (const [step, tree] of order.entries()) {
      const last = order.lastIndexOf(tree) === step
      const copy = join(dir, `serve-${trees.indexOf(tree)}.duckdb`)
      copyFileSync(store, copy)
      const profDir = profile && last ? outPath(`serve-profile-${trees.indexOf(tree)}`) : undefined
      if (profDir !== undefined) {
        rmSync(profDir, { recursive: true, force: true })
        mkdirSync(profDir, { recursive: true })
      }
      const prof = (phase: string) =>
        profDir === undefined ? undefined : join(profDir, `${phase}.cpuprofile`)
      const fig: Record<string, unknown> = {}
      const server = await startServer(tree, copy, {
        adminToken: ADMIN,
        rateLimit: { limit: 1_000_000_000, windowSeconds: 60 },
        cacheTtl: { sentimentSeconds: 0, seriesSeconds: 0 },
      })
      try {
        const before = await checkSample(server, headers, expectBefore)
        for (const b of before) out.failures.push(`${tree.name}, before the load: ${b}`)
        // Warm: every domain's report once (the aggregates loaded), 8 at a time.
        const warm = domains.flatMap((d) => ROWS.map((row) => pathOf({ row, query: { domain_id: d } })))
        await fetchEach(server.url, warm, headers)
        const loadRand = new Rng(27)
        const random: autocannon.Request[] = [
          { method: 'GET', setupRequest: (req) => ({ ...req, path: pathOf(randomAsk(loadRand, domains)) }) },
        ]
        log(`${tree.name}: serve (cache off, ${SIZE.seconds} s)`)
        fig.serve = await server.profiled(prof('serve'), () => load(server, headers, random, SIZE.seconds))
        log(`${tree.name}: serve with an ingest POST every second`)
        const ingestMs: number[] = []
        const ingestFailures: string[] = []
        let posted = 0
        let stop = false
        const poster = (async () => {
          while (!stop && posted < batches.length) {
            const started = performance.now()
            const res = await fetch(server.url + API_PATHS.ingest, {
              method: 'POST',
              headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/x-ndjson' },
              body: batches[posted]!,
            })
            const text = await res.text()
            const ms = performance.now() - started
            if (res.status === 200) ingestMs.push(ms)
            else ingestFailures.push(`ingest ${posted}: ${res.status} ${text.slice(0, 200)}`)
            posted++
            await new Promise((r) => setTimeout(r, Math.max(0, 1000 - ms)))
          }
        })()
        const health = autocannon({
          url: server.url + API_PATHS.health,
          connections: 1,
          overallRate: 50,
          duration: SIZE.seconds,
        })
        fig.serveIngest = await server.profiled(prof('serve-ingest'), () =>
          load(server, headers, random, SIZE.seconds),
        )
        stop = true
        await poster
        const h = await health
        fig.health = {
          requests: h.requests.total,
          p50_ms: h.latency.p50,
          p99_ms: h.latency.p99,
          max_ms: h.latency.max,
          errors: h.errors + h.timeouts,
          non2xx: h.non2xx,
        }
        fig.ingest = {
          posts: ingestMs.length,
          analyses_each: SIZE.batch,
          p50_ms: quantile(ingestMs, 0.5),
          p99_ms: quantile(ingestMs, 0.99),
          max_ms: Math.round(Math.max(...ingestMs)),
        }
        out.failures.push(...ingestFailures.map((f) => `${tree.name}: ${f}`))
        // The same sample against a store that ingested the same batches in the same order.
        const check = join(dir, 'check.duckdb')
        copyFileSync(store, check)
        const checker = await openEngine({ path: check })
        const batchFile = join(dir, 'batch.ndjson')
        for (const b of batches.slice(0, posted)) {
          writeFileSync(batchFile, b)
          await checker.ingestFile(batchFile)
        }
        const expectAfter = new Map<Ask, string>()
        for (const a of sample) expectAfter.set(a, await expectedBody(checker, a))
        await checker.close()
        removeStore(check)
        const after = await checkSample(server, headers, expectAfter)
        for (const b of after) out.failures.push(`${tree.name}, after ${posted} ingests: ${b}`)
      } finally {
        await server.stop()
      }

      // Cached answers: a fixed set of report URLs, warmed, then 20 connections round-robin.
      const cached = await startServer(tree, copy, { rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } })
      try {
        const urls = domains
          .slice(0, 5)
          .flatMap((d) => ROWS.map((row) => pathOf({ row, query: { domain_id: d, days: '30' } })))
        const tags: string[] = []
        for (const u of urls) {
          const res = await fetch(cached.url + u, { headers })
          await res.arrayBuffer()
          tags.push(res.headers.get('etag') ?? '')
        }
        const plain = urls.map((path) => ({ method: 'GET' as const, path }))
        log(`${tree.name}: cached answers`)
        fig.cached = await cached.profiled(prof('cached'), () =>
          load(cached, headers, plain, SIZE.seconds / 2),
        )
        fig.cachedCompressed = await load(
          cached,
          { ...headers, 'accept-encoding': 'gzip, br' },
          plain,
          SIZE.seconds / 2,
        )
        fig.cachedNotModified = await load(
          cached,
          headers,
          urls.map((path, i) => ({
            method: 'GET' as const,
            path,
            headers: { ...headers, 'if-none-match': tags[i]! },
          })),
          SIZE.seconds / 2,
        )
      } finally {
        await cached.stop()
      }
      removeStore(copy)
      for (const [phase, f] of Object.entries(fig)) {
        const x = f as Partial<LoadFigures>
        // A 304 is the expected answer of the If-None-Match phase, not a failure.
        const non2xx = phase === 'cachedNotModified' ? 0 : (x.non2xx ?? 0)
        if ((x.errors ?? 0) > 0 || non2xx > 0)
          out.failures.push(`${tree.name}, ${phase}: ${x.errors} errors, ${x.non2xx} non-2xx answers`)
      }
      if (profDir !== undefined) {
        const summaries: ProfileSummary[] = readdirSync(profDir)
          .filter((f) => f.endsWith('.cpuprofile'))
          .map((f) => summarizeProfile(join(profDir, f), 25))
        fig.profile = summaries
        writeFileSync(join(profDir, 'summary.json'), JSON.stringify(summaries, null, 1))
      }
      ;(rounds[tree.name] ??= []).push(fig)
      log(
        tree.name,
        JSON.stringify(fig, (k, v: unknown) => (k === 'profile' ? undefined : v)),
      )
    }
    const results = Object.fromEntries(trees.map((t) => [t.name, medianFigures(rounds[t.name] ?? [])]))
    const inject = await injectCpu(store, dir, domains.slice(0, 20), headers)
    const bounds = await overloadAndSoak(store, domains, teams[0]!, dir)
    out.extra = { trees: results, rounds, inject, peer: trees[1]?.dir ?? null, ...bounds }
    if (quick) out.notes.push('quick run: answers checked, times not judged')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

main()
  .catch((e: unknown) => {
    // The cause too (a QueryError's is DuckDB's own message).
    const cause = e instanceof Error && e.cause !== undefined ? `; cause: ${String(e.cause)}` : ''
    out.failures.push(e instanceof Error ? `${e.message}${cause}\n${e.stack ?? ''}` : String(e))
  })
  .finally(() => {
    writeJson(`suite-serve-${dsName}.json`, out)
    for (const f of out.failures) console.error(`[serve] FAILED: ${f.split('\n')[0]}`)
    process.exit(out.failures.length ? 1 : 0)
  })
