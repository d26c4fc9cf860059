/**
 * The server side of `npm run loadtest`: ingests the given NDJSON files into a private DuckDB file,
 * creates API keys, starts the HTTP service on 127.0.0.1 (a free port), and prints one JSON line
 * with the URL, the keys and a domain id. Stops on SIGTERM (graceful shutdown).
 *
 *   npx tsx scripts/loadtest-server.ts '{"dir":"/tmp/x","files":["a.ndjson"],"server":{...}}'
 */
import { join } from 'node:path'
import { openEngine } from '../src/index.js'

interface Options {
  dir: string
  files: string[]
  keys?: number
  /** Passed to startServer (rateLimit, cacheTtl, maxConcurrentQueries, maxQueuedQueries). */
  server?: Record<string, unknown>
}

const options = JSON.parse(process.argv[2] ?? '{}') as Options
const http = (await import('../src/http/index.js' as string)) as {
  startServer(o: Record<string, unknown>): Promise<{ url: string; close(): Promise<void> }>
}
const engine = await openEngine({ path: join(options.dir, 'serve.duckdb') })
for (const f of options.files) await engine.ingestFile(f)
const domains = await Promise.all(
  (await engine.listDomains()).data.items.map(async (d) => (await engine.getDomain(d.id))!),
)
const team = domains[0]!.team_id
const keys: string[] = []
for (let i = 0; i < (options.keys ?? 2); i++)
  keys.push((await engine.createApiKey({ teamId: team, name: `load ${i}` })).key)
const server = await http.startServer({
  engine,
  port: 0,
  host: '127.0.0.1',
  logger: false,
  signals: ['SIGTERM', 'SIGINT'],
  ...options.server,
})
const own = domains.filter((d) => d.team_id === team).map((d) => d.id)
process.stdout.write(`${JSON.stringify({ url: server.url, keys, domains: own, pid: process.pid })}\n`)
