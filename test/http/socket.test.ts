/**
 * Over a real socket on 127.0.0.1 (port 0): the spec's worked example end to end, the rate limit
 * exact under concurrent requests, and graceful shutdown (in-flight requests finish, DuckDB closes).
 */
import { readFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/http/index.js'
import { openEngine } from '../../src/index.js'
import type { Engine } from '../../src/types.js'
import { FakeEngine } from './fake-engine.js'
import { D, ENDPOINTS, T, bearer, tenantRecords } from './helpers.js'

const EXAMPLE = new URL('../../fixtures/spec-example/', import.meta.url)
const PATHS: Record<string, string> = {
  prompts: ENDPOINTS.prompts,
  competitors: ENDPOINTS.competitors,
  overview: ENDPOINTS.overview,
  themes: ENDPOINTS.themes,
}

let server: RunningServer | undefined
let engine: Engine | undefined
afterEach(async () => {
  await server?.close()
  if (engine?.isOpen) await engine.close()
  server = undefined
  engine = undefined
})

describe('over a socket on 127.0.0.1', () => {
  it("serves the spec's worked example over a hardened engine: each payload equals expected.json", async () => {
    engine = await openEngine({ hardened: true })
    await engine.ingestFile(new URL('data.ndjson', EXAMPLE).pathname)
    const teamId = '0a9c2f4e-1b7d-4c3a-9e8f-5d6b7a8c9d01'
    const { key } = await engine.createApiKey({ teamId })
    const queries = JSON.parse(await readFile(new URL('queries.json', EXAMPLE), 'utf8')) as Array<
      Record<string, string | number>
    >
    const expected = JSON.parse(await readFile(new URL('expected.json', EXAMPLE), 'utf8')) as unknown[]
    let clock = 0
    server = await startServer({
      engine,
      port: 0,
      host: '127.0.0.1',
      signals: [],
      logger: false,
      clock: () => clock,
    })
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    for (const [i, q] of queries.entries()) {
      clock = Date.parse(String(q.now))
      const params = new URLSearchParams({
        domain_id: String(q.domain_id).toUpperCase(),
        days: String(q.days),
      })
      if (q.limit !== undefined) params.set('limit', String(q.limit))
      if (q.model !== undefined) params.set('model', String(q.model))
      const res = await fetch(`${server.url}${PATHS[String(q.endpoint)]}?${params}`, { headers: bearer(key) })
      expect(res.status, JSON.stringify(q)).toBe(200)
      expect(res.headers.get('x-cache')).toBe('MISS')
      expect(await res.json()).toEqual(expected[i])
    }
  })

  it('rate limit is exact under concurrent requests: the limit succeeds, the rest get 429 with correct headers', async () => {
    engine = await openEngine({})
    await engine.ingest(tenantRecords())
    const { key } = await engine.createApiKey({ teamId: T.acme })
    const now = Date.parse('2026-11-20T15:00:17.250Z') // 42.75 s before the window ends
    const reset = Date.parse('2026-11-20T15:01:00Z') / 1000
    server = await startServer({
      engine,
      port: 0,
      signals: [],
      logger: false,
      clock: () => now,
      rateLimit: { limit: 25, windowSeconds: 60 },
    })
    const urls = [ENDPOINTS.prompts, ENDPOINTS.competitors, ENDPOINTS.overview, ENDPOINTS.themes]
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(`${server!.url}${urls[i % 4]}?domain_id=${D.acme1}&days=${1 + (i % 7)}`, {
          headers: bearer(key),
        }),
      ),
    )
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(25)
    expect(statuses.filter((s) => s === 429)).toHaveLength(35)
    const remaining = responses
      .filter((r) => r.status === 200)
      .map((r) => Number(r.headers.get('x-ratelimit-remaining')))
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i))
    for (const res of responses) {
      expect(res.headers.get('x-ratelimit-limit')).toBe('25')
      expect(res.headers.get('x-ratelimit-reset')).toBe(String(reset))
      if (res.status === 429) {
        expect(res.headers.get('retry-after')).toBe('43')
        expect(res.headers.get('x-ratelimit-remaining')).toBe('0')
        expect(res.headers.get('x-cache')).toBeNull()
        expect(await res.json()).toEqual({ detail: 'Too many requests. Please try again later.' })
      } else {
        await res.arrayBuffer()
      }
    }
    // Another key is not affected.
    const other = (await engine.createApiKey({ teamId: T.acme })).key
    const res = await fetch(`${server.url}${ENDPOINTS.prompts}?domain_id=${D.acme1}`, {
      headers: bearer(other),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-ratelimit-remaining')).toBe('24')
  })

  it('graceful shutdown: in-flight requests finish, new connections are refused, the engine is closed', async () => {
    const fake = new FakeEngine()
    engine = fake
    await fake.ingest(tenantRecords())
    const { key } = await fake.createApiKey({ teamId: T.acme })
    fake.delayMs = 300
    server = await startServer({ engine: fake, port: 0, signals: [], logger: false })
    const { url } = server
    const inFlight = fetch(`${url}${ENDPOINTS.prompts}?domain_id=${D.acme1}`, { headers: bearer(key) })
    // Wait until the request is inside the handler (the query has started).
    while (fake.computeCalls === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    const closing = server.close()
    const res = await inFlight
    expect(res.status).toBe(200)
    expect(((await res.json()) as { domain_id: string }).domain_id).toBe(D.acme1)
    await closing
    await server.closed
    expect(fake.isOpen).toBe(false)
    await expect(fetch(`${url}/healthz`)).rejects.toThrow()
  })

  it('shutdown does not wait forever: connections left after shutdownTimeoutMs are cut', async () => {
    const fake = new FakeEngine()
    engine = fake
    server = await startServer({ engine: fake, port: 0, signals: [], logger: false, shutdownTimeoutMs: 300 })
    const { port } = new URL(server.url)
    // A client that sends half a request and then stalls.
    const socket = connect(Number(port), '127.0.0.1')
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n')
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    await new Promise((resolve) => setTimeout(resolve, 50))
    const started = Date.now()
    await server.close()
    await ended
    const elapsed = Date.now() - started
    expect(elapsed).toBeGreaterThanOrEqual(250) // not closed as idle: cut by the timeout
    expect(elapsed).toBeLessThan(5_000)
    expect(fake.isOpen).toBe(false)
  })

  it('a shutdown signal (SIGUSR2 standing in for SIGTERM in a test worker) triggers the same shutdown', async () => {
    const fake = new FakeEngine()
    engine = fake
    server = await startServer({ engine: fake, port: 0, logger: false, signals: ['SIGUSR2'] })
    process.kill(process.pid, 'SIGUSR2')
    await server.closed
    expect(fake.isOpen).toBe(false)
  })
})
