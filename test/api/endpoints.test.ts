/**
 * The endpoint table (src/api/endpoints.ts) is the one description of the read endpoints: the
 * HTTP routes, the OpenAPI operations and the CLI's compute subcommands all come from it.
 */
import type { FastifyInstance } from 'fastify'
import { echoedWhenGiven } from '../support/registry.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { COMPUTABLE } from '../../src/cli/commands/data.js'
import { buildServer } from '../../src/http/index.js'
import { csvLayout } from '../../src/http/csv.js'
import { openEngine, type Engine } from '../../src/index.js'
import { analysis, base, DOMAIN, NOW, TEAM } from '../support/records.js'

const rows = ENDPOINTS as readonly Endpoint[]

describe('endpoint table', () => {
  let engine: Engine
  let app: FastifyInstance
  let key: string

  beforeAll(async () => {
    engine = await openEngine()
    await engine.ingest([...base(), analysis()])
    key = (await engine.createApiKey({ teamId: TEAM })).key
    app = await buildServer({
      engine,
      logger: false,
      clock: () => Date.parse(NOW),
      rateLimit: { limit: 100_000, windowSeconds: 60 },
    })
  })
  afterAll(async () => {
    await app.close()
    await engine.close()
  })

  it('ids, paths, operationIds and CLI names are unique; parameters are keyed by their wire names', () => {
    for (const field of ['id', 'path', 'operationId'] as const) {
      expect(new Set(rows.map((r) => r[field])).size).toBe(rows.length)
    }
    const cli = rows.flatMap((r) => (r.cli === undefined ? [] : [r.cli]))
    expect(new Set(cli).size).toBe(cli.length)
    for (const row of rows) {
      expect(row.path).toMatch(/^\/api\/v1\/[a-z/-]+$/)
      expect(row.operationId).toMatch(/^(get|list|query)[A-Z][A-Za-z]+$/)
      for (const [name, param] of Object.entries(row.params)) expect(param.name).toBe(name)
      // A domain-scoped endpoint takes domain_id; the others take none.
      expect('domain_id' in row.params).toBe(row.access !== 'none')
    }
  })

  it('every row is a route: 401 without a key, 405 for other methods', async () => {
    for (const row of rows) {
      expect((await app.inject({ url: row.path })).statusCode).toBe(401)
      expect((await app.inject({ method: 'POST', url: row.path })).statusCode).toBe(405)
    }
  })

  it('every row is one OpenAPI operation with its operationId, summary and parameters', async () => {
    const doc = (await app.inject({ url: '/api/v1/openapi.json' })).json() as {
      paths: Record<
        string,
        { get: { operationId: string; summary: string; parameters?: { name: string; in: string }[] } }
      >
    }
    for (const row of rows) {
      const op = doc.paths[row.path]!.get
      expect([op.operationId, op.summary]).toEqual([row.operationId, row.summary])
      const query = (op.parameters ?? []).filter((p) => p.in === 'query')
      // A list payload also takes `format` (json or csv), last (docs/HTTP.md, "HTTP conventions").
      const format = csvLayout(row.payload) === null ? [] : ['format']
      expect(query.map((p) => p.name)).toEqual([...Object.keys(row.params), ...format])
    }
  })

  it('echo fields follow data in parameter order, then generated_at (HTTP and the library agree)', async () => {
    for (const row of rows.filter((r) => r.access !== 'none')) {
      const res = await app.inject({
        url: `${row.path}?domain_id=${DOMAIN.toUpperCase()}`,
        headers: { authorization: `Bearer ${key}` },
      })
      expect(res.statusCode).toBe(200)
      const body = res.json() as Record<string, unknown>
      const given = Object.keys(row.params).filter((name) => !echoedWhenGiven(row.id).includes(name))
      expect(Object.keys(body)).toEqual(['data', ...given, 'generated_at'])
      expect(body.domain_id).toBe(DOMAIN)
      const params = row.query.parse({ domain_id: DOMAIN })
      const direct = await row.compute(engine, params, { now: NOW, caller: null })
      expect(JSON.stringify(direct)).toBe(res.body)
    }
  })

  it('an out-of-bounds filter is a 400 naming it, after the checks of the other parameters', async () => {
    const bad: [string, string][] = [
      ['country=D', 'country must be two letters A-Z (an ISO 3166-1 alpha-2 country code, any case).'],
      ['country=%20de', 'country must be two letters A-Z (an ISO 3166-1 alpha-2 country code, any case).'],
      ['topic=%20%20', 'topic must be a text of 1 to 100 characters after trimming.'],
      [`topic=${'x'.repeat(101)}`, 'topic must be a text of 1 to 100 characters after trimming.'],
      [`tag=${'y'.repeat(51)}`, 'tag must be a text of 1 to 50 characters after trimming.'],
      ['tag=a&tag=b', 'tag must be given only once (a text of 1 to 50 characters after trimming).'],
    ]
    for (const row of rows.filter((r) => 'days' in r.params)) {
      for (const [query, detail] of bad) {
        const res = await app.inject({
          url: `${row.path}?domain_id=${DOMAIN}&${query}`,
          headers: { authorization: `Bearer ${key}` },
        })
        expect([row.id, res.statusCode, res.json()]).toEqual([row.id, 400, { detail }])
      }
      // days is checked before the filters (parameter order).
      const both = await app.inject({
        url: `${row.path}?domain_id=${DOMAIN}&days=0&country=D`,
        headers: { authorization: `Bearer ${key}` },
      })
      expect(both.json()).toEqual({ detail: 'days must be an integer from 1 to 365.' })
    }
  })

  it('every row with days takes the segment filters last, echoed normalized after granularity', async () => {
    const windowed = rows.filter((r) => 'days' in r.params)
    expect(windowed.length).toBeGreaterThan(10)
    for (const row of windowed) {
      // After every other parameter; only the answers listing's cursor follows them (docs/API.md).
      const names = Object.keys(row.params).filter((name) => name !== 'cursor')
      expect(names.slice(-3), row.id).toEqual(['country', 'topic', 'tag'])
      const accepts = row.query.safeParse({ domain_id: DOMAIN, granularity: 'week' }).success
      const granularity = 'granularity' in row.params && accepts ? '&granularity=week' : ''
      const res = await app.inject({
        url: `${row.path}?domain_id=${DOMAIN}&tag=%20t%20&topic=%20Pricing&country=de${granularity}`,
        headers: { authorization: `Bearer ${key}` },
      })
      expect(res.statusCode, row.id).toBe(200)
      const body = res.json() as Record<string, unknown>
      const tail = [...(granularity ? ['granularity'] : []), 'country', 'topic', 'tag', 'generated_at']
      expect(Object.keys(body).slice(-tail.length), row.id).toEqual(tail)
      expect([body.country, body.topic, body.tag]).toEqual(['DE', 'Pricing', 't'])
    }
  })

  it('the CLI offers exactly the rows with a cli name, in table order', () => {
    expect([...COMPUTABLE.keys()]).toEqual([
      'prompt-series',
      'competitor-series',
      'sentiment-overview',
      'sentiment-themes',
      'domain-list',
      'prompt-list',
      'brand-rankings',
      'model-leaderboard',
      'visibility-series',
      'mentions-series',
      'citations-series',
      'citability-series',
      'citations',
      'cited-domains',
      'fanout-queries',
      'sentiment-series',
      'signals',
      'query',
      'answers',
    ])
    expect([...COMPUTABLE.values()]).toEqual(rows.filter((r) => r.cli !== undefined))
  })

  it('the domains listing without a caller (a local reader) lists every domain', async () => {
    const listing = rows.find((r) => r.id === 'domain-list')!
    const payload = (await listing.compute(engine, {}, { now: NOW, caller: null })) as {
      data: { items: { id: string }[] }
    }
    expect(payload.data.items.map((d) => d.id)).toEqual([DOMAIN])
  })
})
