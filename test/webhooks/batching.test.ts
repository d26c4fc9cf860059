/**
 * The delivery worker's batches (docs/WEBHOOKS.md, "Delivery"): one round writes the outcomes of
 * several attempts and claims the next events in one transaction, and every outcome of a mixed
 * batch lands right; a claim takes at most its share per subscription and nothing for one whose
 * queue is full; an event's retry window starts at its first attempt, not when it was claimed;
 * a 410 stops the subscription's events already claimed.
 */
import { describe, expect, it } from 'vitest'
import type { WebhookService } from '../../src/index.js'
import { D, T, hooksPerTest, signal, until } from './support.js'

const t = hooksPerTest()
const { setup, listen } = t

const sub = (hooks: WebhookService, url: string) =>
  hooks.create({ team_id: T.acme, url, events: ['signal.created'], domain_ids: null })

/** The outbox rows of one subscription: state, attempts, first attempt, lease. */
async function outbox(hooks: WebhookService, subscriptionId: string) {
  const store = await hooks.store()
  const r = await store.conn.runAndReadAll(
    `SELECT event_id::VARCHAR AS event_id, state, attempts, first_attempt_at, next_attempt_at, lease_until
     FROM webhook_outbox WHERE subscription_id = $id::UUID ORDER BY seq`,
    { id: subscriptionId },
  )
  return r.getRowObjectsJS().map((row) => ({
    event_id: String(row.event_id),
    state: String(row.state),
    attempts: Number(row.attempts),
    first_attempt_at: row.first_attempt_at === null ? null : Number(row.first_attempt_at),
    next_attempt_at: Number(row.next_attempt_at),
    lease_until: Number(row.lease_until),
  }))
}

