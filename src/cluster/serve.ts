/**
 * @module `visibility serve --cluster URL --shard NAME --db PATH`: a shard's process. It connects
 * to the control plane, opens its directory cache, serves its database file with the cluster's
 * hooks, and registers its URL under its name once it listens.
 */
import { startServer, type RunningServer, type StartServerOptions } from '../http/index.js'
import { dirname, join, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import { openEngine, webhooksOf } from '../index.js'
import { shareWebhooks } from '../internal.js'
import { ControlPlane } from './control-plane.js'
import { KeyDirectory } from './directory.js'
import { clusterEngine, ControlPlaneRateLimiter, shardPlugin } from './shard.js'
import { ControlPlaneSubscriptions } from './webhooks.js'
import { openWorkDir } from './work-dir.js'

export interface ShardOptions extends Omit<StartServerOptions, 'engine' | 'limiter' | 'extensions'> {
  /** postgres:// URL of the control plane. */
  controlPlane: string
  /** This shard's name (letters, digits, `-`, `_`). */
  shard: string
  /** Its database file. */
  dbPath: string
  /** The URL other processes reach it at (default: the listening URL). */
  advertise?: string
  /** How long the cached directory serves without the control plane (default 30 000 ms). */
  staleMs?: number
  /**
   * The directory every internal `dir` must lie in (moves' and fleet exports' files; default:
   * `cluster-work` beside the database file). Shards on different machines share it as a volume.
   */
  workDir?: string
  /** DuckDB's worker threads (VA_DUCKDB_THREADS; `visibility cluster shard` passes one fewer than the cores; unset here: DuckDB's, one per core). */
  duckdbThreads?: number
}

export const SHARD_NAME_RE = /^[A-Za-z0-9_-]{1,64}$/

/**
 * Starts a shard; the engine, directory and pool close with the server.
 * @example
 * const s = await startShard({ controlPlane: url, shard: 's1', dbPath: 'data/s1.duckdb', port: 9001, adminToken })
 */
export async function startShard(options: ShardOptions): Promise<RunningServer> {
  if (!SHARD_NAME_RE.test(options.shard))
    throw new Error('--shard must be 1-64 letters, digits, "-" or "_" (it names an HAProxy backend).')
  if (options.adminToken === undefined)
    throw new Error('a shard needs VA_ADMIN_TOKEN: moves and cluster ingest use its internal endpoints.')
  const workDir = openWorkDir(options.workDir ?? join(dirname(resolve(options.dbPath)), 'cluster-work'))
  const cp = await ControlPlane.connect(options.controlPlane)
  let directory: KeyDirectory | undefined
  try {
    directory = await KeyDirectory.open(cp, options.staleMs === undefined ? {} : { staleMs: options.staleMs })
    // One cursor secret for the whole cluster (created once): a cursor of /api/v1/answers from
    // one shard is accepted by every other (docs/API.md, "Answers").
    const cursorSecret = await cp.setting('cursor_secret', () => randomBytes(32).toString('base64url'))
    const engine = await openEngine({
      path: options.dbPath,
      hardened: true,
      cursorSecret,
      ...(options.duckdbThreads === undefined ? {} : { threads: options.duckdbThreads }),
    })
    const dir = directory
    // Webhooks: the subscriptions and the log in the control plane; this shard detects and
    // delivers the events of the domains assigned to it and not moving (docs/SCALING.md).
    const hooks = webhooksOf(engine)
    hooks?.useSubscriptions(new ControlPlaneSubscriptions(cp))
    hooks?.configure({
      deliverable: (domainId) => {
        const a = dir.assignment(domainId)
        return a === null || (a.state === 'active' && a.shard === options.shard)
      },
    })
    /** Whether a read was forwarded since the response caches were last cleared. */
    let forwarded = false
    const served = clusterEngine(engine, cp, directory, {
      shard: options.shard,
      adminToken: options.adminToken,
      onForward: () => (forwarded = true),
    })
    shareWebhooks(engine, served)
    const server = await startServer({
      ...options,
      engine: served,
      limiter: new ControlPlaneRateLimiter(
        cp,
        directory,
        options.rateLimit ?? { limit: 60, windowSeconds: 60 },
      ),
      extensions: [
        shardPlugin({
          shard: options.shard,
          directory,
          adminToken: options.adminToken,
          workDir,
          local: engine,
          takeForwarded: () => {
            const was = forwarded
            forwarded = false
            return was
          },
        }),
      ],
    })
    void server.closed.finally(() => dir.close().then(() => cp.close()))
    await cp.registerShard(options.shard, options.advertise ?? server.url)
    return server
  } catch (e) {
    await directory?.close()
    await cp.close()
    throw e
  }
}
