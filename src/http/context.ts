/**
 * @module What the plugins of one server share: the engine, the clock, the rate limiter, the
 * response cache, the query limiter and the cache lifetimes.
 */
import { createHash } from 'node:crypto'
import type { CacheGroup } from '../api/index.js'
import type { ApiKeyInfo, Engine } from '../index.js'
import { ResponseCache } from './cache.js'
import { QueryLimiter } from './concurrency.js'
import {
  FixedWindowRateLimiter,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitOptions,
} from './rate-limit.js'
import { ServiceMetrics } from './metrics.js'

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
  /** Milliseconds clock for the rate limit, the cache and the reports' `now` (default Date.now). */
  clock?: () => number
  /** A shared limiter instead of the in-memory one of `rateLimit` (cluster mode: the control plane). */
  limiter?: RateLimiter
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
  readonly limiter: RateLimiter
  readonly cache: ResponseCache
  readonly queries: QueryLimiter
  /** Cache lifetime in milliseconds of each cache group (`none`: 0, never stored). */
  readonly ttlMs: Readonly<Record<CacheGroup, number>>
  /** The key of a secret, or null (the engine's in-memory key index: no cache window). */
  verifyKey(secret: string): Promise<ApiKeyInfo | null>
  /** Forgets the cached bodies (after an ingest). */
  clearCaches(): void
  /** The server's Prometheus metrics (GET /metrics). */
  readonly metrics: ServiceMetrics
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
  return {
    engine,
    clock,
    limiter:
      options.limiter ??
      new FixedWindowRateLimiter(options.rateLimit ?? { limit: 60, windowSeconds: 60 }, clock),
    cache,
    queries: new QueryLimiter({ maxConcurrent, maxQueued: options.maxQueuedQueries ?? maxConcurrent * 16 }),
    ttlMs: {
      sentiment: (options.cacheTtl?.sentimentSeconds ?? 3600) * 1000,
      series: (options.cacheTtl?.seriesSeconds ?? 300) * 1000,
      none: 0,
    },
    verifyKey: (secret) => engine.verifyApiKey(secret),
    clearCaches() {
      cache.clear()
    },
    metrics: new ServiceMetrics(engine),
  }
}