describe('delivery batches', () => {
  it('writes a batch of mixed outcomes in the rounds that claim, each one right', async () => {
    const hooks = await setup()
    const ok = await listen(() => 200)
    const flaky = await listen(() => 503)
    const gone = await listen(() => 410)
    const a = await sub(hooks, ok.url)
    const b = await sub(hooks, flaky.url)
    const c = await sub(hooks, gone.url)
    hooks.configure({
      pollMs: 20,
      retryBaseMs: 3_600_000,
      perSubscription: 1,
      detect: async () => [signal('m1'), signal('m2')],
    })
    const store = await hooks.store()
    const written: number[] = []
    const finishAndClaim = store.finishAndClaim.bind(store)
    store.finishAndClaim = async (outcomes, claim) => {
      if (outcomes.length > 0) written.push(outcomes.length)
      return finishAndClaim(outcomes, claim)
    }
    let alone = 0
    const finish = store.finish.bind(store)
    store.finish = async (outcomes) => {
      alone += outcomes.length
      return finish(outcomes)
    }
    await hooks.start()
    expect(await hooks.detectNow(D.acme1)).toBe(6)
    // ok: both delivered; flaky: both tried once, retried in an hour; gone: one request, then disabled.
    const settled = async () =>
      (await hooks.deliveries(a.id)).length === 2 &&
      (await hooks.deliveries(b.id)).length === 2 &&
      (await hooks.deliveries(c.id)).length === 2
    expect(await until(settled, 10_000)).toBe(true)
    expect(ok.requests).toHaveLength(2)
    expect(flaky.requests).toHaveLength(2)
    expect(gone.requests).toHaveLength(1)
    // Written by the loop's rounds (with their claims), never alone.
    expect(alone).toBe(0)
    expect(written.reduce((x, y) => x + y, 0)).toBe(6)
    const okRows = await outbox(hooks, a.id)
    expect(okRows.map((r) => [r.state, r.attempts, r.lease_until])).toEqual([
      ['delivered', 1, 0],
      ['delivered', 1, 0],
    ])
    const flakyRows = await outbox(hooks, b.id)
    const now = Date.now()
    for (const r of flakyRows) {
      expect([r.state, r.attempts, r.lease_until]).toEqual(['pending', 1, 0])
      expect(r.first_attempt_at).not.toBeNull()
      expect(r.next_attempt_at).toBeGreaterThan(now + 1_000_000)
    }
    expect((await hooks.deliveries(b.id)).map((d) => [d.status_code, d.outcome])).toEqual([
      [503, 'retry'],
      [503, 'retry'],
    ])
    // The second event of the 410 subscription was claimed with the first: failed untried.
    const goneLog = await hooks.deliveries(c.id)
    expect(new Set(goneLog.map((d) => `${d.status_code} ${d.outcome}`))).toEqual(
      new Set(['410 disabled', 'null failed']),
    )
    expect((await outbox(hooks, c.id)).map((r) => r.state)).toEqual(['failed', 'failed'])
    expect((await hooks.get(c.id))!.disabled_at).not.toBeNull()
  })

  it('claims at most a share per subscription, and nothing for one whose queue is full', async () => {
    const hooks = await setup()
    const hang = await listen(() => 'hang')
    const ok = await listen(() => 200)
    const busy = await sub(hooks, hang.url)
    const store = await hooks.store()
    // 256 claimed ahead per subscription (4 x 64), 512 in a round (concurrency 8).
    hooks.configure({ perSubscription: 4, concurrency: 8, timeoutMs: 60_000 })
    const team = { id: D.acme1, team_id: T.acme }
    const older = Array.from({ length: 600 }, (_, i) => signal(`old-${i}`))
    expect(await store.recordSignals(team, older, Date.now() - 60_000)).toBe(600)
    const quiet = await sub(hooks, ok.url)
    // The quiet subscription's events are the newest: a round without a share per subscription
    // would fill its 512 with the busy one's.
    await store.recordSignals(team, [signal('new-1'), signal('new-2')], Date.now())
    const worker = await hooks.worker()
    expect(await worker.tick()).toBe(256 + 2)
    expect(await until(() => hooks.counters.deliveries.delivered === 2)).toBe(true)
    const leased = (rows: Awaited<ReturnType<typeof outbox>>) => rows.filter((r) => r.lease_until > 0)
    expect(leased(await outbox(hooks, busy.id))).toHaveLength(256)
    // The busy subscription has 256 queued or in flight: the next round claims none of its events
    // (it writes the quiet one's outcomes).
    expect(await worker.tick()).toBe(0)
    expect((await outbox(hooks, quiet.id)).map((r) => r.state)).toEqual(['delivered', 'delivered'])
    expect(leased(await outbox(hooks, busy.id))).toHaveLength(256)
    expect(await until(() => hang.requests.length === 4)).toBe(true)
    expect(new Set(hang.requests.map((q) => q.headers['visibility-event-id'])).size).toBe(4)
  })

  it("starts an event's retry window at its first attempt, not at its claim", async () => {
    const hooks = await setup()
    let now = Date.parse('2026-11-20T00:00:00Z')
    // Each request takes an hour of the fake clock; the events wait their turn in the queue.
    const r = await listen(() => {
      now += 3_600_000
      return 500
    })
    const created = await sub(hooks, r.url)
    hooks.configure({
      clock: () => now,
      perSubscription: 1,
      retryBaseMs: 10 * 3_600_000,
      retryForMs: 90 * 60_000,
      random: () => 0.5,
      detect: async () => [signal('w1'), signal('w2'), signal('w3')],
    })
    const claimedAt = now
    await hooks.detectNow(D.acme1)
    // One round claims the three; each waits for the one before it, then the next round finds none due.
    await (await hooks.worker()).drain()
    expect(r.requests).toHaveLength(3)
    // Claimed together at `claimedAt`; the third's first attempt began two hours later. Counted
    // from the claim its 90-minute window would be over already (failed); it is not.
    const log = await hooks.deliveries(created.id)
    expect(log.map((d) => d.outcome)).toEqual(['retry', 'retry', 'retry'])
    const rows = await outbox(hooks, created.id)
    expect(rows.map((x) => x.first_attempt_at! - claimedAt)).toEqual([0, 3_600_000, 7_200_000])
  })
})
