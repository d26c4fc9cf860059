/**
 * The operations endpoints through inject(): API keys on a running server (a new key works at
 * once, a revoked one is refused from the next request), delete records over the ingest endpoint,
 * prune, backup and /metrics, all behind the admin token; bad input answered with a clear detail
 * and nothing changed; the token and secrets never in a log line; metric labels bounded.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildServer, type BuildServerOptions } from '../../src/http/index.js'
import type { Engine } from '../../src/types.js'
import { analysis, prompt } from '../support/records.js'
import { FakeEngine } from './fake-engine.js'
import { ADMIN_TOKEN, D, ENDPOINTS, T, bearer, makeEngine, tenantRecords } from './helpers.js'

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` }
const PROMPT_ID = '30000000-0000-4000-8000-0000000000a1'
const NOW = Date.parse('2026-11-20T15:00:30Z')

interface Ctx {
  engine: Engine
  app: FastifyInstance
  backups: string
  logs: string[]
}

async function setup(options: Partial<BuildServerOptions> = {}): Promise<Ctx> {
  const engine = await makeEngine()
  await engine.ingest([
    ...tenantRecords(),
    prompt({ id: PROMPT_ID, domain_id: D.acme1 }),
    analysis({
      domain_id: D.acme1,
      prompt_id: PROMPT_ID,
      answered_at: '2026-11-19T10:00:00Z',
      mentions: [],
      themes: [],
    }),
    analysis({
      domain_id: D.acme1,
      prompt_id: PROMPT_ID,
      answered_at: '2026-10-01T10:00:00Z',
      mentions: [],
      themes: [],
    }),
  ])
  const backups = mkdtempSync(join(tmpdir(), 'va-ops-'))
  const logs: string[] = []
  const app = await buildServer({
    engine,
    adminToken: ADMIN_TOKEN,
    backupDir: backups,
    clock: () => NOW,
    rateLimit: { limit: 1000, windowSeconds: 60 },
    logger: { level: 'trace', stream: { write: (m) => void logs.push(m) } },
    ...options,
  })
  return { engine, app, backups, logs }
}

const report = (ctx: Ctx, key: string, domain: string = D.acme1) =>
  ctx.app.inject({ url: `${ENDPOINTS.prompts}?domain_id=${domain}&days=30`, headers: bearer(key) })

describe('operations endpoints', () => {
  let ctx: Ctx
  beforeEach(async () => {
    ctx = await setup()
  })
  afterEach(async () => {
    await ctx.app.close()
    await ctx.engine.close()
  })

  const routes: Array<[string, string, unknown?]> = [
    ['POST', '/internal/v1/keys', { team_id: T.acme }],
    ['GET', '/internal/v1/keys'],
    ['DELETE', '/internal/v1/keys/10000000-0000-4000-8000-0000000000ff'],
    ['POST', '/internal/v1/prune', { older_than_days: 0 }],
    ['POST', '/internal/v1/backup'],
    ['GET', '/metrics'],
  ]

  it('every one refuses a missing or wrong admin token, and API keys; nothing changes', async () => {
    const { key } = await ctx.engine.createApiKey({ teamId: T.acme })
    const before = { stats: await ctx.engine.stats(), keys: await ctx.engine.listApiKeys() }
    for (const [method, url, payload] of routes) {
      for (const authorization of ['', `Bearer ${ADMIN_TOKEN}x`, `Bearer ${key}`, ADMIN_TOKEN]) {
        const res = await ctx.app.inject({
          method: method as 'GET',
          url,
          payload: payload as object,
          headers: { authorization },
        })
        expect(res.statusCode, `${method} ${url}`).toBe(401)
        expect(res.json()).toEqual({ detail: 'Invalid admin token.' })
        expect(res.headers['www-authenticate']).toBe('Bearer realm="visibility-analytics-internal"')
      }
    }
    expect({ stats: await ctx.engine.stats(), keys: await ctx.engine.listApiKeys() }).toEqual(before)
    expect(readdirSync(ctx.backups)).toEqual([])
  })

  it('none exists without an admin token; other methods are 405', async () => {
    const open = await buildServer({ engine: ctx.engine, logger: false })
    for (const [method, url] of routes)
      expect((await open.inject({ method: method as 'GET', url, headers: admin })).statusCode).toBe(404)
    await open.close()
    const put = await ctx.app.inject({ method: 'PUT', url: '/internal/v1/keys', headers: admin })
    expect(put.statusCode).toBe(405)
    expect(put.headers.allow).toBe('GET, POST, HEAD')
  })

  describe('keys', () => {
    const create = (body: unknown) =>
      ctx.app.inject({ method: 'POST', url: '/internal/v1/keys', payload: body as object, headers: admin })

    it('a created key works at once; the listing never shows a secret or hash; a revoked key is refused from the next request', async () => {
      const res = await create({ team_id: T.acme.toUpperCase(), name: 'reporting' })
      expect(res.statusCode).toBe(201)
      const created = res.json() as { id: string; key: string }
      expect(created).toMatchObject({
        team_id: T.acme,
        scope_team_ids: [T.acme],
        allowed_domains: null,
        name: 'reporting',
        revoked_at: null,
      })
      expect(created.key).toMatch(/^va_live_/)
      expect((await report(ctx, created.key)).statusCode).toBe(200)

      const listed = await ctx.app.inject({ url: '/internal/v1/keys', headers: admin })
      expect(listed.statusCode).toBe(200)
      expect(listed.body).not.toContain(created.key)
      expect(listed.body).not.toContain('hash')
      const { items } = listed.json() as { items: Array<Record<string, unknown>> }
      expect(items).toEqual([expect.objectContaining({ id: created.id, name: 'reporting' })])
      expect(Object.keys(items[0]!).sort()).toEqual(
        [
          'allowed_domains',
          'created_at',
          'id',
          'name',
          'prefix',
          'revoked_at',
          'scope_team_ids',
          'team_id',
        ].sort(),
      )

      const revoked = await ctx.app.inject({
        method: 'DELETE',
        url: `/internal/v1/keys/${created.id}`,
        headers: admin,
      })
      expect(revoked.statusCode).toBe(200)
      expect(revoked.json()).toMatchObject({ id: created.id, revoked_at: expect.any(String) })
      expect((await report(ctx, created.key)).statusCode).toBe(401)
      const again = await ctx.app.inject({
        method: 'DELETE',
        url: `/internal/v1/keys/${created.id}`,
        headers: admin,
      })
      expect(again.statusCode).toBe(404)
      expect(again.json()).toEqual({ detail: 'No active API key with this id (unknown or already revoked).' })
    })

    it('scope and allowed domains: checked against the store', async () => {
      const res = await create({
        team_id: T.acme,
        scope_team_ids: [T.acme, T.globex],
        allowed_domains: [D.globex],
      })
      expect(res.statusCode).toBe(201)
      const { key } = res.json() as { key: string }
      expect((await report(ctx, key, D.globex)).statusCode).toBe(200)
      expect((await report(ctx, key, D.acme1)).statusCode).toBe(403)
    })

    it('bad bodies: 400 naming the field, nothing created', async () => {
      const cases: Array<[unknown, string]> = [
        [{}, 'team_id must be a UUID.'],
        [{ team_id: 'acme' }, 'team_id must be a UUID.'],
        [
          { team_id: '10000000-0000-4000-8000-0000000000ff' },
          'team_id: team 10000000-0000-4000-8000-0000000000ff not found.',
        ],
        [
          { team_id: T.acme, allowed_domains: [D.globex] },
          `allowed_domains: domain ${D.globex} belongs to team ${T.globex}, which the key is not scoped to.`,
        ],
        [{ team_id: T.acme, scope_team_ids: [] }, 'scope_team_ids must list at least one team.'],
        [{ team_id: T.acme, scope_team_ids: ['x'] }, 'each of scope_team_ids must be a UUID.'],
        [{ team_id: T.acme, name: 7 }, 'name must be a string of 1 to 200 characters or null.'],
        [{ team_id: T.acme, secret: 'mine' }, 'unknown field secret.'],
        [
          [T.acme],
          'The body must be a JSON object {"team_id", "scope_team_ids"?, "allowed_domains"?, "name"?}.',
        ],
      ]
      for (const [body, detail] of cases) {
        const res = await create(body)
        expect(res.statusCode, JSON.stringify(body)).toBe(400)
        expect(res.json()).toEqual({ detail })
      }
      const notJson = await ctx.app.inject({
        method: 'POST',
        url: '/internal/v1/keys',
        payload: '{"team_id":',
        headers: { ...admin, 'content-type': 'application/json' },
      })
      expect(notJson.statusCode).toBe(400)
      expect(notJson.body).not.toMatch(/Unexpected|JSON\.parse|at /)
      expect(await ctx.engine.listApiKeys()).toEqual([])
    })

    it('a malformed key id is a 400, an unknown one a 404', async () => {
      const bad = await ctx.app.inject({ method: 'DELETE', url: '/internal/v1/keys/nope', headers: admin })
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toEqual({ detail: 'id must be a UUID.' })
      const unknown = await ctx.app.inject({
        method: 'DELETE',
        url: '/internal/v1/keys/10000000-0000-4000-8000-0000000000ff',
        headers: admin,
      })
      expect(unknown.statusCode).toBe(404)
    })
  })

  it('delete records over the ingest endpoint: counts answered, cache cleared, a deleted team keys refused at once', async () => {
    const { key } = await ctx.engine.createApiKey({ teamId: T.acme })
    expect((await report(ctx, key)).headers['x-cache']).toBe('MISS')
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/internal/v1/ingest',
      payload: `${JSON.stringify({ type: 'delete', entity: 'team', id: T.acme })}\n${JSON.stringify({ type: 'delete', entity: 'analysis', id: PROMPT_ID })}\n`,
      headers: { ...admin, 'content-type': 'application/x-ndjson' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      teams: 0,
      deleted: { teams: 1, domains: 2, prompts: 1, analyses: 2, api_keys: 1, not_found: 1 },
    })
    expect((await report(ctx, key)).statusCode).toBe(401)
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/internal/v1/ingest',
      payload: `${JSON.stringify({ type: 'delete', entity: 'galaxy', id: T.globex })}\n`,
      headers: { ...admin, 'content-type': 'application/x-ndjson' },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({
      issues: [{ line: 1, field: 'entity', message: expect.stringMatching(/must be one of team, domain/) }],
    })
  })

  describe('prune', () => {
    const prune = (payload: unknown) =>
      ctx.app.inject({
        method: 'POST',
        url: '/internal/v1/prune',
        payload: payload as object,
        headers: admin,
      })

    it('deletes the analyses before today - N and answers the counts', async () => {
      const res = await prune({ older_than_days: 30 })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({
        before: '2026-10-21',
        deleted: { analyses: 1, mentions: 0, citations: 1, theme_occurrences: 0, fanout_queries: 0 },
      })
    })

    it('a negative, fractional or missing age: 400, nothing deleted', async () => {
      const before = await ctx.engine.stats()
      const age = 'older_than_days must be an integer from 0 to 36500.'
      const shape = 'The body must be a JSON object {"older_than_days": N}.'
      const cases: Array<[unknown, string]> = [
        [{ older_than_days: -1 }, age],
        [{ older_than_days: 1.5 }, age],
        [{ older_than_days: '3' }, age],
        [{}, age],
        [[3], shape],
        ['older_than_days=3', shape],
      ]
      for (const [body, detail] of cases) {
        const res = await prune(body)
        expect(res.statusCode, JSON.stringify(body)).toBe(400)
        expect(res.json()).toEqual({ detail })
      }
      expect(await ctx.engine.stats()).toEqual(before)
    })
  })

  describe('backup', () => {
    it('writes a new directory under VA_BACKUP_DIR with its manifest', async () => {
      const res = await ctx.app.inject({ method: 'POST', url: '/internal/v1/backup', headers: admin })
      expect(res.statusCode).toBe(201)
      const { dir, manifest } = res.json() as { dir: string; manifest: { tables: Record<string, number> } }
      expect(dir).toBe(join(ctx.backups, 'backup-20261120T150030.000Z'))
      expect(manifest.tables).toMatchObject({ teams: 5, domains: 6, analyses: 2, api_keys: 0 })
      expect(readdirSync(ctx.backups)).toEqual(['backup-20261120T150030.000Z'])
      expect(existsSync(join(dir, 'manifest.json'))).toBe(true)
    })

    it('off without VA_BACKUP_DIR: 409', async () => {
      const app = await buildServer({ engine: ctx.engine, adminToken: ADMIN_TOKEN, logger: false })
      const res = await app.inject({ method: 'POST', url: '/internal/v1/backup', headers: admin })
      expect(res.statusCode).toBe(409)
      expect(res.json()).toEqual({
        detail: 'Backups are off: start the server with VA_BACKUP_DIR set to a writable directory.',
      })
      await app.close()
    })

    it('a backup dir that cannot be written: 500 saying why, nothing left behind', async () => {
      const file = join(ctx.backups, 'not-a-dir')
      writeFileSync(file, 'x')
      const app = await buildServer({
        engine: ctx.engine,
        adminToken: ADMIN_TOKEN,
        backupDir: file,
        logger: false,
        clock: () => NOW,
      })
      const res = await app.inject({ method: 'POST', url: '/internal/v1/backup', headers: admin })
      expect(res.statusCode).toBe(500)
      expect(res.json().detail).toMatch(
        /^Backup failed: cannot write the backup to .*not-a-dir\/backup-.*: a parent is not a directory/,
      )
      expect(readdirSync(ctx.backups)).toEqual(['not-a-dir'])
      await app.close()
    })
  })

  describe('metrics', () => {
    const scrape = async () => {
      const res = await ctx.app.inject({ url: '/metrics', headers: admin })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
      return res.body
    }

    it('requests, latency, cache, rate limits, ingest, queries, aggregate cache, database size, process', async () => {
      const { key } = await ctx.engine.createApiKey({ teamId: T.acme })
      await report(ctx, key)
      await report(ctx, key)
      await report(ctx, key, D.globex)
      await ctx.app.inject({ url: '/nowhere?domain_id=x' })
      await ctx.app.inject({
        method: 'POST',
        url: '/internal/v1/ingest',
        payload: `${JSON.stringify(prompt({ id: '30000000-0000-4000-8000-0000000000a2', domain_id: D.acme1 }))}\n`,
        headers: { ...admin, 'content-type': 'application/x-ndjson' },
      })
      await ctx.app.inject({
        method: 'POST',
        url: '/internal/v1/ingest',
        payload: '{"type":"x"}\n',
        headers: { ...admin, 'content-type': 'application/x-ndjson' },
      })
      const text = await scrape()
      const route = ENDPOINTS.prompts
      expect(text).toContain(`va_http_requests_total{method="GET",route="${route}",status="200"} 2`)
      expect(text).toContain(`va_http_requests_total{method="GET",route="${route}",status="403"} 1`)
      expect(text).toContain('va_http_requests_total{method="GET",route="unmatched",status="404"} 1')
      expect(text).toMatch(
        new RegExp(
          `va_http_request_duration_seconds_bucket\\{le="\\+Inf",method="GET",route="${route}"\\} 3`,
        ),
      )
      expect(text).toContain(`va_response_cache_total{route="${route}",result="miss"} 1`)
      expect(text).toContain(`va_response_cache_total{route="${route}",result="hit"} 1`)
      expect(text.match(/va_response_cache_total\{/g)).toHaveLength(2) // report routes only
      expect(text).toContain('va_query_duration_seconds_count{report="prompt-series"} 1')
      expect(text).toContain('va_ingest_calls_total{outcome="stored"} 1')
      expect(text).toContain('va_ingest_calls_total{outcome="refused"} 1')
      expect(text).toContain('va_ingest_records_total{table="prompts"} 1')
      expect(text).toMatch(/va_aggregate_cache_rows [1-9]/)
      expect(text).toMatch(/va_aggregate_cache_lookups_total\{result="miss"\} [1-9]/)
      expect(text).toContain('va_database_bytes 0') // in memory
      expect(text).toMatch(/process_cpu_user_seconds_total \d/)
      expect(text).toMatch(/nodejs_heap_size_used_bytes \d/)
    })

    it('429s are counted as rate limited', async () => {
      const app = await buildServer({
        engine: ctx.engine,
        adminToken: ADMIN_TOKEN,
        logger: false,
        rateLimit: { limit: 1, windowSeconds: 60 },
      })
      const { key } = await ctx.engine.createApiKey({ teamId: T.acme })
      for (let i = 0; i < 3; i++)
        await app.inject({ url: `${ENDPOINTS.prompts}?domain_id=${D.acme1}`, headers: bearer(key) })
      const text = (await app.inject({ url: '/metrics', headers: admin })).body
      expect(text).toContain(`va_rate_limited_total{route="${ENDPOINTS.prompts}"} 2`)
      await app.close()
    })

    it('no label value is a domain id, a key, a token or a raw URL', async () => {
      const { key } = await ctx.engine.createApiKey({ teamId: T.acme })
      for (const domain of [D.acme1, D.globex, D.acme2, '20000000-0000-4000-8000-00000000abcd', 'junk'])
        await report(ctx, key, domain)
      await ctx.app.inject({ url: `/api/v1/${D.acme1}`, headers: bearer(key) })
      await ctx.app.inject({
        url: `${ENDPOINTS.prompts}?domain_id=${D.acme1}`,
        headers: bearer('va_live_notakey'),
      })
      await ctx.app.inject({ method: 'DELETE', url: `/internal/v1/keys/${T.acme}`, headers: admin })
      const text = await scrape()
      for (const secret of [
        D.acme1,
        D.globex,
        D.acme2,
        'abcd',
        'junk',
        key,
        'va_live_',
        ADMIN_TOKEN,
        T.acme,
        'domain_id=',
      ])
        expect(text, secret).not.toContain(secret)
      const labels = new Set(
        [...text.matchAll(/\{([^}]*)\}/g)].flatMap((m) => m[1]!.split(',').map((kv) => kv.split('=')[0])),
      )
      expect([...labels].sort()).toEqual(
        [
          'cause',
          'le',
          'method',
          'operation',
          'outcome',
          'quantile',
          'report',
          'result',
          'route',
          'space',
          'status',
          'table',
          'type',
          'kind',
          'version',
          'major',
          'minor',
          'patch',
        ]
          .filter((l) => labels.has(l))
          .sort(),
      )
      expect(text).toContain('route="/internal/v1/keys/:id"')
    })

    it('shed requests (503) are counted', async () => {
      const fake = new FakeEngine()
      fake.addTeam({ id: T.acme })
      fake.addDomain({ id: D.acme1, team_id: T.acme })
      const { key } = await fake.createApiKey({ teamId: T.acme })
      fake.delayMs = 200
      const app = await buildServer({
        engine: fake,
        adminToken: ADMIN_TOKEN,
        logger: false,
        maxConcurrentQueries: 1,
        maxQueuedQueries: 0,
      })
      const answers = await Promise.all(
        [7, 8, 9].map((days) =>
          app.inject({ url: `${ENDPOINTS.prompts}?domain_id=${D.acme1}&days=${days}`, headers: bearer(key) }),
        ),
      )
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 503, 503])
      expect((await app.inject({ url: '/metrics', headers: admin })).body).toContain(
        `va_shed_total{route="${ENDPOINTS.prompts}"} 2`,
      )
      await app.close()
    })
  })

  it('VA_RETAIN_DAYS: a prune when the server is ready, then one per interval', async () => {
    const before = (await ctx.engine.stats()).analyses!
    const app = await buildServer({
      engine: ctx.engine,
      logger: false,
      clock: () => NOW,
      retainDays: 30,
      retentionIntervalMs: 100,
    })
    await app.ready()
    await expect.poll(async () => (await ctx.engine.stats()).analyses, { timeout: 5000 }).toBe(before - 1)
    await ctx.engine.ingest([
      analysis({
        domain_id: D.acme1,
        prompt_id: PROMPT_ID,
        answered_at: '2025-01-01T00:00:00Z',
        mentions: [],
        themes: [],
      }),
    ])
    await expect.poll(async () => (await ctx.engine.stats()).analyses, { timeout: 5000 }).toBe(before - 1)
    await app.close()
  })

  it('the admin token and the secrets of new keys are never logged', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/internal/v1/keys',
      payload: { team_id: T.acme },
      headers: admin,
    })
    const { key, id } = created.json() as { key: string; id: string }
    await ctx.app.inject({ url: '/internal/v1/keys', headers: admin })
    await ctx.app.inject({ method: 'DELETE', url: `/internal/v1/keys/${id}`, headers: admin })
    await ctx.app.inject({
      method: 'POST',
      url: '/internal/v1/prune',
      payload: { older_than_days: 9999 },
      headers: admin,
    })
    await ctx.app.inject({ method: 'POST', url: '/internal/v1/backup', headers: admin })
    await ctx.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}x` } })
    const all = ctx.logs.join('')
    expect(ctx.logs.length).toBeGreaterThan(5)
    expect(all).toContain('api key created')
    expect(all).not.toContain(ADMIN_TOKEN)
    expect(all).not.toContain(key)
  })
})
