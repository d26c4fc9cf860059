/**
 * The commands of `visibility`, once: what each runs, its usage and its subcommands. The top-level
 * help, `visibility <command> --help`, `visibility <command> <subcommand> --help` and the tests
 * (test/cli/help.test.ts) all read this registry; the `compute` subcommands come from the endpoint
 * table (src/cli/synopsis.ts).
 */
import { USAGE as CLUSTER_USAGE, clusterCommand } from './commands/cluster.js'
import { computeCommand, exportCommand, ingestCommand } from './commands/data.js'
import { demoCommand } from './commands/demo.js'
import { KEYS_USAGE, keysCommand } from './commands/keys.js'
import { mcpCommand } from './commands/mcp.js'
import { backupCommand, pruneCommand, restoreCommand } from './commands/operations.js'
import { REPORT_USAGE, reportCommand } from './commands/report.js'
import { serveCommand } from './commands/serve.js'
import { WEBHOOKS_USAGE, webhooksCommand } from './commands/webhooks.js'
import { COMPUTABLE, computeHelp, computeSynopsis } from './synopsis.js'

export interface CliCommand {
  /** Runs the command with the arguments after its name; resolves with the exit code. */
  run(argv: string[]): Promise<number>
  /** Its synopsis lines, each starting with `visibility <name>` (the top-level help lists them). */
  synopsis(): string[]
  /** Its whole help: the synopsis, then what it does and its flags. */
  help(): string
  /** The help of each subcommand, by name (`visibility keys create --help`). */
  readonly subcommands?: ReadonlyMap<string, () => string>
}

/**
 * The command lines of a usage text: its first paragraph's lines starting with `visibility `
 * (after an optional `Usage:`), each with its continuation lines (starting with `[`) joined.
 */
function commandLines(text: string): string[] {
  const lines: string[] = []
  for (const raw of text.split(/\n\s*\n/)[0]!.split('\n')) {
    const line = raw.replace(/^usage:/i, '').trim()
    if (line.startsWith('visibility ')) lines.push(line)
    else if (line.startsWith('[') && lines.length > 0) lines.push(`${lines.pop()!} ${line}`)
  }
  return lines
}

/** A command whose help is a fixed text; the synopsis is its `visibility ...` lines. */
function fixed(run: CliCommand['run'], text: string): CliCommand {
  return { run, synopsis: () => commandLines(text), help: () => text }
}

/** Subcommand helps cut from a usage text: the lines of `<prefix> <sub>`, then its notes. */
function subcommandsOf(text: string, prefix: string, names: string[]): Map<string, () => string> {
  return new Map(
    names.map((name) => [
      name,
      () => {
        const lines = commandLines(text).filter((l) => l.startsWith(`${prefix} ${name}`))
        const notes = text
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l !== '' && !l.startsWith('visibility ') && !/^usage:/i.test(l))
        return `Usage:\n${lines.map((l) => `  ${l}`).join('\n')}\n${notes.join('\n')}\n`
      },
    ]),
  )
}

const INGEST_USAGE = `Usage: visibility ingest FILE... --db PATH

Ingests NDJSON files (or Parquet export folders) into the DuckDB file, one transaction per file:
every record is validated and a file is stored whole or not at all (a refusal lists the bad
records by line). Records are upserted by id; \`delete\` records remove records and what hangs on
them. A refused ingest into a new file leaves no file behind.
  --db PATH   the DuckDB file (created if missing; a running serve must not hold it)
`

const EXPORT_USAGE = `Usage: visibility export --db PATH --out DIR [--domain UUID]...

Writes the database as Parquet: teams.parquet, domains.parquet and the hive-partitioned folders
prompts/, competitors/, themes/, analyses/, mentions/, citations/, theme_occurrences/,
fanout_queries/, plus manifest.json. visibility ingest DIR (or openEngine({ parquet: DIR })) reads it.
  --db PATH       the DuckDB file (opened read-only)
  --out DIR       the export folder
  --domain UUID   only these domains (repeat for several; default every domain)
`

const DEMO_USAGE = `Usage:
  visibility demo [--db PATH] [--now ISO]
  visibility demo --example [--db PATH]

Seeds the demo dataset (four teams, five brands, 120 days of analyses up to today) and prints a
visibility compute command per report; --example ingests the spec's worked example instead and
prints the payloads of its queries.
  --db PATH   the DuckDB file (default data/demo.duckdb, or data/example.duckdb with --example)
  --now ISO   the demo's clock: its last day (default now)
  --example   the worked example (fixtures/spec-example)
`

const SERVE_USAGE = `Usage:
  visibility serve [--db PATH] [--port N] [--host H] [--demo [--new-key]]
  visibility serve --cluster URL --shard NAME --db PATH [--port N] [--host H] [--advertise URL]

The HTTP API (and MCP at /mcp) over one DuckDB file, until SIGTERM or SIGINT. Flags override the
VA_* environment variables (docs/DEPLOY.md lists them all).
  --db PATH        the DuckDB file (default $VA_DB or data/demo.duckdb)
  --port N         TCP port (default $VA_PORT or 8787)
  --host H         interface (default $VA_HOST or 127.0.0.1)
  --demo           seed the demo dataset up to today and print the demo key (kept beside the
                   database in PATH.demo-key, mode 0600, and printed again on every start)
  --new-key        with --demo: revoke the demo key and create a new one
  --cluster URL    run as a shard of a cluster (its control plane, postgres://)
  --shard NAME     the shard's name in the cluster
  --advertise URL  the URL the router and other shards reach this shard at
`

