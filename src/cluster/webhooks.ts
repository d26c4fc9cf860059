/**
 * @module The webhook subscriptions and their delivery log in the control plane (cluster mode,
 * docs/SCALING.md "Webhooks"): every shard creates, lists, deletes and signs with the same
 * subscriptions, and any shard answers a subscription's deliveries. Each shard keeps its own
 * outbox and record of sent signals in its database (src/webhooks/store.ts) for the domains it
 * holds; a move carries a domain's pending events (shard.ts, move.ts).
 */
import type { QueryResultRow } from 'pg'
import type { WebhookDelivery, WebhookSubscription } from '../index.js'
import { DISABLED_410, type AttemptOutcome, type SubscriptionStore } from '../internal.js'
import type { ControlPlane } from './control-plane.js'

const iso = (ms: unknown): string | null => (ms == null ? null : new Date(Number(ms)).toISOString())

function subscription(row: QueryResultRow): WebhookSubscription {
  return {
    id: String(row.id),
    team_id: String(row.team_id),
    url: String(row.url),
    events: (row.events as unknown[]).map(String),
    domain_ids: row.domain_ids == null ? null : (row.domain_ids as unknown[]).map(String),
    created_at: iso(row.created_at)!,
    disabled_at: iso(row.disabled_at),
    disabled_reason: row.disabled_reason == null ? null : String(row.disabled_reason),
  }
}

/**
 * The control plane's tables va_webhook_subscriptions and va_webhook_deliveries.
 * @example
 * webhooksOf(engine)!.useSubscriptions(new ControlPlaneSubscriptions(cp))
 */
export class ControlPlaneSubscriptions implements SubscriptionStore {
  constructor(readonly cp: ControlPlane) {}

  async insert(sub: WebhookSubscription & { secret: string }, createdAt: number): Promise<void> {
    await this.cp.pool.query(
      `INSERT INTO va_webhook_subscriptions (id, team_id, url, events, domain_ids, secret, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        sub.id,
        sub.team_id,
        sub.url,
        JSON.stringify(sub.events),
        sub.domain_ids === null ? null : JSON.stringify(sub.domain_ids),
        sub.secret,
        createdAt,
      ],
    )
  }

  async list(teamId?: string): Promise<WebhookSubscription[]> {
    const r = await this.cp.pool.query(
      `SELECT * FROM va_webhook_subscriptions WHERE $1::text IS NULL OR team_id = $1
       ORDER BY created_at, id`,
      [teamId ?? null],
    )
    return r.rows.map(subscription)
  }

  async get(id: string): Promise<(WebhookSubscription & { secret: string }) | null> {
    const r = await this.cp.pool.query('SELECT * FROM va_webhook_subscriptions WHERE id = $1', [id])
    const row = r.rows[0]
    return row === undefined ? null : { ...subscription(row), secret: String(row.secret) }
  }

  async delete(id: string): Promise<boolean> {
    return this.cp.transaction(async (c) => {
      const r = await c.query('DELETE FROM va_webhook_subscriptions WHERE id = $1 RETURNING id', [id])
      if (r.rows.length === 0) return false
      await c.query('DELETE FROM va_webhook_deliveries WHERE subscription_id = $1', [id])
      return true
    })
  }

  async deleteTeams(teamIds: readonly string[]): Promise<string[]> {
    return this.cp.transaction(async (c) => {
      const r = await c.query('DELETE FROM va_webhook_subscriptions WHERE team_id = ANY($1) RETURNING id', [
        [...teamIds],
      ])
      const ids = r.rows.map((row) => String(row.id))
      if (ids.length > 0)
        await c.query('DELETE FROM va_webhook_deliveries WHERE subscription_id = ANY($1)', [ids])
      return ids
    })
  }

  async subscribers(domain: { id: string; team_id: string }): Promise<string[]> {
    const r = await this.cp.pool.query(
      `SELECT id FROM va_webhook_subscriptions
       WHERE team_id = $1 AND disabled_at IS NULL AND events ? 'signal.created'
         AND (domain_ids IS NULL OR domain_ids ? $2)
       ORDER BY created_at, id`,
      [domain.team_id, domain.id],
    )
    return r.rows.map((row) => String(row.id))
  }

  async record(outcomes: readonly AttemptOutcome[]): Promise<void> {
    if (outcomes.length === 0) return
    await this.cp.transaction(async (c) => {
      await c.query(
        `INSERT INTO va_webhook_deliveries (subscription_id, event_id, attempt, status_code, error, outcome, attempted_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::bigint[])`,
        [
          outcomes.map((o) => o.subscription_id),
          outcomes.map((o) => o.event_id),
          outcomes.map((o) => o.attempt),
          outcomes.map((o) => o.status_code),
          outcomes.map((o) => o.error),
          outcomes.map((o) => o.outcome),
          outcomes.map((o) => o.at),
        ],
      )
      for (const o of outcomes.filter((x) => x.outcome === 'disabled'))
        await c.query(
          `UPDATE va_webhook_subscriptions SET disabled_at = $2, disabled_reason = $3
           WHERE id = $1 AND disabled_at IS NULL`,
          [o.subscription_id, o.at, DISABLED_410],
        )
    })
  }

  async deliveries(id: string, limit: number): Promise<WebhookDelivery[]> {
    const r = await this.cp.pool.query(
      `SELECT event_id, attempt, status_code, error, outcome, attempted_at FROM va_webhook_deliveries
       WHERE subscription_id = $1 ORDER BY attempted_at DESC, attempt DESC LIMIT $2`,
      [id, limit],
    )
    return r.rows.map((row) => ({
      event_id: String(row.event_id),
      attempt: Number(row.attempt),
      status_code: row.status_code == null ? null : Number(row.status_code),
      error: row.error == null ? null : String(row.error),
      outcome: String(row.outcome) as WebhookDelivery['outcome'],
      at: iso(row.attempted_at)!,
    }))
  }

  async prune(cutoff: number, maxRows: number): Promise<void> {
    await this.cp.pool.query('DELETE FROM va_webhook_deliveries WHERE attempted_at < $1', [cutoff])
    await this.cp.pool.query(
      `DELETE FROM va_webhook_deliveries WHERE n IN (
         SELECT n FROM va_webhook_deliveries ORDER BY attempted_at DESC, attempt DESC OFFSET $1)`,
      [maxRows],
    )
  }
}
