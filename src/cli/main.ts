#!/usr/bin/env node
/**
 * The `visibility` command: ingest NDJSON into a DuckDB file, compute the report payloads, and the
 * demo. Imports the engine only through its public API.
 */
import { clusterCommand } from './commands/cluster.js'
import { COMPUTABLE, computeCommand, exportCommand, ingestCommand } from './commands/data.js'
import { demoCommand } from './commands/demo.js'
import { keysCommand } from './commands/keys.js'
import { mcpCommand } from './commands/mcp.js'
import { backupCommand, pruneCommand, restoreCommand } from './commands/operations.js'
import { reportCommand } from './commands/report.js'
import { serveCommand } from './commands/serve.js'
import { reportError, UsageError } from './errors.js'

const HELP = `visibility: AI search visibility analytics on DuckDB

Usage:
  visibility ingest FILE... --db PATH
  visibility compute REPORT --db PATH --domain UUID [--days N] [--limit N] [--model M] [--now ISO]
                     (REPORT: ${[...COMPUTABLE.keys()].join(', ')})
  visibility report --db PATH (--domain UUID... | --all) --out DIR [--days N] [--model M] [--now ISO]
  visibility export --db PATH --out DIR [--domain UUID]...
  visibility demo [--db PATH] [--now ISO] | visibility demo --example [--db PATH]
  visibility serve [--db PATH] [--port N] [--host H] [--demo]
  visibility mcp --db PATH [--now ISO]   (MCP server on stdio: read-only, no key)
  visibility mcp --api URL   (MCP server on stdio calling a running API, key in VA_API_KEY)
  visibility keys create (--server URL | --db PATH) --team UUID [--scope-team UUID]... [--allow-domain UUID]... [--name N]
  visibility keys list (--server URL | --db PATH) [--json]
  visibility keys revoke (--server URL | --db PATH) KEY_ID
  visibility prune (--server URL | --db PATH) --older-than DAYS
  visibility backup (--server URL | --db PATH --out DIR)
  visibility restore --from DIR --db NEW_PATH
  visibility serve --cluster URL --shard NAME --db PATH   (a shard of a cluster)
  visibility cluster haproxy|ingest|move|rebalance|export|keys ...   (visibility cluster help)

--server URL talks to a running server with the admin token in VA_ADMIN_TOKEN.

Exit codes: 0 ok, 1 failed (one line on stderr), 2 usage error.
`

type Command = (argv: string[]) => Promise<number>
const commands: Record<string, Command> = {
  ingest: ingestCommand,
  compute: computeCommand,
  export: exportCommand,
  report: (argv) => reportCommand(argv),
  demo: demoCommand,
  keys: keysCommand,
  serve: serveCommand,
  mcp: mcpCommand,
  prune: pruneCommand,
  backup: backupCommand,
  restore: restoreCommand,
  cluster: clusterCommand,
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(HELP)
    return name === undefined ? 2 : 0
  }
  const command = commands[name]
  try {
    if (command === undefined) throw new UsageError(`unknown command ${JSON.stringify(name)}`)
    return await command(rest)
  } catch (e) {
    return reportError(e)
  }
}

// A closed pipe (`visibility compute ... | head`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0)
  throw e
})
process.exitCode = await main(process.argv.slice(2))
