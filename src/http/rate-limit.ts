/**
 * A per-key fixed-window rate limiter (docs/API.md, "Rate limit"). Windows are aligned to multiples of
 * `windowSeconds` since the Unix epoch, so every key's window ends on the same epoch second and
 * `X-RateLimit-Reset` is that second.
 */

export interface RateLimitOptions {
  /** Requests allowed per key and window (default 60). */
  limit: number
  /** Window length in seconds (default 60). */
  windowSeconds: number
}

/** The outcome of counting one request. */
export interface RateLimitDecision {
  allowed: boolean
  limit: number
  /** Requests left in the window after this one (never negative). */
  remaining: number
  /** Unix epoch second at which the window ends. */
  reset: number
  /** Whole seconds until the reset (at least 1); what Retry-After carries on a 429. */
  retryAfter: number
  /** The window this request was counted in (for `refund`). */
  windowStart: number
}

/**
 * What the service counts requests with: this in-memory limiter on one node, or a shared counter
 * (the cluster's control plane), whose answers may take a round trip.
 */
export interface RateLimiter {
  readonly limit: number
  readonly windowSeconds: number
  /** Counts one request of `key` (allowed or not: a refused request still counts). */
  hit(key: string): RateLimitDecision | Promise<RateLimitDecision>
  /** Un-counts a request (answered 5xx) if its window is still the current one; returns the new state. */
  refund(key: string, windowStart: number): RateLimitDecision | Promise<RateLimitDecision>
}

/** The start (epoch second) of the fixed window holding `nowMs`. */
export function windowStartOf(nowMs: number, windowSeconds: number): number {
  return Math.floor(nowMs / 1000 / windowSeconds) * windowSeconds
}

/**
 * The decision for a key that has `used` requests counted in the window starting at `windowStart`.
 * @example
 * windowDecision({ limit: 60, windowSeconds: 60 }, Date.now(), 0, 61).allowed // false
 */
export function windowDecision(
  options: RateLimitOptions,
  nowMs: number,
  windowStart: number,
  used: number,
): RateLimitDecision {
  const reset = windowStart + options.windowSeconds
  return {
    allowed: used <= options.limit,
    limit: options.limit,
    remaining: Math.max(0, options.limit - used),
    reset,
    retryAfter: Math.max(1, Math.ceil(reset - nowMs / 1000)),
    windowStart,
  }
}

/**
 * @example
 * const limiter = new FixedWindowRateLimiter({ limit: 60, windowSeconds: 60 }, () => Date.now())
 * const decision = limiter.hit(apiKeyId)
 * if (!decision.allowed) reply.code(429).header('Retry-After', decision.retryAfter)
 */
export class FixedWindowRateLimiter implements RateLimiter {
  readonly limit: number
  readonly windowSeconds: number
  readonly #clock: () => number
  /** Start (epoch second) of the window the counts belong to; older counts are dropped at once. */
  #windowStart = -1
  #counts = new Map<string, number>()

  constructor(options: RateLimitOptions, clock: () => number = Date.now) {
    if (!Number.isInteger(options.limit) || options.limit < 1)
      throw new RangeError('rate limit must be a positive integer')
    if (!Number.isInteger(options.windowSeconds) || options.windowSeconds < 1) {
      throw new RangeError('rate limit window must be a positive integer number of seconds')
    }
    this.limit = options.limit
    this.windowSeconds = options.windowSeconds
    this.#clock = clock
  }

  /** Counts one request of `key` (allowed or not: a refused request still counts). */
  hit(key: string): RateLimitDecision {
    const nowMs = this.#clock()
    const windowStart = this.#roll(nowMs)
    const used = (this.#counts.get(key) ?? 0) + 1
    this.#counts.set(key, used)
    return this.#decision(nowMs, windowStart, used)
  }

  /** Un-counts a request (answered 5xx) if its window is still the current one; returns the new state. */
  refund(key: string, windowStart: number): RateLimitDecision {
    const nowMs = this.#clock()
    const current = this.#roll(nowMs)
    let used = this.#counts.get(key) ?? 0
    if (current === windowStart && used > 0) {
      used -= 1
      if (used === 0) this.#counts.delete(key)
      else this.#counts.set(key, used)
    }
    return this.#decision(nowMs, current, used)
  }

  /** Number of keys with a count in the current window (for tests and metrics). */
  get size(): number {
    return this.#counts.size
  }

  #roll(nowMs: number): number {
    const windowStart = windowStartOf(nowMs, this.windowSeconds)
    if (windowStart !== this.#windowStart) {
      this.#windowStart = windowStart
      this.#counts = new Map()
    }
    return windowStart
  }

  #decision(nowMs: number, windowStart: number, used: number): RateLimitDecision {
    return windowDecision(this, nowMs, windowStart, used)
  }
}