const MCP_USAGE = `Usage:
  visibility mcp --db PATH [--now ISO]
  visibility mcp --api URL

A Model Context Protocol server on stdio (one tool per report, docs/MCP.md).
  --db PATH   read one database read-only, no key, every domain (stop serve on it first)
  --now ISO   the reports' clock (default now)
  --api URL   send every tool call to a running API (or a cluster's router) with the key in VA_API_KEY
`

const PRUNE_USAGE = `Usage: visibility prune (--server URL | --db PATH) --older-than DAYS

Deletes the analyses dated before today minus DAYS (and what hangs on them).
  --server URL       a running server (admin token in VA_ADMIN_TOKEN)
  --db PATH          a stopped database
  --older-than DAYS  the age in days (0-36500)
`

const BACKUP_USAGE = `Usage: visibility backup (--server URL | --db PATH --out DIR)

Writes a backup (the Parquet export, the keys' hashes and a manifest with SHA-256 per file) from
one consistent snapshot.
  --server URL   a running server: written into its VA_BACKUP_DIR (admin token in VA_ADMIN_TOKEN)
  --db PATH      a stopped database
  --out DIR      where to write it (with --db)
`

const RESTORE_USAGE = `Usage: visibility restore --from DIR --db NEW_PATH

Checks a backup's manifest and restores it into a new database file.
  --from DIR      the backup folder (backup-<time>)
  --db NEW_PATH   the new DuckDB file (must not exist)
`

const COMPUTE: CliCommand = {
  run: computeCommand,
  synopsis: computeSynopsis,
  help: () =>
    [
      'Usage:',
      ...computeSynopsis().map((l) => `  ${l}`),
      '',
      'Prints one report of the API as JSON (the body of its GET endpoint) from a DuckDB file opened',
      'read-only. --start/--end (UTC dates YYYY-MM-DD, both) replace --days; --granularity',
      '(day, week, month) buckets a series. visibility compute REPORT --help: the flags of REPORT.',
      'visibility compute answers --all: every page, one answer per line (NDJSON), instead of one page.',
      '',
    ].join('\n'),
  subcommands: new Map([...COMPUTABLE.keys()].map((name) => [name, () => computeHelp(name)])),
}

const KEYS: CliCommand = {
  ...fixed(keysCommand, KEYS_USAGE),
  subcommands: subcommandsOf(KEYS_USAGE, 'visibility keys', ['create', 'list', 'revoke']),
}

const WEBHOOKS: CliCommand = {
  ...fixed(webhooksCommand, WEBHOOKS_USAGE),
  subcommands: subcommandsOf(WEBHOOKS_USAGE, 'visibility webhooks', [
    'create',
    'list',
    'delete',
    'test',
    'deliveries',
  ]),
}

const CLUSTER_SUBCOMMANDS = ['haproxy', 'ingest', 'move', 'rebalance', 'export', 'keys']
const CLUSTER: CliCommand = {
  run: clusterCommand,
  // Its first line is `visibility serve --cluster`, listed under serve.
  synopsis: () => commandLines(CLUSTER_USAGE).filter((l) => l.startsWith('visibility cluster')),
  help: () => `${CLUSTER_USAGE}\n`,
  subcommands: subcommandsOf(CLUSTER_USAGE, 'visibility cluster', CLUSTER_SUBCOMMANDS),
}

/** Every command, in the order of the top-level help. */
export const COMMANDS: ReadonlyMap<string, CliCommand> = new Map<string, CliCommand>([
  ['ingest', fixed(ingestCommand, INGEST_USAGE)],
  ['compute', COMPUTE],
  ['report', fixed((argv) => reportCommand(argv), REPORT_USAGE)],
  ['export', fixed(exportCommand, EXPORT_USAGE)],
  ['demo', fixed(demoCommand, DEMO_USAGE)],
  ['serve', fixed(serveCommand, SERVE_USAGE)],
  ['mcp', fixed(mcpCommand, MCP_USAGE)],
  ['keys', KEYS],
  ['webhooks', WEBHOOKS],
  ['prune', fixed(pruneCommand, PRUNE_USAGE)],
  ['backup', fixed(backupCommand, BACKUP_USAGE)],
  ['restore', fixed(restoreCommand, RESTORE_USAGE)],
  ['cluster', CLUSTER],
])

/**
 * The top-level help: every command's synopsis (generated for compute), then the common rules.
 * @example
 * process.stdout.write(topLevelHelp())
 */
export function topLevelHelp(): string {
  const lines = [...COMMANDS.values()].flatMap((c) => c.synopsis())
  return `visibility: AI search visibility analytics on DuckDB

Usage:
${lines.map((l) => `  ${l}`).join('\n')}

  --start DATE --end DATE   a window of UTC dates YYYY-MM-DD (both), instead of --days N
  --granularity G           day (default), week or month: the buckets of a series
  --server URL              a running server, with the admin token in VA_ADMIN_TOKEN

visibility COMMAND --help (and visibility compute REPORT --help): a command's flags.
visibility --version: the version. Exit codes: 0 ok, 1 failed (one line on stderr), 2 usage error.
`
}
