/**
 * `visibility webhooks`: create, list, delete, ping and inspect webhook subscriptions, on a running
 * server (--server URL, the admin token in VA_ADMIN_TOKEN) or a stopped database (--db PATH).
 * The signing secret of a new subscription is printed once, alone on stdout.
 */
import { parseArgs } from 'node:util'
import { createWebhookChecked, webhookIdChecked, webhookPath, webhooksOfChecked } from '../../api/index.js'
import type { Engine, WebhookDelivery, WebhookSubscription } from '../../index.js'
import { withAdminStore, type AdminClient, type AdminTarget } from '../admin-client.js'
import { CommandError } from '../errors.js'
import { oneLine } from './keys.js'
import { textTable } from '../table.js'

export const WEBHOOKS_USAGE = `Usage:
  visibility webhooks create (--server URL | --db PATH) --team UUID --url URL [--domain UUID]... [--json]
  visibility webhooks list (--server URL | --db PATH) [--team UUID] [--json]
  visibility webhooks delete (--server URL | --db PATH) ID
  visibility webhooks test (--server URL | --db PATH) ID
  visibility webhooks deliveries (--server URL | --db PATH) ID [--limit N] [--json]
Subscriptions receive signal.created events of the team's domains (--domain: only these).
create prints the signing secret once on stdout; test queues a ping event (a running server
delivers it). --server uses the admin token in VA_ADMIN_TOKEN. docs/WEBHOOKS.md.`

/** Where the subscriptions are: a stopped database or a running server. */
interface HookStore {
  create(body: Record<string, unknown>): Promise<WebhookSubscription & { secret: string }>
  list(team?: string): Promise<WebhookSubscription[]>
  delete(id: string): Promise<boolean>
  ping(id: string): Promise<string | null>
  deliveries(id: string, limit: number): Promise<WebhookDelivery[] | null>
}

function engineStore(engine: Engine): HookStore {
  const hooks = webhooksOfChecked(engine)
  return {
    create: (body) => createWebhookChecked(engine, body),
    list: (team) => hooks.list(team),
    delete: (id) => hooks.delete(webhookIdChecked(id)),
    ping: (id) => hooks.ping(webhookIdChecked(id)),
    deliveries: async (id, limit) =>
      (await hooks.get(webhookIdChecked(id))) === null ? null : hooks.deliveries(id, limit),
  }
}

function serverStore(client: AdminClient): HookStore {
  return {
    create: (body) => client.request('POST', webhookPath('create'), body),
    list: async (team) =>
      (
        await client.request<{ items: WebhookSubscription[] }>(
          'GET',
          `${webhookPath('list')}${team === undefined ? '' : `?team_id=${encodeURIComponent(team)}`}`,
        )
      ).items,
    delete: async (id) => (await client.requestOrNull('DELETE', webhookPath('delete', id), [404])) !== null,
    ping: async (id) =>
      (await client.requestOrNull<{ event_id: string }>('POST', webhookPath('test', id), [404]))?.event_id ??
      null,
    deliveries: async (id, limit) =>
      (
        await client.requestOrNull<{ items: WebhookDelivery[] }>(
          'GET',
          `${webhookPath('deliveries', id)}?limit=${limit}`,
          [404],
        )
      )?.items ?? null,
  }
}

const TARGET = { db: { type: 'string' }, server: { type: 'string' }, json: { type: 'boolean' } } as const

function withStore<T>(target: AdminTarget, run: (store: HookStore) => Promise<T>): Promise<T> {
  return withAdminStore(target, { server: serverStore, db: engineStore }, run)
}

function table(subs: WebhookSubscription[]): string {
  const header = ['ID', 'TEAM', 'URL', 'DOMAINS', 'CREATED', 'DISABLED']
  const rows = subs.map((s) => [
    s.id,
    s.team_id,
    s.url,
    s.domain_ids === null ? '*' : s.domain_ids.join(','),
    s.created_at,
    s.disabled_at ?? '-',
  ])
  return textTable(header, rows)
}

function oneId(positionals: string[], sub: string): string {
  if (positionals.length !== 1) throw new CommandError(`${sub} takes exactly one ID`, 2)
  return positionals[0]!
}

async function run(sub: string, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: {
      ...TARGET,
      team: { type: 'string' },
      url: { type: 'string' },
      domain: { type: 'string', multiple: true },
      limit: { type: 'string' },
    },
  })
  const out = (value: unknown, text: string) =>
    process.stdout.write(values.json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`)
  switch (sub) {
    case 'create': {
      if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`, 2)
      if (values.team === undefined) throw new CommandError('--team UUID is required', 2)
      if (values.url === undefined) throw new CommandError('--url URL is required', 2)
      const body = {
        team_id: values.team,
        url: values.url,
        events: ['signal.created'],
        domain_ids: values.domain === undefined ? null : [...new Set(values.domain)],
      }
      return withStore(values, async (store) => {
        const created = await store.create(body)
        if (values.json) out(created, '')
        else process.stdout.write(`${created.secret}\n`)
        process.stderr.write(
          `Created webhook ${created.id} for team ${created.team_id} to ${created.url}. ` +
            'Store the signing secret now: it is not shown again.\n',
        )
        return 0
      })
    }
    case 'list':
      if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`, 2)
      return withStore(values, async (store) => {
        const subs = await store.list(values.team)
        out(subs, table(subs))
        return 0
      })
    case 'delete': {
      const id = oneId(positionals, sub)
      return withStore(values, async (store) => {
        if (!(await store.delete(id))) throw new CommandError(`no webhook with id ${id}`)
        process.stderr.write(`Deleted webhook ${id}.\n`)
        return 0
      })
    }
    case 'test': {
      const id = oneId(positionals, sub)
      return withStore(values, async (store) => {
        const event = await store.ping(id)
        if (event === null) throw new CommandError(`no webhook with id ${id}`)
        out({ event_id: event }, event)
        process.stderr.write(
          `Queued ping event ${event}: visibility webhooks deliveries ${id} shows the attempt.\n`,
        )
        return 0
      })
    }
    case 'deliveries': {
      const id = oneId(positionals, sub)
      const limit = values.limit === undefined ? 100 : Number(values.limit)
      if (!/^[0-9]+$/.test(values.limit ?? '100') || limit < 1 || limit > 1000)
        throw new CommandError('--limit must be an integer from 1 to 1000', 2)
      return withStore(values, async (store) => {
        const items = await store.deliveries(id, limit)
        if (items === null) throw new CommandError(`no webhook with id ${id}`)
        const lines = items.map(
          (d) =>
            `${d.at}  ${d.event_id}  #${d.attempt}  ${d.outcome}  ${d.status_code ?? '-'}${d.error === null ? '' : `  ${d.error}`}`,
        )
        out(items, lines.join('\n'))
        return 0
      })
    }
    default:
      throw new CommandError(`unknown webhooks command "${sub}"`, 2)
  }
}

/**
 * Runs `visibility webhooks ...` (argv after `webhooks`); returns the exit code.
 * @example
 * process.exitCode = await webhooksCommand(['list', '--db', 'data/demo.duckdb'])
 */
export async function webhooksCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    process.stderr.write(`${WEBHOOKS_USAGE}\n`)
    return sub === undefined ? 2 : 0
  }
  try {
    return await run(sub, rest)
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code
    const usage = typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')
    const exitCode = error instanceof CommandError ? error.exitCode : usage ? 2 : 1
    process.stderr.write(
      `visibility webhooks: ${oneLine(error)}${exitCode === 2 ? ' (see visibility webhooks --help)' : ''}\n`,
    )
    return exitCode
  }
}
