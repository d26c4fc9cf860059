/**
 * HTTP fuzzing through inject(): generated requests for every route of the endpoint table, with
 * the row's parameters (valid values derived from each parameter's rule, odd and repeated ones),
 * huge query strings, SQL and path-traversal payloads in every parameter, odd paths, methods and
 * headers. Zero 5xx; every non-2xx is JSON with a `detail` string; no DuckDB text, SQL or stack
 * trace in any body; every route of the table fuzzed (a route left out fails the coverage test).
 *
 * Default 100 requests per route; VA_LONG=1 runs 3 000 (VA_HTTP_RUNS overrides).
 */
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../../src/http/index.js'
import {
  LEAK,
  ROUTES,
  makeTenants,
  missingRoutes,
  validValues,
  type Endpoint,
  type Tenants,
} from './http-setup.js'

const LONG = process.env.VA_LONG === '1'
const RUNS = Number(process.env.VA_HTTP_RUNS ?? (LONG ? 3_000 : 100))
const SEED = Number(process.env.VA_SEED ?? 4242)

const SQL = [
  "' OR '1'='1",
  "'; DROP TABLE analyses; --",
  '1; SELECT * FROM api_keys',
  '1 UNION SELECT key_hash FROM api_keys --',
  "all' AND read_csv('/etc/passwd') IS NOT NULL --",
  '$1',
  '${domain_id}',
  '\\x27',
]
const TRAVERSAL = [
  '../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e/%2e%2e/etc/passwd',
  '/etc/passwd',
  '....//....//etc/passwd',
  'file:///etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00',
  '%c0%ae%c0%ae/',
]
const NUMBERS = [
  '0',
  '-1',
  '1',
  '30',
  '365',
  '366',
  '100',
  '101',
  '1.5',
  ' 7',
  '7 ',
  '0x10',
  '007',
  '1e2',
  'NaN',
  'Infinity',
  '',
  '9'.repeat(400),
  '-0',
  '+5',
  '٣',
]
const MODELS = [
  'all',
  'ALL',
  'chatgpt',
  'perplexity',
  'gpt-4o-2024-08-06',
  'm'.repeat(101),
  'a b',
  'claude/3:5@x+y-z_',
  '',
]
const ODD_NAMES = [
  'domain_id[]',
  'days[$gt]',
  'domain_id[0]',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'DOMAIN_ID',
  'domain_id ',
  'api_key',
  'now',
  'x'.repeat(2000),
]

let t: Tenants
let app: FastifyInstance
const tally = { requests: 0, byStatus: {} as Record<string, number>, routes: new Set<string>() }

beforeAll(async () => {
  t = await makeTenants()
  app = await buildServer({
    engine: t.engine,
    rateLimit: { limit: 1_000_000_000, windowSeconds: 60 },
    logger: false,
  })
  await app.ready()
})

afterAll(async () => {
  await app?.close()
  await t?.engine.close()
  if (tally.requests)
    console.log(
      `[reliability] http fuzz: ${JSON.stringify({ ...tally, routes: tally.routes.size })} over ${ROUTES.length} routes`,
    )
})

