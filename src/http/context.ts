/**
 * @module What the plugins of one server share: the engine, the clock, the rate limiter, the
 * response cache, the query limiter, the remembered key verifications and the cache lifetimes.
 */
import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import type { CacheGroup } from '../api/index.js'
import type { ApiKeyInfo, Engine } from '../index.js'
import { ResponseCache } from './cache.js'
import { QueryLimiter } from './concurrency.js'
import { FixedWindowRateLimiter, type RateLimitDecision, type RateLimitOptions } from './rate-limit.js'

/** Cache lifetimes in seconds; 0 disables caching for that group. */
export interface CacheTtlOptions {
  /** Sentiment overview and themes (default 3600). */
  sentimentSeconds?: number
  /** Prompt and competitor time series (default 300). */
  seriesSeconds?: number
}

/** What the context is made from (a subset of the server's options). */
export interface ServiceContextOptions {
  /** The engine to serve (the caller keeps ownership: the server never closes it). */
  engine: Engine
  /** Per-key fixed window (default 60 requests per 60 s). */
  rateLimit?: RateLimitOptions
  cacheTtl?: CacheTtlOptions
  /** Engine queries running at once (default 4). */
  maxConcurrentQueries?: number
  /** Queries waiting for a slot before further ones get 503 (default 16 per slot). */
  maxQueuedQueries?: number
  /**
   * Seconds a key verification is remembered (default 10; 0 asks the engine every time). Keys are
   * revoked with the CLI while the service is stopped (DuckDB lets one process open a file), so
   * this only matters for keys revoked through the same engine instance.
   */
  keyCacheSeconds?: number
  /** Milliseconds clock for the rate limit, the cache and the reports' `now` (default Date.now). */
  clock?: () => number
}

/** The authenticated caller of a request: its key and how the request was counted. */
export interface Caller {
  key: ApiKeyInfo
  rate: RateLimitDecision
}

export interface ServiceContext {
  readonly engine: Engine
  /** Milliseconds clock of the rate limit, the cache and the reports' `now`. */
  readonly clock: () => number
  readonly limiter: FixedWindowRateLimiter
  readonly cache: ResponseCache
  readonly queries: QueryLimiter
  /** Cache lifetime in milliseconds of each cache group (`none`: 0, never stored). */
  readonly ttlMs: Readonly<Record<CacheGroup, number>>
  /** The key of a secret, or null; remembered for `keyCacheSeconds`. */
  verifyKey(secret: string): Promise<ApiKeyInfo | null>
  /** Forgets the remembered verifications and cached bodies (after an ingest). */
  clearCaches(): void
}

/**
 * SHA-256 of a secret (remembered keys and the admin token are kept only as digests).
 * @example
 * timingSafeEqual(sha256(token), adminTokenHash)
 */
export function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}

/**
 * @example
 * const ctx = createServiceContext({ engine, clock: () => now })
 */
export function createServiceContext(options: ServiceContextOptions): ServiceContext {
  const { engine } = options
  const clock = options.clock ?? Date.now
  const maxConcurrent = options.maxConcurrentQueries ?? 4
  const cache = new ResponseCache({ clock })
  const keyCacheMs = (options.keyCacheSeconds ?? 10) * 1000
  // Verified keys (and refusals) by the SHA-256 of the secret: the secret itself is never kept.
  const keyCache = new LRUCache<string, { info: ApiKeyInfo | null }>({
    max: 10_000,
    ttl: Math.max(1, keyCacheMs),
    perf: { now: clock },
    ttlResolution: 0,
  })
  return {
    engine,
    clock,
    limiter: new FixedWindowRateLimiter(options.rateLimit ?? { limit: 60, windowSeconds: 60 }, clock),
    cache,
    queries: new QueryLimiter({ maxConcurrent, maxQueued: options.maxQueuedQueries ?? maxConcurrent * 16 }),
    ttlMs: {
      sentiment: (options.cacheTtl?.sentimentSeconds ?? 3600) * 1000,
      series: (options.cacheTtl?.seriesSeconds ?? 300) * 1000,
      none: 0,
    },
    async verifyKey(secret) {
      if (keyCacheMs === 0) return engine.verifyApiKey(secret)
      const digest = sha256(secret).toString('base64')
      const cached = keyCache.get(digest)
      if (cached !== undefined) return cached.info
      const info = await engine.verifyApiKey(secret)
      keyCache.set(digest, { info })
      return info
    },
    clearCaches() {
      cache.clear()
      keyCache.clear()
    },
  }
}
