/**
 * `visibility serve`: the HTTP service over one database file.
 *
 *   visibility serve [--db PATH] [--port N] [--host H] [--demo]
 *
 * Flags override the VA_* environment variables (docs/HTTP.md). `--demo` seeds an empty database
 * with the bundled example dataset, creates a fresh demo API key and prints a curl per endpoint.
 * The process runs until SIGTERM or SIGINT, then drains in-flight requests and closes DuckDB.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { openEngine, type Engine } from '../../index.js'
import { loadConfig, startServer } from '../../http/index.js'
import { oneLine } from './keys.js'

const USAGE = 'usage: visibility serve [--db PATH] [--port N] [--host H] [--demo]'
const DEMO_DATASET = join('fixtures', 'spec-example', 'data.ndjson')

/** The package root (holds package.json), from this file in src/ or dist/src/. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir)
  return dir
}

/** Seeds an empty database with the demo dataset. */
async function seedDemo(engine: Engine): Promise<boolean> {
  if ((await engine.listDomains()).data.total > 0) return false
  await engine.ingestFile(join(packageRoot(), DEMO_DATASET))
  return true
}

/** Revokes earlier demo keys and creates a new one for the team of the first domain. */
async function demoKey(engine: Engine): Promise<{ key: string; domainId: string } | null> {
  const [first] = (await engine.listDomains()).data.items
  const domain = first === undefined ? null : await engine.getDomain(first.id)
  if (domain === null) return null
  for (const old of await engine.listApiKeys()) {
    if (old.name === 'demo' && old.revoked_at === null) await engine.revokeApiKey(old.id)
  }
  const { key } = await engine.createApiKey({ teamId: domain.team_id, name: 'demo' })
  return { key, domainId: domain.id }
}

function demoCurls(url: string, key: string, domainId: string): string {
  const q = `domain_id=${domainId}&days=365`
  const paths = [
    '/api/v1/domains',
    `/api/v1/prompt-statistics-time-series?${q}&limit=10`,
    `/api/v1/competitor-time-series?${q}&model=all`,
    `/api/v1/sentiment/overview?${q}`,
    `/api/v1/sentiment/themes?${q}&model=chatgpt`,
  ]
  return [
    `Demo API key (shown once): ${key}`,
    'Try:',
    ...paths.map((p) => `  curl -i -H "Authorization: Bearer ${key}" "${url}${p}"`),
    `  curl -s "${url}/healthz"`,
    `  curl -s "${url}/api/v1/openapi.json"`,
  ].join('\n')
}

/**
 * Runs `visibility serve ...` (argv after `serve`); resolves with the exit code once the server
 * has shut down.
 * @example
 * process.exitCode = await serveCommand(['--db', 'data/demo.duckdb', '--demo'])
 */
export async function serveCommand(argv: string[]): Promise<number> {
  let engine: Engine | undefined
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        db: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        demo: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    })
    if (values.help) {
      process.stderr.write(`${USAGE}\n`)
      return 0
    }
    if (positionals.length > 0) throw new Error(`unexpected argument "${positionals[0]}"; ${USAGE}`)
    const config = loadConfig({
      ...process.env,
      ...(values.port !== undefined ? { VA_PORT: values.port } : {}),
      ...(values.host !== undefined ? { VA_HOST: values.host } : {}),
      ...(values.db !== undefined ? { VA_DB: values.db } : {}),
    })
    const dbPath = resolve(config.dbPath)
    mkdirSync(dirname(dbPath), { recursive: true })
    engine = await openEngine({ path: dbPath, hardened: true })

    let demo: { key: string; domainId: string } | null = null
    if (values.demo) {
      if (await seedDemo(engine)) process.stderr.write(`Seeded ${config.dbPath} with ${DEMO_DATASET}.\n`)
      demo = await demoKey(engine)
    }

    const server = await startServer({
      engine,
      port: config.port,
      host: config.host,
      adminToken: config.adminToken,
      rateLimit: config.rateLimit,
      cacheTtl: config.cacheTtl,
      maxConcurrentQueries: config.maxConcurrentQueries,
      logger: { level: config.logLevel },
    })
    process.stderr.write(
      `Visibility Analytics API on ${server.url} (database ${config.dbPath}; ingest endpoint ${config.adminToken ? 'on' : 'off'}).\n`,
    )
    if (demo !== null) process.stderr.write(`${demoCurls(server.url, demo.key, demo.domainId)}\n`)
    await server.closed
    return 0
  } catch (error) {
    const message = /Could not set lock on file/i.test(oneLine(error))
      ? 'the database is open in another process: stop it first'
      : oneLine(error)
    process.stderr.write(`visibility serve: ${message}\n`)
    if (engine?.isOpen) await engine.close().catch(() => undefined)
    return 1
  }
}
