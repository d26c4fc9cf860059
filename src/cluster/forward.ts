/**
 * @module Domain reads of another shard's domains, forwarded to the shard that owns them.
 *
 * REST requests reach the owner through the router (HAProxy routes by `domain_id`); a request
 * that lands elsewhere is answered 421. An MCP session lives on one shard, though, and its tool
 * calls name any domain the key may read: the shard answers them with the owner's data, through
 * the owner's internal compute endpoint (admin token, its own engine, no further forwarding). The
 * HTTP layer has checked the key, its rate limit and its access to the domain before the engine
 * is called, so forwarding decides placement only, never access.
 */
import { ENDPOINTS, type Endpoint } from '../api/index.js'
import type { Engine } from '../index.js'
import type { Assignment, ControlPlane, ShardInfo } from './control-plane.js'
import type { KeyDirectory } from './directory.js'
import { SHARD_PATHS, shardCall } from './shard-call.js'

/** Any UUID: the endpoints' parameters are parsed with it to find the engine method each calls. */
const PROBE_ID = '00000000-0000-4000-8000-000000000000'

/**
 * The engine methods the domain endpoints call (derived from the endpoint table: each row's
 * `compute` is run once against a recorder that never answers).
 * @example
 * DOMAIN_READ_METHODS.has('computePromptSeries') // true
 */
export const DOMAIN_READ_METHODS: ReadonlySet<string> = domainReadMethods(ENDPOINTS)

export function domainReadMethods(endpoints: readonly Endpoint[]): Set<string> {
  const called = new Set<string>()
  const recorder = new Proxy({} as Engine, {
    get: (_target, prop) => () => {
      if (typeof prop === 'string') called.add(prop)
      return new Promise<never>(() => undefined)
    },
  })
  for (const endpoint of endpoints) {
    if (!('domain_id' in endpoint.params)) continue
    const parsed = endpoint.query.safeParse({ domain_id: PROBE_ID })
    if (!parsed.success) continue
    void endpoint.compute(recorder, parsed.data as never, { now: new Date(0), caller: null })
  }
  return called
}

/**
 * Whether a shard serves a domain: assigned to it, being moved away from it (until the source's
 * copy is deleted), or not assigned at all (the refusals of an unknown domain are answered here).
 */
export const servedBy = (shard: string, a: Assignment | null): boolean =>
  a === null || a.shard === shard || a.previous === shard

/**
 * The engine with domain reads of other shards' domains forwarded to their owner.
 * @example
 * const engine = forwardingEngine(local, cp, directory, { shard: 's1', adminToken })
 */
export function forwardingEngine(
  engine: Engine,
  cp: ControlPlane,
  directory: KeyDirectory,
  options: { shard: string; adminToken: string; onForward?: () => void },
): Engine {
  const shards = new Map<string, ShardInfo>()
  const ours = (a: Assignment | null): boolean => servedBy(options.shard, a)
  /** The owner of a domain when it is another shard, else null. */
  const ownerElsewhere = async (domainId: string): Promise<ShardInfo | null> => {
    const id = domainId.toLowerCase()
    if (ours(directory.assignment(id))) return null
    const a = await directory.refreshAssignment(id)
    if (a === null || ours(a)) return null
    const known = shards.get(a.shard)
    if (known !== undefined) return known
    const info = await cp.shard(a.shard)
    shards.set(a.shard, info)
    return info
  }
  return new Proxy(engine, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target)
      if (typeof value !== 'function') return value
      const fn = (value as (...a: unknown[]) => unknown).bind(target)
      if (typeof prop !== 'string' || !DOMAIN_READ_METHODS.has(prop)) return fn
      return async (...args: unknown[]) => {
        const domainId = (args[0] as { domainId?: unknown } | undefined)?.domainId
        const owner = typeof domainId === 'string' ? await ownerElsewhere(domainId) : null
        if (owner === null) return fn(...args)
        options.onForward?.()
        const answer = await shardCall<{ result: unknown }>(owner, options.adminToken, SHARD_PATHS.compute, {
          method: prop,
          args,
        })
        return answer.result
      }
    },
  })
}
