/**
 * @module A shard: the normal service over its own database file, with three hooks into it.
 *
 *   keys         the engine's key methods answer from the control plane (KeyDirectory, cached)
 *   rate limit   the fixed-window counters live in the control plane: exact across shards
 *   ownership    a request for a domain assigned to another shard is answered 421
 *
 * and the internal endpoints a move drives (export, import, digest, drop), behind the admin token.
 */
import { createHash } from 'node:crypto'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ENDPOINTS } from '../api/index.js'
import {
  adminGuard,
  FixedWindowRateLimiter,
  windowDecision,
  windowStartOf,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitOptions,
  type ServiceContext,
} from '../http/index.js'
import type { Engine, DomainRecord } from '../index.js'
import type { ControlPlane } from './control-plane.js'
import { ControlPlaneUnavailableError, type KeyDirectory } from './directory.js'

/** The shard's internal paths. */
export const SHARD_PATHS = {
  export: '/internal/v1/cluster/export',
  import: '/internal/v1/cluster/import',
  digest: '/internal/v1/cluster/digest',
  drop: '/internal/v1/cluster/drop',
  compute: '/internal/v1/cluster/compute',
} as const

/**
 * The engine methods a shard computes for the cluster's batch report (`visibility report
 * --cluster`), called with the same arguments a local engine gets.
 */
export const REPORT_METHODS = [
  'computePromptSeries',
  'computeCompetitorSeries',
  'sentimentOverview',
  'sentimentThemes',
  'modelLeaderboard',
  'sentimentSeries',
  'citedDomains',
  'citations',
  'getDomain',
  'listDomains',
] as const satisfies ReadonlyArray<keyof Engine>

export type ReportMethod = (typeof REPORT_METHODS)[number]

/** Detail messages of the cluster's own refusals. */
export const CLUSTER_DETAIL = {
  misdirected: 'Misdirected request: this domain is served by another shard.',
  controlPlaneDown: 'The control plane is unreachable. Please try again shortly.',
  moving: 'This domain is being moved to another shard. Please try again shortly.',
} as const

/**
 * The engine a shard serves: its own store, with the key methods answered by the control plane.
 * @example
 * const served = clusterEngine(engine, cp, directory)
 */
export function clusterEngine(engine: Engine, cp: ControlPlane, directory: KeyDirectory): Engine {
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
  return new Proxy(engine, {
    get(target, prop) {
      if (typeof prop === 'string' && prop in keys) return keys[prop as keyof Engine]
      const value: unknown = Reflect.get(target, prop, target)
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    },
  })
}

/** A key revoked after this shard cached it (the control plane's count refused it): answered 401. */
export class RevokedKeyError extends Error {
  readonly statusCode = 401
  constructor() {
    super('the API key was revoked')
    this.name = 'RevokedKeyError'
  }
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

/** The JSON body of an internal call as a record of strings. */
function stringField(request: FastifyRequest, name: string): string {
  const v = (request.body as Record<string, unknown> | null)?.[name]
  if (typeof v !== 'string' || v.length === 0 || v.length > 4096) throw new Error(`${name} is required`)
  return v
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
}

/**
 * The shard's hooks and internal endpoints, registered after authentication.
 * @example
 * await buildServer({ engine, extensions: [shardPlugin({ shard: 's1', directory, adminToken })] })
 */
export function shardPlugin(options: ShardPluginOptions): FastifyPluginAsync<{ ctx: ServiceContext }> {
  const { shard, directory } = options
  const guard = adminGuard(options.adminToken)
  const ours = (domainId: string, a: ReturnType<KeyDirectory['assignment']>): boolean =>
    a === null || a.shard === shard || a.previous === shard

  const plugin: FastifyPluginAsync<{ ctx: ServiceContext }> = async (app, { ctx }) => {
    const served = (url: string) => url.startsWith('/api/') || url.startsWith('/mcp')
    // Before authentication: with the control plane gone too long, nothing keyed is answered.
    app.addHook('onRequest', async (request, reply) => {
      if (!served(request.url)) return undefined
      if (!directory.usable()) return unavailable(reply)
      const header = request.headers.authorization
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null
      if (token === null) return undefined
      try {
        await directory.verify(token) // warms the cache the engine's verifyApiKey reads
      } catch (e) {
        if (e instanceof ControlPlaneUnavailableError) return unavailable(reply)
        throw e
      }
      return undefined
    })
    // After authentication, before the parameters: a domain assigned elsewhere is misdirected.
    app.addHook('preValidation', async (request, reply) => {
      if (!served(request.url)) return undefined
      const domainId = queryDomain(request)
      if (domainId === null || ours(domainId, directory.assignment(domainId))) return undefined
      if (ours(domainId, await directory.refreshAssignment(domainId))) return undefined
      return reply.code(421).send({ detail: CLUSTER_DETAIL.misdirected })
    })

    const internal = { onRequest: async (q: FastifyRequest, r: FastifyReply) => guard(q, r) ?? undefined }
    const hide = { schema: { hide: true } }
    app.post(SHARD_PATHS.export, { ...internal, ...hide }, async (request) => {
      // One domain (a move) or, without domain_id, everything this shard stores (the fleet export).
      const one = (request.body as { domain_id?: unknown } | null)?.domain_id
      const options =
        one === undefined ? {} : { domainIds: [stringField(request, 'domain_id').toLowerCase()] }
      const result = await ctx.engine.exportParquet(stringField(request, 'dir'), options)
      return { tables: result.tables }
    })
    app.post(SHARD_PATHS.import, { ...internal, ...hide }, async (request) => {
      const result = await ctx.engine.ingestFile(stringField(request, 'dir'))
      ctx.clearCaches()
      return result
    })
    app.post(SHARD_PATHS.digest, { ...internal, ...hide }, async (request) => {
      const domainId = stringField(request, 'domain_id').toLowerCase()
      return { digests: await payloadDigests(ctx.engine, domainId, stringField(request, 'now')) }
    })
    // One engine call of the batch report, as a trusted local caller (the admin token).
    app.post(SHARD_PATHS.compute, { ...internal, ...hide }, async (request) => {
      const body = request.body as { method?: unknown; args?: unknown } | null
      const method = REPORT_METHODS.find((m) => m === body?.method)
      if (method === undefined || !Array.isArray(body?.args)) throw new Error('method and args are required')
      const fn = ctx.engine[method] as (...args: unknown[]) => Promise<unknown>
      return { result: await fn.apply(ctx.engine, body.args) }
    })
    // Deletes a domain's data and keeps its directory record (every shard lists every domain).
    app.post(SHARD_PATHS.drop, { ...internal, ...hide }, async (request) => {
      const record = (request.body as { record?: DomainRecord } | null)?.record
      if (record?.type !== 'domain' || typeof record.id !== 'string') throw new Error('record is required')
      const deleted = await ctx.engine.ingest([{ type: 'delete', entity: 'domain', id: record.id }])
      await ctx.engine.ingest([record])
      ctx.clearCaches()
      return deleted
    })
  }
  // Not encapsulated: the hooks must see the endpoints' routes.
  return fp(plugin, { name: 'va-cluster-shard' })
}

function unavailable(reply: FastifyReply): FastifyReply {
  return reply.code(503).header('retry-after', '5').send({ detail: CLUSTER_DETAIL.controlPlaneDown })
}
