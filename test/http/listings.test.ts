/**
 * The listings, rankings and brand time series over HTTP (extensions.md sections 2-5): the key
 * check's rate-limit state, the prompts listing's paging parameters, raw model ids, the model
 * leaderboard ignoring `model`, the cache groups, and the CLI's compute subcommands.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { COMPUTABLE } from '../../src/cli/commands/data.js'
import { computeWithFlags } from '../../src/cli/flags.js'
import { buildServer, DETAIL } from '../../src/http/index.js'
import { openEngine, type Engine } from '../../src/index.js'
import { analysis, competitor, mention, prompt } from '../support/records.js'
import { D, T, bearer, makeEngine, tenantRecords } from './helpers.js'

const NOW = Date.parse('2026-11-20T15:00:30Z')
const RESET = Math.floor(NOW / 60_000) * 60 + 60
const BRAND_ROWS = (ENDPOINTS as readonly Endpoint[]).filter((e) =>
  [
    'brand-rankings',
    'visibility-series',
    'mentions-series',
    'citations-series',
    'citability-series',
  ].includes(e.id),
)

describe('listings, rankings and brand series over HTTP', () => {
  let engine: Engine
  let app: FastifyInstance
  let key: string
  beforeAll(async () => {
    engine = await makeEngine()
    await engine.ingest([
      ...tenantRecords(),
      prompt({ domain_id: D.acme1, created_at: '2026-05-04T11:15:02.1189+02:00' }),
      competitor({ domain_id: D.acme1 }),
      analysis({
        domain_id: D.acme1,
        answered_at: '2026-11-20T10:00:00Z',
        model: 'gpt-5',
        mentions: [mention('brand', 2)],
        citations: [{ url: 'https://www.acme.example/a' }, { url: 'https://other.org/' }],
        themes: [],
      }),
    ])
    key = (await engine.createApiKey({ teamId: T.acme, scopeTeamIds: [T.globex, T.acme] })).key
    app = await buildServer({ engine, logger: false, clock: () => NOW })
  })
  afterAll(async () => {
    await app.close()
    await engine.close()
  })

  const get = (path: string, k = key) => app.inject({ url: path, headers: bearer(k) })

  it('validate: the key, its team and scope, and the rate limit after counting this very request', async () => {
    const own = (await engine.createApiKey({ teamId: T.acme, allowedDomains: [D.acme2.toUpperCase()] })).key
    const first = await get('/api/v1/validate', own)
    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual({
      data: {
        team_id: T.acme,
        team_name: 'team 1',
        plan: 'pro',
        developer_access: true,
        scoped_team_ids: [T.acme],
        allowed_domains: [D.acme2],
        rate_limit: {
          limit_per_minute: 60,
          remaining: 59,
          reset_at: new Date(RESET * 1000).toISOString().replace('.000Z', 'Z'),
        },
      },
      generated_at: '2026-11-20T15:00:30Z',
    })
    const second = await get('/api/v1/validate', own)
    expect(second.json().data.rate_limit.remaining).toBe(58)
    expect(second.headers['x-ratelimit-remaining']).toBe('58')
    expect(second.headers['x-ratelimit-reset']).toBe(String(RESET))
    expect(second.headers['x-cache']).toBe('MISS') // never cached: every request is counted anew
    expect((await app.inject({ url: '/api/v1/validate' })).statusCode).toBe(401)
    const off = (await engine.createApiKey({ teamId: T.off })).key
    expect((await get('/api/v1/validate', off)).json()).toEqual({ detail: DETAIL.forbidden })
  })

  it('prompts: page and size with their bounds; the echo follows data', async () => {
    const res = await get(`/api/v1/prompts?domain_id=${D.acme1}&page=01&size=1&ignored=x`)
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(Object.keys(body)).toEqual(['data', 'domain_id', 'page', 'size', 'generated_at'])
    expect(body.data).toMatchObject({ total: 1, page: 1, size: 1, total_pages: 1 })
    expect(body.data.items[0].created_at).toBe('2026-05-04T09:15:02.118Z')
    const detail = async (query: string) =>
      (await get(`/api/v1/prompts?domain_id=${D.acme1}&${query}`)).json()
    expect(await detail('page=0')).toEqual({ detail: 'page must be an integer from 1 to 1000000000.' })
    expect(await detail('page=1000000001')).toEqual({
      detail: 'page must be an integer from 1 to 1000000000.',
    })
    expect(await detail('size=501')).toEqual({ detail: 'size must be an integer from 1 to 500.' })
    expect(await detail('size=1&size=2')).toEqual({
      detail: 'size must be given only once (an integer from 1 to 500).',
    })
    expect((await get(`/api/v1/prompts?domain_id=not-a-uuid`)).json()).toEqual({
      detail: 'domain_id must be a UUID.',
    })
  })

  it('brand rankings and series take all, a channel or a raw model id; anything else is a 400', async () => {
    for (const row of BRAND_ROWS) {
      for (const model of ['all', 'chatgpt', 'gpt-5', 'never-seen']) {
        const res = await get(`${row.path}?domain_id=${D.acme1}&days=7&model=${model}`)
        expect(res.statusCode, `${row.path} ${model}`).toBe(200)
        expect(res.json().model).toBe(model)
      }
      expect((await get(`${row.path}?domain_id=${D.acme1}&model=a%20b`)).json().detail).toMatch(
        /^model must be all, one of the channels .*, or a raw model identifier/,
      )
    }
    const raw = (await get(`/api/v1/brand-rankings?domain_id=${D.acme1}&model=gpt-5`)).json()
    expect(raw.data.items[0]).toMatchObject({ mentions: 1, visibility: 100, avg_position: 2 })
    const citations = (await get(`/api/v1/citations-time-series?domain_id=${D.acme1}&model=gpt-5`)).json()
    expect(citations.data.items).toEqual([{ date: '2026-11-20', value: 1 }])
  })

  it('model leaderboard: no model parameter (ignored, not echoed)', async () => {
    const plain = await get(`/api/v1/model-leaderboard?domain_id=${D.acme1}&days=7`)
    const withModel = await get(`/api/v1/model-leaderboard?domain_id=${D.acme1}&days=7&model=claude`)
    expect(withModel.statusCode).toBe(200)
    expect(Object.keys(withModel.json())).toEqual(['data', 'domain_id', 'days', 'generated_at'])
    expect(withModel.json().data).toEqual(plain.json().data)
    expect(plain.json().data.items).toEqual([
      { model: 'chatgpt', visibility: 100, avg_position: 2, mentions: 1, responses: 1 },
    ])
  })

  it('the domain-scoped rows are cached 5 minutes (series group); the key check is never cached', () => {
    for (const e of ENDPOINTS as readonly Endpoint[]) {
      if (e.id === 'key-check' || e.id === 'domain-list') expect(e.cache).toBe('none')
    }
    for (const e of BRAND_ROWS) expect([e.access, e.cache]).toEqual(['series', 'series'])
  })
})

describe('visibility compute: the listings, rankings and brand series from the endpoint table', () => {
  const dir = mkdtempSync(join(tmpdir(), 'va-compute-'))
  let engine: Engine
  beforeAll(async () => {
    engine = await openEngine({ path: join(dir, 'db.duckdb') })
    await engine.ingest([...tenantRecords(), prompt({ domain_id: D.acme1 })])
  })
  afterAll(async () => {
    await engine.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('flags are checked with the parameter rules; a local reader lists every domain', async () => {
    const list = COMPUTABLE.get('prompt-list')!
    const page = (await computeWithFlags(engine, list, {
      domain: D.acme1,
      size: '1',
      now: '2026-11-20T15:00:00Z',
    })) as { data: { total: number }; size: number }
    expect([page.data.total, page.size]).toEqual([1, 1])
    await expect(computeWithFlags(engine, list, { domain: D.acme1, size: '0' })).rejects.toThrow(
      '--size must be an integer from 1 to 500',
    )
    const domains = (await computeWithFlags(engine, COMPUTABLE.get('domain-list')!, {})) as {
      data: { total: number }
    }
    expect(domains.data.total).toBe(6) // a local reader: every domain
    expect(COMPUTABLE.has('key-check')).toBe(false) // needs an API key
  })
})
