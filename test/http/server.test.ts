/**
 * The HTTP surface through inject(): every documented status, header and detail message, the
 * order of checks, parameter validation, the cache and error mapping.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildServer, DETAIL, type BuildServerOptions } from '../../src/http/index.js'
import { QueryError } from '../../src/errors.js'
import type { Engine } from '../../src/types.js'
import { domain, team } from '../support/records.js'
import { FakeEngine } from './fake-engine.js'
import {
  ADMIN_TOKEN,
  D,
  ENDPOINTS,
  ENDPOINT_NAMES,
  T,
  UNKNOWN_DOMAIN,
  bearer,
  makeEngine,
  tenantRecords,
} from './helpers.js'

const NOW = Date.parse('2026-11-20T15:00:30Z')
const NOW_S = Math.floor(NOW / 1000)
const RESET = Math.floor(NOW_S / 60) * 60 + 60
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

interface Ctx {
  engine: Engine
  app: FastifyInstance
  key: string
  now: { ms: number }
}

async function setup(engine: Engine, options: Partial<BuildServerOptions> = {}): Promise<Ctx> {
  await engine.ingest(tenantRecords())
  const { key } = await engine.createApiKey({ teamId: T.acme })
  const now = { ms: NOW }
  const app = await buildServer({
    engine,
    logger: false,
    clock: () => now.ms,
    adminToken: ADMIN_TOKEN,
    ...options,
  })
  return { engine, app, key, now }
}

const url = (endpoint: keyof typeof ENDPOINTS, query: string) => `${ENDPOINTS[endpoint]}?${query}`

function expectCommonHeaders(headers: Record<string, unknown>): void {
  expect(headers['x-request-id']).toMatch(/\S/)
  expect(headers['cache-control']).toBe('no-store')
  expect(headers['x-content-type-options']).toBe('nosniff')
  expect(headers['content-type']).toMatch(/^application\/json/)
}

describe('HTTP service over the real engine', () => {
  let ctx: Ctx
  beforeEach(async () => {
    ctx = await setup(await makeEngine())
  })
  afterEach(async () => {
    await ctx.app.close()
    await ctx.engine.close()
  })

  it.each(ENDPOINT_NAMES)('%s: 200 with the documented headers and echo fields', async (name) => {
    const res = await ctx.app.inject({
      url: url(name, `domain_id=${D.acme1.toUpperCase()}&days=7`),
      headers: bearer(ctx.key),
    })
    expect(res.statusCode).toBe(200)
    expectCommonHeaders(res.headers)
    expect(res.headers['x-request-id']).toMatch(UUID_RE)
    expect(res.headers['x-cache']).toBe('MISS')
    expect(res.headers['x-ratelimit-limit']).toBe('60')
    expect(res.headers['x-ratelimit-remaining']).toBe('59')
    expect(res.headers['x-ratelimit-reset']).toBe(String(RESET))
    const body = res.json()
    expect(body.domain_id).toBe(D.acme1)
    expect(body.days).toBe(7)
    expect(Date.parse(body.generated_at)).toBe(NOW)
    if (name === 'prompts') expect(body.limit).toBe(25)
    else expect(body.model).toBe('all')
    expect(Object.keys(body)).toEqual(
      name === 'prompts'
        ? ['data', 'domain_id', 'days', 'limit', 'generated_at']
        : ['data', 'domain_id', 'days', 'model', 'generated_at'],
    )
  })

  it('echoes a sane X-Request-Id and replaces an insane one', async () => {
    const sane = await ctx.app.inject({ url: '/healthz', headers: { 'x-request-id': 'req-42.abc' } })
    expect(sane.headers['x-request-id']).toBe('req-42.abc')
    for (const bad of ['has space', 'x'.repeat(200), '<script>', '']) {
      const res = await ctx.app.inject({ url: '/healthz', headers: { 'x-request-id': bad } })
      expect(res.headers['x-request-id']).toMatch(UUID_RE)
    }
    const unauthorized = await ctx.app.inject({
      url: url('prompts', `domain_id=${D.acme1}`),
      headers: { 'x-request-id': 'trace-1' },
    })
    expect(unauthorized.headers['x-request-id']).toBe('trace-1')
  })

  describe('401', () => {
    it.each([
      ['no header', {}],
      ['empty bearer', { authorization: 'Bearer ' }],
      ['other scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
      ['unknown key', { authorization: 'Bearer va_live_doesnotexist' }],
      ['key with spaces', { authorization: 'Bearer a b c' }],
    ])('%s -> 401 without rate-limit headers', async (_label, headers) => {
      for (const name of [...ENDPOINT_NAMES]) {
        const res = await ctx.app.inject({ url: url(name, `domain_id=${D.acme1}`), headers })
        expect(res.statusCode).toBe(401)
        expect(res.json()).toEqual({ detail: 'Invalid or revoked API key.' })
        expect(res.headers['x-ratelimit-limit']).toBeUndefined()
        expect(res.headers['x-cache']).toBeUndefined()
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/)
        expectCommonHeaders(res.headers)
      }
    })

    it('a revoked key -> 401, also before parameters are looked at', async () => {
      const app = await buildServer({ engine: ctx.engine, logger: false })
      const created = await ctx.engine.createApiKey({ teamId: T.acme })
      expect(
        (await app.inject({ url: url('prompts', `domain_id=${D.acme1}`), headers: bearer(created.key) }))
          .statusCode,
      ).toBe(200)
      await ctx.engine.revokeApiKey(created.info.id)
      const res = await app.inject({ url: url('prompts', 'days=999'), headers: bearer(created.key) })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ detail: DETAIL.unauthorized })
      await app.close()
    })

    it('no cache window: a new key works at once, a revoked key is refused from the very next request', async () => {
      const get = (key: string) =>
        ctx.app.inject({ url: url('prompts', `domain_id=${D.acme1}`), headers: bearer(key) })
      const created = await ctx.engine.createApiKey({ teamId: T.acme })
      expect((await get(created.key)).statusCode).toBe(200)
      await ctx.engine.revokeApiKey(created.info.id)
      expect((await get(created.key)).statusCode).toBe(401)
      // the other keys are untouched
      expect((await get(ctx.key)).statusCode).toBe(200)
    })

    it('the scheme is case-insensitive', async () => {
      const res = await ctx.app.inject({
        url: url('prompts', `domain_id=${D.acme1}`),
        headers: { authorization: `bearer ${ctx.key}` },
      })
      expect(res.statusCode).toBe(200)
    })
  })

  describe('400 parameter validation (detail names the parameter)', () => {
    const cases: Array<[string, keyof typeof ENDPOINTS, string, string]> = [
      ['missing domain_id', 'prompts', 'days=7', DETAIL.domainRequired],
      ['missing domain_id (competitors)', 'competitors', '', DETAIL.domainRequired],
      ['missing domain_id (overview)', 'overview', 'model=all', DETAIL.domainRequired],
      ['missing domain_id (themes)', 'themes', '', DETAIL.domainRequired],
      ['empty domain_id', 'prompts', 'domain_id=', DETAIL.domainRequired],
      ['malformed domain_id (prompts)', 'prompts', 'domain_id=not-a-uuid', 'domain_id must be a UUID.'],
      ['malformed domain_id (competitors)', 'competitors', 'domain_id=123', 'domain_id must be a UUID.'],
      ['days 0', 'prompts', `domain_id=${D.acme1}&days=0`, 'days must be an integer from 1 to 365.'],
      ['days 366', 'competitors', `domain_id=${D.acme1}&days=366`, 'days must be an integer from 1 to 365.'],
      ['days 1.5', 'overview', `domain_id=${D.acme1}&days=1.5`, 'days must be an integer from 1 to 365.'],
      ['days 7.0', 'themes', `domain_id=${D.acme1}&days=7.0`, 'days must be an integer from 1 to 365.'],
      ['days -1', 'prompts', `domain_id=${D.acme1}&days=-1`, 'days must be an integer from 1 to 365.'],
      ['days abc', 'prompts', `domain_id=${D.acme1}&days=abc`, 'days must be an integer from 1 to 365.'],
      ['days 0x10', 'prompts', `domain_id=${D.acme1}&days=0x10`, 'days must be an integer from 1 to 365.'],
      ['days 1e2', 'prompts', `domain_id=${D.acme1}&days=1e2`, 'days must be an integer from 1 to 365.'],
      ['days empty', 'prompts', `domain_id=${D.acme1}&days=`, 'days must be an integer from 1 to 365.'],
      ['limit 0', 'prompts', `domain_id=${D.acme1}&limit=0`, 'limit must be an integer from 1 to 100.'],
      ['limit 101', 'prompts', `domain_id=${D.acme1}&limit=101`, 'limit must be an integer from 1 to 100.'],
      ['limit x', 'prompts', `domain_id=${D.acme1}&limit=x`, 'limit must be an integer from 1 to 100.'],
      [
        'repeated days',
        'prompts',
        `domain_id=${D.acme1}&days=7&days=7`,
        'days must be given only once (an integer from 1 to 365).',
      ],
      [
        'repeated limit',
        'prompts',
        `domain_id=${D.acme1}&limit=5&limit=6`,
        'limit must be given only once (an integer from 1 to 100).',
      ],
      [
        'repeated domain_id',
        'prompts',
        `domain_id=${D.acme1}&domain_id=${D.acme1}`,
        'domain_id must be given only once (a UUID).',
      ],
      [
        'repeated domain_id (sentiment)',
        'overview',
        `domain_id=${D.acme1}&domain_id=${D.acme2}`,
        'domain_id must be given only once (a UUID).',
      ],
      [
        'repeated model',
        'competitors',
        `domain_id=${D.acme1}&model=all&model=claude`,
        'model must be given only once (all or a channel name).',
      ],
      [
        'repeated model (themes)',
        'themes',
        `domain_id=${D.acme1}&model=a&model=b`,
        'model must be given only once (all, a channel name or a raw model identifier).',
      ],
    ]
    it.each(cases)('%s', async (_label, endpoint, query, detail) => {
      const res = await ctx.app.inject({ url: url(endpoint, query), headers: bearer(ctx.key) })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ detail })
      expect(res.headers['x-ratelimit-remaining']).toBeDefined()
      expect(res.headers['x-cache']).toBeUndefined()
      expectCommonHeaders(res.headers)
    })

    it('competitor model: all or one of the seven channels', async () => {
      for (const model of [
        'all',
        'chatgpt',
        'perplexity',
        'gemini',
        'claude',
        'copilot',
        'google-ai-overviews',
        'google-ai-mode',
      ]) {
        const res = await ctx.app.inject({
          url: url('competitors', `domain_id=${D.acme1}&model=${model}`),
          headers: bearer(ctx.key),
        })
        expect(res.statusCode, model).toBe(200)
        expect(res.json().model).toBe(model)
      }
      for (const model of ['gpt-4o', 'ChatGPT', 'ALL', '']) {
        const res = await ctx.app.inject({
          url: url('competitors', `domain_id=${D.acme1}&model=${model}`),
          headers: bearer(ctx.key),
        })
        expect(res.statusCode, model).toBe(400)
        expect(res.json().detail).toBe(
          'model must be all or one of the channels chatgpt, perplexity, gemini, claude, copilot, google-ai-overviews, google-ai-mode.',
        )
      }
    })

    it('sentiment model: all, a channel, or a raw id of 1-100 characters from [A-Za-z0-9._:/@+-]', async () => {
      for (const model of [
        'all',
        'claude',
        'gpt-4o-2024-08-06',
        'models/gemini-1.5:pro@001+x',
        'a'.repeat(100),
      ]) {
        for (const name of ['overview', 'themes'] as const) {
          const res = await ctx.app.inject({
            url: url(name, `domain_id=${D.acme1}&model=${encodeURIComponent(model)}`),
            headers: bearer(ctx.key),
          })
          expect(res.statusCode, model).toBe(200)
          expect(res.json().model).toBe(model)
        }
      }
      for (const model of ['', 'a'.repeat(101), 'gpt 4o', 'x;DROP TABLE', 'é']) {
        const res = await ctx.app.inject({
          url: url('themes', `domain_id=${D.acme1}&model=${encodeURIComponent(model)}`),
          headers: bearer(ctx.key),
        })
        expect(res.statusCode, model).toBe(400)
        expect(res.json().detail).toMatch(
          /^model must be all, one of the channels .* or a raw model identifier of 1 to 100 characters/,
        )
      }
    })

    it('accepts the bounds and leading zeros, ignores unknown parameters (a client cannot set now)', async () => {
      for (const q of [
        'days=1&limit=1',
        'days=365&limit=100',
        'days=007',
        'now=2020-01-01T00:00:00Z&foo=bar',
      ]) {
        const res = await ctx.app.inject({
          url: url('prompts', `domain_id=${D.acme1}&${q}`),
          headers: bearer(ctx.key),
        })
        expect(res.statusCode, q).toBe(200)
        expect(Date.parse(res.json().generated_at)).toBe(NOW)
      }
    })
  })

  describe('order of checks', () => {
    it('401 before 429 before 403 (key team) before 400 before domain checks', async () => {
      const offKey = (await ctx.engine.createApiKey({ teamId: T.off })).key
      // 403 for a team without developer access, whatever the parameters.
      for (const query of ['', 'days=0', `domain_id=${UNKNOWN_DOMAIN}`, 'domain_id=zzz']) {
        for (const name of ENDPOINT_NAMES) {
          const res = await ctx.app.inject({ url: url(name, query), headers: bearer(offKey) })
          expect(res.statusCode).toBe(403)
          expect(res.json()).toEqual({ detail: DETAIL.forbidden })
          expect(res.headers['x-ratelimit-limit']).toBe('60')
        }
      }
      // 400 before the domain is looked at: an unknown domain with bad days is a 400.
      const res = await ctx.app.inject({
        url: url('prompts', `domain_id=${UNKNOWN_DOMAIN}&days=0`),
        headers: bearer(ctx.key),
      })
      expect(res.statusCode).toBe(400)
      const sentiment = await ctx.app.inject({
        url: url('themes', `domain_id=zzz&days=0`),
        headers: bearer(ctx.key),
      })
      expect(sentiment.statusCode).toBe(400)
    })

    it('every authenticated request counts: misses, cache hits, 400s, 403s, 404s', async () => {
      const seen: string[] = []
      for (const query of [
        `domain_id=${D.acme1}`,
        `domain_id=${D.acme1}`,
        'days=0',
        `domain_id=${D.globex}`,
      ]) {
        for (const name of ['prompts', 'themes'] as const) {
          const res = await ctx.app.inject({ url: url(name, query), headers: bearer(ctx.key) })
          seen.push(`${res.statusCode}:${res.headers['x-ratelimit-remaining']}`)
        }
      }
      expect(seen).toEqual(['200:59', '200:58', '200:57', '200:56', '400:55', '400:54', '403:53', '404:52'])
    })

    it('429 comes before 403 and 400, and a refused request still counts', async () => {
      const app = await buildServer({
        engine: ctx.engine,
        logger: false,
        clock: () => ctx.now.ms,
        rateLimit: { limit: 2, windowSeconds: 60 },
      })
      const offKey = (await ctx.engine.createApiKey({ teamId: T.off })).key
      const statuses: number[] = []
      for (let i = 0; i < 4; i += 1)
        statuses.push(
          (await app.inject({ url: url('prompts', 'days=0'), headers: bearer(offKey) })).statusCode,
        )
      expect(statuses).toEqual([403, 403, 429, 429])
      // An invalid key is 401 even for a key that would be over its limit: no key, no counting.
      expect((await app.inject({ url: url('prompts', ''), headers: bearer('nope') })).statusCode).toBe(401)
      await app.close()
    })
  })

  describe('domain checks', () => {
    it('prompt and competitor endpoints: unknown or foreign domain -> 403 with the access detail', async () => {
      for (const name of ['prompts', 'competitors'] as const) {
        for (const domain of [UNKNOWN_DOMAIN, D.globex, D.free]) {
          const res = await ctx.app.inject({
            url: url(name, `domain_id=${domain}`),
            headers: bearer(ctx.key),
          })
          expect(res.statusCode).toBe(403)
          expect(res.json()).toEqual({ detail: DETAIL.forbidden })
          expect(res.headers['x-cache']).toBeUndefined()
        }
      }
    })

    it('sentiment endpoints: malformed, unknown and foreign domains get one identical 404 body', async () => {
      const bodies = new Set<string>()
      for (const name of ['overview', 'themes'] as const) {
        for (const domain of [
          UNKNOWN_DOMAIN,
          D.globex,
          'not-a-uuid',
          '1',
          encodeURIComponent("' OR 1=1 --"),
        ]) {
          const res = await ctx.app.inject({
            url: url(name, `domain_id=${domain}`),
            headers: bearer(ctx.key),
          })
          expect(res.statusCode).toBe(404)
          expectCommonHeaders(res.headers)
          expect(res.headers['x-ratelimit-limit']).toBe('60')
          bodies.add(res.body)
        }
      }
      expect([...bodies]).toEqual([JSON.stringify({ detail: 'Domain not found.' })])
    })

    it('sentiment on a plan without sentiment -> 403 with the plan detail', async () => {
      const freeKey = (await ctx.engine.createApiKey({ teamId: T.free })).key
      for (const name of ['overview', 'themes'] as const) {
        const res = await ctx.app.inject({ url: url(name, `domain_id=${D.free}`), headers: bearer(freeKey) })
        expect(res.statusCode).toBe(403)
        expect(res.json()).toEqual({
          detail: 'Sentiment analysis requires a Pro, Business or Enterprise plan.',
        })
      }
      const prompts = await ctx.app.inject({
        url: url('prompts', `domain_id=${D.free}`),
        headers: bearer(freeKey),
      })
      expect(prompts.statusCode).toBe(200)
    })
  })

  describe('cache', () => {
    it('MISS then HIT, shared across keys, keyed by normalized parameters; generated_at is the original', async () => {
      const other = (await ctx.engine.createApiKey({ teamId: T.acme, name: 'second' })).key
      const first = await ctx.app.inject({
        url: url('overview', `domain_id=${D.acme1}`),
        headers: bearer(ctx.key),
      })
      expect(first.headers['x-cache']).toBe('MISS')
      ctx.now.ms += 10_000
      // Same parameters spelled differently: upper-case id, defaults given explicitly, other order.
      const second = await ctx.app.inject({
        url: url('overview', `model=all&days=30&domain_id=${D.acme1.toUpperCase()}`),
        headers: bearer(other),
      })
      expect(second.headers['x-cache']).toBe('HIT')
      expect(second.body).toBe(first.body)
      expect(Date.parse(second.json().generated_at)).toBe(NOW)
      const differentDays = await ctx.app.inject({
        url: url('overview', `domain_id=${D.acme1}&days=29`),
        headers: bearer(ctx.key),
      })
      expect(differentDays.headers['x-cache']).toBe('MISS')
      expect(Date.parse(differentDays.json().generated_at)).toBe(NOW + 10_000)
    })

    it('lifetimes: 5 minutes for series, 1 hour for sentiment', async () => {
      const get = (name: keyof typeof ENDPOINTS) =>
        ctx.app.inject({ url: url(name, `domain_id=${D.acme1}`), headers: bearer(ctx.key) })
      for (const name of ENDPOINT_NAMES) expect((await get(name)).headers['x-cache']).toBe('MISS')
      ctx.now.ms += 300_000
      for (const name of ENDPOINT_NAMES) expect((await get(name)).headers['x-cache']).toBe('HIT')
      ctx.now.ms += 1
      expect((await get('prompts')).headers['x-cache']).toBe('MISS')
      expect((await get('competitors')).headers['x-cache']).toBe('MISS')
      expect((await get('overview')).headers['x-cache']).toBe('HIT')
      ctx.now.ms = NOW + 3_600_001
      expect((await get('overview')).headers['x-cache']).toBe('MISS')
      expect((await get('themes')).headers['x-cache']).toBe('MISS')
    })

    it('no HIT is observable before authorization', async () => {
      const warm = await ctx.app.inject({
        url: url('themes', `domain_id=${D.acme1}`),
        headers: bearer(ctx.key),
      })
      expect(warm.statusCode).toBe(200)
      const globexKey = (await ctx.engine.createApiKey({ teamId: T.globex })).key
      const allowOther = (await ctx.engine.createApiKey({ teamId: T.acme, allowedDomains: [D.acme2] })).key
      const offKey = (await ctx.engine.createApiKey({ teamId: T.off })).key
      const attempts: Array<[Record<string, string>, number]> = [
        [{}, 401],
        [bearer('va_live_guess'), 401],
        [bearer(globexKey), 404],
        [bearer(allowOther), 403],
        [bearer(offKey), 403],
      ]
      for (const [headers, status] of attempts) {
        const res = await ctx.app.inject({ url: url('themes', `domain_id=${D.acme1}`), headers })
        expect(res.statusCode).toBe(status)
        expect(res.headers['x-cache']).toBeUndefined()
        expect(res.body).not.toContain('generated_at')
      }
    })

    it('configurable lifetimes; 0 disables caching', async () => {
      const app = await buildServer({
        engine: ctx.engine,
        logger: false,
        cacheTtl: { seriesSeconds: 0, sentimentSeconds: 0 },
      })
      for (let i = 0; i < 2; i += 1) {
        for (const name of ENDPOINT_NAMES) {
          const res = await app.inject({ url: url(name, `domain_id=${D.acme1}`), headers: bearer(ctx.key) })
          expect(res.headers['x-cache']).toBe('MISS')
        }
      }
      await app.close()
    })
  })

  describe('domains listing', () => {
    it('lists exactly the domains the key can access', async () => {
      const scoped = (
        await ctx.engine.createApiKey({ teamId: T.acme, scopeTeamIds: [T.acme, T.free, T.off] })
      ).key
      const allow = (await ctx.engine.createApiKey({ teamId: T.acme, allowedDomains: [D.acme2] })).key
      const ids = async (key: string) => {
        const res = await ctx.app.inject({ url: '/api/v1/domains', headers: bearer(key) })
        expect(res.statusCode).toBe(200)
        expect(res.headers['x-cache']).toBe('MISS')
        expect(res.headers['x-ratelimit-limit']).toBe('60')
        return (res.json().data.items as Array<{ id: string }>).map((d) => d.id)
      }
      // By brand name (Acme, AcmeTwo, Freebie), then id.
      expect(await ids(ctx.key)).toEqual([D.acme1, D.acme2])
      expect(await ids(scoped)).toEqual([D.acme1, D.acme2, D.free])
      expect(await ids(allow)).toEqual([D.acme2])
      const res = await ctx.app.inject({ url: '/api/v1/domains', headers: bearer(ctx.key) })
      expect(res.json().data).toEqual({
        items: [
          { id: D.acme1, name: 'Acme', website: 'acme.example', created_at: null },
          { id: D.acme2, name: 'AcmeTwo', website: 'acmetwo.example', created_at: null },
        ],
        total: 2,
        page: 1,
        size: 2,
        total_pages: 1,
      })
      const off = (await ctx.engine.createApiKey({ teamId: T.off })).key
      expect((await ctx.app.inject({ url: '/api/v1/domains', headers: bearer(off) })).statusCode).toBe(403)
      expect((await ctx.app.inject({ url: '/api/v1/domains' })).statusCode).toBe(401)
    })
  })

  describe('routing', () => {
    it('404 JSON for anything else, without authentication', async () => {
      // `/` is the dashboard (test/dashboard).
      for (const path of [
        '/api/v1',
        '/api/v1/prompt',
        '/api/v2/sentiment/overview',
        '/api/v1/sentiment/history',
        '/healthz/x',
      ]) {
        const res = await ctx.app.inject({ url: path })
        expect(res.statusCode, path).toBe(404)
        expect(res.json()).toEqual({ detail: 'Not found.' })
        expectCommonHeaders(res.headers)
      }
      const post = await ctx.app.inject({
        method: 'POST',
        url: '/nope',
        payload: '{',
        headers: { 'content-type': 'application/json' },
      })
      expect(post.statusCode).toBe(404)
    })

    it('405 with Allow: GET, HEAD for other methods on the report paths', async () => {
      for (const path of [...Object.values(ENDPOINTS), '/api/v1/domains']) {
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
          const res = await ctx.app.inject({
            method,
            url: `${path}?domain_id=${D.acme1}`,
            headers: { ...bearer(ctx.key), 'content-type': 'application/json' },
            payload: '{',
          })
          expect(res.statusCode, `${method} ${path}`).toBe(405)
          expect(res.headers.allow).toBe('GET, HEAD')
          expect(res.json()).toEqual({ detail: 'Method not allowed.' })
        }
      }
    })

    it('GET /healthz without auth', async () => {
      const res = await ctx.app.inject({ url: '/healthz' })
      expect(res.statusCode).toBe(200)
      expect(res.headers['x-cache']).toBe('MISS')
      expect(res.headers['x-ratelimit-limit']).toBeUndefined()
      expect(res.json()).toEqual({ status: 'ok', database: 'open' })
      expectCommonHeaders(res.headers)
    })
  })

  describe('POST /internal/v1/ingest', () => {
    const post = (payload: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({
        method: 'POST',
        url: '/internal/v1/ingest',
        payload,
        headers: {
          'content-type': 'application/x-ndjson',
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...headers,
        },
      })

    it('refuses a missing or wrong admin token, and API keys', async () => {
      for (const authorization of ['', `Bearer ${ADMIN_TOKEN}x`, `Bearer ${ctx.key}`, ADMIN_TOKEN]) {
        const res = await post('', { authorization })
        expect(res.statusCode).toBe(401)
        expect(res.json()).toEqual({ detail: 'Invalid admin token.' })
      }
    })

    it('stores records and answers the counts; clears the response cache', async () => {
      const warm = await ctx.app.inject({
        url: url('prompts', `domain_id=${D.acme1}`),
        headers: bearer(ctx.key),
      })
      expect(warm.headers['x-cache']).toBe('MISS')
      const t = team({ id: '10000000-0000-4000-8000-0000000000aa', name: 'New' })
      const d = domain({
        id: '20000000-0000-4000-8000-0000000000aa',
        team_id: t.id,
        brand_name: 'New',
        website: null,
      })
      const res = await post(`${JSON.stringify(t)}\n\n${JSON.stringify(d)}\r\n`)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ teams: 1, domains: 1, fanout_queries: 0 })
      const again = await ctx.app.inject({
        url: url('prompts', `domain_id=${D.acme1}`),
        headers: bearer(ctx.key),
      })
      expect(again.headers['x-cache']).toBe('MISS')
    })

    it('refuses a body with bad records: 400 with the library detail and line-numbered issues; nothing stored', async () => {
      const bad = team({ id: '10000000-0000-4000-8000-0000000000bb', name: 'Bad' })
      const body = [
        JSON.stringify(bad),
        '{not json',
        '',
        JSON.stringify({ type: 'domain', id: 'x' }),
        JSON.stringify({ type: 'spaceship' }),
      ].join('\n')
      const res = await post(body)
      expect(res.statusCode).toBe(400)
      const json = res.json() as {
        detail: string
        issues: Array<{ line?: number; field: string; message: string }>
        total: number
      }
      expect(json.detail).toBe(`ingest refused, nothing stored: ${json.total} invalid records`)
      expect(json.total).toBeGreaterThanOrEqual(3)
      expect(json.total).toBe(json.issues.length)
      expect(json.issues.map((i) => i.line)).toEqual(expect.arrayContaining([2, 4, 5]))
      expect(json.issues.find((i) => i.line === 2)).toMatchObject({
        field: 'record',
        message: expect.stringMatching(/^is not valid JSON/),
      })
      expect(json.issues.find((i) => i.line === 5)).toMatchObject({ field: 'type' })
      expect(await ctx.engine.getTeam(bad.id)).toBeNull()
    })

    it('415 for another content type', async () => {
      const res = await post('{}', { 'content-type': 'application/json' })
      expect(res.statusCode).toBe(415)
      expect(res.json().detail).toMatch(/application\/x-ndjson/)
    })

    it('413 beyond the body limit', async () => {
      const app = await buildServer({
        engine: ctx.engine,
        logger: false,
        adminToken: ADMIN_TOKEN,
        maxIngestBytes: 100,
      })
      const line = JSON.stringify(team({ id: T.acme, name: 'x'.repeat(80) }))
      const res = await app.inject({
        method: 'POST',
        url: '/internal/v1/ingest',
        payload: `${line}\n${line}\n`,
        headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${ADMIN_TOKEN}` },
      })
      expect(res.statusCode).toBe(413)
      expect(res.json()).toEqual({ detail: 'Request body too large.' })
      await app.close()
    })

    it('does not exist without an admin token', async () => {
      const app = await buildServer({ engine: ctx.engine, logger: false })
      const res = await app.inject({
        method: 'POST',
        url: '/internal/v1/ingest',
        payload: '',
        headers: { authorization: 'Bearer x' },
      })
      expect(res.statusCode).toBe(404)
      await app.close()
    })
  })
})

describe('HTTP service over a fake engine (failures on demand)', () => {
  let fake: FakeEngine
  let ctx: Ctx
  beforeEach(async () => {
    fake = new FakeEngine()
    ctx = await setup(fake)
  })
  afterEach(async () => {
    await ctx.app.close()
  })

  it('engine failures -> 500 with a fixed body, no DuckDB text; 5xx does not count against the limit', async () => {
    const duck = new QueryError('prompt_series', {
      cause: new Error('Binder Error: column "x" not found in SELECT * FROM analyses'),
    })
    for (const failure of [duck, new Error('IO Error: /data/demo.duckdb'), 'a string']) {
      fake.failWith = failure
      for (const name of ENDPOINT_NAMES) {
        const res = await ctx.app.inject({ url: url(name, `domain_id=${D.acme1}`), headers: bearer(ctx.key) })
        expect(res.statusCode).toBe(500)
        expect(res.body).toBe('{"detail":"Internal server error."}')
        expect(res.headers['x-ratelimit-remaining']).toBe('60')
        expect(res.headers['x-cache']).toBeUndefined()
        expectCommonHeaders(res.headers)
      }
    }
    fake.failWith = undefined
    const ok = await ctx.app.inject({ url: url('prompts', `domain_id=${D.acme1}`), headers: bearer(ctx.key) })
    expect(ok.headers['x-ratelimit-remaining']).toBe('59')
  })

  it('engine NotFoundError maps per endpoint (403 series, 404 sentiment); ValidationError -> 400 first message', async () => {
    // The domain vanishes between the access check and the query.
    const original = fake.getDomain.bind(fake)
    fake.getDomain = async (id) => original(id)
    fake.domains.delete(D.acme1)
    fake.getDomain = async () => ({ id: D.acme1, brand_name: 'Acme', website: null, team_id: T.acme })
    expect(
      (await ctx.app.inject({ url: url('prompts', `domain_id=${D.acme1}`), headers: bearer(ctx.key) }))
        .statusCode,
    ).toBe(403)
    const themes = await ctx.app.inject({
      url: url('themes', `domain_id=${D.acme1}`),
      headers: bearer(ctx.key),
    })
    expect(themes.statusCode).toBe(404)
    expect(themes.json()).toEqual({ detail: 'Domain not found.' })
    fake.getDomain = original
    fake.addDomain({ id: D.acme1, team_id: T.acme })
    const { ValidationError } = await import('../../src/errors.js')
    fake.failWith = new ValidationError([
      { path: 'model', message: 'model must be something.' },
      { path: 'x', message: 'second.' },
    ])
    const res = await ctx.app.inject({
      url: url('overview', `domain_id=${D.acme1}`),
      headers: bearer(ctx.key),
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ detail: 'model must be something.' })
  })

  it('a payload that breaks the documented schema is a 500, never sent', async () => {
    fake.computeSentimentOverview = async () => ({
      data: { positive_percent: Number.NaN, negative_percent: 0, total_mentions: 0 },
      domain_id: D.acme1,
      days: 30,
      model: 'all',
      generated_at: 'x',
    })
    const res = await ctx.app.inject({
      url: url('overview', `domain_id=${D.acme1}`),
      headers: bearer(ctx.key),
    })
    expect(res.statusCode).toBe(500)
    expect(res.body).toBe('{"detail":"Internal server error."}')
  })

  it('concurrent identical misses run one query', async () => {
    fake.delayMs = 50
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        ctx.app.inject({ url: url('themes', `domain_id=${D.acme1}&days=9`), headers: bearer(ctx.key) }),
      ),
    )
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200))
    expect(fake.computeCalls).toBe(1)
    expect(new Set(results.map((r) => r.body)).size).toBe(1)
  })

  it('saturated: 503 with Retry-After instead of an unbounded queue; 503s do not count', async () => {
    const app = await buildServer({
      engine: fake,
      logger: false,
      clock: () => ctx.now.ms,
      maxConcurrentQueries: 1,
      maxQueuedQueries: 1,
      rateLimit: { limit: 100, windowSeconds: 60 },
    })
    fake.delayMs = 100
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((days) =>
        app.inject({ url: url('prompts', `domain_id=${D.acme1}&days=${days}`), headers: bearer(ctx.key) }),
      ),
    )
    const statuses = results.map((r) => r.statusCode).sort()
    expect(statuses).toEqual([200, 200, 503, 503, 503])
    for (const res of results.filter((r) => r.statusCode === 503)) {
      expect(res.headers['retry-after']).toBe('1')
      expect(res.json()).toEqual({ detail: 'The service is busy. Please try again shortly.' })
    }
    expect(fake.computeCalls).toBe(2)
    fake.delayMs = 0
    const after = await app.inject({
      url: url('prompts', `domain_id=${D.acme1}&days=9`),
      headers: bearer(ctx.key),
    })
    expect(after.headers['x-ratelimit-remaining']).toBe(String(100 - 3))
    await app.close()
  })

  it('healthz reports a closed database with 503', async () => {
    await fake.close()
    const res = await ctx.app.inject({ url: '/healthz' })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toEqual({ status: 'unavailable', database: 'closed' })
  })

  it('logs are structured and never contain a key or the Authorization header', async () => {
    const lines: string[] = []
    const app = await buildServer({
      engine: fake,
      logger: { level: 'trace', stream: { write: (m) => void lines.push(m) } },
      adminToken: ADMIN_TOKEN,
    })
    fake.failWith = new Error('boom')
    await app.inject({ url: url('prompts', `domain_id=${D.acme1}`), headers: bearer(ctx.key) })
    fake.failWith = undefined
    await app.inject({
      url: url('prompts', `domain_id=${D.acme1}`),
      headers: { ...bearer(ctx.key), 'x-request-id': 'log-test' },
    })
    await app.inject({
      method: 'POST',
      url: '/internal/v1/ingest',
      payload: '',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    await app.close()
    expect(lines.length).toBeGreaterThan(3)
    for (const line of lines) {
      expect(() => JSON.parse(line)).not.toThrow()
      expect(line).not.toContain(ctx.key)
      expect(line).not.toContain(ADMIN_TOKEN)
      expect(line.toLowerCase()).not.toContain('bearer')
    }
    expect(lines.some((l) => JSON.parse(l).reqId === 'log-test')).toBe(true)
  })
})
