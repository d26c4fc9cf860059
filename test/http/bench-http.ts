/**
 * HTTP load measurement with autocannon on 127.0.0.1 (documented in docs/HTTP.md).
 *
 *   npx tsx test/http/bench-http.ts [--connections 50] [--duration 10]
 *
 * Generates a seeded dataset (one domain, 50 prompts, 8 competitors, 20 themes, one year of
 * analyses), stores it in a temp DuckDB file, then for each scenario starts the service in a child
 * process and runs autocannon against it:
 *   hits    cache on, the four endpoints round-robin with fixed parameters (after one warm-up pass)
 *   misses  cache lifetime 0, each request a random endpoint and `days` (single flight can still
 *           merge identical concurrent requests; with 4 x 365 combinations that is rare)
 * Prints one JSON line per scenario, with the server process's CPU time per request (Node and
 * DuckDB threads together), which depends less on what else the machine is doing.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { startServer } from '../../src/http/index.js'
import { CHANNELS, openEngine, type AnalysisInputRecord } from '../../src/index.js'
import { rng } from '../support/random.js'
import {
  analysis,
  competitor,
  domain,
  DOMAIN,
  mention,
  prompt,
  team,
  TEAM,
  theme,
  toNdjson,
} from '../support/records.js'

const ENDPOINTS = [
  '/api/v1/prompt-statistics-time-series',
  '/api/v1/competitor-time-series',
  '/api/v1/sentiment/overview',
  '/api/v1/sentiment/themes',
]

const id = (prefix: string, n: number) => `${prefix}${n.toString(16).padStart(12, '0')}`

/** One domain (the builder's default), 50 prompts, 8 competitors, 20 themes, one analysis per prompt and day. */
function dataset(now: number): string {
  const rand = rng(42)
  const prompts = Array.from({ length: 50 }, (_, i) => id('11111111-1111-4111-8111-', i))
  const competitors = Array.from({ length: 8 }, (_, i) => id('c0000000-0000-4000-8000-', i))
  const themes = Array.from({ length: 20 }, (_, i) => id('e0000000-0000-4000-8000-', i))
  const records: AnalysisInputRecord[] = [
    team({ name: 'Bench' }),
    domain({ website: 'acme.com' }),
    ...prompts.map((p, i) => prompt({ id: p, text: `prompt ${i}`, estimated_search_volume: i * 100 })),
    ...competitors.map((c, i) => competitor({ id: c, name: `Competitor ${i}`, website: `c${i}.com` })),
    ...themes.map((t, i) =>
      theme({
        id: t,
        name: `theme ${i}`,
        sentiment: i % 3 ? 'positive' : 'negative',
        created_at: '2025-01-01',
      }),
    ),
  ]
  let n = 0
  for (let day = 0; day < 365; day += 1) {
    for (const promptId of prompts) {
      const at = new Date(now - day * 86_400_000 - Math.floor(rand() * 3_600_000)).toISOString()
      const entities = ['brand', ...competitors].filter(() => rand() < 0.35)
      records.push(
        analysis({
          id: id('a0000000-0000-4000-8000-', n++),
          prompt_id: promptId,
          channel: CHANNELS[Math.floor(rand() * CHANNELS.length)]!,
          model: 'gpt-4o',
          answered_at: at,
          mentions: entities.map((entity, i) => mention(entity, i + 1, Math.floor(rand() * 100))),
          citations: rand() < 0.5 ? [{ url: 'https://acme.com/x' }] : [],
          themes:
            rand() < 0.5
              ? [
                  {
                    theme_id: themes[Math.floor(rand() * themes.length)]!,
                    occurrences: 1 + Math.floor(rand() * 3),
                  },
                ]
              : [],
        }),
      )
    }
  }
  return toNdjson(records)
}

