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
