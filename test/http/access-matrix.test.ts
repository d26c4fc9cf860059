/**
 * The authorization matrix: keys (own team, allowlisted, multi-team scope, cross-tenant allowlist,
 * revoked, developer access off, free plan, another tenant, starter plan) x domains x every
 * domain-scoped endpoint of the endpoint table (by its access class), every cell asserted with its
 * status and detail; the endpoints without a domain asked by every key; a route of the table that
 * none of the tests asks fails the coverage test. The cache stays on, so cells answered
 * 200 for one key are warm when a key without access asks: no cross-tenant 200, and no HIT, ever.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { DETAIL, ENDPOINTS as TABLE, type Endpoint, type EndpointId } from '../../src/api/index.js'
import { buildServer } from '../../src/http/index.js'
import type { ApiKeyInfo, Engine } from '../../src/index.js'
import {
  CELLS,
  DETAILS,
  DOMAIN_IDS,
  KEYS,
  SCOPED,
  createMatrixKeys,
  expectReadable,
  type DomainName,
} from './access-cases.js'
import { bearer, makeEngine, tenantRecords } from './helpers.js'

const ROUTES = TABLE as readonly Endpoint[]
const path = (id: EndpointId) => ROUTES.find((e) => e.id === id)!.path
/** The ids of the routes the tests below asked. */
const asked = new Set<string>()

describe('authorization matrix', () => {
  let engine: Engine
  let app: FastifyInstance
  let secrets: Map<string, { key: string; info: ApiKeyInfo }>

  beforeAll(async () => {
    engine = await makeEngine()
    await engine.ingest(tenantRecords())
    secrets = await createMatrixKeys(engine)
    app = await buildServer({ engine, logger: false, rateLimit: { limit: 100_000, windowSeconds: 60 } })
  })
  afterAll(async () => {
    await app.close()
    await engine.close()
  })

  it('the published reports, citations, cited domains and fan-out queries are series-class, the sentiment ones sentiment-class', () => {
    const classes = Object.fromEntries(SCOPED.map((e) => [e.id, e.access]))
    expect(classes).toMatchObject({
      'prompt-series': 'series',
      'competitor-series': 'series',
      'sentiment-overview': 'sentiment',
      'sentiment-themes': 'sentiment',
      citations: 'series',
      'cited-domains': 'series',
      'fanout-queries': 'series',
      'sentiment-series': 'sentiment',
    })
  })

  it(`asserts all ${CELLS.length} cells (order: authorized requests warm the cache first)`, async () => {
    const failures: string[] = []
    for (const { keyName, domainName, endpoint, cell } of CELLS) {
      const { path } = endpoint
      const { key, info } = secrets.get(keyName)!
      const domainId = DOMAIN_IDS[domainName]
      const res = await app.inject({
        url: `${path}?domain_id=${domainId}`,
        headers: bearer(key),
      })
      asked.add(endpoint.id)
      const label = `${keyName} x ${domainName} x ${path}`
      const status = cell === '403plan' ? 403 : cell
      if (res.statusCode !== status) {
        failures.push(`${label}: expected ${status}, got ${res.statusCode} ${res.body}`)
        continue
      }
      if (status === 200) {
        expectReadable(info, domainId, (ok, why) => expect(ok, `${label}: ${why}`).toBe(true))
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

  it('the key check of each key speaks of that key only (its own team, scope and allowlist)', async () => {
    for (const [keyName, spec] of Object.entries(KEYS)) {
      const { key, info } = secrets.get(keyName)!
      asked.add('key-check')
      const res = await app.inject({ url: path('key-check'), headers: bearer(key) })
      if (spec.revoke) expect(res.statusCode, keyName).toBe(401)
      else if (keyName === 'developerAccessOff')
        expect(res.json(), keyName).toEqual({ detail: DETAIL.forbidden })
      else {
        expect(res.statusCode, keyName).toBe(200)
        expect(res.json().data, keyName).toMatchObject({
          team_id: spec.params.teamId,
          scoped_team_ids: [...info.scope_team_ids].sort(),
          allowed_domains: info.allowed_domains === null ? null : [...info.allowed_domains].sort(),
        })
      }
    }
  })

  it('the domains listing of each key is exactly its 200 cells', async () => {
    for (const [keyName, spec] of Object.entries(KEYS)) {
      asked.add('domain-list')
      const res = await app.inject({ url: path('domain-list'), headers: bearer(secrets.get(keyName)!.key) })
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

  it('every route without a domain answers each key by its key alone (401 revoked, 403 developer access off)', async () => {
    for (const e of ROUTES.filter((r) => r.access === 'none')) {
      asked.add(e.id)
      for (const [keyName, spec] of Object.entries(KEYS)) {
        const res = await app.inject({ url: e.path, headers: bearer(secrets.get(keyName)!.key) })
        const status = spec.revoke ? 401 : keyName === 'developerAccessOff' ? 403 : 200
        expect(res.statusCode, `${keyName} x ${e.path}`).toBe(status)
      }
    }
  })

  it('asked every route of the endpoint table', () => {
    expect(ROUTES.map((e) => e.id).filter((id) => !asked.has(id))).toEqual([])
  })
})
