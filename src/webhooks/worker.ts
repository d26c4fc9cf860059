/**
 * @module The delivery worker (docs/WEBHOOKS.md, "Delivery"): claims due outbox rows (a lease per
 * row), POSTs each with a timeout, and writes the outcomes back in batches: each step of its loop
 * is one transaction that writes the outcomes finished since the last and claims the next
 * events (`WebhookStore.finishAndClaim`), so a batch of deliveries costs one commit. At most
 * `perSubscription` attempts of one subscription and `concurrency` in all are in flight; an event
 * is claimed by one attempt at a time (its lease), so one subscription never receives one event
 * twice at once. A failed attempt is retried after `retryBase x 2^(n-1) x (0.5 to 1.5)`; after
 * `retryFor` since the first attempt it is failed; a 410 disables the subscription. Rows claimed by
 * a process that died (kill -9) are released when the next process starts the worker: one process
 * holds a database file at a time, so none of them is still in flight.
 */
import { createAgents, postEvent, signatureHeader, type Agents } from './delivery.js'
import { checkUrl, UnsafeUrlError, type Resolver } from './ssrf.js'
import type { AttemptOutcome, ClaimedEvent, WebhookStore, WebhookSubscription } from './store.js'

export interface DeliveryOptions {
  /** Milliseconds clock (default Date.now). */
  clock: () => number
  allowPrivate: boolean
  resolve?: Resolver | undefined
  /** Per-attempt timeout (default 10 000 ms). */
  timeoutMs: number
  /** VA_WEBHOOK_RETRY_BASE_S in ms (default 10 000). */
  retryBaseMs: number
  /** How long after the first attempt an event is retried before it is failed (default 24 h). */
  retryForMs: number
  /** Attempts in flight per subscription (default 4). */
  perSubscription: number
  /** Attempts in flight in all (default 32). */
  concurrency: number
  /** Polling period when idle (default 1000 ms). */
  pollMs: number
  /** Retention of delivered/failed rows and log rows (default 7 days). */
  retentionMs: number
  /** Most finished outbox rows and log rows kept (default 100 000 each). */
  maxRows: number
  /** Jitter source in [0, 1) (default Math.random). */
  random: () => number
  /**
   * Whether this process delivers (and detects) a domain's events now (default: every domain).
   * A shard: the domains assigned to it and not moving (docs/SCALING.md, "Webhooks").
   */
  deliverable?: ((domainId: string) => boolean) | undefined
}

/** The delay before retry number `attempt` (1: the first retry): base x 2^(attempt-1) x (0.5 to 1.5). */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number): number {
  return baseMs * 2 ** (attempt - 1) * (0.5 + random())
}

type Subscriber = WebhookSubscription & { secret: string }

/**
 * Events claimed ahead per subscription, in units of its concurrency (256 with the default 4):
 * enough that the deliveries of one step of the loop (a commit, tens to hundreds of ms on a busy
 * machine) never run a fast receiver's queue dry. With 4 (16 events, a claim and a write per
 * 16 deliveries, each its own commit) a local receiver drained 212/s alone, 66/s with reads
 * looping. A claimed event waits in memory for a slot under a lease that outlasts every attempt
 * before it (each bounded by the timeout); its retry window starts at its first attempt, not at
 * its claim.
 */
const PREFETCH = 64

export class DeliveryWorker {
  readonly #agents: Agents = createAgents()
  readonly #inflight = new Map<string, number>()
  readonly #inflightSeqs = new Set<number>()
  readonly #attempts = new Set<Promise<void>>()
  /** The domain of each attempt in flight (null: a ping). */
  readonly #attemptDomain = new Map<Promise<void>, string | null>()
  #outcomes: AttemptOutcome[] = []
  /** Subscriptions a 410 disabled here: never tried again, whatever a cached read says. */
  readonly #disabled = new Set<string>()
  #flushing: Promise<void> = Promise.resolve()
  /** The loop's latest round in progress (its outcomes being written). */
  #step: Promise<void> = Promise.resolve()
  #flushQueued = false
  #running = false
  #stopping = false
  #loop: Promise<void> | null = null
  #wake: (() => void) | null = null
  #woken = false
  #nextPruneAt = 0
  readonly #subs = new Map<string, { at: number; sub: Subscriber | null }>()

  constructor(
    readonly store: WebhookStore,
    readonly options: DeliveryOptions,
    readonly onOutcome: (o: AttemptOutcome) => void = () => undefined,
  ) {}

  get inFlight(): number {
    return this.#inflightSeqs.size
  }

