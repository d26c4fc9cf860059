/**
 * The engine's own detector end to end (docs/WEBHOOKS.md): a commit whose data makes a signal of
 * GET /api/v1/signals (default parameters, today's date) becomes a signed `signal.created` event at
 * a real receiver on 127.0.0.1, its `data` the signal exactly as the report lists it; the same
 * data ingested again makes no new event (same signal id).
 */
import { createHmac } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import type { Engine } from '../../src/index.js'
import { analysis, prompt } from '../support/records.js'
import { D, T, engineWithHooks, receiver, until, type Receiver } from './support.js'

let engine: Engine | undefined
let r: Receiver | undefined
afterEach(async () => {
  await engine?.close()
  engine = undefined
  await r?.close()
  r = undefined
})

const P = '30000000-0000-4000-8000-0000000000e5'
const DAY_MS = 86_400_000

/**
 * 40 analyses in each of the two 7-day periods ending today (UTC): the brand in 10 of the
 * baseline's and 30 of the current's (25% -> 75%, p ~ 8e-6: a `high` signal).
 */
function records(): Parameters<Engine['ingest']>[0] {
  const today = Math.floor(Date.now() / DAY_MS)
  const out: ReturnType<typeof analysis>[] = []
  for (const [period, brand] of [
    [1, 10],
    [0, 30],
  ] as const) {
    for (let i = 0; i < 40; i++) {
      const day = new Date((today - period * 7 - (i % 7)) * DAY_MS).toISOString().slice(0, 10)
      out.push(
        analysis({
          id: `40000000-0000-4000-8000-${String(period * 100 + i).padStart(12, '0')}`,
          domain_id: D.acme1,
          prompt_id: P,
          channel: 'chatgpt',
          answered_at: `${day}T00:00:00Z`,
          mentions: i < brand ? [{ entity_id: 'brand', position: 1, sentiment: null }] : [],
          themes: [],
        }),
      )
    }
  }
  return [prompt({ id: P, domain_id: D.acme1 }), ...out]
}

describe('detection with the engine computing the signals', () => {
  it('a commit that makes a signal sends it once, signed, as GET /api/v1/signals lists it', async () => {
    const made = await engineWithHooks()
    engine = made.engine
    const hooks = made.hooks
    r = await receiver()
    const sub = await hooks.create({
      team_id: T.acme,
      url: r.url,
      events: ['signal.created'],
      domain_ids: [D.acme1],
    })
    hooks.configure({ signalsIntervalS: 0, pollMs: 20 })
    await hooks.start()

    await engine.ingest(records())
    const expected = (await engine.computeSignals({ domainId: D.acme1 })).data.items
    expect(expected.length).toBeGreaterThan(0)
    expect(await until(() => r!.requests.length === expected.length, 10_000)).toBe(true)

    const received = r.requests.map((q) => {
      const { t, v1 } = Object.fromEntries(
        String(q.headers['visibility-signature'])
          .split(',')
          .map((p) => p.split('=') as [string, string]),
      )
      expect(createHmac('sha256', sub.secret).update(`${t}.${q.body}`).digest('hex')).toBe(v1)
      return JSON.parse(q.body) as { id: string; type: string; data: { id: string } }
    })
    for (const event of received) {
      expect(event.type).toBe('signal.created')
      // The signal exactly as the report gives it: same values, same key order.
      const signal = expected.find((s) => s.id === event.data.id)
      expect(JSON.stringify(event.data)).toBe(JSON.stringify(signal))
    }
    expect(new Set(received.map((e) => e.data.id))).toEqual(new Set(expected.map((s) => s.id)))
    const brandAll = received.find((e) => JSON.stringify(e.data).includes('"kind":"all"'))
    expect(brandAll?.data).toMatchObject({ is_brand: true, tier: 'high', direction: 'up' })

    // The same data again: a commit, a detection, the same signal ids: no new event.
    const before = hooks.counters.eventsCreated
    await engine.ingest(records())
    expect(await hooks.detectNow(D.acme1)).toBe(0)
    await new Promise((res) => setTimeout(res, 300))
    expect(hooks.counters.eventsCreated).toBe(before)
    expect(hooks.counters.detectionErrors).toBe(0)
    expect(r.requests).toHaveLength(expected.length)
  })
})
