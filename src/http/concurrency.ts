/**
 * Bounds how many engine queries run at once. A request that finds every slot taken waits in a
 * bounded queue; when the queue is full too it is refused at once (the caller answers 503 with
 * Retry-After) instead of piling up without limit. Queries start back to back for at most
 * TURN_BUDGET_MS, then the next one waits for a later turn of the event loop (docs/RELIABILITY.md,
 * "/healthz under load"): a report's computation is a synchronous stretch of ~1 ms, and 20 of them
 * started back to back (a slot handed from one to the next as each ends) held the loop for tens of
 * ms, while /healthz and cached answers waited behind them.
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

/** How long queries may keep starting back to back before the next one waits for a later turn. */
export const TURN_BUDGET_MS = 2

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
  /** Queries holding a slot, waiting for their turn of the event loop to start (oldest first). */
  readonly #starting: Array<() => void> = []
  #pumping = false
  /** Until when (performance.now()) queries start without waiting for a turn. */
  #budgetEnds = 0

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

  /**
   * Starts the oldest query that holds a slot and opens a budget for more, then leaves the rest to
   * later turns: an immediate set while immediates run waits for the next turn, after the sockets
   * were read.
   */
  readonly #pump = (): void => {
    this.#budgetEnds = performance.now() + TURN_BUDGET_MS
    this.#starting.shift()?.()
    if (this.#starting.length > 0) setImmediate(this.#pump)
    else this.#pumping = false
  }

  /** Resolves on a later turn of the event loop (one query a turn, and the ones within its budget). */
  #turn(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#starting.push(resolve)
      if (!this.#pumping) {
        this.#pumping = true
        setImmediate(this.#pump)
      }
    })
  }

  /**
   * Runs `task` when a slot is free, at once while the budget of the turn lasts, else on a later
   * turn; throws OverloadedError when the queue is full.
   */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.maxConcurrent) {
      if (this.#queue.length >= this.maxQueued) throw new OverloadedError()
      await new Promise<void>((resolve) => this.#queue.push(resolve))
    } else {
      this.#active += 1
    }
    // Behind the queries already waiting for a turn, or on a later turn once the budget is spent.
    if (this.#starting.length > 0 || performance.now() >= this.#budgetEnds) await this.#turn()
    try {
      return await task()
    } finally {
      const next = this.#queue.shift()
      // Hand the slot straight to the next waiter; otherwise free it.
      if (next !== undefined) next()
      else this.#active -= 1
      // Within the budget, the oldest query waiting for a turn starts now.
      if (performance.now() < this.#budgetEnds) this.#starting.shift()?.()
    }
  }
}
