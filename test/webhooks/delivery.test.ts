/**
 * Detection, outbox and delivery with real receivers on 127.0.0.1: the body and signature a
 * receiver verifies, retries with backoff then delivery, 410, a hanging receiver beside a healthy
 * one (and ingest and reads meanwhile), one event per (signal, subscription) whatever the
 * detections, detection after commits (debounced), the URL guard again at delivery (DNS
 * rebinding), and the outbox bounded after a week of failures on a fake clock.
 */
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { WebhookService } from '../../src/index.js'
import { analysis, prompt } from '../support/records.js'
import { D, T, hooksPerTest, signal, until } from './support.js'

const t = hooksPerTest()
const { setup, listen } = t

const sub = (
  hooks: WebhookService,
  url: string,
  domain_ids: string[] | null = null,
  team_id: string = T.acme,
) => hooks.create({ team_id, url, events: ['signal.created'], domain_ids })

/** The receiver's verification, as docs/WEBHOOKS.md shows it. */
function verify(secret: string, header: string, body: string): boolean {
  const { t, v1 } = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]))
  const mac = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')
  return mac === v1
}

describe('delivery', () => {
  it('POSTs the exact body with the event id and a signature the receiver verifies', async () => {
    const hooks = await setup()
    const r = await listen()
    const created = await sub(hooks, r.url)
    hooks.configure({ detect: async () => [signal('sig-a', { entity_id: 'x' })] })
    expect(await hooks.detectNow(D.acme1)).toBe(1)
    const worker = await hooks.worker()
    await worker.drain()
    expect(r.requests).toHaveLength(1)
    const req = r.requests[0]!
    expect(req.method).toBe('POST')
    expect(req.url).toBe('/hook')
    expect(req.headers['content-type']).toBe('application/json')
    const body = JSON.parse(req.body)
    expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'data'])
    expect(body).toMatchObject({ type: 'signal.created', data: signal('sig-a', { entity_id: 'x' }) })
    expect(req.headers['visibility-event-id']).toBe(body.id)
    const header = String(req.headers['visibility-signature'])
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    expect(verify(created.secret, header, req.body)).toBe(true)
    expect(verify(`${created.secret}x`, header, req.body)).toBe(false)
    expect(verify(created.secret, header, req.body.replace('sig-a', 'sig-b'))).toBe(false)
    const t = Number(/t=(\d+)/.exec(header)![1])
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60)
    const log = await hooks.deliveries(created.id)
    expect(log).toMatchObject([
      { event_id: body.id, attempt: 1, status_code: 200, error: null, outcome: 'delivered' },
    ])
    expect(hooks.counters).toMatchObject({ eventsCreated: 1, deliveries: { delivered: 1 } })
  })

  it('retries with growing delays, then delivers, keeping the event id', async () => {
    const hooks = await setup()
    const r = await listen((_req, n) => (n <= 3 ? 503 : 200))
    const created = await sub(hooks, r.url)
    hooks.configure({ retryBaseMs: 100, pollMs: 20, detect: async () => [signal('sig-r')] })
    await hooks.start()
    await hooks.detectNow(D.acme1)
    expect(await until(() => r.requests.length === 4, 10_000)).toBe(true)
    const ids = new Set(r.requests.map((q) => q.headers['visibility-event-id']))
    expect(ids.size).toBe(1)
    const gaps = r.requests.slice(1).map((q, i) => q.at - r.requests[i]!.at)
    // First retry 0.5-1.5 x base after the first attempt, then about twice as late each time.
    expect(gaps[0]).toBeGreaterThanOrEqual(45)
    expect(gaps[0]).toBeLessThan(1000)
    expect(gaps[1]).toBeGreaterThanOrEqual(95)
    expect(gaps[2]).toBeGreaterThanOrEqual(195)
    expect(await until(async () => (await hooks.deliveries(created.id))[0]?.outcome === 'delivered')).toBe(
      true,
    )
    const log = await hooks.deliveries(created.id)
    expect(log.map((d) => [d.attempt, d.status_code, d.outcome])).toEqual([
      [4, 200, 'delivered'],
      [3, 503, 'retry'],
      [2, 503, 'retry'],
      [1, 503, 'retry'],
    ])
  })

  it('fails an event after the retry window', async () => {
    const hooks = await setup()
    const r = await listen(() => 500)
    const created = await sub(hooks, r.url)
    let now = Date.parse('2026-11-20T00:00:00Z')
    hooks.configure({
      clock: () => now,
      retryBaseMs: 10_000,
      random: () => 0.5,
      detect: async () => [signal('s')],
    })
    await hooks.detectNow(D.acme1)
    const worker = await hooks.worker()
    // Attempts at 0, 10 s, 30 s, 70 s, ... (doubling); after 24 h since the first, failed.
    for (let i = 0; i < 16; i++) {
      await worker.drain()
      now += 2 ** Math.min(i, 20) * 10_000
    }
    const log = await hooks.deliveries(created.id, 1000)
    expect(log[0]!.outcome).toBe('failed')
    expect(log.filter((d) => d.outcome === 'failed')).toHaveLength(1)
    const firstAt = Date.parse(log.at(-1)!.at)
    expect(Date.parse(log[0]!.at) - firstAt).toBeGreaterThanOrEqual(86_400_000)
    expect(Date.parse(log[1]!.at) - firstAt).toBeLessThan(86_400_000)
    expect(r.requests.length).toBe(log.length)
  })

  it('disables a subscription on 410 and sends it nothing more', async () => {
    const hooks = await setup()
    const gone = await listen(() => 410)
    const created = await sub(hooks, gone.url)
    hooks.configure({ detect: async () => [signal('s1'), signal('s2')] })
    await hooks.detectNow(D.acme1)
    const worker = await hooks.worker()
    hooks.configure({ perSubscription: 1 })
    await worker.drain()
    expect(gone.requests).toHaveLength(1)
    const [shown] = await hooks.list()
    expect(shown).toMatchObject({ id: created.id, disabled_reason: 'the receiver answered 410 Gone' })
    expect(shown!.disabled_at).not.toBeNull()
    hooks.configure({ detect: async () => [signal('s3')] })
    expect(await hooks.detectNow(D.acme1)).toBe(0)
    await worker.drain()
    expect(gone.requests).toHaveLength(1)
    expect((await hooks.queue()).pending).toBe(0)
  })

  it('a receiver that never answers delays neither another receiver nor ingest nor reads', async () => {
    const hooks = await setup()
    const hang = await listen(() => 'hang')
    const ok = await listen(() => 200)
    await sub(hooks, hang.url)
    await sub(hooks, ok.url)
    hooks.configure({
      timeoutMs: 30_000,
      pollMs: 20,
      detect: async () => [signal('h1'), signal('h2'), signal('h3')],
    })
    await hooks.start()
    await hooks.detectNow(D.acme1)
    expect(await until(() => ok.requests.length === 3, 5000)).toBe(true)
    // The hanging receiver holds its attempts (30 s timeout) while ingest and reads go on.
    expect(hang.requests.length).toBeGreaterThan(0)
    const p = '30000000-0000-4000-8000-0000000000f1'
    await t.engine().ingest([
      prompt({ id: p, domain_id: D.acme1 }),
      analysis({
        domain_id: D.acme1,
        prompt_id: p,
        answered_at: '2026-11-19T10:00:00Z',
        mentions: [],
        themes: [],
      }),
    ])
    const list = await t.engine().computePromptList({ domainId: D.acme1, page: 1, size: 10 })
    expect(list.data.items.length).toBeGreaterThan(0)
    expect(hang.requests.every((q) => Date.now() - q.at < 30_000)).toBe(true)
    // Never two deliveries of one event to one subscription at once: each held event arrived once.
    await new Promise((res) => setTimeout(res, 200))
    const held = hang.requests.map((q) => q.headers['visibility-event-id'])
    expect(new Set(held).size).toBe(held.length)
  })

  it('never creates a second event for a signal already sent; a new signal gets one', async () => {
    const hooks = await setup()
    const r = await listen()
    const a = await sub(hooks, r.url)
    const b = await sub(hooks, r.url, [D.acme1])
    await sub(hooks, r.url, [D.acme2])
    await sub(hooks, r.url, null, T.globex)
    let signals = [signal('one'), signal('two')]
    hooks.configure({ detect: async () => signals })
    expect(await hooks.detectNow(D.acme1)).toBe(4)
    expect(await hooks.detectNow(D.acme1)).toBe(0)
    signals = [signal('one', { visibility_delta: 9 }), signal('two'), signal('three')]
    expect(await hooks.detectNow(D.acme1)).toBe(2)
    await (await hooks.worker()).drain()
    expect(r.requests).toHaveLength(6)
    const bySub = (id: string) => hooks.deliveries(id)
    expect(new Set((await bySub(a.id)).map((d) => d.event_id)).size).toBe(3)
    expect(new Set((await bySub(b.id)).map((d) => d.event_id)).size).toBe(3)
    const pairs = r.requests.map((q) => JSON.parse(q.body) as { id: string; data: { id: string } })
    expect(new Set(pairs.map((x) => x.id)).size).toBe(6)
  })

  it('runs detection after commits, at most once per domain per interval', async () => {
    const hooks = await setup()
    const r = await listen()
    await sub(hooks, r.url)
    const calls: string[] = []
    hooks.configure({
      signalsIntervalS: 1.5,
      pollMs: 20,
      detect: async (d) => {
        calls.push(d)
        return [signal(`c${calls.length}`)]
      },
    })
    await hooks.start()
    const p = '30000000-0000-4000-8000-0000000000f2'
    const commit = (day: string) =>
      t.engine().ingest([
        prompt({ id: p, domain_id: D.acme1 }),
        analysis({
          domain_id: D.acme1,
          prompt_id: p,
          answered_at: `${day}T10:00:00Z`,
          mentions: [],
          themes: [],
        }),
      ])
    await commit('2026-11-17')
    expect(await until(() => calls.length === 1)).toBe(true)
    await commit('2026-11-18')
    const scheduled = Date.now()
    await commit('2026-11-19')
    // Two commits within the interval: no detection yet (unless the machine took the interval).
    if (Date.now() - scheduled < 1000) expect(calls).toHaveLength(1)
    expect(await until(() => calls.length === 2, 5000)).toBe(true)
    await new Promise((res) => setTimeout(res, 500))
    expect(calls).toEqual([D.acme1, D.acme1])
    expect(await until(() => r.requests.length === 2)).toBe(true)
  })

  it('checks the URL again at delivery and connects to the address it checked', async () => {
    const hooks = await setup()
    const r = await listen()
    let answer = '93.184.216.34'
    hooks.configure({
      allowPrivate: false,
      retryBaseMs: 1,
      resolve: async () => [{ address: answer, family: 4 }],
      detect: async () => [signal('x')],
    })
    const created = await sub(hooks, `http://hooks.example:${r.port}/hook`)
    // The name now resolves to loopback (rebinding): refused at delivery, nothing sent.
    answer = '127.0.0.1'
    await hooks.detectNow(D.acme1)
    const worker = await hooks.worker()
    await worker.drain()
    expect(r.requests).toHaveLength(0)
    const [first] = await hooks.deliveries(created.id)
    expect(first).toMatchObject({ status_code: null, outcome: 'retry' })
    expect(first!.error).toContain(
      'refused: url: the host hooks.example resolves to a loopback address (127.0.0.1).',
    )
    // Allowed private: the connection goes to the checked address, the Host header keeps the name.
    hooks.configure({ allowPrivate: true })
    await new Promise((res) => setTimeout(res, 20))
    await worker.drain()
    expect(r.requests).toHaveLength(1)
    expect(r.requests[0]!.headers.host).toBe(`hooks.example:${r.port}`)
  })

  it.each([
    'http://127.0.0.1:1/x',
    'http://2130706433:1/',
    'http://0x7f.1:1/',
    'http://[::1]:1/',
    'http://[::ffff:127.0.0.1]:1/',
    'http://10.0.0.1:1/',
    'http://169.254.169.254/',
  ])('refuses %s at delivery when private addresses are not allowed', async (url) => {
    const hooks = await setup()
    const created = await sub(hooks, 'https://93.184.216.34/x')
    // The stored URL is changed behind the guard's back (an older row, another process).
    const store = await hooks.store()
    await store.conn.run('UPDATE webhook_subscriptions SET url = $url WHERE id = $id::UUID', {
      url,
      id: created.id,
    })
    hooks.configure({ allowPrivate: false, detect: async () => [signal('x')] })
    await hooks.detectNow(D.acme1)
    await (await hooks.worker()).drain()
    const [first] = await hooks.deliveries(created.id)
    expect(first!.error).toMatch(/^refused: url: the host is a/)
  })

  it('keeps the outbox and the log bounded over a week of failures (fake clock)', async () => {
    const hooks = await setup()
    const r = await listen(() => 500)
    await sub(hooks, r.url)
    await sub(hooks, r.url, [D.acme1])
    let now = Date.parse('2026-11-01T00:00:00Z')
    let hour = 0
    hooks.configure({
      clock: () => now,
      retryBaseMs: 600_000,
      retryForMs: 6 * 3_600_000,
      retentionMs: 86_400_000,
      maxRows: 150,
      random: () => 0.5,
      detect: async () => [signal(`h${hour}a`), signal(`h${hour}b`)],
    })
    const worker = await hooks.worker()
    const store = await hooks.store()
    const sizes: number[] = []
    for (hour = 0; hour < 7 * 24; hour += 3) {
      await hooks.detectNow(D.acme1)
      await worker.drain()
      now += 3 * 3_600_000
      const q = await store.queue()
      sizes.push(q.rows + q.logRows)
      expect(q.rows).toBeLessThanOrEqual(150 + 4 * 7)
      expect(q.logRows).toBeLessThanOrEqual(150 + 4 * 7 * 3)
    }
    expect(hooks.counters.eventsCreated).toBe(4 * 7 * 8)
    expect(hooks.counters.deliveries.failed).toBeGreaterThan(150)
    // Steady after the first day: no growth over the last six days.
    expect(Math.max(...sizes.slice(16))).toBeLessThanOrEqual(Math.max(...sizes.slice(8, 16)) + 40)
  }, 60_000)
})
