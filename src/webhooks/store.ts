/**
 * @module The webhooks' tables (sql/schema/006_webhooks.sql) on a connection of their own: the
 * subscriptions, what was sent to each, the durable outbox and the delivery log. Every statement
 * runs under one mutex on that connection, so webhooks never wait for the engine's write lock (an
 * ingest in progress) and an ingest never waits for them; DuckDB commits the two connections'
 * transactions independently (they touch different tables). See docs/WEBHOOKS.md.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import { Mutex } from '../db/lock.js'

/** A subscription as the admin endpoints show it (never its secret, except once at creation). */
export interface WebhookSubscription {
  id: string
  team_id: string
  url: string
  events: string[]
  domain_ids: string[] | null
  created_at: string
  /** When a 410 answer disabled it (ISO), or null. */
  disabled_at: string | null
  disabled_reason: string | null
}

/** One delivery attempt, as GET /internal/v1/webhooks/{id}/deliveries lists it. */
export interface WebhookDelivery {
  event_id: string
  attempt: number
  /** The receiver's HTTP status, or null when no answer came (see `error`). */
  status_code: number | null
  error: string | null
  /** delivered, retry (another attempt is scheduled), failed, or disabled (410). */
  outcome: 'delivered' | 'retry' | 'failed' | 'disabled'
  at: string
}

/** An outbox row claimed for one attempt. */
export interface ClaimedEvent {
  seq: number
  event_id: string
  subscription_id: string
  /** The domain whose signal it carries (null: a ping). */
  domain_id: string | null
  body: string
  /** This attempt's number (1 for the first). */
  attempt: number
  /** When the event's first attempt began (null: this is the first one that will be recorded). */
  first_attempt_at: number | null
}

/** What one attempt decided. */
export interface AttemptOutcome {
  seq: number
  event_id: string
  subscription_id: string
  attempt: number
  at: number
  status_code: number | null
  error: string | null
  outcome: WebhookDelivery['outcome']
  /** When the event's first attempt began (this one's start for a first attempt). */
  first_attempt_at: number
  /** With `retry`: when the next attempt is due. */
  next_attempt_at?: number
}

/** Signals for the outbox: each has a stable id; the whole item becomes the event's `data`. */
export type SignalItem = { readonly id: string }

/**
 * Where the subscriptions and the delivery log live when they are not in this database: in cluster
 * mode, the control plane (src/cluster/webhooks.ts), so every shard sees the same ones. Each
 * database keeps its own outbox and record of sent signals. Same rules and answers as the local
 * tables.
 */
export interface SubscriptionStore {
  insert(sub: WebhookSubscription & { secret: string }, createdAt: number): Promise<void>
  list(teamId?: string): Promise<WebhookSubscription[]>
  get(id: string): Promise<(WebhookSubscription & { secret: string }) | null>
  /** False when it does not exist (its log goes with it). */
  delete(id: string): Promise<boolean>
  /** Deletes the subscriptions of these teams (and their log); returns their ids. */
  deleteTeams(teamIds: readonly string[]): Promise<string[]>
  /** The active subscriptions that receive this domain's signals. */
  subscribers(domain: { id: string; team_id: string }): Promise<string[]>
  /** Writes the log rows of finished attempts and disables the subscriptions that answered 410. */
  record(outcomes: readonly AttemptOutcome[]): Promise<void>
  deliveries(id: string, limit: number): Promise<WebhookDelivery[]>
  /** Retention of the log: rows older than `cutoff`, then the oldest beyond `maxRows`. */
  prune(cutoff: number, maxRows: number): Promise<void>
}

/** A domain's pending events and the record of what was sent for it: what a move carries. */
export interface DomainEvents {
  domain_id: string
  outbox: {
    event_id: string
    subscription_id: string
    type: string
    body: string
    created_at: number
    attempts: number
    first_attempt_at: number | null
    next_attempt_at: number
  }[]
  sent: { subscription_id: string; signal_id: string; event_id: string; sent_at: number }[]
}

