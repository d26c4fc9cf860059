/**
 * The webhook metrics on /metrics of a server that runs the webhooks: events created, deliveries
 * by outcome, queue depth and the oldest pending event's age.
 */
import { expect, it } from 'vitest'
import { buildServer } from '../../src/http/index.js'
import { ADMIN_TOKEN } from '../http/helpers.js'
import { D, T, engineWithHooks, receiver, signal, until } from './support.js'

const metric = (text: string, name: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(name))
  return line === undefined ? Number.NaN : Number(line.split(' ').at(-1))
}

it('counts events, deliveries by outcome, the queue and its oldest age', async () => {
  const { engine, hooks } = await engineWithHooks()
  const ok = await receiver(() => 200)
  const down = await receiver(() => 500)
  const app = await buildServer({
    engine,
    adminToken: ADMIN_TOKEN,
    logger: false,
    webhooks: { allowPrivate: true, pollMs: 20, retryBaseMs: 60_000 },
  })
  try {
    await app.ready()
    await hooks.create({ team_id: T.acme, url: ok.url, events: ['signal.created'], domain_ids: null })
    await hooks.create({ team_id: T.acme, url: down.url, events: ['signal.created'], domain_ids: null })
    hooks.configure({ detect: async () => [signal('m1'), signal('m2')] })
    await hooks.detectNow(D.acme1)
    expect(await until(() => ok.requests.length === 2 && down.requests.length === 2)).toBe(true)
    expect(await until(() => hooks.counters.deliveries.retry === 2)).toBe(true)
    const scrape = async () =>
      (await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).body
    await new Promise((r) => setTimeout(r, 1100))
    const text = await scrape()
    expect(metric(text, 'va_webhook_events_created_total')).toBe(4)
    expect(metric(text, 'va_webhook_deliveries_total{outcome="delivered"}')).toBe(2)
    expect(metric(text, 'va_webhook_deliveries_total{outcome="retry"}')).toBe(2)
    expect(metric(text, 'va_webhook_queue_depth')).toBe(2)
    expect(metric(text, 'va_webhook_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(1)
    // Counters are not counted twice by a second scrape.
    expect(metric(await scrape(), 'va_webhook_events_created_total')).toBe(4)
  } finally {
    await app.close()
    await engine.close()
    await ok.close()
    await down.close()
  }
})
