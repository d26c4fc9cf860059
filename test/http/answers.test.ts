/**
 * GET /api/v1/answers over HTTP (docs/API.md, "GET /api/v1/answers"): a key never reads another
 * tenant's answer texts, even with the cache primed by a key that may; a tampered cursor is a 400
 * naming `cursor` with no internal text.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS } from '../../src/api/index.js'
import { buildServer } from '../../src/http/index.js'
import { openEngine, type Engine } from '../../src/index.js'
import { analysis, domain, prompt, team } from '../support/records.js'

const path = ENDPOINTS.find((e) => e.id === 'answers')!.path
const TEAM_A = '10000000-0000-4000-8000-00000000000a'
const TEAM_B = '10000000-0000-4000-8000-00000000000b'
const DOMAIN_A = '20000000-0000-4000-8000-0000000000aa'
const PROMPT_A = '30000000-0000-4000-8000-0000000000aa'
const SECRET_TEXT = 'the secret answer text of tenant A'
const NOW = Date.parse('2026-11-20T15:00:00Z')

describe('answers over HTTP', () => {
  let engine: Engine
  let app: FastifyInstance
  let keyA: string
  let keyB: string
  beforeAll(async () => {
    engine = await openEngine()
    await engine.ingest([
      team({ id: TEAM_A, plan: 'pro' }),
      team({ id: TEAM_B, plan: 'pro' }),
      domain({ id: DOMAIN_A, team_id: TEAM_A }),
      prompt({ id: PROMPT_A, domain_id: DOMAIN_A }),
      ...[1, 2, 3].map((n) =>
        analysis({
          id: `40000000-0000-4000-8000-00000000000${n}`,
          domain_id: DOMAIN_A,
          prompt_id: PROMPT_A,
          response: `${SECRET_TEXT} ${n}`,
          mentions: [],
          citations: [],
          themes: [],
        }),
      ),
    ])
    keyA = (await engine.createApiKey({ teamId: TEAM_A })).key
    keyB = (await engine.createApiKey({ teamId: TEAM_B })).key
    app = await buildServer({ engine, logger: false, clock: () => NOW })
  })
  afterAll(async () => {
    await app.close()
    await engine.close()
  })
  const get = (key: string, query: string) =>
    app.inject({ url: `${path}?${query}`, headers: { authorization: `Bearer ${key}` } })

  it("another tenant's key never reads the texts, with the cache primed by the owner's key", async () => {
    for (const query of [`domain_id=${DOMAIN_A}`, `domain_id=${DOMAIN_A}&limit=1`]) {
      const owner = await get(keyA, query)
      expect(owner.statusCode).toBe(200)
      expect(owner.body).toContain(SECRET_TEXT)
      expect((await get(keyA, query)).headers['x-cache']).toBe('HIT')
      const other = await get(keyB, query)
      expect([403, 404]).toContain(other.statusCode)
      expect(other.body).not.toContain(SECRET_TEXT)
      expect(other.headers['x-cache']).not.toBe('HIT')
    }
  })

  it('pages with next_cursor; a tampered cursor is a 400 naming cursor, without internals', async () => {
    const first = (await get(keyA, `domain_id=${DOMAIN_A}&limit=2`)).json() as {
      data: { items: unknown[]; next_cursor: string }
    }
    expect(first.data.items).toHaveLength(2)
    const second = await get(keyA, `domain_id=${DOMAIN_A}&limit=2&cursor=${first.data.next_cursor}`)
    expect(second.statusCode).toBe(200)
    expect((second.json() as { data: { items: unknown[]; next_cursor: null } }).data).toMatchObject({
      next_cursor: null,
    })
    const c = first.data.next_cursor
    const tampered = `${c.slice(0, -1)}${c.endsWith('A') ? 'B' : 'A'}`
    for (const query of [`limit=2&cursor=${tampered}`, `limit=3&cursor=${c}`, 'cursor=not-a-cursor']) {
      const r = await get(keyA, `domain_id=${DOMAIN_A}&${query}`)
      expect(r.statusCode, query).toBe(400)
      const detail = (r.json() as { detail: string }).detail
      expect(detail).toMatch(/^cursor must be the next_cursor of an earlier page of the same query/)
      expect(detail).not.toMatch(/duckdb|sql|stack|at /i)
    }
    expect((await get(keyA, `domain_id=${DOMAIN_A}&granularity=day`)).statusCode).toBe(400)
    expect((await get(keyA, `domain_id=${DOMAIN_A}&entity=Acme`)).json()).toEqual({
      detail: 'entity must be brand or a competitor id (a UUID).',
    })
  })
})
