/**
 * `visibility cluster ...`: the multi-node mode's commands (docs/SCALING.md), all against the
 * control plane given by --cluster or VA_CLUSTER_URL, with the shards' admin token in
 * VA_ADMIN_TOKEN. `visibility serve --cluster URL --shard NAME --db PATH` starts a shard
 * (`clusterServe`). The cluster module (and `pg`) is loaded only by these commands.
 */
import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { serverOptions, type ServiceConfig } from '../../http/index.js'
import { UsageError } from '../errors.js'

export const USAGE = `usage:
  visibility serve --cluster URL --shard NAME --db PATH [--port N] [--host H] [--advertise URL]
  visibility cluster haproxy --out DIR [--bind HOST:PORT]
  visibility cluster ingest FILE...
  visibility cluster move DOMAIN --to SHARD [--haproxy DIR]
  visibility cluster rebalance [--haproxy DIR] [--max-moves N]
  visibility cluster export --out DIR
  visibility cluster keys create --team UUID [--scope-team UUID]... [--allow-domain UUID]... [--name N]
  visibility cluster keys list | visibility cluster keys revoke KEY_ID
  (every command takes --cluster URL, default $VA_CLUSTER_URL; shards' admin token in $VA_ADMIN_TOKEN;
  a shard's work directory, where moves and exports write, in $VA_CLUSTER_WORK_DIR, default
  cluster-work beside its database: shards on several machines share it as a volume)`

const cluster = () => import('../../cluster/index.js')

function controlPlaneUrl(flag: string | undefined): string {
  const url = flag ?? process.env.VA_CLUSTER_URL
  if (url === undefined || !/^postgres(ql)?:\/\//.test(url))
    throw new UsageError(`--cluster (or VA_CLUSTER_URL) must be a postgres:// URL\n${USAGE}`)
  return url
}

function adminToken(): string {
  const token = process.env.VA_ADMIN_TOKEN
  if (token === undefined || token === '')
    throw new UsageError("the shards' admin token must be in VA_ADMIN_TOKEN")
  return token
}

/**
 * `visibility serve --cluster ...` (called by the serve command with its parsed configuration).
 * @example
 * return clusterServe(config, { cluster: url, shard: 's1' })
 */
export async function clusterServe(
  config: ServiceConfig,
  flags: { cluster: string; shard: string | undefined; advertise: string | undefined },
): Promise<number> {
  if (flags.shard === undefined) throw new UsageError(`--cluster needs --shard NAME\n${USAGE}`)
  const { startShard } = await cluster()
  const dbPath = resolve(config.dbPath)
  mkdirSync(dirname(dbPath), { recursive: true })
  const staleS = Number(process.env.VA_CLUSTER_STALE_S ?? 30)
  const server = await startShard({
    controlPlane: controlPlaneUrl(flags.cluster),
    shard: flags.shard,
    dbPath,
    ...serverOptions(config),
    staleMs: Number.isFinite(staleS) && staleS > 0 ? staleS * 1000 : 30_000,
    ...(process.env.VA_CLUSTER_WORK_DIR ? { workDir: resolve(process.env.VA_CLUSTER_WORK_DIR) } : {}),
    ...(flags.advertise !== undefined ? { advertise: flags.advertise } : {}),
    duckdbThreads: config.duckdbThreads,
  })
  process.stderr.write(`Shard ${flags.shard} on ${server.url} (database ${config.dbPath}).\n`)
  await server.closed
  return 0
}

function haproxyFiles(dir: string | undefined): { map: string; socket: string } | undefined {
  if (dir === undefined) return undefined
  const d = resolve(dir)
  return { map: resolve(d, 'domains.map'), socket: resolve(d, 'admin.sock') }
}

/**
 * Runs `visibility cluster ...` (argv after `cluster`).
 * @example
 * process.exitCode = await clusterCommand(['move', domainId, '--to', 's2'])
 */
export async function clusterCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  const { values, positionals } = parseArgs({
    args: rest,
    strict: true,
    allowPositionals: true,
    options: {
      cluster: { type: 'string' },
      out: { type: 'string' },
      bind: { type: 'string' },
      to: { type: 'string' },
      haproxy: { type: 'string' },
      'max-moves': { type: 'string' },
      team: { type: 'string' },
      'scope-team': { type: 'string', multiple: true },
      'allow-domain': { type: 'string', multiple: true },
      name: { type: 'string' },
    },
  })
  if (sub === undefined || sub === 'help' || sub === '--help') {
    process.stdout.write(`${USAGE}\n`)
    return sub === undefined ? 2 : 0
  }
  const c = await cluster()
  const cp = await c.ControlPlane.connect(controlPlaneUrl(values.cluster), { max: 4 })
  const print = (v: unknown) => process.stdout.write(`${JSON.stringify(v, null, 2)}\n`)
  const moveOptions = () => ({
    adminToken: adminToken(),
    ...(values.haproxy !== undefined ? { haproxy: haproxyFiles(values.haproxy)! } : {}),
    log: (line: string) => process.stderr.write(`${line}\n`),
  })
  try {
    switch (sub) {
      case 'haproxy': {
        if (values.out === undefined) throw new UsageError(`cluster haproxy needs --out DIR\n${USAGE}`)
        mkdirSync(values.out, { recursive: true })
        const files = c.writeHaproxyConfig({
          dir: values.out,
          bind: values.bind ?? '127.0.0.1:8080',
          shards: await cp.shards(),
          assignments: await cp.assignments(),
        })
        process.stderr.write(`Wrote ${files.config} and ${files.map}; start: haproxy -f ${files.config}\n`)
        return 0
      }
      case 'ingest': {
        if (positionals.length === 0) throw new UsageError(`cluster ingest needs FILE...\n${USAGE}`)
        print(await c.clusterIngest(cp, positionals, adminToken()))
        return 0
      }
      case 'move': {
        const [domain] = positionals
        if (domain === undefined || values.to === undefined)
          throw new UsageError(`cluster move needs DOMAIN and --to SHARD\n${USAGE}`)
        print(await c.moveDomain(cp, domain, values.to, moveOptions()))
        return 0
      }
      case 'rebalance': {
        const maxMoves = values['max-moves'] === undefined ? 100 : Number(values['max-moves'])
        print(await c.rebalance(cp, { ...moveOptions(), maxMoves }))
        return 0
      }
      case 'export': {
        if (values.out === undefined) throw new UsageError(`cluster export needs --out DIR\n${USAGE}`)
        print({ dir: resolve(values.out), tables: await c.fleetExport(cp, values.out, adminToken()) })
        return 0
      }
      case 'keys': {
        const [action, id] = positionals
        if (action === 'create') {
          if (values.team === undefined)
            throw new UsageError(`cluster keys create needs --team UUID\n${USAGE}`)
          print(
            await cp.createKey({
              teamId: values.team,
              ...(values['scope-team'] ? { scopeTeamIds: values['scope-team'] } : {}),
              ...(values['allow-domain'] ? { allowedDomains: values['allow-domain'] } : {}),
              ...(values.name !== undefined ? { name: values.name } : {}),
            }),
          )
          return 0
        }
        if (action === 'list') {
          print(await cp.listKeys())
          return 0
        }
        if (action === 'revoke' && id !== undefined) {
          const { revoked } = await cp.revokeKey(id)
          if (!revoked) throw new Error(`no active key ${id}`)
          return 0
        }
        throw new UsageError(`cluster keys create|list|revoke KEY_ID\n${USAGE}`)
      }
      default:
        throw new UsageError(`unknown cluster command ${JSON.stringify(sub)}\n${USAGE}`)
    }
  } finally {
    await cp.close()
  }
}