/** Why a 410 answer disabled a subscription (its `disabled_reason`). */
export const DISABLED_410 = 'the receiver answered 410 Gone'

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())
const num = (v: unknown): number => Number(v)
/** A list parameter: JSON text, cast in SQL (`$p::JSON::UUID[]`): the binding needs no list type. */
const list = (items: readonly (string | number | null)[]): string => JSON.stringify(items)

export class WebhookStore {
  readonly #mutex = new Mutex()
  private constructor(
    readonly conn: DuckDBConnection,
    /** The subscriptions and the log elsewhere (cluster mode), or null: this database's tables. */
    readonly remote: SubscriptionStore | null,
  ) {}

  /** A store on a new connection of the database's instance. */
  static async open(
    instance: DuckDBInstance,
    remote: SubscriptionStore | null = null,
  ): Promise<WebhookStore> {
    return new WebhookStore(await instance.connect(), remote)
  }

  close(): void {
    this.conn.closeSync()
  }

  #run<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.#mutex.run(() => fn(this.conn))
  }

  /** Runs `fn` in one transaction (rolled back and rethrown on any error). */
  #transaction<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.#run(async (conn) => {
      await conn.run('BEGIN TRANSACTION')
      try {
        const result = await fn(conn)
        await conn.run('COMMIT')
        return result
      } catch (e) {
        await conn.run('ROLLBACK').catch(() => undefined)
        throw e
      }
    })
  }

  /** The rows `read` answers, on the store's connection (the SQL stays a constant at its call). */
  async #rows(
    read: (conn: DuckDBConnection) => Promise<{ getRowObjectsJS(): Record<string, unknown>[] }>,
  ): Promise<Record<string, unknown>[]> {
    return this.#run(async (conn) => (await read(conn)).getRowObjectsJS())
  }

  /** Stores a new subscription with a new secret; answers it with the secret (shown once). */
  async create(
    input: { team_id: string; url: string; events: string[]; domain_ids: string[] | null },
    now: number,
  ): Promise<WebhookSubscription & { secret: string }> {
    const id = randomUUID()
    const secret = `whsec_${randomBytes(24).toString('base64url')}`
    const created = {
      id,
      team_id: input.team_id,
      url: input.url,
      events: input.events,
      domain_ids: input.domain_ids,
      created_at: iso(now)!,
      disabled_at: null,
      disabled_reason: null,
      secret,
    }
    if (this.remote !== null) {
      await this.remote.insert(created, now)
      return created
    }
    await this.#run((conn) =>
      conn.run(
        `INSERT INTO webhook_subscriptions VALUES ($id::UUID, $team::UUID, $url, $events::JSON::VARCHAR[],
           CASE WHEN $has_domains THEN $domains::JSON::UUID[] ELSE NULL END, $secret, $now, NULL, NULL)`,
        {
          id,
          team: input.team_id,
          url: input.url,
          events: list(input.events),
          has_domains: input.domain_ids !== null,
          domains: list(input.domain_ids ?? []),
          secret,
          now,
        },
      ),
    )
    return created
  }

  static #subscription(r: Record<string, unknown>): WebhookSubscription {
    return {
      id: String(r.id),
      team_id: String(r.team_id),
      url: String(r.url),
      events: (r.events as string[]).map(String),
      domain_ids: r.domain_ids === null ? null : (r.domain_ids as unknown[]).map(String),
      created_at: iso(num(r.created_at))!,
      disabled_at: iso(r.disabled_at === null ? null : num(r.disabled_at)),
      disabled_reason: r.disabled_reason === null ? null : String(r.disabled_reason),
    }
  }

  /** Every subscription (of one team when given), oldest first. */
  async list(teamId?: string): Promise<WebhookSubscription[]> {
    if (this.remote !== null) return this.remote.list(teamId)
    const rows = await this.#rows((c) =>
      c.runAndReadAll(
        `SELECT * EXCLUDE (secret) FROM webhook_subscriptions
       WHERE $team IS NULL OR team_id = $team::UUID ORDER BY created_at, id`,
        { team: teamId ?? null },
      ),
    )
    return rows.map((r) => WebhookStore.#subscription(r))
  }

  /** One subscription with its secret (for signing), or null. */
  async get(id: string): Promise<(WebhookSubscription & { secret: string }) | null> {
    if (this.remote !== null) return this.remote.get(id)
    const rows = await this.#rows((c) =>
      c.runAndReadAll('SELECT * FROM webhook_subscriptions WHERE id = $id::UUID', { id }),
    )
    const r = rows[0]
    return r === undefined ? null : { ...WebhookStore.#subscription(r), secret: String(r.secret) }
  }

  /** Deletes a subscription with its outbox, sent record and log; false when it does not exist. */
  async delete(id: string): Promise<boolean> {
    if (this.remote !== null) {
      if (!(await this.remote.delete(id))) return false
      await this.#forgetSubscriptions([id])
      return true
    }
    return this.#transaction(async (conn) => {
      const r = await conn.runAndReadAll(
        'DELETE FROM webhook_subscriptions WHERE id = $id::UUID RETURNING id',
        { id },
      )
      if (r.currentRowCount === 0) return false
      await WebhookStore.#dropRows(conn, [id])
      return true
    })
  }

  /** The outbox rows, sent records and log rows of these subscriptions (on `conn`, in its transaction). */
  static async #dropRows(conn: DuckDBConnection, ids: readonly string[]): Promise<void> {
    const subs = list(ids)
    await conn.run('DELETE FROM webhook_outbox WHERE list_contains($subs::JSON::UUID[], subscription_id)', {
      subs,
    })
    await conn.run('DELETE FROM webhook_sent WHERE list_contains($subs::JSON::UUID[], subscription_id)', {
      subs,
    })
    await conn.run(
      'DELETE FROM webhook_deliveries WHERE list_contains($subs::JSON::UUID[], subscription_id)',
      { subs },
    )
  }

  /** This database's rows of subscriptions deleted elsewhere (cluster mode). */
  async #forgetSubscriptions(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.#transaction((conn) => WebhookStore.#dropRows(conn, ids))
  }

  /**
   * Deletes the subscriptions of deleted teams with their outbox, sent records and log (a
   * deleted team's receivers get nothing more); returns how many were deleted.
   */
  async deleteTeams(teamIds: readonly string[]): Promise<number> {
    if (teamIds.length === 0) return 0
    if (this.remote !== null) {
      const ids = await this.remote.deleteTeams(teamIds)
      await this.#forgetSubscriptions(ids)
      return ids.length
    }
    return this.#transaction(async (conn) => {
      const ids = (
        await conn.runAndReadAll(
          `DELETE FROM webhook_subscriptions WHERE list_contains($teams::JSON::UUID[], team_id)
           RETURNING id::VARCHAR`,
          { teams: list(teamIds) },
        )
      )
        .getRows()
        .map((r) => String(r[0]))
      if (ids.length > 0) await WebhookStore.#dropRows(conn, ids)
      return ids.length
    })
  }

  /** Whether any active subscription receives this domain's signals. */
  async hasSubscribers(domain: { id: string; team_id: string }): Promise<boolean> {
    if (this.remote !== null) return (await this.remote.subscribers(domain)).length > 0
    const rows = await this.#rows((c) =>
      c.runAndReadAll(
        `SELECT 1 FROM webhook_subscriptions
       WHERE team_id = $team::UUID AND disabled_at IS NULL AND list_contains(events, 'signal.created')
         AND (domain_ids IS NULL OR list_contains(domain_ids, $domain::UUID)) LIMIT 1`,
        { team: domain.team_id, domain: domain.id },
      ),
    )
    return rows.length > 0
  }

  /**
   * The detection's write, in ONE transaction: for each subscription, each signal it was never
   * sent becomes an event (a new event id) in the outbox and a row of webhook_sent, whose primary
   * key (subscription, signal) makes a second event for one signal impossible. Returns the events
   * created.
   */
  async recordSignals(
    domain: { id: string; team_id: string },
    signals: readonly SignalItem[],
    now: number,
  ): Promise<number> {
    if (signals.length === 0) return 0
    const remoteSubs = this.remote === null ? null : await this.remote.subscribers(domain)
    return this.#transaction(async (conn) => {
      const subs =
        remoteSubs ??
        (
          await conn.runAndReadAll(
            `SELECT id::VARCHAR AS id FROM webhook_subscriptions
           WHERE team_id = $team::UUID AND disabled_at IS NULL AND list_contains(events, 'signal.created')
             AND (domain_ids IS NULL OR list_contains(domain_ids, $domain::UUID))`,
            { team: domain.team_id, domain: domain.id },
          )
        )
          .getRows()
          .map((r) => String(r[0]))
      if (subs.length === 0) return 0
      const ids = signals.map((s) => s.id)
      const sent = new Set(
        (
          await conn.runAndReadAll(
            `SELECT subscription_id::VARCHAR || ' ' || signal_id FROM webhook_sent
             WHERE list_contains($subs::JSON::UUID[], subscription_id) AND list_contains($ids::JSON::VARCHAR[], signal_id)`,
            { subs: list(subs), ids: list(ids) },
          )
        )
          .getRows()
          .map((r) => String(r[0])),
      )
      const created = iso(now)!
      const cols = {
        sub: [] as string[],
        signal: [] as string[],
        event: [] as string[],
        body: [] as string[],
      }
      const seen = new Set<string>()
      for (const sub of subs) {
        for (const signal of signals) {
          const key = `${sub} ${signal.id}`
          if (sent.has(key) || seen.has(key)) continue
          seen.add(key)
          const event = randomUUID()
          cols.sub.push(sub)
          cols.signal.push(signal.id)
          cols.event.push(event)
          cols.body.push(
            JSON.stringify({ id: event, type: 'signal.created', created_at: created, data: signal }),
          )
        }
      }
      if (cols.sub.length === 0) return 0
      const values = {
        subs: list(cols.sub),
        signals: list(cols.signal),
        events: list(cols.event),
        bodies: list(cols.body),
        now,
        domain: domain.id,
      }
      await conn.run(
        `INSERT INTO webhook_sent
         SELECT unnest($subs::JSON::UUID[]), unnest($signals::JSON::VARCHAR[]), unnest($events::JSON::UUID[]), $now`,
        { subs: values.subs, signals: values.signals, events: values.events, now },
      )
      await conn.run(
        `INSERT INTO webhook_outbox (event_id, subscription_id, domain_id, type, body, created_at, state,
           attempts, first_attempt_at, next_attempt_at, lease_until, finished_at)
         SELECT unnest($events::JSON::UUID[]), unnest($subs::JSON::UUID[]), $domain::UUID, 'signal.created',
           unnest($bodies::JSON::VARCHAR[]), $now, 'pending', 0, NULL, $now, 0, NULL`,
        { events: values.events, subs: values.subs, domain: values.domain, bodies: values.bodies, now },
      )
      return cols.sub.length
    })
  }

  /** Puts a ping event for one subscription in the outbox; returns its event id. */
  async enqueuePing(subscriptionId: string, now: number): Promise<string> {
    const event = randomUUID()
    const body = JSON.stringify({
      id: event,
      type: 'ping',
      created_at: iso(now),
      data: { subscription_id: subscriptionId },
    })
    await this.#run((conn) =>
      conn.run(
        `INSERT INTO webhook_outbox (event_id, subscription_id, domain_id, type, body, created_at, state,
           attempts, first_attempt_at, next_attempt_at, lease_until, finished_at)
         VALUES ($event::UUID, $sub::UUID, NULL, 'ping', $body, $now, 'pending', 0, NULL, $now, 0, NULL)`,
        { event, sub: subscriptionId, body, now },
      ),
    )
    return event
  }

  /** Releases every lease: at start, no attempt of this database is in flight (one process holds the file). */
  async releaseLeases(): Promise<void> {
    await this.#run((conn) => conn.run("UPDATE webhook_outbox SET lease_until = 0 WHERE state = 'pending'"))
  }

  /**
   * One step of the worker, in one transaction (docs/WEBHOOKS.md, "Delivery"): writes the outcomes
   * of finished attempts (`finish`), then claims due events for one attempt each: pending, due,
   * not leased, at most `free.of[sub]` per subscription (`free.ahead` for one not named) and
   * `limit` in all, oldest due first, none of a domain `deliverable` refuses. Each claimed row is
   * leased until now + leaseMs and its attempt counted by the statement that chooses it (the rows
   * never come to JS to be chosen). Claims alone run without a transaction (one statement).
   */
  async finishAndClaim(
    outcomes: readonly AttemptOutcome[],
    claim: {
      now: number
      limit: number
      free: { readonly ahead: number; readonly of: ReadonlyMap<string, number> }
      leaseMs: number
      /** Whether this process delivers a domain's events now (cluster mode: it owns the domain). */
      deliverable?: ((domainId: string) => boolean) | undefined
    },
  ): Promise<ClaimedEvent[]> {
    if (outcomes.length === 0) {
      if (claim.limit <= 0) return []
      return this.#run((conn) => WebhookStore.#claim(conn, claim))
    }
    const claimed = await this.#transaction(async (conn) => {
      await this.#finish(conn, outcomes)
      return claim.limit <= 0 ? [] : WebhookStore.#claim(conn, claim)
    })
    // Cluster mode: the log and the disables in the control plane, after this database's rows. A
    // failure there loses those log rows (as a failed `finish` did), never the events just claimed.
    await this.remote?.record(outcomes).catch(() => undefined)
    return claimed
  }

  static async #claim(
    conn: DuckDBConnection,
    claim: Parameters<WebhookStore['finishAndClaim']>[1],
  ): Promise<ClaimedEvent[]> {
    const { now, deliverable } = claim
    // Cluster mode: the domains with due events that are not delivered here now (few rows).
    const refused =
      deliverable === undefined
        ? []
        : (
            await conn.runAndReadAll(
              `SELECT DISTINCT domain_id::VARCHAR FROM webhook_outbox
               WHERE state = 'pending' AND next_attempt_at <= $now AND lease_until <= $now AND domain_id IS NOT NULL`,
              { now },
            )
          )
            .getRows()
            .map((r) => String(r[0]))
            .filter((d) => !deliverable(d))
    const rows = (
      await conn.runAndReadAll(
        `UPDATE webhook_outbox SET lease_until = $lease, attempts = attempts + 1
         WHERE seq IN (
           SELECT seq FROM (
             SELECT seq, next_attempt_at, subscription_id,
               row_number() OVER (PARTITION BY subscription_id ORDER BY next_attempt_at, seq) AS k
             FROM webhook_outbox
             WHERE state = 'pending' AND next_attempt_at <= $now AND lease_until <= $now
               AND (domain_id IS NULL OR NOT list_contains($refused::JSON::UUID[], domain_id)))
           WHERE k <= coalesce(($free::JSON ->> subscription_id::VARCHAR)::INTEGER, $ahead)
           ORDER BY next_attempt_at, seq LIMIT $limit)
         RETURNING seq, event_id::VARCHAR AS event_id, subscription_id::VARCHAR AS subscription_id,
           domain_id::VARCHAR AS domain_id, body, attempts, first_attempt_at`,
        {
          lease: now + claim.leaseMs,
          now,
          limit: claim.limit,
          ahead: claim.free.ahead,
          free: JSON.stringify(Object.fromEntries(claim.free.of)),
          refused: list(refused),
        },
      )
    ).getRowObjectsJS()
    return rows
      .map((r) => ({
        seq: num(r.seq),
        event_id: String(r.event_id),
        subscription_id: String(r.subscription_id),
        domain_id: r.domain_id === null ? null : String(r.domain_id),
        body: String(r.body),
        attempt: num(r.attempts),
        first_attempt_at: r.first_attempt_at === null ? null : num(r.first_attempt_at),
      }))
      .sort((a, b) => a.seq - b.seq)
  }

  /**
   * Writes the outcomes of finished attempts in one transaction: the outbox rows' new state (and
   * the time of an event's first attempt), the log rows, and (410) the subscriptions disabled with
   * their pending events marked failed.
   */
  async finish(outcomes: readonly AttemptOutcome[]): Promise<void> {
    if (outcomes.length === 0) return
    await this.#transaction((conn) => this.#finish(conn, outcomes))
    // Cluster mode: the log and the disables in the control plane, after this database's rows.
    await this.remote?.record(outcomes)
  }

  async #finish(conn: DuckDBConnection, outcomes: readonly AttemptOutcome[]): Promise<void> {
    const state = (o: AttemptOutcome) =>
      o.outcome === 'retry' ? 'pending' : o.outcome === 'delivered' ? 'delivered' : 'failed'
    await conn.run(
      `UPDATE webhook_outbox o SET state = r.state, next_attempt_at = r.next, lease_until = 0,
         first_attempt_at = coalesce(o.first_attempt_at, r.first),
         finished_at = CASE WHEN r.state = 'pending' THEN NULL ELSE r.done END
       FROM (SELECT unnest($seqs::JSON::BIGINT[]) AS seq, unnest($states::JSON::VARCHAR[]) AS state,
                    unnest($next::JSON::BIGINT[]) AS next, unnest($at::JSON::BIGINT[]) AS done,
                    unnest($first::JSON::BIGINT[]) AS first) r
       WHERE o.seq = r.seq`,
      {
        seqs: list(outcomes.map((o) => o.seq)),
        states: list(outcomes.map(state)),
        next: list(outcomes.map((o) => o.next_attempt_at ?? o.at)),
        at: list(outcomes.map((o) => o.at)),
        first: list(outcomes.map((o) => o.first_attempt_at)),
      },
    )
    for (const o of outcomes.filter((x) => x.outcome === 'disabled'))
      await conn.run(
        `UPDATE webhook_outbox SET state = 'failed', finished_at = $at, lease_until = 0
         WHERE subscription_id = $id::UUID AND state = 'pending'`,
        { at: o.at, id: o.subscription_id },
      )
    if (this.remote !== null) return
    await conn.run(
      `INSERT INTO webhook_deliveries
       SELECT unnest($subs::JSON::UUID[]), unnest($events::JSON::UUID[]), unnest($attempts::JSON::INTEGER[]),
              unnest($codes::JSON::INTEGER[]), unnest($errors::JSON::VARCHAR[]), unnest($outcomes::JSON::VARCHAR[]),
              unnest($at::JSON::BIGINT[])`,
      {
        subs: list(outcomes.map((o) => o.subscription_id)),
        events: list(outcomes.map((o) => o.event_id)),
        attempts: list(outcomes.map((o) => o.attempt)),
        codes: list(outcomes.map((o) => o.status_code)),
        errors: list(outcomes.map((o) => o.error)),
        outcomes: list(outcomes.map((o) => o.outcome)),
        at: list(outcomes.map((o) => o.at)),
      },
    )
    for (const o of outcomes.filter((x) => x.outcome === 'disabled'))
      await conn.run(
        `UPDATE webhook_subscriptions SET disabled_at = $at, disabled_reason = $reason
         WHERE id = $id::UUID AND disabled_at IS NULL`,
        { at: o.at, reason: DISABLED_410, id: o.subscription_id },
      )
  }

  /** The latest attempts of one subscription, newest first. */
  async deliveries(subscriptionId: string, limit: number): Promise<WebhookDelivery[]> {
    if (this.remote !== null) return this.remote.deliveries(subscriptionId, limit)
    const rows = await this.#rows((c) =>
      c.runAndReadAll(
        `SELECT event_id::VARCHAR AS event_id, attempt, status_code, error, outcome, attempted_at FROM webhook_deliveries
       WHERE subscription_id = $id::UUID ORDER BY attempted_at DESC, attempt DESC LIMIT $limit`,
        { id: subscriptionId, limit },
      ),
    )
    return rows.map((r) => ({
      event_id: String(r.event_id),
      attempt: num(r.attempt),
      status_code: r.status_code === null ? null : num(r.status_code),
      error: r.error === null ? null : String(r.error),
      outcome: String(r.outcome) as WebhookDelivery['outcome'],
      at: iso(num(r.attempted_at))!,
    }))
  }

  /**
   * Retention: delivered and failed outbox rows, log rows and sent records older than
   * `retentionMs` are deleted; then the oldest finished outbox rows and log rows beyond `maxRows`.
   * Pending rows are never deleted here (they fail after the retry window, then age out).
   */
  async prune(now: number, retentionMs: number, maxRows: number): Promise<void> {
    const cutoff = now - retentionMs
    await this.#transaction(async (conn) => {
      await conn.run("DELETE FROM webhook_outbox WHERE state <> 'pending' AND finished_at < $cutoff", {
        cutoff,
      })
      await conn.run('DELETE FROM webhook_deliveries WHERE attempted_at < $cutoff', { cutoff })
      await conn.run('DELETE FROM webhook_sent WHERE sent_at < $cutoff', { cutoff })
      await conn.run(
        `DELETE FROM webhook_outbox WHERE seq IN (
           SELECT seq FROM webhook_outbox WHERE state <> 'pending'
           ORDER BY finished_at DESC, seq DESC OFFSET $max)`,
        { max: maxRows },
      )
      await conn.run(
        `DELETE FROM webhook_deliveries WHERE rowid IN (
           SELECT rowid FROM webhook_deliveries ORDER BY attempted_at DESC, attempt DESC OFFSET $max)`,
        { max: maxRows },
      )
    })
    await this.remote?.prune(cutoff, maxRows)
  }

  /** Gives claimed rows back untried (their lease and their attempt's count undone). */
  async release(seqs: readonly number[]): Promise<void> {
    if (seqs.length === 0) return
    await this.#run((conn) =>
      conn.run(
        `UPDATE webhook_outbox SET lease_until = 0, attempts = attempts - 1
         WHERE list_contains($seqs::JSON::BIGINT[], seq) AND state = 'pending'`,
        { seqs: list(seqs) },
      ),
    )
  }

  /**
   * A domain's pending events (with their attempts so far and when the next is due) and the
   * record of the signals sent for it (whose outbox row is still kept): what a move carries.
   */
  async exportDomain(domainId: string): Promise<DomainEvents> {
    return this.#run(async (conn) => {
      const outbox = (
        await conn.runAndReadAll(
          `SELECT event_id::VARCHAR AS event_id, subscription_id::VARCHAR AS subscription_id, type, body,
             created_at, attempts, first_attempt_at, next_attempt_at
           FROM webhook_outbox WHERE domain_id = $d::UUID AND state = 'pending' ORDER BY seq`,
          { d: domainId },
        )
      ).getRowObjectsJS()
      const sent = (
        await conn.runAndReadAll(
          `SELECT s.subscription_id::VARCHAR AS subscription_id, s.signal_id, s.event_id::VARCHAR AS event_id, s.sent_at
           FROM webhook_sent s WHERE s.event_id IN (SELECT event_id FROM webhook_outbox WHERE domain_id = $d::UUID)
           ORDER BY s.sent_at, s.event_id`,
          { d: domainId },
        )
      ).getRowObjectsJS()
      return {
        domain_id: domainId,
        outbox: outbox.map((r) => ({
          event_id: String(r.event_id),
          subscription_id: String(r.subscription_id),
          type: String(r.type),
          body: String(r.body),
          created_at: num(r.created_at),
          attempts: num(r.attempts),
          first_attempt_at: r.first_attempt_at === null ? null : num(r.first_attempt_at),
          next_attempt_at: num(r.next_attempt_at),
        })),
        sent: sent.map((r) => ({
          subscription_id: String(r.subscription_id),
          signal_id: String(r.signal_id),
          event_id: String(r.event_id),
          sent_at: num(r.sent_at),
        })),
      }
    })
  }

  /**
   * Takes in what `exportDomain` gave on another database, in one transaction: the pending events
   * keep their ids, attempts and due times; a sent record already here is kept.
   */
  async importDomain(data: DomainEvents): Promise<void> {
    await this.#transaction(async (conn) => {
      const sent = data.sent
      if (sent.length > 0)
        await conn.run(
          `INSERT OR IGNORE INTO webhook_sent
           SELECT unnest($subs::JSON::UUID[]), unnest($signals::JSON::VARCHAR[]), unnest($events::JSON::UUID[]),
                  unnest($at::JSON::BIGINT[])`,
          {
            subs: list(sent.map((r) => r.subscription_id)),
            signals: list(sent.map((r) => r.signal_id)),
            events: list(sent.map((r) => r.event_id)),
            at: list(sent.map((r) => r.sent_at)),
          },
        )
      const o = data.outbox.filter((r) => r.type === 'signal.created')
      if (o.length === 0) return
      await conn.run(
        `INSERT INTO webhook_outbox (event_id, subscription_id, domain_id, type, body, created_at, state,
           attempts, first_attempt_at, next_attempt_at, lease_until, finished_at)
         SELECT e, s, $domain::UUID, 'signal.created', b, c, 'pending', a, f, n, 0, NULL
         FROM (SELECT unnest($events::JSON::UUID[]) AS e, unnest($subs::JSON::UUID[]) AS s,
                      unnest($bodies::JSON::VARCHAR[]) AS b, unnest($created::JSON::BIGINT[]) AS c,
                      unnest($attempts::JSON::INTEGER[]) AS a, unnest($first::JSON::BIGINT[]) AS f,
                      unnest($next::JSON::BIGINT[]) AS n)
         WHERE e NOT IN (SELECT event_id FROM webhook_outbox WHERE domain_id = $domain::UUID)`,
        {
          domain: data.domain_id,
          events: list(o.map((r) => r.event_id)),
          subs: list(o.map((r) => r.subscription_id)),
          bodies: list(o.map((r) => r.body)),
          created: list(o.map((r) => r.created_at)),
          attempts: list(o.map((r) => r.attempts)),
          first: list(o.map((r) => r.first_attempt_at)),
          next: list(o.map((r) => r.next_attempt_at)),
        },
      )
    })
  }

  /** Deletes a domain's events and the record of what was sent for it (a move's source or rollback). */
  async dropDomain(domainId: string): Promise<void> {
    await this.#transaction(async (conn) => {
      await conn.run(
        'DELETE FROM webhook_sent WHERE event_id IN (SELECT event_id FROM webhook_outbox WHERE domain_id = $d::UUID)',
        { d: domainId },
      )
      await conn.run('DELETE FROM webhook_outbox WHERE domain_id = $d::UUID', { d: domainId })
    })
  }

  /** The outbox's pending events and the creation time of the oldest (ms), for the metrics. */
  async queue(): Promise<{ pending: number; oldestCreatedAt: number | null; rows: number; logRows: number }> {
    const [r] = await this.#rows((c) =>
      c.runAndReadAll(`SELECT count(*) FILTER (WHERE state = 'pending')::INTEGER AS pending,
              min(created_at) FILTER (WHERE state = 'pending') AS oldest,
              count(*)::INTEGER AS rows,
              (SELECT count(*)::INTEGER FROM webhook_deliveries) AS log_rows
       FROM webhook_outbox`),
    )
    return {
      pending: num(r!.pending),
      oldestCreatedAt: r!.oldest === null ? null : num(r!.oldest),
      rows: num(r!.rows),
      logRows: num(r!.log_rows),
    }
  }
}
