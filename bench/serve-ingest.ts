/**
 * Serving while ingesting (issue 14): a store of many domains served over HTTP with the response
 * cache off, 20 autocannon connections asking random reports (random domain, endpoint, window and
 * model), first alone, then while a 500-analysis NDJSON POST reaches /internal/v1/ingest every
 * second. Reports requests/s and latency percentiles of both phases and the ingest latencies.
 *
 *   npx tsx bench/serve-ingest.ts                         # 200 domains x 3,600 analyses, 30 s per phase
 *   SERVE_DOMAINS=50 SERVE_ANALYSES=2000 SERVE_S=10 npx tsx bench/serve-ingest.ts   # smaller
 *
 * The server runs in a child process (scripts/loadtest-server.ts) so that the load generator does
 * not share its event loop. The records come from the bench generator: every domain's last
 * SERVE_HELD_DAYS days are held back from the initial ingest and POSTed during the second phase,
 * so each POST carries new analyses (and touches the domains it lands on). Prints one JSON object.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { CHANNELS } from '../src/foundation/vocabulary.js'
import { datasetRecords, type DatasetSpec } from './data/generator.js'
import { writeNdjson } from './data/ndjson.js'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const DOMAINS = env('SERVE_DOMAINS', 200)
const ANALYSES = env('SERVE_ANALYSES', 3_600)
const SECONDS = env('SERVE_S', 30)
const HELD_DAYS = env('SERVE_HELD_DAYS', 30)
const BATCH = 500
const CONNECTIONS = 20
const ADMIN = 'bench-admin-token-0123456789abcdef'

const shape = {
  prompts: 10,
  competitors: 5,
  themes: 10,
  channels: CHANNELS,
  days: 365,
  analyses: ANALYSES,
} as const
const spec: DatasetSpec = {
  name: 'Serve',
  seed: 14,
  endDate: '2026-11-20',
  main: shape,
  crowd: { domains: DOMAINS - 1, shape },
}
const NOW_DAYS = 365

const PATHS = [
  '/api/v1/prompt-statistics-time-series',
  '/api/v1/competitor-time-series',
  '/api/v1/sentiment/overview',
  '/api/v1/sentiment/themes',
  '/api/v1/brand-rankings',
  '/api/v1/citations',
]
const MODELS = ['all', 'chatgpt', 'perplexity', 'gemini', 'claude']

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!

interface ServerInfo {
  url: string
  keys: string[]
  domains: string[]
  pid: number
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'va-serve-ingest-'))
  const child = { kill: (): void => undefined } as { kill(signal?: NodeJS.Signals): void }
  try {
    const initial = join(dir, 'initial.ndjson')
    const t0 = performance.now()
    const written = await writeNdjson(initial, datasetRecords(spec, { toDay: NOW_DAYS - HELD_DAYS }))
    const held: string[] = []
    let body = ''
    let n = 0
    for (const r of datasetRecords(spec, { fromDay: NOW_DAYS - HELD_DAYS, entities: false })) {
      body += `${JSON.stringify(r)}\n`
      if (++n === BATCH) {
        held.push(body)
        body = ''
        n = 0
      }
    }
    const proc = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(ROOT, 'scripts/loadtest-server.ts'),
        JSON.stringify({
          dir,
          files: [initial],
          server: {
            adminToken: ADMIN,
            rateLimit: { limit: 1_000_000_000, windowSeconds: 60 },
            cacheTtl: { sentimentSeconds: 0, seriesSeconds: 0 },
            ...(process.env.SERVE_MAX_QUERIES ? { maxConcurrentQueries: env('SERVE_MAX_QUERIES', 3) } : {}),
          },
        }),
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    )
    child.kill = (signal) => void proc.kill(signal)
    const line = await new Promise<string>((done, fail) => {
      createInterface({ input: proc.stdout }).once('line', done)
      proc.once('exit', (code) => fail(new Error(`the server exited with ${code}`)))
    })
    const server = JSON.parse(line) as ServerInfo
    const setupS = (performance.now() - t0) / 1000
    const headers = { authorization: `Bearer ${server.keys[0]}` }
    const domains = server.domains

    const load = () =>
      new Promise<autocannon.Result>((done, fail) => {
        autocannon(
          {
            url: server.url,
            connections: CONNECTIONS,
            duration: SECONDS,
            headers,
            requests: [
              {
                method: 'GET',
                setupRequest: (req) => {
                  const path = pick(PATHS)
                  const model = path.includes('prompt') ? '' : `&model=${pick(MODELS)}`
                  const days = 1 + Math.floor(Math.random() * 365)
                  return { ...req, path: `${path}?domain_id=${pick(domains)}&days=${days}${model}` }
                },
              },
            ],
          },
          (err, result) => (err ? fail(err) : done(result)),
        )
      })
    const summary = (r: autocannon.Result) => ({
      requests: r.requests.total,
      rps: Math.round(r.requests.average),
      p50_ms: r.latency.p50,
      p90_ms: r.latency.p90,
      p99_ms: r.latency.p99,
      max_ms: r.latency.max,
      errors: r.errors,
      non2xx: r.non2xx,
    })

    // Warm up (every domain's aggregates loaded once), then the phase without ingest.
    await load()
    const quiet = summary(await load())

    // The same load with a 500-analysis POST every second.
    const ingestMs: number[] = []
    let ingestErrors = 0
    let next = 0
    let stop = false
    const poster = (async () => {
      while (!stop && next < held.length) {
        const started = performance.now()
        const res = await fetch(`${server.url}/internal/v1/ingest`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/x-ndjson' },
          body: held[next++]!,
        })
        await res.arrayBuffer()
        const ms = performance.now() - started
        if (res.status === 200) ingestMs.push(ms)
        else ingestErrors++
        await new Promise((r) => setTimeout(r, Math.max(0, 1000 - ms)))
      }
    })()
    const busy = summary(await load())
    stop = true
    await poster
    ingestMs.sort((a, b) => a - b)
    const q = (p: number) =>
      Math.round(ingestMs[Math.min(ingestMs.length - 1, Math.floor(p * ingestMs.length))]!)
    console.log(
      JSON.stringify(
        {
          store: {
            domains: DOMAINS,
            analyses: DOMAINS * ANALYSES,
            initial_lines: written.lines,
            held_back_posts: held.length,
          },
          setup_s: Math.round(setupS),
          connections: CONNECTIONS,
          seconds: SECONDS,
          without_ingest: quiet,
          with_ingest: busy,
          ingest: {
            posts: ingestMs.length,
            errors: ingestErrors,
            analyses_each: BATCH,
            p50_ms: q(0.5),
            p99_ms: q(0.99),
            max_ms: Math.round(ingestMs[ingestMs.length - 1] ?? NaN),
          },
          ratio_rps: +(busy.rps / quiet.rps).toFixed(2),
          ratio_p99: +(busy.p99_ms / quiet.p99_ms).toFixed(2),
        },
        null,
        2,
      ),
    )
  } finally {
    child.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 500))
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
