/**
 * Long main-thread work cut into slices of time, so that the event loop turns between them: a
 * request, a health check or a probe waits at most one slice behind a cache build or a result's
 * copy, whatever the domain's size (docs/ARCHITECTURE.md, "Inside the engine").
 */
import { setImmediate as nextTurn } from 'node:timers/promises'

/** Main-thread time (ms) a slice of work holds the event loop before it lets it turn. */
export const SLICE_MS = 4

/**
 * Iterations of a tight loop between two looks at the clock (a power of two less one, for `&`):
 * `if ((i & SLICE_MASK) === 0 && slice.spent) await slice.next()`.
 */
export const SLICE_MASK = 4095

/**
 * The clock of one piece of work. `spent` says whether it has held the thread for its slice since
 * it started or last let the loop turn; `next()` lets the loop turn and starts a new slice.
 * @example
 * const slice = new TimeSlice()
 * for (let i = 0; i < n; i++) {
 *   if ((i & SLICE_MASK) === 0 && slice.spent) await slice.next()
 *   work(i)
 * }
 */
export class TimeSlice {
  #start: number
  constructor(
    private readonly ms: number = SLICE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#start = now()
  }

  /** True when the slice's time is used up. */
  get spent(): boolean {
    return this.now() - this.#start >= this.ms
  }

  /** Lets the event loop turn (a macrotask: timers and I/O run), then starts a new slice. */
  async next(): Promise<void> {
    await nextTurn()
    this.#start = this.now()
  }

  /** next() when the slice is spent; otherwise resolves at once. */
  async breathe(): Promise<void> {
    if (this.spent) await this.next()
  }
}
