/**
 * @module A shard's cached view of the control plane: API keys by hash (found and not found) and
 * every domain's assignment. Entries are dropped as the control plane announces changes on
 * LISTEN/NOTIFY, so a revoked key is refused by every shard as soon as the notification arrives.
 *
 * When the control plane cannot be reached, the cache keeps serving for `staleMs` after the last
 * successful contact (a revocation made meanwhile is not seen); past that `usable()` is false and
 * the shard answers 503. After a reconnection the whole cache is dropped (notifications may have
 * been missed) and the assignments are read again.
 */
import { LRUCache } from 'lru-cache'
import type { Client } from 'pg'
import type { ApiKeyInfo } from '../index.js'
import { apiKeyHash } from '../internal.js'
import { DIRECTORY_CHANNEL, type Assignment, type ControlPlane } from './control-plane.js'
import { ControlPlaneUnavailableError } from './errors.js'

export interface DirectoryOptions {
  /** How long the cache may serve without the control plane (default 30 000 ms). */
  staleMs?: number
  /** Interval of the liveness probe on the LISTEN connection (default 1000 ms). */
  probeMs?: number
  /** Most keys cached (default 100 000). */
  maxKeys?: number
  clock?: () => number
}

/**
 * @example
 * const dir = await KeyDirectory.open(cp)
 * const key = await dir.verify(secret) // ApiKeyInfo | null
 */
export class KeyDirectory {
  readonly #cp: ControlPlane
  readonly #clock: () => number
  readonly #staleMs: number
  readonly #probeMs: number
  readonly #keys: LRUCache<string, { info: ApiKeyInfo | null }>
  #assignments = new Map<string, Assignment>()
  /** Bumped by every key notification: a lookup that raced one is not cached. */
  #epoch = 0
  #listener: Client | null = null
  #lastContact: number
  #timer: NodeJS.Timeout | null = null
  #closed = false
  #probing = false
  readonly #changes = new Set<() => void>()

  private constructor(cp: ControlPlane, options: DirectoryOptions) {
    this.#cp = cp
    this.#clock = options.clock ?? Date.now
    this.#staleMs = options.staleMs ?? 30_000
    this.#probeMs = options.probeMs ?? 1000
    this.#keys = new LRUCache({ max: options.maxKeys ?? 100_000 })
    this.#lastContact = this.#clock()
  }

  static async open(cp: ControlPlane, options: DirectoryOptions = {}): Promise<KeyDirectory> {
    const dir = new KeyDirectory(cp, options)
    await dir.#connect()
    dir.#timer = setInterval(() => void dir.#probe(), dir.#probeMs)
    dir.#timer.unref()
    return dir
  }

  /** Whether the cache may still be trusted (the control plane answered within `staleMs`). */
  usable(): boolean {
    return this.#clock() - this.#lastContact <= this.#staleMs
  }

  /** Milliseconds since the control plane last answered. */
  get sinceContactMs(): number {
    return this.#clock() - this.#lastContact
  }

  /** The active key of a secret, or null; throws ControlPlaneUnavailableError on a miss it cannot resolve. */
  async verify(secret: string): Promise<ApiKeyInfo | null> {
    const hash = apiKeyHash(secret)
    if (hash === null) return null
    const cached = this.#keys.get(hash)
    if (cached !== undefined) {
      if (!this.usable()) throw new ControlPlaneUnavailableError()
      return cached.info
    }
    const epoch = this.#epoch
    let info: ApiKeyInfo | null
    try {
      info = await this.#cp.keyByHash(hash)
    } catch (e) {
      throw new ControlPlaneUnavailableError(e)
    }
    this.#lastContact = this.#clock()
    if (epoch === this.#epoch && this.#listener !== null) this.#keys.set(hash, { info })
    return info
  }

  /** Drops a key at once (the shard that revoked it does not wait for its own notification). */
  forgetKey(hash: string): void {
    this.#epoch += 1
    this.#keys.delete(hash)
  }

  /** The assignment of a domain as cached, or null when unassigned. */
  assignment(domainId: string): Assignment | null {
    return this.#assignments.get(domainId) ?? null
  }

  /** Reads a domain's assignment from the control plane (when the cache says it is not ours). */
  async refreshAssignment(domainId: string): Promise<Assignment | null> {
    try {
      const a = await this.#cp.assignment(domainId)
      this.#lastContact = this.#clock()
      if (a === null) this.#assignments.delete(domainId)
      else this.#assignments.set(domainId, a)
      return a
    } catch {
      return this.assignment(domainId)
    }
  }

  /**
   * Calls `listener` whenever the control plane announces a change of data or placement (a
   * cluster ingest, a move); returns the unsubscribe function.
   */
  onChange(listener: () => void): () => void {
    this.#changes.add(listener)
    return () => this.#changes.delete(listener)
  }

  async close(): Promise<void> {
    this.#closed = true
    if (this.#timer !== null) clearInterval(this.#timer)
    const l = this.#listener
    this.#listener = null
    await l?.end().catch(() => undefined)
  }

  async #connect(): Promise<void> {
    const client = await this.#cp.listener()
    client.on('notification', (msg) => this.#onNotification(msg.payload ?? 'all'))
    client.on('error', () => this.#drop(client))
    client.on('end', () => this.#drop(client))
    await client.query(`LISTEN ${DIRECTORY_CHANNEL}`)
    // Anything cached before this LISTEN may have missed a notification.
    this.#epoch += 1
    this.#keys.clear()
    this.#assignments = await this.#cp.assignments()
    this.#listener = client
    this.#lastContact = this.#clock()
  }

  #drop(client: Client): void {
    if (this.#listener === client) this.#listener = null
  }

  #onNotification(payload: string): void {
    this.#lastContact = this.#clock()
    const [kind, id] = [payload.slice(0, payload.indexOf(':')), payload.slice(payload.indexOf(':') + 1)]
    if (kind === 'key') return this.forgetKey(id)
    for (const listener of this.#changes) listener()
    if (kind === 'domain') void this.refreshAssignment(id)
    else {
      this.#epoch += 1
      this.#keys.clear()
      void this.#cp.assignments().then(
        (a) => (this.#assignments = a),
        () => undefined,
      )
    }
  }

  /** Checks the LISTEN connection; reconnects when it is gone. */
  async #probe(): Promise<void> {
    if (this.#closed || this.#probing) return
    this.#probing = true
    try {
      if (this.#listener === null) await this.#connect()
      else {
        await this.#listener.query('SELECT 1')
        this.#lastContact = this.#clock()
      }
    } catch {
      const l = this.#listener
      this.#listener = null
      void l?.end().catch(() => undefined)
    } finally {
      this.#probing = false
    }
  }
}
