/**
 * @module A shard: the normal service over its own database file, with three hooks into it.
 *
 *   keys         the engine's key methods answer from the control plane (KeyDirectory, cached)
 *   rate limit   the fixed-window counters live in the control plane: exact across shards
 *   ownership    a REST request for a domain assigned to another shard is answered 421 (to a key
 *                that may read it; any other key gets the refusal of an unknown id); an MCP tool
 *                call for it is forwarded to the owner (forward.ts)
 *
 * and the internal endpoints a move drives (export, import, digest, drop, discard), behind the
 * admin token, every directory confined to the shard's work directory (work-dir.ts).
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { z } from 'zod'
import { authorizeDomain, ENDPOINTS, type Endpoint } from '../api/index.js'
import { ValidationError, webhooksOf, type Engine, type ParamIssue } from '../index.js'
import {
  adminGuard,
  CLUSTER_DETAIL,
  FixedWindowRateLimiter,
  REPORT_METHODS,
  windowDecision,
  windowStartOf,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitOptions,
  type ReportMethod,
  type DomainEvents,
  type ServiceContext,
} from '../internal.js'
import type { Assignment, ControlPlane } from './control-plane.js'
import type { KeyDirectory } from './directory.js'
import { ControlPlaneUnavailableError, RevokedKeyError, WorkDirError } from './errors.js'
import { DOMAIN_READ_METHODS, forwardingEngine, servedBy } from './forward.js'
import { SHARD_PATHS } from './shard-call.js'
import { confineDir } from './work-dir.js'

// The engine methods a shard computes for the cluster's batch report (`visibility report
// --cluster`), called with the same arguments a local engine gets: derived from the endpoint table.
export { CLUSTER_DETAIL, REPORT_METHODS, SHARD_PATHS, type ReportMethod }

/**
 * The engine a shard serves: its own store, with the key methods answered by the control plane
 * and the domain reads of another shard's domains forwarded to it (`forward`, see forward.ts).
 * @example
 * const served = clusterEngine(engine, cp, directory, { shard: 's1', adminToken })
 */
export function clusterEngine(
  engine: Engine,
  cp: ControlPlane,
  directory: KeyDirectory,
  forward?: { shard: string; adminToken: string; onForward?: () => void },
): Engine {
  const base = forward === undefined ? engine : forwardingEngine(engine, cp, directory, forward)
  const keys: Partial<Engine> = {
    verifyApiKey: (secret) => directory.verify(secret),
    createApiKey: (params) => cp.createKey(params),
    listApiKeys: () => cp.listKeys(),
    async revokeApiKey(id) {
      const { revoked, hash } = await cp.revokeKey(id)
      if (hash !== null) directory.forgetKey(hash)
      return revoked
    },
  }
  return new Proxy(base, {
    get(target, prop) {
      if (typeof prop === 'string' && prop in keys) return keys[prop as keyof Engine]
      const value: unknown = Reflect.get(target, prop, target)
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    },
  })
}

/**
 * Fixed windows counted in the control plane (one `INSERT ... ON CONFLICT ... RETURNING` per
 * request): exact across shards. While the control plane is unreachable but the directory still
 * usable, requests are counted in this process only (each shard then allows up to the limit).
 */
export class ControlPlaneRateLimiter implements RateLimiter {
  readonly limit: number
  readonly windowSeconds: number
  readonly #cp: ControlPlane
  readonly #directory: KeyDirectory
  readonly #clock: () => number
  readonly #local: FixedWindowRateLimiter
  #prunedWindow = -1

  constructor(cp: ControlPlane, directory: KeyDirectory, options: RateLimitOptions, clock = Date.now) {
    this.limit = options.limit
    this.windowSeconds = options.windowSeconds
    this.#cp = cp
    this.#directory = directory
    this.#clock = clock
    this.#local = new FixedWindowRateLimiter(options, clock)
  }

