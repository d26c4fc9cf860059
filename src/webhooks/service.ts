/**
 * @module Webhooks of one engine (docs/WEBHOOKS.md): the subscriptions (checked against the
 * catalog: the team exists, every domain is the team's), the detection after commits (debounced
 * per domain), the delivery worker and the counters of the metrics. Detection and delivery run
 * only once `start` is called (a serving process); an engine opened for a one-off command only
 * manages subscriptions.
 */
import type { DuckDBInstance } from '@duckdb/node-api'
import { ValidationError, type ParamIssue } from '../errors.js'
import { checkUrl, UnsafeUrlError } from './ssrf.js'
import {
  WebhookStore,
  type DomainEvents,
  type SignalItem,
  type SubscriptionStore,
  type WebhookDelivery,
  type WebhookSubscription,
} from './store.js'
import { DeliveryWorker, type DeliveryOptions } from './worker.js'

export type { DomainEvents, SubscriptionStore, WebhookDelivery, WebhookSubscription } from './store.js'

/** The events a subscription may ask for. */
export const WEBHOOK_EVENTS = ['signal.created'] as const

/** Options of the webhooks (each has an environment variable, docs/OPERATIONS.md). */
export interface WebhookOptions extends Partial<DeliveryOptions> {
  /** VA_SIGNALS_INTERVAL_S: at most one detection per domain per this many seconds (default 300; 0: after every commit). */
  signalsIntervalS?: number
  /** The signals of a domain (the engine's computeSignals with its defaults). */
  detect?: SignalDetector
}

/** The current signals of one domain, each with a stable id. */
export type SignalDetector = (domainId: string) => Promise<readonly SignalItem[]>

/** What the service needs of the engine: the domains' teams. */
export interface WebhookCatalog {
  domainTeam(domainId: string): string | null
  teamExists(teamId: string): boolean
}

/** Counters since start (the metrics read them at each scrape). */
export interface WebhookCounters {
  eventsCreated: number
  deliveries: Record<WebhookDelivery['outcome'], number>
  detectionErrors: number
}

/** The queue as the metrics show it. */
export interface WebhookQueue {
  pending: number
  /** Seconds since the oldest pending event was created (0: none). */
  oldestPendingAgeSeconds: number
}

/** Reads VA_SIGNALS_INTERVAL_S, VA_WEBHOOK_RETRY_BASE_S, VA_WEBHOOK_ALLOW_PRIVATE, VA_WEBHOOK_RETENTION_DAYS, VA_WEBHOOK_MAX_ROWS. */
export function webhookOptionsFromEnv(env: Record<string, string | undefined>): WebhookOptions {
  const number = (name: string, min: number, max: number): number | undefined => {
    const raw = env[name]
    if (raw === undefined || raw === '') return undefined
    const n = Number(raw)
    if (!Number.isFinite(n) || n < min || n > max)
      throw new ValidationError([
        { path: name, message: `${name} must be a number from ${min} to ${max}, got "${raw}".` },
      ])
    return n
  }
  const interval = number('VA_SIGNALS_INTERVAL_S', 0, 86_400)
  const base = number('VA_WEBHOOK_RETRY_BASE_S', 0.001, 86_400)
  const days = number('VA_WEBHOOK_RETENTION_DAYS', 1, 3650)
  const rows = number('VA_WEBHOOK_MAX_ROWS', 100, 100_000_000)
  const allow = env.VA_WEBHOOK_ALLOW_PRIVATE
  return {
    ...(interval === undefined ? {} : { signalsIntervalS: interval }),
    ...(base === undefined ? {} : { retryBaseMs: base * 1000 }),
    ...(days === undefined ? {} : { retentionMs: days * 86_400_000 }),
    ...(rows === undefined ? {} : { maxRows: Math.floor(rows) }),
    allowPrivate: allow === '1' || allow === 'true',
  }
}

const DEFAULTS: DeliveryOptions = {
  clock: Date.now,
  allowPrivate: false,
  timeoutMs: 10_000,
  retryBaseMs: 10_000,
  retryForMs: 86_400_000,
  perSubscription: 4,
  concurrency: 32,
  pollMs: 1000,
  retentionMs: 7 * 86_400_000,
  maxRows: 100_000,
  random: Math.random,
}

export class WebhookService {
  #store: WebhookStore | null = null
  #opening: Promise<WebhookStore> | null = null
  #worker: DeliveryWorker | null = null
  #options: DeliveryOptions & { signalsIntervalS: number; detect: SignalDetector }
  #started = false
  readonly #timers = new Map<string, NodeJS.Timeout>()
  readonly #lastRun = new Map<string, number>()
  readonly #running = new Map<string, Promise<number>>()
  readonly #dirty = new Set<string>()
  /** Domains whose detection waits until they are deliverable here again (a move). */
  readonly #deferred = new Set<string>()
  #deferTimer: NodeJS.Timeout | null = null
  #remote: SubscriptionStore | null = null
  /** The latest deletion of deleted teams' subscriptions: the admin reads wait for it. */
  #cleanup: Promise<unknown> = Promise.resolve()
  readonly counters: WebhookCounters = {
    eventsCreated: 0,
    deliveries: { delivered: 0, retry: 0, failed: 0, disabled: 0 },
    detectionErrors: 0,
  }

