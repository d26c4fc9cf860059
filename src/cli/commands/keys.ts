/**
 * `visibility keys`: create, list and revoke API keys, on a running server or a stopped database.
 *
 *   visibility keys create (--server URL | --db PATH) --team UUID [--scope-team UUID]... [--allow-domain UUID]... [--name N]
 *   visibility keys list (--server URL | --db PATH) [--json]
 *   visibility keys revoke (--server URL | --db PATH) KEY_ID
 *
 * `--server` talks to the admin endpoints of a running service (/internal/v1/keys) with the admin
 * token of VA_ADMIN_TOKEN; `--db` opens the file itself, which a running server must not hold
 * (DuckDB lets one process open a file). The secret of a new key is printed once, alone on
 * stdout; everything else goes to stderr.
 */
import { parseArgs } from 'node:util'
import { createKeyChecked } from '../../api/index.js'
import type { ApiKeyInfo, CreatedApiKey, Engine } from '../../index.js'
import { withAdminStore, type AdminClient, type AdminTarget } from '../admin-client.js'
import { CommandError } from '../errors.js'
import { textTable } from '../table.js'

export const KEYS_USAGE = `Usage:
  visibility keys create (--server URL | --db PATH) --team UUID [--scope-team UUID]... [--allow-domain UUID]... [--name NAME]
  visibility keys list (--server URL | --db PATH) [--json]
  visibility keys revoke (--server URL | --db PATH) KEY_ID
--server uses the admin token in VA_ADMIN_TOKEN.`

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

function requireUuid(value: string, what: string): string {
  if (!UUID.test(value)) throw new CommandError(`${what} must be a UUID, got "${value}"`, 2)
  return value.toLowerCase()
}

/** Where the keys are: a stopped database (--db) or a running server (--server). */
interface KeyStore {
  create(body: Record<string, unknown>): Promise<CreatedApiKey>
  list(): Promise<ApiKeyInfo[]>
  /** False when no active key has this id. */
  revoke(id: string): Promise<boolean>
}

function engineStore(engine: Engine): KeyStore {
  return {
    create: (body) => createKeyChecked(engine, body),
    list: () => engine.listApiKeys(),
    revoke: (id) => engine.revokeApiKey(id),
  }
}

function serverStore(client: AdminClient): KeyStore {
  return {
    async create(body) {
      const { key, ...info } = await client.request<ApiKeyInfo & { key: string }>(
        'POST',
        '/internal/v1/keys',
        body,
      )
      return { key, info }
    },
    list: async () => (await client.request<{ items: ApiKeyInfo[] }>('GET', '/internal/v1/keys')).items,
    async revoke(id) {
      const r = await client.requestOrNull<unknown>(
        'DELETE',
        `/internal/v1/keys/${encodeURIComponent(id)}`,
        [404],
      )
      return r !== null
    },
  }
}

const TARGET_OPTIONS = { db: { type: 'string' }, server: { type: 'string' } } as const

function withStore<T>(target: AdminTarget, run: (store: KeyStore) => Promise<T>): Promise<T> {
  return withAdminStore(target, { server: serverStore, db: engineStore }, run)
}

async function create(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: {
      ...TARGET_OPTIONS,
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
  const body = {
    team_id: teamId,
    ...(scope.length > 0 ? { scope_team_ids: [...new Set(scope)] } : {}),
    ...(allowed.length > 0 ? { allowed_domains: [...new Set(allowed)] } : {}),
    ...(values.name !== undefined ? { name: values.name } : {}),
  }

  return withStore(values, async (store) => {
    const { key, info } = await store.create(body)
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
  return textTable(header, rows)
}

async function list(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { ...TARGET_OPTIONS, json: { type: 'boolean' } },
  })
  if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`, 2)
  return withStore(values, async (store) => {
    const keys = await store.list()
    process.stdout.write(values.json ? `${JSON.stringify(keys, null, 2)}\n` : `${formatTable(keys)}\n`)
    return 0
  })
}

async function revoke(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: TARGET_OPTIONS,
  })
  if (positionals.length !== 1) throw new CommandError('revoke takes exactly one KEY_ID', 2)
  const id = positionals[0]!
  return withStore(values, async (store) => {
    if (!(await store.revoke(id)))
      throw new CommandError(`no API key with id ${id} (or it is already revoked)`)
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
        process.stderr.write(`${KEYS_USAGE}\n`)
        return sub === undefined ? 2 : 0
      default:
        throw new CommandError(`unknown keys command "${sub}"`, 2)
    }
  } catch (error) {
    const exitCode = error instanceof CommandError ? error.exitCode : isUsageError(error) ? 2 : 1
    const message = /Could not set lock on file/i.test(oneLine(error))
      ? 'the database is open in another process (a running visibility serve?): use --server URL, or stop it first'
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
