/**
 * Access through the HTTP service, with random keys and domains (fast-check):
 * - the authorization matrix (docs/API.md, "Order of checks") holds for keys with random scopes and
 *   allowlists on every route of the endpoint table (valid values for the row's other parameters):
 *   zero cross-tenant answers, and a route of the table left out fails the coverage test;
 * - on the sentiment endpoints a foreign domain and a nonexistent one are indistinguishable;
 * - API keys never appear in logs, error bodies or the database file in clear.
 *
 * Default 150 random keys; VA_LONG=1 runs 2000 (VA_ACCESS_RUNS overrides).
 */
import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../../src/http/index.js'
import { openEngine } from '../../src/index.js'
import {
  DETAIL,
  LEAK,
  ROUTES,
  SCOPED,
  expectedAccess,
  makeTenants,
  missingRoutes,
  routeUrl,
  validQuery,
  type Tenants,
} from './http-setup.js'
import { tempDir } from './store.js'

const LONG = process.env.VA_LONG === '1'
const RUNS = Number(process.env.VA_ACCESS_RUNS ?? (LONG ? 2000 : 150))
const SEED = Number(process.env.VA_SEED ?? 777)

const { dir: TMP, cleanup } = tempDir('va-access-')
let t: Tenants
let app: FastifyInstance
let logs = ''
const tally = { keys: 0, requests: 0, answers200: 0, crossTenant200: 0, hiddenPairs: 0 }
const covered = new Set<string>()

beforeAll(async () => {
  t = await makeTenants(join(TMP, 'store.duckdb'))
  app = await buildServer({
    engine: t.engine,
    rateLimit: { limit: 1_000_000_000, windowSeconds: 60 },
    logger: { level: 'trace', stream: { write: (m: string) => void (logs += m) } },
  })
  await app.ready()
})

afterAll(async () => {
  await app?.close()
  if (t?.engine.isOpen) await t.engine.close()
  if (tally.requests)
    console.log(`[reliability] http access: ${JSON.stringify(tally)} over ${covered.size} routes`)
  cleanup()
})

describe('authorization with random keys and domains', () => {
  it(
    `${RUNS} random keys x random domains x every route of the table: the section 8 matrix, zero cross-tenant answers`,
    async () => {
      const teams = [...t.teams.keys()]
      const domains = [...t.domains.keys()]
      const keyArb = fc.record({
        team: fc.constantFrom(...teams),
        scope: fc.subarray(teams),
        allowed: fc.option(fc.subarray([...domains, '20000000-0000-4000-8000-0000000000ff']), { nil: null }),
      })
      const domainArb = fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...domains) },
        { weight: 1, arbitrary: fc.constantFrom(...domains).map((d) => d.toUpperCase()) },
        { weight: 1, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: fc.constantFrom('not-a-uuid', "' OR '1'='1", '../../etc/passwd', '') },
        { weight: 1, arbitrary: fc.constant(undefined) },
      )
      await fc.assert(
        fc.asyncProperty(
          keyArb,
          fc.array(fc.tuple(fc.constantFrom(...ROUTES), domainArb, fc.nat(5)), {
            minLength: 4,
            maxLength: 12,
          }),
          async (k, requests) => {
            const created = await t.engine.createApiKey({
              teamId: k.team,
              scopeTeamIds: [k.team, ...k.scope],
              allowedDomains: k.allowed,
            })
            tally.keys++
            for (const [endpoint, domain, pick] of requests) {
              const url = routeUrl(endpoint, validQuery(endpoint, domain, pick))
              covered.add(endpoint.id)
              const res = await app.inject({ url, headers: { authorization: `Bearer ${created.key}` } })
              tally.requests++
              const want = expectedAccess(t, created.info, endpoint, domain)
              const body = JSON.parse(res.body) as { detail?: string; domain_id?: string }
              if (
                res.statusCode !== want.status ||
                (want.detail !== undefined && body.detail !== want.detail)
              )
                throw new Error(
                  `${url} for key ${JSON.stringify(created.info)}: got ${res.statusCode} ${res.body.slice(0, 200)}, want ${JSON.stringify(want)}`,
                )
              if (res.statusCode === 200 && endpoint.access !== 'none') {
                tally.answers200++
                expect(body.domain_id).toBe(domain!.toLowerCase())
                const owner = t.domains.get(domain!.toLowerCase())!
                if (!created.info.scope_team_ids.includes(owner)) tally.crossTenant200++
              }
              expect(res.body).not.toMatch(LEAK)
            }
          },
        ),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      )
      expect(tally.crossTenant200).toBe(0)
      expect(tally.answers200).toBeGreaterThan(0)
    },
    LONG ? 3_600_000 : 120_000,
  )

  it('asked every route of the endpoint table', () => {
    expect(missingRoutes(covered)).toEqual([])
  })

  it(
    'sentiment endpoints: a foreign domain and a nonexistent one get the same answer',
    async () => {
      const teams = [...t.teams.keys()]
      const domains = [...t.domains.entries()]
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...teams.filter((x) => t.teams.get(x)!.dev)),
          fc.uuid(),
          fc.constantFrom(...SCOPED.filter((e) => e.access === 'sentiment')),
          fc.nat(5),
          async (team, ghost, endpoint, pick) => {
            const key = t.keys.get(team)!.secret
            const foreign = domains.find(([, owner]) => owner !== team)![0]
            if (t.domains.has(ghost)) return
            const ask = (d: string) =>
              app.inject({
                url: routeUrl(endpoint, validQuery(endpoint, d, pick)),
                headers: { authorization: `Bearer ${key}` },
              })
            const [a, b] = [await ask(foreign), await ask(ghost)]
            tally.hiddenPairs++
            expect(a.statusCode).toBe(404)
            expect(b.statusCode).toBe(404)
            expect(a.body).toBe(b.body)
            expect(JSON.parse(a.body)).toEqual({ detail: DETAIL.notFound })
            const shape = (h: Record<string, unknown>) =>
              Object.keys(h)
                .filter(
                  (n) => !['x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'date'].includes(n),
                )
                .sort()
                .map(
                  (n) =>
                    `${n}: ${n === 'content-length' || n.startsWith('x-ratelimit-limit') || n === 'content-type' ? String(h[n]) : '*'}`,
                )
            expect(shape(a.headers)).toEqual(shape(b.headers))
          },
        ),
        { numRuns: LONG ? 500 : 40, seed: SEED + 1 },
      )
    },
    LONG ? 600_000 : 60_000,
  )
})