  constructor(
    readonly instance: () => DuckDBInstance,
    readonly catalog: WebhookCatalog,
    detect: SignalDetector,
  ) {
    this.#options = { ...DEFAULTS, signalsIntervalS: 300, detect }
  }

  /** Sets options (before `start`; the detector too, e.g. a test's). */
  configure(options: WebhookOptions): void {
    // In place: the worker reads this same object.
    Object.assign(
      this.#options,
      Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
    )
  }

  get options(): Readonly<DeliveryOptions & { signalsIntervalS: number }> {
    return this.#options
  }

  /**
   * Keeps the subscriptions and the delivery log in `remote` (cluster mode: the control plane)
   * instead of this database; before the store is first used.
   */
  useSubscriptions(remote: SubscriptionStore): void {
    if (this.#opening !== null) throw new Error('useSubscriptions: the webhook store is already open')
    this.#remote = remote
  }

  async store(): Promise<WebhookStore> {
    if (this.#store !== null) return this.#store
    this.#opening ??= WebhookStore.open(this.instance(), this.#remote).then((s) => (this.#store = s))
    return this.#opening
  }

  /** The worker (created at `start`, or for a test's `drain`). */
  async worker(): Promise<DeliveryWorker> {
    if (this.#worker === null) {
      const store = await this.store()
      this.#worker ??= new DeliveryWorker(store, this.#options, (o) => this.counters.deliveries[o.outcome]++)
    }
    return this.#worker
  }

  /** Starts detection after commits and the delivery worker. */
  async start(): Promise<void> {
    if (this.#started) return
    this.#started = true
    // Teams deleted while no process ran (or between a commit and its cleanup): their
    // subscriptions go now.
    const gone = new Set((await this.list()).map((s) => s.team_id).filter((t) => !this.catalog.teamExists(t)))
    await this.teamsDeleted([...gone])
    await (await this.worker()).start()
  }

  get started(): boolean {
    return this.#started
  }

  /** Stops detection and delivery (in-flight attempts finish or time out) and closes the connection. */
  async close(): Promise<void> {
    this.#started = false
    if (this.#deferTimer !== null) clearInterval(this.#deferTimer)
    this.#deferTimer = null
    for (const t of this.#timers.values()) clearTimeout(t)
    this.#timers.clear()
    await Promise.allSettled([...this.#running.values()])
    await this.#worker?.stop()
    this.#worker = null
    if (this.#opening !== null) (await this.#opening.catch(() => null))?.close()
    this.#store = null
    this.#opening = null
  }

  /**
   * Checks a subscription body's store rules (team exists, domains are the team's, the URL is
   * allowed now) and stores it. The body's shape is checked by the caller (src/api).
   */
  async create(input: {
    team_id: string
    url: string
    events: string[]
    domain_ids: string[] | null
  }): Promise<WebhookSubscription & { secret: string }> {
    const team = input.team_id.toLowerCase()
    const domains =
      input.domain_ids === null ? null : [...new Set(input.domain_ids.map((d) => d.toLowerCase()))]
    const issues: ParamIssue[] = []
    if (!this.catalog.teamExists(team))
      issues.push({ path: 'team_id', message: `team_id: team ${team} not found.` })
    for (const d of domains ?? []) {
      const owner = this.catalog.domainTeam(d)
      if (owner === null) issues.push({ path: 'domain_ids', message: `domain_ids: domain ${d} not found.` })
      else if (owner !== team)
        issues.push({
          path: 'domain_ids',
          message: `domain_ids: domain ${d} does not belong to team ${team}.`,
        })
    }
    try {
      await checkUrl(input.url, { allowPrivate: this.#options.allowPrivate, resolve: this.#options.resolve })
    } catch (e) {
      if (!(e instanceof UnsafeUrlError)) throw e
      issues.push({ path: 'url', message: e.message.startsWith('url') ? e.message : `url: ${e.message}` })
    }
    if (issues.length > 0) throw new ValidationError(issues)
    return (await this.store()).create(
      { team_id: team, url: input.url, events: [...new Set(input.events)], domain_ids: domains },
      this.#options.clock(),
    )
  }

  async list(teamId?: string): Promise<WebhookSubscription[]> {
    await this.#cleanup
    return (await this.store()).list(teamId?.toLowerCase())
  }

  async get(id: string): Promise<WebhookSubscription | null> {
    await this.#cleanup
    const sub = await (await this.store()).get(id.toLowerCase())
    if (sub === null) return null
    const { secret: _secret, ...shown } = sub
    return shown
  }

  async delete(id: string): Promise<boolean> {
    const deleted = await (await this.store()).delete(id.toLowerCase())
    this.#worker?.forget(id.toLowerCase())
    return deleted
  }

  /** Puts a ping event in the outbox and wakes the worker; null when the subscription does not exist. */
  async ping(id: string): Promise<string | null> {
    const store = await this.store()
    if ((await store.get(id.toLowerCase())) === null) return null
    const event = await store.enqueuePing(id.toLowerCase(), this.#options.clock())
    this.#worker?.notify()
    return event
  }

  /** A commit deleted these teams: their subscriptions go with them (outbox, sent record, log). */
  async teamsDeleted(teamIds: readonly string[]): Promise<number> {
    if (teamIds.length === 0) return 0
    const run = this.#cleanup.then(async () =>
      (await this.store()).deleteTeams(teamIds.map((t) => t.toLowerCase())),
    )
    this.#cleanup = run.catch(() => undefined)
    return run
  }

  /**
   * A move of this domain begins (`deliverable` says no from now on): its queued events are given
   * back and its attempts in flight finish; then `exportDomain` sees every one of its events.
   */
  async holdDomain(domainId: string): Promise<void> {
    await this.#running.get(domainId)
    await this.#worker?.quiesce(domainId)
  }

  async exportDomain(domainId: string): Promise<DomainEvents> {
    return (await this.store()).exportDomain(domainId)
  }

  async importDomain(data: DomainEvents): Promise<void> {
    await (await this.store()).importDomain(data)
    this.#worker?.notify()
  }

  async dropDomain(domainId: string): Promise<void> {
    this.#deferred.delete(domainId)
    await (await this.store()).dropDomain(domainId)
  }

  async deliveries(id: string, limit = 100): Promise<WebhookDelivery[]> {
    return (await this.store()).deliveries(id.toLowerCase(), limit)
  }

  async queue(): Promise<WebhookQueue> {
    const q = await (await this.store()).queue()
    return {
      pending: q.pending,
      oldestPendingAgeSeconds:
        q.oldestCreatedAt === null ? 0 : Math.max(0, (this.#options.clock() - q.oldestCreatedAt) / 1000),
    }
  }

  /**
   * A commit touched these domains: each one's detection runs off the caller's path, at most once
   * per `signalsIntervalS` (a touch during the wait or a run is folded into the next run).
   */
  touched(domainIds: Iterable<string>): void {
    if (!this.#started) return
    for (const d of domainIds) this.#schedule(d)
  }

  #schedule(domainId: string): void {
    if (this.#timers.has(domainId)) return
    if (this.#running.has(domainId)) {
      this.#dirty.add(domainId)
      return
    }
    const interval = this.#options.signalsIntervalS * 1000
    const last = this.#lastRun.get(domainId)
    const wait =
      last === undefined || interval === 0 ? 0 : Math.max(0, last + interval - this.#options.clock())
    const timer = setTimeout(() => {
      this.#timers.delete(domainId)
      const run = this.detectNow(domainId).finally(() => {
        this.#running.delete(domainId)
        if (this.#dirty.delete(domainId) && this.#started) this.#schedule(domainId)
      })
      this.#running.set(domainId, run)
    }, wait)
    timer.unref()
    this.#timers.set(domainId, timer)
  }

  /**
   * A domain not deliverable here (moving, or another shard's): its detection runs once it is
   * deliverable here again (checked every second), or never when it went elsewhere for good.
   */
  #defer(domainId: string): void {
    this.#deferred.add(domainId)
    this.#lastRun.delete(domainId)
    if (this.#deferTimer !== null || !this.#started) return
    this.#deferTimer = setInterval(() => {
      for (const d of this.#deferred) {
        if (this.#options.deliverable?.(d) !== false) {
          this.#deferred.delete(d)
          this.#schedule(d)
        }
      }
      if (this.#deferred.size === 0 && this.#deferTimer !== null) {
        clearInterval(this.#deferTimer)
        this.#deferTimer = null
      }
    }, 1000)
    this.#deferTimer.unref()
  }

  /**
   * Detects one domain's signals now and writes the new events (the outbox and the record of what
   * was sent, one transaction); returns the events created. Errors are counted, never thrown.
   */
  async detectNow(domainId: string): Promise<number> {
    this.#lastRun.set(domainId, this.#options.clock())
    if (this.#options.deliverable?.(domainId) === false) {
      this.#defer(domainId)
      return 0
    }
    try {
      const team = this.catalog.domainTeam(domainId)
      if (team === null) return 0
      const store = await this.store()
      // No subscriber for the domain: the signals are not even computed.
      if (!(await store.hasSubscribers({ id: domainId, team_id: team }))) return 0
      const signals = await this.#options.detect(domainId)
      const created = await store.recordSignals(
        { id: domainId, team_id: team },
        signals,
        this.#options.clock(),
      )
      this.counters.eventsCreated += created
      if (created > 0) this.#worker?.notify()
      return created
    } catch {
      this.counters.detectionErrors++
      return 0
    }
  }
}
