/**
 * The authorization matrix: keys (own team, allowlisted, multi-team scope, cross-tenant allowlist,
 * revoked, developer access off, free plan, another tenant, starter plan) x domains x every
 * domain-scoped endpoint of the endpoint table (by its access class), every cell asserted with its
 * status and detail. The cache stays on, so cells answered
 * 200 for one key are warm when a key without access asks: no cross-tenant 200, and no HIT, ever.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { ENDPOINTS as TABLE, type Endpoint } from '../../src/api/index.js'
import { buildServer, DETAIL } from '../../src/http/index.js'
import type { ApiKeyInfo, Engine } from '../../src/index.js'
import { D, ENDPOINTS, T, UNKNOWN_DOMAIN, bearer, makeEngine, tenantRecords } from './helpers.js'

/** Every endpoint that takes a domain, with its access class. */
const SCOPED = (TABLE as readonly Endpoint[]).filter((e) => e.access !== 'none')

type Cell = 200 | 400 | 401 | 403 | '403plan' | 404
/** [prompt and competitor endpoints, sentiment endpoints] */
type Row = Record<DomainName, [Cell, Cell]>
type DomainName = keyof typeof D | 'unknown' | 'malformed'

const DOMAIN_IDS: Record<DomainName, string> = { ...D, unknown: UNKNOWN_DOMAIN, malformed: 'not-a-uuid' }
const DOMAIN_TEAMS: Record<string, string> = {
  [D.acme1]: T.acme,
  [D.acme2]: T.acme,
  [D.globex]: T.globex,
  [D.free]: T.free,
  [D.off]: T.off,
  [D.starter]: T.starter,
}

/** Everything refused the way a foreign or unknown domain is. */
const hidden = (overrides: Partial<Row>): Row => ({
  acme1: [403, 404],
  acme2: [403, 404],
  globex: [403, 404],
  free: [403, 404],
  off: [403, 404],
  starter: [403, 404],
  unknown: [403, 404],
  malformed: [400, 404],
  ...overrides,
})
const all = (cell: Cell): Row =>
  hidden(Object.fromEntries(Object.keys(DOMAIN_IDS).map((d) => [d, [cell, cell]])))

const KEYS: Record<
  string,
  {
    params: { teamId: string; scopeTeamIds?: string[]; allowedDomains?: string[] }
    revoke?: boolean
    expect: Row
  }
> = {
  own: { params: { teamId: T.acme }, expect: hidden({ acme1: [200, 200], acme2: [200, 200] }) },
  allowlisted: {
    params: { teamId: T.acme, allowedDomains: [D.acme1] },
    expect: hidden({ acme1: [200, 200], acme2: [403, 403] }),
  },
  multiTeam: {
    params: { teamId: T.acme, scopeTeamIds: [T.acme, T.free, T.off] },
    expect: hidden({ acme1: [200, 200], acme2: [200, 200], free: [200, '403plan'], off: [403, 403] }),
  },
  crossTenantAllowlist: {
    params: { teamId: T.acme, scopeTeamIds: [T.acme, T.globex], allowedDomains: [D.globex] },
    expect: hidden({ acme1: [403, 403], acme2: [403, 403], globex: [200, 200] }),
  },
  revoked: { params: { teamId: T.acme }, revoke: true, expect: all(401) },
  developerAccessOff: { params: { teamId: T.off }, expect: all(403) },
  freePlan: { params: { teamId: T.free }, expect: hidden({ free: [200, '403plan'] }) },
  otherTenant: { params: { teamId: T.globex }, expect: hidden({ globex: [200, 200] }) },
  starterPlan: { params: { teamId: T.starter }, expect: hidden({ starter: [200, '403plan'] }) },
}

const DETAILS: Record<string, string> = {
  400: 'domain_id must be a UUID.',
  401: DETAIL.unauthorized,
  403: DETAIL.forbidden,
  '403plan': DETAIL.planForbidden,
  404: DETAIL.domainNotFound,
}

