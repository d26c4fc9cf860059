/**
 * The server process of the serving suite (bench/suites/serve.ts): opens a copy of the suite's
 * store with the engine of a given tree (this one, or a peer such as the previous main, built:
 * `<tree>/dist/src/index.js` and `<tree>/dist/src/http/index.js`), starts its HTTP service on
 * 127.0.0.1 (a free port) with a fixed clock, prints one JSON line `{ url }`, then answers the
 * parent's IPC messages: `cpu` (this process's CPU time so far, Node and DuckDB threads together,
 * and the event loop's delays since the last `cpu`: the longest stall and the p99, in ms),
 * `profile-start` and `profile-stop` (a V8 CPU profile of what runs between the two, written to the
 * file the stop names), `memory` (a full garbage collection when the process runs with
 * `--expose-gc`, as the suite starts it, then `process.memoryUsage()` in MB: what stays after a
 * collection, so a slope over a soak is not V8's heap growing toward its next one) and `close`
 * (graceful shutdown, then exit).
 *
 *   node dist/bench/lib/serve-server.js '{"tree":"/work/main","store":"/tmp/s.duckdb","server":{...}}'
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Engine, OpenEngineOptions } from '../../src/types.js'

/** What the parent passes as the one argument (JSON). */
export interface ServeServerOptions {
  /** The tree whose build serves (its dist/ must be built). */
  tree: string
  /** The DuckDB file to serve (a copy: the server writes to it). */
  store: string
  /** The clock of the service (epoch ms): the reports' `now`. */
  nowMs: number
  /** Passed to startServer (adminToken, rateLimit, cacheTtl, ...). */
  server: Record<string, unknown>
}

interface HttpModule {
  startServer(options: Record<string, unknown>): Promise<{ url: string; close(): Promise<void> }>
}
interface EngineModule {
  openEngine(options?: OpenEngineOptions): Promise<Engine>
}

const options = JSON.parse(process.argv[2] ?? '{}') as ServeServerOptions
const load = async <T>(path: string): Promise<T> =>
  (await import(pathToFileURL(join(options.tree, 'dist', 'src', path)).href)) as T
const { openEngine } = await load<EngineModule>('index.js')
const { startServer } = await load<HttpModule>(join('http', 'index.js'))

// DuckDB's threads as `visibility serve` of that tree sets them: VA_DUCKDB_THREADS (e.g.
// `--peer-env=VA_DUCKDB_THREADS=2`, this tree against itself), else the tree's serving default
// (`servingThreads`; a tree without one: DuckDB's). A tree without the option ignores it.
const { servingThreads } = await load<{ servingThreads?: () => number }>(join('http', 'config.js'))
const threads = process.env.VA_DUCKDB_THREADS || servingThreads?.()
const engine = await openEngine({
  path: options.store,
  hardened: true,
  ...(threads ? { threads: Number(threads) } : {}),
} as OpenEngineOptions)
const server = await startServer({
  engine,
  port: 0,
  host: '127.0.0.1',
  logger: false,
  signals: [],
  clock: () => options.nowMs,
  ...options.server,
})
const cpuAtStart = process.cpuUsage()
// Sampled every ms: a stall shows as a delay of about its length.
const loop = monitorEventLoopDelay({ resolution: 1 })
loop.enable()
const inspector = new Session()
process.on('message', (message: unknown) => {
  if (message === 'profile-start') {
    inspector.connect()
    void inspector
      .post('Profiler.enable')
      .then(() => inspector.post('Profiler.start'))
      .then(() => process.send?.({ profiling: true }))
  } else if (typeof message === 'object' && message !== null && 'profileStop' in message) {
    const file = String((message as { profileStop: string }).profileStop)
    void inspector.post('Profiler.stop').then(({ profile }) => {
      writeFileSync(file, JSON.stringify(profile))
      inspector.disconnect()
      process.send?.({ profiled: file })
    })
  } else if (message === 'cpu') {
    const cpu = process.cpuUsage(cpuAtStart)
    const ms = (ns: number) => +(ns / 1e6).toFixed(1)
    process.send?.({
      cpuMs: (cpu.user + cpu.system) / 1000,
      loop: { max_ms: ms(loop.max), p99_ms: ms(loop.percentile(99)) },
    })
    loop.reset()
  } else if (message === 'memory') {
    ;(globalThis as { gc?: () => void }).gc?.()
    const m = process.memoryUsage()
    const mb = (bytes: number) => +(bytes / 1048576).toFixed(1)
    process.send?.({
      memory: {
        rss: mb(m.rss),
        heapUsed: mb(m.heapUsed),
        external: mb(m.external),
        arrayBuffers: mb(m.arrayBuffers),
      },
    })
  } else if (message === 'close') {
    void server
      .close()
      .then(() => engine.close())
      .finally(() => process.exit(0))
  }
})
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`)
