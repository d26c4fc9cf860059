/**
 * @module The open MCP sessions of the HTTP service, bounded so that a client that opens sessions
 * and never closes them cannot grow the server's memory: at most `maxSessions` in all and
 * `maxSessionsPerKey` per API key (a new one evicts the least recently used idle session of its
 * key, then of anyone), and a session idle for `idleSeconds` is closed (by a timer, and whenever
 * it is asked for or a session is opened). A session answering a request is never evicted, but a
 * busy one with no request starting or ending for twice the request deadline is closed: only a
 * request that outlived its deadline (which src/mcp/http.ts enforces) could leave it so.
 */

/**
 * Bounds of the session store (environment: VA_MCP_MAX_SESSIONS, VA_MCP_MAX_SESSIONS_PER_KEY,
 * VA_MCP_SESSION_IDLE_S, VA_MCP_REQUEST_TIMEOUT_MS).
 */
export interface McpSessionOptions {
  /** Sessions open at once, all keys together (default 1000). */
  maxSessions?: number
  /** Sessions one API key may hold open (default 20). */
  maxSessionsPerKey?: number
  /** Seconds without a request after which a session is closed (default 900). */
  idleSeconds?: number
  /** Milliseconds one request may take before it is answered with an error (default 60000). */
  requestTimeoutMs?: number
}

/** The defaults of {@link McpSessionOptions}. */
export const MCP_SESSION_DEFAULTS: Required<McpSessionOptions> = {
  maxSessions: 1000,
  maxSessionsPerKey: 20,
  idleSeconds: 900,
  requestTimeoutMs: 60_000,
}

/** What a session holds: anything that can be closed. */
export interface Closable {
  close(): Promise<void>
}

interface Entry<S> {
  readonly id: string
  readonly owner: string
  readonly session: S
  lastUsed: number
  busy: number
}

/**
 * Sessions by id, each owned by one API key, in least-recently-used order.
 * @example
 * const store = new SessionStore<McpSession>({ maxSessions: 100 })
 * if (!store.makeRoom(key.id)) return reply.code(503).send(...)
 * store.add(sessionId, key.id, session)
 * const session = store.acquire(sessionId, key.id) // null: unknown, closed or another key's
 */
export class SessionStore<S extends Closable> {
  readonly options: Required<McpSessionOptions>
  readonly #clock: () => number
  /** Insertion order is recency order: a used entry is moved to the end. */
  readonly #entries = new Map<string, Entry<S>>()
  readonly #timer: NodeJS.Timeout

  constructor(options: McpSessionOptions = {}, clock: () => number = Date.now) {
    const given = options as Record<string, unknown>
    const picked = Object.keys(MCP_SESSION_DEFAULTS).map((name) => [name, given[name] ?? undefined])
    this.options = { ...MCP_SESSION_DEFAULTS, ...stripUndefined(Object.fromEntries(picked)) }
    for (const [name, value] of Object.entries(this.options)) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`)
    }
    this.#clock = clock
    const sweepMs = Math.min(this.options.idleSeconds * 1000, this.#busyLimitMs(), 60_000)
    this.#timer = setInterval(() => void this.sweep(), sweepMs)
    this.#timer.unref()
  }

  /** Open sessions. */
  get size(): number {
    return this.#entries.size
  }

  /** Open sessions of one key. */
  countOf(owner: string): number {
    let n = 0
    for (const entry of this.#entries.values()) if (entry.owner === owner) n += 1
    return n
  }

  /**
   * Frees a place for a new session of `owner` (evicting the least recently used idle session of
   * that key when it is at its bound, then anyone's when the store is full); false when every
   * candidate is busy.
   */
  makeRoom(owner: string): boolean {
    void this.sweep()
    if (this.countOf(owner) >= this.options.maxSessionsPerKey && !this.#evictIdle((e) => e.owner === owner)) {
      return false
    }
    if (this.#entries.size >= this.options.maxSessions && !this.#evictIdle(() => true)) return false
    return true
  }

  /** Stores a new session (after `makeRoom`). */
  add(id: string, owner: string, session: S): void {
    this.#entries.set(id, { id, owner, session, lastUsed: this.#clock(), busy: 0 })
  }

  /**
   * The session `id` of `owner`, marked busy until `release`; null when unknown, closed or owned
   * by another key (indistinguishable, so a key learns nothing about other keys' sessions).
   */
  acquire(id: string, owner: string): S | null {
    const entry = this.#entries.get(id)
    if (entry === undefined || entry.owner !== owner) return null
    if (this.#expired(entry)) {
      void this.#close(entry)
      return null
    }
    entry.busy += 1
    entry.lastUsed = this.#clock()
    this.#entries.delete(id)
    this.#entries.set(id, entry)
    return entry.session
  }

  /** Ends a request on the session `id`. */
  release(id: string): void {
    const entry = this.#entries.get(id)
    if (entry === undefined) return
    entry.busy = Math.max(0, entry.busy - 1)
    entry.lastUsed = this.#clock()
  }

  /** Forgets a session (closed by its client); does not close it. */
  delete(id: string): void {
    this.#entries.delete(id)
  }

  /** Closes the sessions idle for `idleSeconds` or longer; returns how many. */
  async sweep(): Promise<number> {
    const stale = [...this.#entries.values()].filter((e) => this.#expired(e))
    await Promise.all(stale.map((e) => this.#close(e)))
    return stale.length
  }

  /** Sessions answering at least one request now. */
  get busy(): number {
    let n = 0
    for (const entry of this.#entries.values()) if (entry.busy > 0) n += 1
    return n
  }

  #busyLimitMs(): number {
    return 2 * this.options.requestTimeoutMs
  }

  #expired(entry: Entry<S>): boolean {
    const quiet = this.#clock() - entry.lastUsed
    return entry.busy === 0 ? quiet >= this.options.idleSeconds * 1000 : quiet >= this.#busyLimitMs()
  }

  /** Closes every session and stops the idle sweep. */
  async closeAll(): Promise<void> {
    clearInterval(this.#timer)
    await Promise.all([...this.#entries.values()].map((e) => this.#close(e)))
  }

  #evictIdle(match: (entry: Entry<S>) => boolean): boolean {
    for (const entry of this.#entries.values()) {
      if (entry.busy === 0 && match(entry)) {
        void this.#close(entry)
        return true
      }
    }
    return false
  }

  async #close(entry: Entry<S>): Promise<void> {
    this.#entries.delete(entry.id)
    await entry.session.close().catch(() => undefined)
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}