describe('authorization matrix', () => {
  let engine: Engine
  let app: FastifyInstance
  const secrets = new Map<string, { key: string; info: ApiKeyInfo }>()

  beforeAll(async () => {
    engine = await makeEngine()
    await engine.ingest(tenantRecords())
    for (const [name, spec] of Object.entries(KEYS)) {
      const created = await engine.createApiKey(spec.params)
      if (spec.revoke) await engine.revokeApiKey(created.info.id)
      secrets.set(name, created)
    }
    app = await buildServer({ engine, logger: false, rateLimit: { limit: 100_000, windowSeconds: 60 } })
  })
  afterAll(async () => {
    await app.close()
    await engine.close()
  })

  it('the four published reports are in the table with their access classes', () => {
    const classes = Object.fromEntries(SCOPED.map((e) => [e.path, e.access]))
    expect(classes).toMatchObject({
      [ENDPOINTS.prompts]: 'series',
      [ENDPOINTS.competitors]: 'series',
      [ENDPOINTS.overview]: 'sentiment',
      [ENDPOINTS.themes]: 'sentiment',
    })
  })

  it('citations, cited domains and fan-out queries are series-class, the sentiment time series sentiment-class', () => {
    const classes = Object.fromEntries(SCOPED.map((e) => [e.path, e.access]))
    expect(classes).toMatchObject({
      '/api/v1/citations': 'series',
      '/api/v1/cited-domains': 'series',
      '/api/v1/fanout-queries': 'series',
      '/api/v1/sentiment/time-series': 'sentiment',
    })
  })

  const cells = Object.entries(KEYS).flatMap(([keyName, spec]) =>
    (Object.keys(DOMAIN_IDS) as DomainName[]).flatMap((domainName) =>
      SCOPED.map((endpoint) => {
        const [series, sentiment] = spec.expect[domainName]
        const cell = endpoint.access === 'sentiment' ? sentiment : series
        return { keyName, domainName, path: endpoint.path, cell }
      }),
    ),
  )

  it(`asserts all ${cells.length} cells (order: authorized requests warm the cache first)`, async () => {
    // Authorized cells first, so every refused cell is asked while a cached 200 exists.
    const ordered = [...cells.filter((c) => c.cell === 200), ...cells.filter((c) => c.cell !== 200)]
    const failures: string[] = []
    for (const { keyName, domainName, path, cell } of ordered) {
      const { key, info } = secrets.get(keyName)!
      const domainId = DOMAIN_IDS[domainName]
      const res = await app.inject({
        url: `${path}?domain_id=${domainId}`,
        headers: bearer(key),
      })
      const label = `${keyName} x ${domainName} x ${path}`
      const status = cell === '403plan' ? 403 : cell
      if (res.statusCode !== status) {
        failures.push(`${label}: expected ${status}, got ${res.statusCode} ${res.body}`)
        continue
      }
      if (status === 200) {
        // Independent of the table: a 200 only for a domain of a scoped team, in the allowlist.
        const team = DOMAIN_TEAMS[domainId]!
        expect(info.scope_team_ids, label).toContain(team)
        if (info.allowed_domains !== null) expect(info.allowed_domains, label).toContain(domainId)
        expect(res.json().domain_id, label).toBe(domainId)
        expect(res.headers['x-cache'], label).toMatch(/^(HIT|MISS)$/)
      } else {
        expect(res.json(), label).toEqual({ detail: DETAILS[String(cell)] })
        expect(res.headers['x-cache'], label).toBeUndefined()
        expect(res.body, label).not.toContain('generated_at')
      }
    }
    expect(failures).toEqual([])
  })

  it('the domains listing of each key is exactly its 200 cells', async () => {
    for (const [keyName, spec] of Object.entries(KEYS)) {
      const res = await app.inject({ url: '/api/v1/domains', headers: bearer(secrets.get(keyName)!.key) })
      const expected = (Object.keys(DOMAIN_IDS) as DomainName[])
        .filter((d) => spec.expect[d][0] === 200)
        .map((d) => DOMAIN_IDS[d])
        .sort()
      if (spec.revoke) expect(res.statusCode).toBe(401)
      else if (keyName === 'developerAccessOff') expect(res.statusCode).toBe(403)
      else
        expect((res.json().data.items as Array<{ id: string }>).map((d) => d.id).sort(), keyName).toEqual(
          expected,
        )
    }
  })
})
