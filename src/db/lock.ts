/** Small async primitives: a mutex and a readers-writer lock (writers wait for readers, then block them). */

export class Mutex {
  #tail: Promise<void> = Promise.resolve()

  /** Runs `fn` when every earlier `run` has settled. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(fn)
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    )
    return result
  }
}

export class ReadWriteLock {
  #readers = 0
  #writer = false
  #waiting: Array<{ write: boolean; wake: () => void }> = []

  async read<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#writer || this.#waiting.some((w) => w.write)) {
      await new Promise<void>((wake) => this.#waiting.push({ write: false, wake }))
    } else {
      this.#readers++
    }
    try {
      return await fn()
    } finally {
      this.#readers--
      this.#drain()
    }
  }

  async write<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#writer || this.#readers > 0) {
      await new Promise<void>((wake) => this.#waiting.push({ write: true, wake }))
    } else {
      this.#writer = true
    }
    try {
      return await fn()
    } finally {
      this.#writer = false
      this.#drain()
    }
  }

  #drain(): void {
    if (this.#writer || this.#readers > 0) return
    const first = this.#waiting[0]
    if (first === undefined) return
    if (first.write) {
      this.#waiting.shift()
      this.#writer = true
      first.wake()
      return
    }
    while (this.#waiting[0] !== undefined && !this.#waiting[0].write) {
      const r = this.#waiting.shift()!
      this.#readers++
      r.wake()
    }
  }
}

/** What a read may load through: the read pool's loading methods. */
export interface Loads {
  loadColumns(...args: never[]): Promise<unknown>
  loadStrings(...args: never[]): Promise<unknown>
}

/**
 * Reads beside commits without waiting for them, each read still seeing one committed state
 * (docs/ARCHITECTURE.md, "Inside the engine"). A commit sends COMMIT to DuckDB, then applies its
 * state changes to memory (catalog, aggregate store) synchronously; a read runs without a lock
 * and is run again when its result may mix two states:
 *
 * - a commit's changes were applied while it ran, or
 * - one of the database loads made while it ran was in flight while a COMMIT was (that load may
 *   have read rows whose state memory does not show yet).
 *
 * A read that had to run again `attempts` times runs once more under a lock that commits wait
 * for, so it always ends. `close` waits for every read and commit.
 * @example
 * const gate = new CommitGate()
 * const store = new AggregateStore(gate.loads(pool), options)
 * const payload = await gate.read(() => compute({ catalog, aggregates: store }, params))
 * await gate.commit(() => write.run('COMMIT'), () => store.refresh(changes))
 */
export class CommitGate {
  /** Commits whose state changes were applied to memory. */
  #applied = 0
  /** COMMITs sent (applied, failed or in flight). */
  #sent = 0
  /** COMMITs in flight (sent, their changes not applied yet). */
  #committing = 0
  /** Loads that were in flight while a COMMIT was. */
  #suspect = 0
  /** Reads run again, for tests and metrics. */
  #reruns = 0
  /** The fallback: reads that lost too often hold commits off; commits take it for writing. */
  readonly #rw = new ReadWriteLock()
  /** Everything (reads, commits) reads it; close writes it. */
  readonly #life = new ReadWriteLock()

  constructor(readonly attempts = 3) {}

  /** Reads run again because a commit landed while they ran. */
  get reruns(): number {
    return this.#reruns
  }

  /** Runs `read`, again when a commit may have mixed its state (its result, or its error). */
  read<T>(read: () => Promise<T>): Promise<T> {
    return this.#life.read(async () => {
      for (let i = 0; i < this.attempts; i++) {
        const applied = this.#applied
        const suspect = this.#suspect
        const mixed = () => this.#applied !== applied || this.#suspect !== suspect
        let result: T
        try {
          result = await read()
        } catch (e) {
          if (!mixed()) throw e
          this.#reruns++
          continue
        }
        if (!mixed()) return result
        this.#reruns++
      }
      return this.#rw.read(read)
    })
  }

  /** Runs `fn` with commits held off (an export, counts: reads of the database itself). */
  exclusiveRead<T>(fn: () => Promise<T>): Promise<T> {
    return this.#life.read(() => this.#rw.read(fn))
  }

  /** `pool` with each load watched for COMMITs in flight beside it. */
  loads<P extends Loads>(pool: P): Pick<P, keyof Loads> {
    const watch =
      <A extends unknown[], R>(load: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        const sent = this.#sent
        const during = this.#committing > 0
        try {
          return await load(...args)
        } finally {
          if (during || this.#sent !== sent) this.#suspect++
        }
      }
    return {
      loadColumns: watch(pool.loadColumns.bind(pool) as (...a: unknown[]) => Promise<unknown>),
      loadStrings: watch(pool.loadStrings.bind(pool) as (...a: unknown[]) => Promise<unknown>),
    } as Pick<P, keyof Loads>
  }

  /**
   * Sends the COMMIT (`commit`), then applies its changes to memory (`apply`, synchronous), while
   * reads go on. Reads that fell back to the lock finish first.
   */
  commit(commit: () => Promise<void>, apply: () => void): Promise<void> {
    return this.#life.read(() =>
      this.#rw.write(async () => {
        this.#sent++
        this.#committing++
        try {
          await commit()
          try {
            apply()
          } finally {
            this.#applied++
          }
        } finally {
          this.#committing--
        }
      }),
    )
  }

  /** Runs `fn` once no read or commit runs, none starting meanwhile. */
  close<T>(fn: () => Promise<T>): Promise<T> {
    return this.#life.write(fn)
  }
}
