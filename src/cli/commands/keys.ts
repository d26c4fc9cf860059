/**
 * `visibility keys`: create, list and revoke API keys of a database.
 *
 *   visibility keys create --db PATH --team UUID [--scope-team UUID]... [--allow-domain UUID]... [--name N]
 *   visibility keys list --db PATH [--json]
 *   visibility keys revoke --db PATH KEY_ID
 *
 * The secret of a new key is printed once, alone on stdout; everything else goes to stderr.
 * The database must not be held by a running server (DuckDB lets one process open a file).
 */
import { parseArgs } from 'node:util'
import { openEngine, type ApiKeyInfo, type Engine } from '../../index.js'

const USAGE = `usage:
  visibility keys create --db PATH --team UUID [--scope-team UUID]... [--allow-domain UUID]... [--name NAME]
  visibility keys list --db PATH [--json]
  visibility keys revoke --db PATH KEY_ID`

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

/** A refusal worth one line on stderr (exit code 1, or 2 for usage). */
class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message)
  }
}

function requireUuid(value: string, what: string): string {
  if (!UUID.test(value)) throw new CommandError(`${what} must be a UUID, got "${value}"`, 2)
  return value.toLowerCase()
}

async function withEngine<T>(db: string | undefined, run: (engine: Engine) => Promise<T>): Promise<T> {
  if (db === undefined || db === '') throw new CommandError('--db PATH is required', 2)
  const engine = await openEngine({ path: db })
  try {
    return await run(engine)
  } finally {
    await engine.close()
  }
}

async function create(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      team: { type: 'string' },
      'scope-team': { type: 'string', multiple: true },
      'allow-domain': { type: 'string', multiple: true },
      name: { type: 'string' },
    },
  })
  if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`, 2)
  if (values.team === undefined) throw new CommandError('--team UUID is required', 2)
  const teamId = requireUuid(values.team, '--team')
  const scope = (values['scope-team'] ?? []).map((id) => requireUuid(id, '--scope-team'))
  const allowed = (values['allow-domain'] ?? []).map((id) => requireUuid(id, '--allow-domain'))
  const scopeTeamIds = scope.length > 0 ? [...new Set(scope)] : [teamId]

  return withEngine(values.db, async (engine) => {
    if ((await engine.getTeam(teamId)) === null)
      throw new CommandError(`team ${teamId} not found in ${values.db}`)
    for (const id of scopeTeamIds) {
      if ((await engine.getTeam(id)) === null)
        throw new CommandError(`scope team ${id} not found in ${values.db}`)
    }
    for (const id of allowed) {
      const domain = await engine.getDomain(id)
      if (domain === null) throw new CommandError(`domain ${id} not found in ${values.db}`)
      if (!scopeTeamIds.includes(domain.team_id.toLowerCase())) {
        throw new CommandError(
          `domain ${id} belongs to team ${domain.team_id}, which the key is not scoped to`,
        )
      }
    }
    const { key, info } = await engine.createApiKey({
      teamId,
      scopeTeamIds,
      allowedDomains: allowed.length > 0 ? [...new Set(allowed)] : null,
      name: values.name ?? null,
    })
    process.stdout.write(`${key}\n`)
    process.stderr.write(
      `Created API key ${info.id} (${info.prefix}…) for team ${info.team_id}; scope ${info.scope_team_ids.join(',')}; ` +
        `domains ${info.allowed_domains === null ? 'all of the scoped teams' : info.allowed_domains.join(',')}. ` +
        `Store the key now: it is not shown again.\n`,
    )
    return 0
  })
}

function formatTable(keys: ApiKeyInfo[]): string {
  const header = ['ID', 'PREFIX', 'TEAM', 'SCOPE', 'DOMAINS', 'NAME', 'CREATED', 'REVOKED']
  const rows = keys.map((k) => [
    k.id,
    k.prefix,
    k.team_id,
    k.scope_team_ids.join(','),
    k.allowed_domains === null ? '*' : k.allowed_domains.join(','),
    k.name ?? '-',
    k.created_at,
    k.revoked_at ?? '-',
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  return [header, ...rows]
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

async function list(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { db: { type: 'string' }, json: { type: 'boolean' } },
  })
  if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`, 2)
  return withEngine(values.db, async (engine) => {
    const keys = await engine.listApiKeys()
    process.stdout.write(values.json ? `${JSON.stringify(keys, null, 2)}\n` : `${formatTable(keys)}\n`)
    return 0
  })
}

async function revoke(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { db: { type: 'string' } },
  })
  if (positionals.length !== 1) throw new CommandError('revoke takes exactly one KEY_ID', 2)
  const id = positionals[0]!
  return withEngine(values.db, async (engine) => {
    if (!(await engine.revokeApiKey(id))) throw new CommandError(`no API key with id ${id}`)
    process.stderr.write(`Revoked API key ${id}.\n`)
    return 0
  })
}

/**
 * Runs `visibility keys ...` (argv after `keys`); returns the exit code. Errors are one line on stderr.
 * @example
 * process.exitCode = await keysCommand(['list', '--db', 'data/demo.duckdb'])
 */
export async function keysCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  try {
    switch (sub) {
      case 'create':
        return await create(rest)
      case 'list':
        return await list(rest)
      case 'revoke':
        return await revoke(rest)
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        process.stderr.write(`${USAGE}\n`)
        return sub === undefined ? 2 : 0
      default:
        throw new CommandError(`unknown keys command "${sub}"`, 2)
    }
  } catch (error) {
    const exitCode = error instanceof CommandError ? error.exitCode : isUsageError(error) ? 2 : 1
    const message = /Could not set lock on file/i.test(oneLine(error))
      ? 'the database is open in another process (a running visibility serve?): stop it first'
      : oneLine(error)
    process.stderr.write(
      `visibility keys: ${message}${exitCode === 2 ? ` (see visibility keys --help)` : ''}\n`,
    )
    return exitCode
  }
}

function isUsageError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')
}

/** The first line of an error's message (never a stack trace). */
export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0] ?? 'failed'
}
