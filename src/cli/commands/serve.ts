/**
 * `visibility serve`: the HTTP service over one database file.
 *
 *   visibility serve [--db PATH] [--port N] [--host H] [--demo]
 *
 * Flags override the VA_* environment variables (docs/HTTP.md). `--demo` seeds an empty database
 * with the bundled example dataset, creates a fresh demo API key and prints a curl per endpoint.
 * The process runs until SIGTERM or SIGINT, then drains in-flight requests and closes DuckDB.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
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
  if ((await engine.listDomains()).length > 0) return false
  await engine.ingestFile(join(packageRoot(), DEMO_DATASET))
  return true
}

/** Revokes earlier demo keys and creates a new one for the team of the first domain. */
async function demoKey(engine: Engine): Promise<{ key: string; domainId: string } | null> {
  const [domain] = await engine.listDomains()
  if (domain === undefined) return null
  for (const old of await engine.listApiKeys()) {
    if (old.name === 'demo' && old.revoked_at === null) await engine.revokeApiKey(old.id)
  }
  const { key } = await engine.createApiKey({ teamId: domain.team_id, name: 'demo' })
  return { key, domainId: domain.id }
}

/** The admin commands of the demo, with the token left in the environment (never printed). */
function adminCurls(url: string, backups: boolean): string[] {
  const auth = '-H "Authorization: Bearer $VA_ADMIN_TOKEN"'
  return [
    'Admin (VA_ADMIN_TOKEN):',
    `  curl -s ${auth} "${url}/internal/v1/keys"`,
    `  curl -s ${auth} -H "content-type: application/json" -d '{"older_than_days": 400}' "${url}/internal/v1/prune"`,
    ...(backups ? [`  curl -s ${auth} -X POST "${url}/internal/v1/backup"`] : []),
    `  curl -s ${auth} "${url}/metrics"`,
    `  visibility keys list --server ${url}`,
  ]
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

/** Refuses to start with a backup directory the service could not write into. */
function checkBackupDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true })
    rmSync(mkdtempSync(join(dir, '.va-write-check-')), { recursive: true })
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error'
    throw new Error(`VA_BACKUP_DIR ${dir} is not a writable directory (${code}).`)
  }
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
    if (config.backupDir !== undefined) checkBackupDir(config.backupDir)
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
      maxIngestBytes: config.maxIngestBytes,
      edge: config.edge,
      logger: { level: config.logLevel },
      backupDir: config.backupDir,
      retainDays: config.retainDays,
    })
    const ops = [
      `admin endpoints ${config.adminToken ? 'on' : 'off'}`,
      `backups ${config.backupDir === undefined ? 'off' : `to ${config.backupDir}`}`,
      `retention ${config.retainDays === undefined ? 'off' : `${config.retainDays} days`}`,
    ]
    process.stderr.write(
      `Visibility Analytics API on ${server.url} (database ${config.dbPath}; ${ops.join('; ')}).\n`,
    )
    if (demo !== null) process.stderr.write(`${demoCurls(server.url, demo.key, demo.domainId)}\n`)
    if (values.demo && config.adminToken !== undefined)
      process.stderr.write(`${adminCurls(server.url, config.backupDir !== undefined).join('\n')}\n`)
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
