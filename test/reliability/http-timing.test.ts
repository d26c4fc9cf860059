/**
 * Refusal timing (issue item 6): an unknown key, a key with a known prefix and a wrong secret, a
 * revoked key and a token without the key prefix are refused in the same time. Measured over a
 * keep-alive connection to the service in this process, in rounds of one request per category in
 * a random order; each time is taken relative to its round's median (paired samples: a slow spell
 * of a shared machine moves a whole round and cancels), and the medians of those offsets over
 * 3 000 rounds (VA_LONG=1: 10 000; VA_TIMING_N overrides) must lie within BOUND_MS.
 *
 * Control: the same measurement against an engine that spends 0.3 ms more on keys with a known
 * prefix (what a lookup by prefix cost before) sees the difference.
 */
import { randomBytes } from 'node:crypto'
import { Agent, request } from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer } from '../../src/http/index.js'
import type { Engine } from '../../src/index.js'
import { median } from './http-child.js'
import { ROUTES, makeTenants, type Tenants } from './http-setup.js'

const LONG = process.env.VA_LONG === '1'
const N = Number(process.env.VA_TIMING_N ?? (LONG ? 10_000 : 3_000))
const SEED = Number(process.env.VA_SEED ?? 66)
/** Largest difference accepted between the categories' median offsets from their round's median. */
const BOUND_MS = 0.1

let t: Tenants
const figures: string[] = []
beforeAll(async () => {
  t = await makeTenants()
})
afterAll(async () => {
  await t?.engine.close()
  for (const f of figures) console.log(`[reliability] ${f}`)
})

const randomSecret = () => randomBytes(24).toString('base64url')

/** Secrets per category, each sent once. */
function categories(known: string, revoked: string): Record<string, () => string> {
  const prefix = known.slice(0, 'va_live_'.length + 4)
  return {
    'unknown prefix': () => `va_live_${randomSecret()}`,
    'known prefix, wrong secret': () => `${prefix}${randomSecret().slice(4)}`,
    revoked: () => revoked,
    'no key prefix': () => `sk_${randomSecret()}xxxxx`,
  }
}

/** Milliseconds per request for each category, `n` each, interleaved in a seeded random order. */
async function measure(engine: Engine, cats: Record<string, () => string>, n: number) {
  const server = await startServer({ engine, port: 0, signals: [], closeEngine: false, logger: false })
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  // every route of the endpoint table in turn (the refusal comes before the route matters)
  const urls = ROUTES.map((e) => new URL(e.path, server.url))
  let sent = 0
  const once = (secret: string) =>
    new Promise<number>((done, fail) => {
      const t0 = performance.now()
      const req = request(
        urls[sent++ % urls.length]!,
        { agent, headers: { authorization: `Bearer ${secret}` } },
        (res) => {
          res.resume()
          res.on('end', () =>
            res.statusCode === 401 ? done(performance.now() - t0) : fail(new Error(`${res.statusCode}`)),
          )
        },
      )
      req.on('error', fail)
      req.end()
    })
  const names = Object.keys(cats)
  const order = fc.sample(fc.shuffledSubarray(names, { minLength: names.length }), { numRuns: n, seed: SEED })
  // Paired samples: each round times every category once, back to back, and each time is taken
  // relative to the round's own median, so a slow spell of the shared machine (which moves every
  // category of a round alike) cancels; the medians of these differences are compared.
  const paired: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]))
  const raw: number[] = []
  try {
    for (let i = 0; i < 300; i++) await once(cats[names[i % names.length]!]!()) // warm-up
    for (const round of order) {
      const times: Record<string, number> = {}
      for (const name of round) times[name] = await once(cats[name]!())
      const mid = median(Object.values(times))
      for (const name of names) paired[name]!.push(times[name]! - mid)
      raw.push(...Object.values(times))
    }
  } finally {
    agent.destroy()
    await server.close()
  }
  return {
    offsets: Object.fromEntries(names.map((k) => [k, median(paired[k]!)])) as Record<string, number>,
    typical: median(raw),
  }
}

const spread = ({ offsets: medians }: { offsets: Record<string, number> }) =>
  Math.max(...Object.values(medians)) - Math.min(...Object.values(medians))
const show = ({ offsets, typical }: { offsets: Record<string, number>; typical: number }) =>
  `typical ${(typical * 1000).toFixed(0)} us; offsets from the round's median: ${Object.entries(offsets)
    .map(([k, v]) => `${k} ${(v * 1000).toFixed(0)} us`)
    .join(', ')}`

describe('refusal timing', () => {
  it(`unknown, known prefix with a wrong secret, revoked and unprefixed keys: median offsets over ${N} paired rounds within ${BOUND_MS} ms`, async () => {
    const known = [...t.keys.values()][0]!.secret
    const medians = await measure(t.engine, categories(known, t.revoked), N)
    figures.push(
      `refusal timing, ${N} requests each: ${show(medians)}; spread ${(spread(medians) * 1000).toFixed(0)} us`,
    )
    expect(spread(medians)).toBeLessThan(BOUND_MS)
  }, 300_000)

  it('control: 0.3 ms more for a known prefix is seen', async () => {
    const known = [...t.keys.values()][0]!.secret
    const prefix = known.slice(0, 'va_live_'.length + 4)
    const slowed = new Proxy(t.engine, {
      get(target, name) {
        if (name !== 'verifyApiKey') {
          const value = Reflect.get(target, name, target) as unknown
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
        }
        return async (secret: string) => {
          if (secret.startsWith(prefix)) for (const end = performance.now() + 0.3; performance.now() < end;);
          return target.verifyApiKey(secret)
        }
      },
    })
    const n = Math.min(N, 1_000)
    const medians = await measure(slowed, categories(known, t.revoked), n)
    figures.push(`control (0.3 ms more for a known prefix), ${n} requests each: ${show(medians)}`)
    expect(spread(medians)).toBeGreaterThan(BOUND_MS)
  }, 120_000)
})