  async hit(key: string): Promise<RateLimitDecision> {
    const now = this.#clock()
    const start = windowStartOf(now, this.windowSeconds)
    let used: number | null
    try {
      used = await this.#cp.count(key, start, 1)
    } catch (e) {
      if (!this.#directory.usable()) throw new ControlPlaneUnavailableError(e)
      return this.#local.hit(key)
    }
    if (used === null) throw new RevokedKeyError()
    this.#prune(start)
    return windowDecision(this, now, start, used)
  }

  async refund(key: string, windowStart: number): Promise<RateLimitDecision> {
    const now = this.#clock()
    const start = windowStartOf(now, this.windowSeconds)
    if (start !== windowStart) return windowDecision(this, now, start, 0)
    try {
      return windowDecision(this, now, start, (await this.#cp.count(key, start, -1)) ?? 0)
    } catch {
      return this.#local.refund(key, windowStart)
    }
  }

  /** Once per window, drops the counters of ended windows. */
  #prune(start: number): void {
    if (this.#prunedWindow === start) return
    this.#prunedWindow = start
    this.#cp.pruneWindows(start - this.windowSeconds).catch(() => undefined)
  }
}

/** The `domain_id` of a request's query string, lower-cased, or null. */
function queryDomain(request: FastifyRequest): string | null {
  const q = request.query as Record<string, unknown> | undefined
  const v = q?.domain_id
  return typeof v === 'string' && v.length > 0 ? v.toLowerCase() : null
}

const UUID = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID')
  .transform((v) => v.toLowerCase())
/** A directory name: checked against the work directory by `confineDir`. */
const DIR = z.string().max(1024)

/** A domain's pending webhook events as the source's export writes them (WEBHOOKS_FILE). */
const DOMAIN_EVENTS = z.strictObject({
  domain_id: UUID,
  outbox: z.array(
    z.strictObject({
      event_id: UUID,
      subscription_id: UUID,
      type: z.string(),
      body: z.string(),
      created_at: z.number().int(),
      attempts: z.number().int().min(0),
      first_attempt_at: z.number().int().nullable(),
      next_attempt_at: z.number().int(),
    }),
  ),
  sent: z.array(
    z.strictObject({
      subscription_id: UUID,
      signal_id: z.string(),
      event_id: UUID,
      sent_at: z.number().int(),
    }),
  ),
}) satisfies z.ZodType<DomainEvents>

/** The file of a move's export holding the domain's pending webhook events (docs/SCALING.md, "Webhooks"). */
export const WEBHOOKS_FILE = 'webhooks.json'

/** The bodies of the internal endpoints (admin token); unknown fields are refused. */
export const INTERNAL_BODIES = {
  export: z.strictObject({ dir: DIR, domain_id: UUID.optional() }),
  import: z.strictObject({ dir: DIR }),
  discard: z.strictObject({ dir: DIR }),
  digest: z.strictObject({ domain_id: UUID, now: z.iso.datetime({ offset: true }) }),
  compute: z.strictObject({ method: z.string(), args: z.array(z.unknown()).max(4) }),
  drop: z.strictObject({ record: z.looseObject({ type: z.literal('domain'), id: UUID }) }),
} as const

/**
 * Parses an internal endpoint's body; a refusal is a ValidationError naming the field.
 * @example
 * const { dir } = internalBody('import', request.body)
 */
export function internalBody<K extends keyof typeof INTERNAL_BODIES>(
  name: K,
  body: unknown,
): z.output<(typeof INTERNAL_BODIES)[K]> {
  const parsed = INTERNAL_BODIES[name].safeParse(body ?? {})
  if (parsed.success) return parsed.data as z.output<(typeof INTERNAL_BODIES)[K]>
  const issues: ParamIssue[] = parsed.error.issues.map((i) => {
    const path = i.path.join('.') || (i.code === 'unrecognized_keys' ? i.keys.join(', ') : 'body')
    const message =
      i.code === 'unrecognized_keys'
        ? `${path}: unknown field${i.keys.length > 1 ? 's' : ''}.`
        : `${path} ${i.message.replace(/^Invalid input: /, '')}.`
    return { path, message }
  })
  throw new ValidationError(issues)
}

/**
 * SHA-256 of every domain-scoped read endpoint's payload for a domain, at a fixed `now`
 * (`generated_at` left out); an endpoint that refuses gives its error's name.
 * @example
 * const digests = await payloadDigests(engine, domainId, '2026-11-20T00:00:00Z')
 */
export async function payloadDigests(
  engine: Engine,
  domainId: string,
  now: string,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const endpoint of ENDPOINTS) {
    if (!('domain_id' in endpoint.params)) continue
    const parsed = endpoint.query.safeParse({ domain_id: domainId })
    if (!parsed.success) continue
    let text: string
    try {
      const payload = (await endpoint.compute(engine, parsed.data as never, { now, caller: null })) as object
      text = JSON.stringify({ ...payload, generated_at: null })
    } catch (e) {
      text = `error:${(e as Error).name}`
    }
    out[endpoint.id] = createHash('sha256').update(text).digest('hex')
  }
  return out
}

export interface ShardPluginOptions {
  /** This shard's name in the registry. */
  shard: string
  directory: KeyDirectory
  adminToken: string
  /** The real path of the shard's work directory (`openWorkDir`): every internal `dir` is inside. */
  workDir: string
  /** The shard's own engine, without forwarding: what the internal endpoints read and write. */
  local: Engine
  /** Whether this shard answered a forwarded read since its caches were last cleared (and resets it). */
  takeForwarded?: () => boolean
}

/** The endpoint of each route path. */
const BY_PATH = new Map<string, Endpoint>((ENDPOINTS as readonly Endpoint[]).map((e) => [e.path, e]))

/** The methods the compute endpoint runs: the batch report's and every domain endpoint's. */
const COMPUTE_METHODS: ReadonlySet<string> = new Set<string>([...REPORT_METHODS, ...DOMAIN_READ_METHODS])

/**
 * The shard's hooks and internal endpoints, registered after authentication.
 * @example
 * await buildServer({ engine, extensions: [shardPlugin({ shard: 's1', directory, adminToken, workDir, local })] })
 */
export function shardPlugin(options: ShardPluginOptions): FastifyPluginAsync<{ ctx: ServiceContext }> {
  const { shard, directory, workDir, local } = options
  const guard = adminGuard(options.adminToken)
  const ours = (a: Assignment | null): boolean => servedBy(shard, a)

  const plugin: FastifyPluginAsync<{ ctx: ServiceContext }> = async (app, { ctx }) => {
    // Another shard's ingest or a move changed data this shard may have cached (forwarded reads):
    // the caches go when they may hold such an answer (a shard that forwarded nothing keeps them).
    const unsubscribe = directory.onChange(() => {
      if (options.takeForwarded?.() ?? true) ctx.clearCaches()
    })
    app.addHook('onClose', async () => unsubscribe())
    const served = (url: string) => url.startsWith('/api/') || url.startsWith('/mcp')
    // Before authentication: with the control plane gone too long, nothing keyed is answered.
    app.addHook('onRequest', async (request) => {
      if (!served(request.url)) return
      if (!directory.usable()) throw new ControlPlaneUnavailableError()
      const header = request.headers.authorization
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null
      if (token !== null) await directory.verify(token) // warms the cache the engine's verifyApiKey reads
    })
    // After authentication, before the parameters: a domain assigned elsewhere is misdirected, for
    // a key that may read it. Any other key goes on to this shard's own checks, which refuse it as
    // they refuse an unknown id (every shard holds every domain's record): nothing leaks.
    app.addHook('preValidation', async (request, reply) => {
      const endpoint = BY_PATH.get(request.routeOptions.url ?? '')
      const domainId = queryDomain(request)
      if (endpoint === undefined || endpoint.access === 'none' || domainId === null) return undefined
      if (request.caller === null) return undefined
      if (ours(directory.assignment(domainId)) || ours(await directory.refreshAssignment(domainId)))
        return undefined
      const access = await authorizeDomain(ctx.engine, request.caller.key, endpoint.access, domainId)
      if ('status' in access) return undefined
      return reply.code(421).send({ detail: CLUSTER_DETAIL.misdirected })
    })

    const internal = { onRequest: async (q: FastifyRequest, r: FastifyReply) => guard(q, r) ?? undefined }
    const hide = { schema: { hide: true } }
    app.post(SHARD_PATHS.export, { ...internal, ...hide }, async (request) => {
      // One domain (a move) or, without domain_id, everything this shard stores (the fleet export).
      const body = internalBody('export', request.body)
      const dir = confineDir(workDir, body.dir, 'create')
      const hooks = webhooksOf(local)
      try {
        if (body.domain_id !== undefined && hooks !== null) {
          // A move: this shard stops delivering the domain's events (the control plane says it
          // moves; read now, not when the notification comes) and its attempts in flight finish.
          await directory.refreshAssignment(body.domain_id)
          await hooks.holdDomain(body.domain_id)
        }
        const result = await local.exportParquet(
          dir,
          body.domain_id === undefined ? {} : { domainIds: [body.domain_id] },
        )
        // The domain's pending events and sent record go with it (the target delivers them).
        if (body.domain_id !== undefined && hooks !== null)
          writeFileSync(join(dir, WEBHOOKS_FILE), JSON.stringify(await hooks.exportDomain(body.domain_id)))
        return { tables: result.tables, path: dir }
      } catch (e) {
        rmSync(dir, { recursive: true, force: true })
        throw e
      }
    })
    app.post(SHARD_PATHS.import, { ...internal, ...hide }, async (request) => {
      const dir = confineDir(workDir, internalBody('import', request.body).dir, 'existing')
      let result
      try {
        result = await local.ingestFile(dir)
      } catch (e) {
        // The engine's refusal may quote what it read: the answer names the parameter only.
        throw new WorkDirError(
          'dir',
          `could not be imported (${(e as Error).name}): it must hold an export of a shard`,
        )
      }
      ctx.clearCaches()
      const events = join(dir, WEBHOOKS_FILE)
      const hooks = webhooksOf(local)
      if (hooks !== null && existsSync(events)) {
        const parsed = DOMAIN_EVENTS.safeParse(JSON.parse(readFileSync(events, 'utf8')))
        if (!parsed.success)
          throw new WorkDirError(
            'dir',
            `holds a ${WEBHOOKS_FILE} that is not a shard's export of webhook events`,
          )
        await directory.refreshAssignment(parsed.data.domain_id)
        await hooks.importDomain(parsed.data)
      }
      return result
    })
    app.post(SHARD_PATHS.discard, { ...internal, ...hide }, async (request) => {
      const dir = confineDir(workDir, internalBody('discard', request.body).dir, 'existing')
      if (dir === workDir)
        throw new WorkDirError(
          'dir',
          'must name a directory inside the work directory, not the work directory itself',
        )
      rmSync(dir, { recursive: true, force: true })
      return { discarded: true }
    })
    app.post(SHARD_PATHS.digest, { ...internal, ...hide }, async (request) => {
      const body = internalBody('digest', request.body)
      return { digests: await payloadDigests(local, body.domain_id, body.now) }
    })
    // One engine call of the batch report or a forwarded domain read, as a trusted local caller
    // (the admin token), on this shard's own data.
    app.post(SHARD_PATHS.compute, { ...internal, ...hide }, async (request) => {
      const body = internalBody('compute', request.body)
      if (!COMPUTE_METHODS.has(body.method))
        throw new ValidationError([
          { path: 'method', message: 'method is not an engine read of the cluster.' },
        ])
      const fn = local[body.method as keyof Engine] as (...args: unknown[]) => Promise<unknown>
      return { result: await fn.apply(local, body.args) }
    })
    // Deletes a domain's data and keeps its directory record (every shard lists every domain).
    app.post(SHARD_PATHS.drop, { ...internal, ...hide }, async (request) => {
      const { record } = internalBody('drop', request.body)
      const deleted = await local.ingest([{ type: 'delete', entity: 'domain', id: record.id }])
      await local.ingest([record as never])
      await webhooksOf(local)?.dropDomain(record.id)
      ctx.clearCaches()
      return deleted
    })
  }
  // Not encapsulated: the hooks must see the endpoints' routes.
  return fp(plugin, { name: 'va-cluster-shard' })
}
