/**
 * `visibility serve`: the HTTP service over one database file.
 *
 *   visibility serve [--db PATH] [--port N] [--host H] [--demo [--new-key]]
 *
 * Flags override the VA_* environment variables (docs/HTTP.md). `--demo` seeds the database with
 * the demo dataset up to today (when it is empty or holds only demo data) and prints the demo API
 * key (kept beside the database, `--new-key` rotates it) with a curl per endpoint of the table.
 * The process runs until SIGTERM or SIGINT, then drains in-flight requests and closes DuckDB.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { demoKey, seedDemo, type DemoKey } from '../../demo/index.js'
import { openEngine, type Engine } from '../../index.js'
import { loadConfig, serverOptions, startServer } from '../../http/index.js'
import { clusterServe } from './cluster.js'
import { envCursorSecret } from '../open.js'
import { demoCurls, describeSeed } from './demo.js'
import { oneLine } from './keys.js'

const USAGE =
  'usage: visibility serve [--db PATH] [--port N] [--host H] [--demo [--new-key]] | visibility serve --cluster URL --shard NAME --db PATH'

/**
 * Seeds the demo (see `seedDemo`) and gives it its key: the one kept beside the database
 * (`demoKey`), or a new one for the demo's first team, scoped to every demo team, on the first
 * start or with `rotate` (`--new-key`, which revokes the old one); the domain to try is the demo's
 * first. A store holding other data is neither seeded nor given a demo key.
 */
async function prepareDemo(
  engine: Engine,
  dbPath: string,
  rotate: boolean,
): Promise<(DemoKey & { domainId: string }) | null> {
  const seed = await seedDemo(engine)
  if (seed.stored === null) {
    process.stderr.write(
      `${dbPath} holds other data: not seeded with the demo dataset, no demo key (create one with visibility keys create).\n`,
    )
    return null
  }
  process.stderr.write(
    `Seeded ${dbPath} with the demo dataset: ${seed.stored.analyses} analyses from ${seed.from} to ${seed.to}.\n${describeSeed(seed).join('\n')}\n`,
  )
  const key = await demoKey(engine, dbPath, seed.teamIds, { rotate })
  return { ...key, domainId: seed.domains[0]!.id }
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
        'new-key': { type: 'boolean' },
        cluster: { type: 'string' },
        shard: { type: 'string' },
        advertise: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
    if (values.help) {
      process.stderr.write(`${USAGE}\n`)
      return 0
    }
    if (positionals.length > 0) throw new Error(`unexpected argument "${positionals[0]}"; ${USAGE}`)
    if (values['new-key'] && !values.demo) throw new Error(`--new-key applies only with --demo; ${USAGE}`)
    const config = loadConfig({
      ...process.env,
      ...(values.port !== undefined ? { VA_PORT: values.port } : {}),
      ...(values.host !== undefined ? { VA_HOST: values.host } : {}),
      ...(values.db !== undefined ? { VA_DB: values.db } : {}),
    })
    if (values.cluster !== undefined)
      return await clusterServe(config, {
        cluster: values.cluster,
        shard: values.shard,
        advertise: values.advertise,
      })
    if (config.backupDir !== undefined) checkBackupDir(config.backupDir)
    const dbPath = resolve(config.dbPath)
    mkdirSync(dirname(dbPath), { recursive: true })
    engine = await openEngine({
      path: dbPath,
      hardened: true,
      ...envCursorSecret(),
      threads: config.duckdbThreads,
    })

    const demo = values.demo ? await prepareDemo(engine, config.dbPath, values['new-key'] === true) : null

    const server = await startServer({
      engine,
      ...serverOptions(config),
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
    if (demo !== null) {
      const curls = demoCurls({ url: server.url, key: demo.key, domainId: demo.domainId })
      const mcpConfig = {
        mcpServers: {
          visibility: {
            type: 'http',
            url: `${server.url}/mcp`,
            headers: { Authorization: `Bearer ${demo.key}` },
          },
        },
      }
      process.stderr.write(
        [
          `Demo API key${demo.created ? ' (new)' : ''}: ${demo.key}`,
          `  kept in ${demo.file} (mode 0600) and printed again on every start; --new-key revokes it and makes a new one`,
          `Dashboard: ${server.url}/#key=${encodeURIComponent(demo.key)}`,
          `Try (domain ${demo.domainId}):`,
          ...curls.map((c) => `  ${c}`),
          'MCP client configuration (Streamable HTTP):',
          `  ${JSON.stringify(mcpConfig)}`,
          '',
        ].join('\n'),
      )
    }
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