describe('API keys never appear in clear', () => {
  it('not in logs (trace level), not in any response body, not in the database file', async () => {
    const secrets = [...t.keys.values()].map((k) => k.secret)
    const [first] = secrets
    const domain = [...t.domains.keys()][0]!
    const bodies: string[] = []
    const variants = [
      `Bearer ${first}`,
      `bearer ${first}`,
      `Bearer ${first}x`,
      `Bearer ${first!.slice(0, -1)}`,
      `Basic ${Buffer.from(`user:${first}`).toString('base64')}`,
      `Bearer ${t.revoked}`,
      `${first}`,
    ]
    for (const auth of variants) {
      for (const url of [
        ...ROUTES.map((e) => routeUrl(e, validQuery(e, domain))),
        ...SCOPED.map((e) => routeUrl(e, { domain_id: domain, days: '0' })),
        '/nope',
      ]) {
        const res = await app.inject({ url, headers: { authorization: auth } })
        bodies.push(res.body, JSON.stringify(res.headers))
      }
    }
    for (const s of [...secrets, t.revoked]) {
      const body = s.slice('va_live_'.length)
      expect(logs.includes(body), 'a key in the logs').toBe(false)
      for (const b of bodies) expect(b.includes(body), 'a key in a response').toBe(false)
    }
    expect(logs.length).toBeGreaterThan(1000)

    // the database file (and its WAL) after a clean close
    await t.engine.close()
    const files = [join(TMP, 'store.duckdb'), join(TMP, 'store.duckdb.wal')].filter((f) => existsSync(f))
    const raw = Buffer.concat(files.map((f) => readFileSync(f)))
    for (const s of [...secrets, t.revoked])
      expect(raw.includes(Buffer.from(s.slice('va_live_'.length))), 'a key in the database file').toBe(false)
    // the keys still verify after reopening: what is stored is enough (a hash)
    const e = await openEngine({ path: join(TMP, 'store.duckdb'), readOnly: true })
    try {
      expect(await e.verifyApiKey(first!)).not.toBeNull()
      expect(JSON.stringify(await e.listApiKeys())).not.toContain(first!.slice(8))
    } finally {
      await e.close()
    }
    console.log(
      `[reliability] key leak check: ${bodies.length / 2} requests, ${logs.length} bytes of trace logs, ${raw.length} bytes of database: 0 occurrences of ${secrets.length + 1} keys`,
    )
  })

  it('control: the checks would see a key written in clear', () => {
    const secret = [...t.keys.values()][0]!.secret
    const raw = Buffer.from(`xx${secret}yy`)
    expect(raw.includes(Buffer.from(secret.slice(8)))).toBe(true)
    expect(LEAK.test('Binder Error: Referenced column "x" not found')).toBe(true)
    expect(LEAK.test('Error: boom\n    at f (/app/src/engine.ts:12:3)')).toBe(true)
  })
})