  /** Starts the loop: releases the leases of a previous process, then delivers until `stop`. */
  async start(): Promise<void> {
    if (this.#running) return
    await this.store.releaseLeases()
    this.#running = true
    this.#loop = this.#run()
  }

  /** Wakes the loop (new events in the outbox). */
  notify(): void {
    this.#woken = true
    this.#wake?.()
  }

  /** Stops claiming, waits for the attempts in flight (each bounded by its timeout), writes their outcomes. */
  async stop(): Promise<void> {
    this.#running = false
    // Queued events stay leased; the next start releases them.
    this.#stopping = true
    this.#queues.clear()
    this.#queued = 0
    this.notify()
    await this.#loop
    this.#loop = null
    // Attempts in flight are cut (their sockets destroyed): each is retried later, same event id.
    this.#agents.http.destroy()
    this.#agents.https.destroy()
    await Promise.allSettled([...this.#attempts])
    await this.flush()
  }

  async #run(): Promise<void> {
    while (this.#running) {
      try {
        await this.tick()
      } catch {
        // A failed step (the database closing): the next tick tries again (its outcomes too).
      }
      if (!this.#running) break
      if (!this.#woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.pollMs)
          this.#wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        this.#wake = null
      }
      this.#woken = false
    }
  }

  /** Claimed events waiting for a slot of their subscription (leased; see `tick`). */
  readonly #queues = new Map<string, ClaimedEvent[]>()
  #queued = 0

  /**
   * One round: prune when due; in one transaction, write the outcomes finished since the last
   * round and claim due events; start what the free slots allow. Each subscription gets up to
   * PREFETCH x perSubscription events claimed ahead; they wait in memory for a slot, under a
   * lease long enough for every attempt before them to time out.
   */
  async tick(): Promise<number> {
    const o = this.options
    const now = o.clock()
    if (now >= this.#nextPruneAt) {
      this.#nextPruneAt = now + 3_600_000
      await this.store.prune(now, o.retentionMs, o.maxRows)
    }
    const ahead = PREFETCH * o.perSubscription
    // What each subscription with events here may still take (one not named: `ahead`).
    const free = new Map<string, number>()
    for (const sub of new Set([...this.#inflight.keys(), ...this.#queues.keys()]))
      free.set(sub, ahead - (this.#inflight.get(sub) ?? 0) - (this.#queues.get(sub)?.length ?? 0))
    const outcomes = this.#outcomes
    this.#outcomes = []
    let claimed: ClaimedEvent[]
    try {
      const step = this.store.finishAndClaim(outcomes, {
        now,
        limit: this.#stopping
          ? 0
          : // Events claimed here: in flight or queued.
            ahead * Math.max(1, o.concurrency / o.perSubscription) - this.#inflightSeqs.size,
        free: { ahead, of: free },
        leaseMs: o.timeoutMs * (PREFETCH + 1) + 30_000,
        deliverable: o.deliverable,
      })
      this.#step = step.then(
        () => undefined,
        () => undefined,
      )
      claimed = await step
    } catch (e) {
      // Not written (rolled back): written with the next round's, or by `stop`.
      this.#outcomes = [...outcomes, ...this.#outcomes]
      throw e
    }
    for (const event of claimed) {
      if (this.#inflightSeqs.has(event.seq)) continue
      this.#inflightSeqs.add(event.seq)
      const queue = this.#queues.get(event.subscription_id) ?? []
      queue.push(event)
      this.#queues.set(event.subscription_id, queue)
      this.#queued++
    }
    this.#dispatch()
    return claimed.length
  }

  /** Starts queued events while their subscription and the worker have free slots. */
  #dispatch(): void {
    if (this.#stopping) return
    const o = this.options
    for (const [sub, queue] of this.#queues) {
      while (
        queue.length > 0 &&
        (this.#inflight.get(sub) ?? 0) < o.perSubscription &&
        this.#attempts.size < o.concurrency
      ) {
        const event = queue.shift()!
        this.#queued--
        this.#inflight.set(sub, (this.#inflight.get(sub) ?? 0) + 1)
        const attempt = this.#attempt(event).finally(() => {
          this.#attempts.delete(attempt)
          this.#attemptDomain.delete(attempt)
          this.#inflightSeqs.delete(event.seq)
          const n = (this.#inflight.get(sub) ?? 1) - 1
          if (n <= 0) this.#inflight.delete(sub)
          else this.#inflight.set(sub, n)
          this.#dispatch()
          // Claim more once this subscription's queue is half empty (the claim arrives before it runs dry).
          if ((this.#queues.get(sub)?.length ?? 0) < (PREFETCH * o.perSubscription) / 2) this.notify()
        })
        this.#attempts.add(attempt)
        this.#attemptDomain.set(attempt, event.domain_id)
      }
      if (queue.length === 0) this.#queues.delete(sub)
    }
  }

  /**
   * Runs until nothing is due, queued or in flight (tests with a fake clock): ticks, waits for the
   * attempts, writes their outcomes. Returns the events claimed.
   */
  async drain(maxRounds = 1000): Promise<number> {
    let made = 0
    for (let round = 0; round < maxRounds; round++) {
      const n = await this.tick()
      made += n
      while (this.#attempts.size > 0) await Promise.allSettled([...this.#attempts])
      await this.flush()
      if (n === 0 && this.#attempts.size === 0 && this.#queued === 0) break
    }
    return made
  }

  /**
   * A subscription with its secret, read at most once a second: an entry older than that is used
   * once more while it is read again in the background (attempts never wait for that read behind
   * the store's claims and writes); a forgotten one (deleted, disabled here) is read before use.
   */
  async #subscription(id: string): Promise<Subscriber | null> {
    const now = Date.now()
    const hit = this.#subs.get(id)
    if (hit !== undefined) {
      if (now - hit.at >= 1000 && !this.#refreshing.has(id)) {
        this.#refreshing.add(id)
        void this.store
          .get(id)
          .then((sub) => {
            // Not when it was forgotten meanwhile: the next use reads it (and waits).
            if (this.#subs.get(id) === hit) this.#subs.set(id, { at: Date.now(), sub })
          })
          .catch(() => undefined)
          .finally(() => this.#refreshing.delete(id))
      }
      return hit.sub
    }
    const sub = await this.store.get(id)
    this.#subs.set(id, { at: now, sub })
    return sub
  }

  readonly #refreshing = new Set<string>()

  /** Forgets a cached subscription (after a delete). */
  forget(id: string): void {
    this.#subs.delete(id)
  }

  /**
   * Stops delivering a domain's events here (`deliverable` already says no: a move began): its
   * claimed events waiting for a slot are given back untried, and this resolves once its attempts
   * in flight have finished and their outcomes are written.
   */
  async quiesce(domainId: string): Promise<void> {
    const back: number[] = []
    for (const [sub, queue] of this.#queues) {
      const keep = queue.filter((e) => e.domain_id !== domainId)
      for (const e of queue) {
        if (e.domain_id !== domainId) continue
        back.push(e.seq)
        this.#inflightSeqs.delete(e.seq)
        this.#queued--
      }
      if (keep.length === 0) this.#queues.delete(sub)
      else this.#queues.set(sub, keep)
    }
    await this.store.release(back)
    const mine = () => [...this.#attemptDomain].filter(([, d]) => d === domainId).map(([p]) => p)
    for (let left = mine(); left.length > 0; left = mine()) await Promise.allSettled(left)
    await this.flush()
  }

  async #attempt(event: ClaimedEvent): Promise<void> {
    const o = this.options
    if (event.domain_id !== null && o.deliverable !== undefined && !o.deliverable(event.domain_id)) {
      // Claimed before a move began: back to the outbox untried (the domain's new shard sends it).
      await this.store.release([event.seq]).catch(() => undefined)
      return
    }
    const started = o.clock()
    const cached = await this.#subscription(event.subscription_id).catch(() => null)
    const sub =
      cached !== null && this.#disabled.has(cached.id)
        ? { ...cached, disabled_at: cached.disabled_at ?? new Date(started).toISOString() }
        : cached
    let answer: { status: number | null; error: string | null }
    if (sub === null || sub.disabled_at !== null) {
      answer = {
        status: null,
        error: sub === null ? 'the subscription was deleted' : 'the subscription is disabled',
      }
    } else {
      try {
        const target = await checkUrl(sub.url, { allowPrivate: o.allowPrivate, resolve: o.resolve })
        const signature = signatureHeader(sub.secret, event.body, Math.floor(o.clock() / 1000))
        answer = await postEvent(
          target,
          event.body,
          { eventId: event.event_id, signature },
          o.timeoutMs,
          this.#agents,
        )
      } catch (e) {
        answer = { status: null, error: e instanceof UnsafeUrlError ? `refused: ${e.message}` : String(e) }
      }
    }
    const at = o.clock()
    const gone = sub === null || sub.disabled_at !== null
    const outcome: AttemptOutcome = {
      seq: event.seq,
      event_id: event.event_id,
      subscription_id: event.subscription_id,
      attempt: event.attempt,
      at,
      status_code: answer.status,
      error: answer.error,
      outcome: 'retry',
      first_attempt_at: event.first_attempt_at ?? started,
    }
    if (answer.status !== null && answer.status >= 200 && answer.status < 300) outcome.outcome = 'delivered'
    else if (answer.status === 410) {
      outcome.outcome = 'disabled'
      // Its next queued events fail untried, before this outcome is even written.
      this.#disabled.add(event.subscription_id)
    } else if (gone || at - outcome.first_attempt_at >= o.retryForMs) outcome.outcome = 'failed'
    else outcome.next_attempt_at = at + retryDelayMs(event.attempt, o.retryBaseMs, o.random)
    this.#outcomes.push(outcome)
    this.onOutcome(outcome)
    // The loop's next round writes it (with the others finished meanwhile) as it claims more.
    this.notify()
  }

  /**
   * Writes the buffered outcomes now, without claiming (`stop`, `quiesce`, `drain`), one
   * transaction per batch; batches never overlap. The loop's rounds write them otherwise (an
   * attempt frees its slot without waiting for the write: its row stays leased until it lands).
   */
  flush(): Promise<void> {
    if (this.#flushQueued) return this.#flushing
    this.#flushQueued = true
    this.#flushing = this.#flushing.then(async () => {
      // Outcomes a round of the loop took are written once it ends.
      await this.#step
      this.#flushQueued = false
      if (this.#outcomes.length === 0) return
      const batch = this.#outcomes
      this.#outcomes = []
      try {
        await this.store.finish(batch)
      } catch {
        // The database is closing: the rows stay leased and pending, and are delivered again
        // (same event id) by the next process.
      }
    })
    return this.#flushing
  }
}
