/**
 * The service sends the engine's payload as it is, without checking it against the row's schema on
 * each request (the check cost a tenth of a request's CPU: bench/NOTES.md). What makes that safe is
 * this test, beside the golden cases (test/golden.test.ts: the engine's payloads are valid bodies
 * of their schemas, keys in order): every row of the endpoint table, over several windows, models,
 * granularities, limits and domains of a generated store, answers a body that its payload schema
 * accepts, whose objects keep the schema's key order, and that the schema's output writes to the
 * same bytes (what the service sent when it did check). Each carries the ETag of its own bytes,
 * from the cache too (the tag is kept with the cached body).
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { buildServer } from '../../src/http/index.js'
import { etagOf } from '../../src/http/plugins/conventions.js'
import { CHANNELS, openEngine, type Engine } from '../../src/index.js'
import { dimRecords, makeAnalyses, makeDims, rng } from '../support/generate.js'
import { payloadProblems } from '../support/golden.js'
import { bearer } from './helpers.js'

const NOW = Date.parse('2026-04-01T12:00:00Z')
const NON_ASCII = ' — ação ✓ 日本 🚀'
const ROWS = ENDPOINTS as readonly Endpoint[]

let engine: Engine
let app: FastifyInstance
let key: string
let domains: string[]

beforeAll(async () => {
  const dims = makeDims(26, { teams: 2, domainsPerTeam: 2, promptsPerDomain: 6, competitorsPerDomain: 3 })
  // Text beyond ASCII, so that every body below is checked as UTF-8 bytes, not only as characters.
  for (const prompt of dims.prompts) prompt.text += NON_ASCII
  engine = await openEngine()
  await engine.ingest([...dimRecords(dims), ...makeAnalyses(26, dims, 1, 1500)])
  domains = dims.domains.map((d) => d.id)
  const teams = dims.teams.map((t) => t.id)
  key = (await engine.createApiKey({ teamId: teams[0]!, scopeTeamIds: teams })).key
  app = await buildServer({
    engine,
    logger: false,
    clock: () => NOW,
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
    cacheTtl: { seriesSeconds: 0, sentimentSeconds: 0 },
  })
  await app.ready()
})

afterAll(async () => {
  await app?.close()
  await engine?.close()
})

/** Query strings for a row: every combination of a few values of each of its parameters, sampled. */
function queries(row: Endpoint, r: () => number, n: number): string[] {
  const values: Record<string, string[]> = {
    domain_id: domains,
    days: ['1', '7', '30', '90', '365'],
    model: ['all', ...CHANNELS, 'gpt-4o-2024-08-06', 'no-such-model'],
    granularity: ['day', 'week', 'month'],
    limit: ['1', '3', '25'],
    page: ['1', '2'],
    size: ['1', '5'],
    // GET /api/v1/query: with date, as granularity needs it.
    dimensions: ['date', 'date,channel', 'country,date,tag', 'topic,prompt,date'],
  }
  const out: string[] = []
  for (let i = 0; i < n; i++) {
    const q = new URLSearchParams()
    for (const name of Object.keys(row.params)) {
      const choices = values[name]
      if (choices !== undefined && (name === 'domain_id' || r() < 0.8))
        q.set(name, choices[Math.floor(r() * choices.length)]!)
    }
    if ('start_date' in row.params && r() < 0.25) {
      q.delete('days')
      q.set('start_date', '2026-02-10')
      q.set('end_date', '2026-03-31')
    }
    out.push(q.toString())
  }
  return out
}

describe('the bodies sent are exact bodies of the payload schemas', () => {
  for (const row of ROWS) {
    it(`${row.id}`, async () => {
      const r = rng(row.path.length * 31 + row.id.length)
      let ok = 0
      for (const query of queries(row, r, 24)) {
        const res = await app.inject({ url: `${row.path}?${query}`, headers: bearer(key) })
        // Some combinations are refused (a raw model where only channels are allowed): those are
        // the parameter checks' business, not this test's.
        if (res.statusCode !== 200) {
          expect(res.statusCode, `${row.path}?${query}: ${res.body}`).toBe(400)
          continue
        }
        ok++
        const body = JSON.parse(res.body) as unknown
        expect(payloadProblems(row.payload, body), `${row.path}?${query}`).toEqual([])
        expect(JSON.stringify(row.payload.parse(body)), `${row.path}?${query}`).toBe(res.body)
        expect(res.headers.etag, `${row.path}?${query}`).toBe(etagOf(res.body))
      }
      expect(ok, 'answered 200 at least 12 times').toBeGreaterThanOrEqual(12)
    })
  }
})

describe('a cached answer carries the ETag of its own bytes', () => {
  it('every row with a cache: the miss, the hit and a 304 agree with the body', async () => {
    const cached = await buildServer({
      engine,
      logger: false,
      clock: () => NOW,
      rateLimit: { limit: 1_000_000, windowSeconds: 60 },
    })
    try {
      for (const row of ROWS.filter((r) => r.cache !== 'none' && 'domain_id' in r.params)) {
        for (const days of ['7', '30']) {
          const url = `${row.path}?domain_id=${domains[0]}&days=${days}`
          const miss = await cached.inject({ url, headers: bearer(key) })
          const hit = await cached.inject({ url, headers: bearer(key) })
          expect([miss.statusCode, hit.statusCode, hit.headers['x-cache']], url).toEqual([200, 200, 'HIT'])
          expect(hit.body, url).toBe(miss.body)
          expect(miss.headers.etag, url).toBe(etagOf(miss.body))
          expect(hit.headers.etag, url).toBe(etagOf(hit.body))
          const again = await cached.inject({
            url,
            headers: { ...bearer(key), 'if-none-match': hit.headers.etag as string },
          })
          expect([again.statusCode, again.headers.etag], url).toEqual([304, hit.headers.etag])
          // The CSV form of a list has its own tag (of the CSV bytes).
          const csv = await cached.inject({ url: `${url}&format=csv`, headers: bearer(key) })
          if (csv.statusCode === 200) expect(csv.headers.etag, url).toBe(etagOf(csv.body))
        }
      }
    } finally {
      await cached.close()
    }
  })
})

describe('the body on the wire', () => {
  it('is the payload in UTF-8: text beyond ASCII arrives as stored, Content-Length counts its bytes', async () => {
    const row = ROWS.find((r) => r.method === 'computePromptSeries')!
    const res = await app.inject({
      url: `${row.path}?domain_id=${domains[0]}&days=365`,
      headers: bearer(key),
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain(NON_ASCII)
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body))
    expect(res.rawPayload.equals(Buffer.from(res.body, 'utf8'))).toBe(true)
  })
})