/** Child mode: serve DB on PORT with the given cache lifetime, until SIGTERM. */
async function serveChild(db: string, port: number, ttl: number): Promise<void> {
  // Hardened, as served in production; a failure to open so fails the benchmark (no fallback).
  const engine = await openEngine({ path: db, hardened: true })
  const server = await startServer({
    engine,
    port,
    logger: { level: 'warn' },
    rateLimit: { limit: 1_000_000_000, windowSeconds: 60 },
    cacheTtl: { seriesSeconds: ttl, sentimentSeconds: ttl },
  })
  const cpuAtStart = process.cpuUsage()
  process.stdout.write(`ready ${server.url}\n`)
  await server.closed
  process.stderr.write(`server closed\n`)
  // CPU of the whole server process (Node and DuckDB threads), less sensitive to a shared machine.
  const cpu = process.cpuUsage(cpuAtStart)
  process.stdout.write(`cpu ${(cpu.user + cpu.system) / 1000}\n`)
}

async function startChild(
  db: string,
  ttl: number,
): Promise<{ child: ChildProcess; url: string; cpuMs: Promise<number> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL(import.meta.url).pathname, 'serve', db, '0', String(ttl)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  let out = ''
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const match = /ready (\S+)/.exec(out)
      if (match) resolve(match[1]!)
    })
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)))
  })
  const cpuMs = new Promise<number>((resolve) =>
    child.on('close', () => resolve(Number(/cpu (\S+)/.exec(out)?.[1] ?? Number.NaN))),
  )
  return { child, url, cpuMs }
}

async function measure(
  name: string,
  url: string,
  key: string,
  connections: number,
  duration: number,
  randomize: boolean,
) {
  const rand = rng(7)
  const headers = { authorization: `Bearer ${key}` }
  const fixed = ENDPOINTS.map((e) => ({
    method: 'GET' as const,
    path: `${e}?domain_id=${DOMAIN}&days=30`,
    headers,
  }))
  if (!randomize) for (const r of fixed) await (await fetch(`${url}${r.path}`, { headers })).arrayBuffer() // warm the cache
  process.stderr.write(`${name}: load starts\n`)
  const result = await autocannon({
    url,
    connections,
    duration,
    requests: randomize
      ? [
          {
            method: 'GET',
            headers,
            setupRequest: (req) => ({
              ...req,
              path: `${ENDPOINTS[Math.floor(rand() * 4)]}?domain_id=${DOMAIN}&days=${1 + Math.floor(rand() * 365)}`,
            }),
          },
        ]
      : fixed,
  })
  return {
    scenario: name,
    connections,
    duration_s: duration,
    requests_per_s: Math.round(result.requests.average),
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { connections: { type: 'string', default: '50' }, duration: { type: 'string', default: '10' } },
  })
  if (positionals[0] === 'serve')
    return serveChild(positionals[1]!, Number(positionals[2]), Number(positionals[3]))
  const dir = await mkdtemp(join(tmpdir(), 'va-bench-'))
  try {
    const file = join(dir, 'bench.ndjson')
    const db = join(dir, 'bench.duckdb')
    await writeFile(file, dataset(Date.now()))
    const t0 = performance.now()
    const engine = await openEngine({ path: db })
    const stored = await engine.ingestFile(file)
    const { key } = await engine.createApiKey({ teamId: TEAM })
    await engine.close()
    process.stderr.write(`dataset: ${JSON.stringify(stored)} in ${Math.round(performance.now() - t0)} ms\n`)
    if (positionals[0] === 'ingest') return
    for (const [name, ttl, randomize] of [
      ['hits', 3600, false],
      ['misses', 0, true],
    ] as const) {
      const { child, url, cpuMs } = await startChild(db, ttl)
      process.stderr.write(`${name}: server ready at ${url}\n`)
      let row: Awaited<ReturnType<typeof measure>> | undefined
      try {
        row = await measure(name, url, key, Number(values.connections), Number(values.duration), randomize)
      } finally {
        child.kill('SIGTERM')
      }
      const cpu = await cpuMs
      process.stdout.write(
        `${JSON.stringify({ ...row, server_cpu_ms_per_request: Number((cpu / row.requests).toFixed(3)) })}\n`,
      )
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

await main()
