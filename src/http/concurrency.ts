/**
 * Bounds how many engine queries run at once. A request that finds every slot taken waits in a
 * bounded queue; when the queue is full too it is refused at once (the caller answers 503 with
 * Retry-After) instead of piling up without limit.
 */
import { VisibilityError } from '../index.js'

/**
 * Thrown by `QueryLimiter.run` when every slot and queue place is taken (the service answers 503).
 * @example
 * try { await limiter.run(task) } catch (e) { if (e instanceof OverloadedError) retryLater() }
 */
export class OverloadedError extends VisibilityError {
  override name = 'OverloadedError' as const
  constructor() {
    super('OVERLOADED', 'too many concurrent queries')
  }
}

/**
 * @example
 * const limiter = new QueryLimiter({ maxConcurrent: 4, maxQueued: 64 })
 * const payload = await limiter.run(() => engine.computePromptSeries({ domainId }))
 */
export class QueryLimiter {
  readonly maxConcurrent: number
  readonly maxQueued: number
  #active = 0
  readonly #queue: Array<() => void> = []

  constructor(options: { maxConcurrent: number; maxQueued: number }) {
    if (!Number.isInteger(options.maxConcurrent) || options.maxConcurrent < 1) {
      throw new RangeError('maxConcurrentQueries must be a positive integer')
    }
    if (!Number.isInteger(options.maxQueued) || options.maxQueued < 0) {
      throw new RangeError('maxQueuedQueries must be a non-negative integer')
    }
    this.maxConcurrent = options.maxConcurrent
    this.maxQueued = options.maxQueued
  }

  get active(): number {
    return this.#active
  }

  get queued(): number {
    return this.#queue.length
  }

  /** Runs `task` when a slot is free; throws OverloadedError when the queue is full. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.maxConcurrent) {
      if (this.#queue.length >= this.maxQueued) throw new OverloadedError()
      await new Promise<void>((resolve) => this.#queue.push(resolve))
    } else {
      this.#active += 1
    }
    try {
      return await task()
    } finally {
      const next = this.#queue.shift()
      // Hand the slot straight to the next waiter; otherwise free it.
      if (next !== undefined) next()
      else this.#active -= 1
    }
  }
}