function requestArb(t: Tenants, endpoint: Endpoint) {
  const domains = [...t.domains.keys()]
  const keys = [...t.keys.values()].map((k) => k.secret)
  const valid = Object.values(validValues(endpoint)).flat()
  const names = ['domain_id', ...Object.keys(endpoint.params).filter((n) => n !== 'domain_id')]
  const value = fc.oneof(
    ...(valid.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...valid) }] : []),
    { weight: 3, arbitrary: fc.constantFrom(...domains, ...domains.map((d) => d.toUpperCase())) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 3, arbitrary: fc.constantFrom(...SQL, ...TRAVERSAL) },
    { weight: 3, arbitrary: fc.constantFrom(...NUMBERS, ...MODELS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1000, max: 70_000 }).map((n) => 'A'.repeat(n)) },
  )
  const name = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...names) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_NAMES) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 10 }) },
  )
  const auth = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...keys).map((k) => `Bearer ${k}`) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${t.revoked}`) },
    { weight: 1, arbitrary: fc.constantFrom(...keys).map((k) => `bearer   ${k}  `) },
    { weight: 1, arbitrary: fc.constantFrom(...keys).map((k) => `Bearer ${k}x`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'Bearer',
        'Bearer ',
        'Basic dXNlcjpwYXNz',
        `Bearer ${'k'.repeat(600)}`,
        "Bearer ' OR 1=1 --",
        'Bearer va_live_',
        `Bearer ${keys[0]}, Bearer ${keys[1]}`,
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((s) => `Bearer ${s}`) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  )
  const { path } = endpoint
  const parent = path.slice(0, path.lastIndexOf('/'))
  return fc.record({
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constant('GET') },
      { weight: 1, arbitrary: fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') },
    ),
    path: fc.oneof(
      { weight: 12, arbitrary: fc.constant(path) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          `${path}/`,
          path.toUpperCase(),
          `/${path}`,
          `${path}/../../../etc/passwd`,
          `${path}%00`,
          `${path};x=1`,
          `${path}/..%2f..%2f..%2fetc%2fpasswd`,
          `${parent}/../../etc/passwd`,
          '/%2e%2e/%2e%2e/etc/passwd',
          parent,
          path.replace(/\/v1\//, '/v2/'),
        ),
      },
    ),
    params: fc.array(fc.tuple(name, value, fc.boolean()), { maxLength: 8 }),
    auth,
    requestId: fc.option(
      fc.oneof(
        fc.uuid(),
        fc.string({ maxLength: 40 }),
        fc.constant('x'.repeat(5000)),
        fc.constant("'; DROP TABLE x; --"),
      ),
      { nil: undefined },
    ),
    extraHeaders: fc.dictionary(
      fc.constantFrom(
        'accept',
        'content-type',
        'x-forwarded-for',
        'cookie',
        'accept-encoding',
        'x-api-key',
        'origin',
        'range',
      ),
      fc.string({ maxLength: 60 }),
      { maxKeys: 4 },
    ),
    body: fc.option(fc.constantFrom('{"domain_id":"x"}', "' OR 1=1", 'x'.repeat(10_000)), { nil: undefined }),
  })
}

/** Printable ASCII only in headers (what a real HTTP parser lets through). */
const headerSafe = (s: string) => s.replace(/[^\x20-\x7e]/g, '?')

function encode(s: string, raw: boolean): string {
  return raw && /^[\x21-\x7e]*$/.test(s) && !/[#&]/.test(s) ? s : encodeURIComponent(s)
}

describe('HTTP fuzzing through inject()', () => {
  ROUTES.forEach((endpoint, index) => {
    it(
      `${endpoint.id}: ${RUNS} generated requests, zero 5xx, JSON details, no internals`,
      async () => {
        await fc.assert(
          fc.asyncProperty(requestArb(t, endpoint), async (r) => {
            const qs = r.params.map(([n, v, raw]) => `${encode(n, raw)}=${encode(v, raw)}`).join('&')
            const headers: Record<string, string> = {}
            for (const [k, v] of Object.entries(r.extraHeaders)) headers[k] = headerSafe(v)
            if (r.auth !== undefined) headers.authorization = headerSafe(r.auth)
            if (r.requestId !== undefined) headers['x-request-id'] = headerSafe(r.requestId)
            const res = await app.inject({
              method: r.method,
              url: qs ? `${r.path}?${qs}` : r.path,
              headers,
              ...(r.body !== undefined && r.method !== 'GET' && { payload: r.body }),
            })
            tally.requests++
            if (r.path === endpoint.path) tally.routes.add(endpoint.id)
            tally.byStatus[res.statusCode] = (tally.byStatus[res.statusCode] ?? 0) + 1
            if (res.statusCode >= 500)
              throw new Error(
                `${res.statusCode} for ${r.method} ${r.path}?${qs.slice(0, 200)}: ${res.body.slice(0, 300)}`,
              )
            if (LEAK.test(res.body))
              throw new Error(
                `internal text in the body of ${r.method} ${r.path}?${qs.slice(0, 200)}: ${res.body.slice(0, 300)}`,
              )
            if (res.statusCode >= 300) {
              expect(String(res.headers['content-type'])).toMatch(/^application\/json/)
              const body = JSON.parse(res.body) as { detail?: unknown }
              expect(typeof body.detail).toBe('string')
              expect((body.detail as string).length).toBeLessThan(400)
            }
            if (res.statusCode === 200) expect(() => JSON.parse(res.body)).not.toThrow()
          }),
          { numRuns: RUNS, seed: SEED + index, endOnFailure: true },
        )
      },
      LONG ? 3_600_000 : 120_000,
    )
  })

  it('fuzzed every route of the endpoint table', () => {
    expect(missingRoutes(tally.routes)).toEqual([])
  })
})

describe('the leak detector (control)', () => {
  it('recognizes DuckDB errors, SQL and stack traces', () => {
    for (const text of [
      'Binder Error: Referenced column "x" not found',
      'Parser Error: syntax error at or near "x"',
      'SELECT * FROM analyses',
      'Error: x\n    at f (/app/dist/src/engine.js:1:2)',
      'DuckDB error',
    ])
      expect(LEAK.test(text), text).toBe(true)
    expect(LEAK.test('{"detail":"days must be an integer from 1 to 365."}')).toBe(false)
  })
})
