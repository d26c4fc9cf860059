/**
 * The response cache: serialized 200 bodies keyed by endpoint and normalized parameters, shared by
 * every key (it is consulted only after a request is authorized). Storage and expiry are
 * lru-cache's; concurrent identical misses share one computation (single flight).
 */
import { LRUCache } from 'lru-cache'

/**
 * A cached response: the JSON exactly as first sent (its generated_at included), as text or as its
 * UTF-8 bytes (the service keeps the bytes: encoded once, then hashed and written as they are).
 */
export interface CachedBody {
  body: string | Buffer
  /** The body's ETag, once a response needed it (kept with the body: a hit hashes nothing). */
  etag?: string
}

export interface ResponseCacheOptions {
  /** Most entries kept (default 10 000). */
  maxEntries?: number
  /** Most bytes of bodies kept (default 64 MiB). */
  maxBytes?: number
  /** Milliseconds clock, injectable for tests (default Date.now). */
  clock?: () => number
}

/** How a body was obtained: from the cache, or computed (possibly shared with concurrent requests). */
export type CacheStatus = 'HIT' | 'MISS'

/**
 * @example
 * const cache = new ResponseCache()
 * const { value, status } = await cache.getOrCompute('k', 60_000, async () => ({ body: '{}' }))
 */
export class ResponseCache {
  readonly #lru: LRUCache<string, CachedBody>
  readonly #inflight = new Map<string, Promise<CachedBody>>()

  constructor(options: ResponseCacheOptions = {}) {
    const clock = options.clock ?? Date.now
    this.#lru = new LRUCache<string, CachedBody>({
      max: options.maxEntries ?? 10_000,
      maxSize: options.maxBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (value) => Math.max(1, value.body.length),
      // Expiry follows the injected clock exactly (no cached "now" between checks).
      perf: { now: clock },
      ttlResolution: 0,
      ttlAutopurge: false,
    })
  }

  /**
   * The cached body for `key`, or the result of `compute` (stored for `ttlMs`; 0 stores nothing).
   * Concurrent calls with the same key while a computation runs wait for it instead of starting
   * another one. A failed computation is not stored.
   */
  async getOrCompute(
    key: string,
    ttlMs: number,
    compute: () => Promise<CachedBody>,
  ): Promise<{ value: CachedBody; status: CacheStatus }> {
    if (ttlMs > 0) {
      const cached = this.#lru.get(key)
      if (cached !== undefined) return { value: cached, status: 'HIT' }
    }
    let pending = this.#inflight.get(key)
    if (pending === undefined) {
      pending = (async () => {
        try {
          const value = await compute()
          if (ttlMs > 0) this.#lru.set(key, value, { ttl: ttlMs })
          return value
        } finally {
          this.#inflight.delete(key)
        }
      })()
      this.#inflight.set(key, pending)
    }
    return { value: await pending, status: 'MISS' }
  }

  /** Drops every stored body (after an ingest changed the data). */
  clear(): void {
    this.#lru.clear()
  }

  /** Number of stored bodies. */
  get size(): number {
    return this.#lru.size
  }
}
