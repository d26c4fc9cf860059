/**
 * What `/mcp` checks before any MCP exchange (issue 21, items 2 and 7): every authenticated POST
 * counts against the key's rate limit, whatever its JSON-RPC method, with the REST 429 (status,
 * Retry-After, X-RateLimit-*, the REST detail as a JSON-RPC error); a key whose team has developer
 * access off cannot open a session; refusals open or evict no session; the Origin and Host rules
 * (DNS-rebinding protection); the tool list is built once per process; the environment variables.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import {
  DETAIL,
  loadConfig,
  startServer,
  type RunningServer,
  type StartServerOptions,
} from '../../src/http/index.js'
import type { Engine } from '../../src/index.js'
import { MCP_DETAIL, listedTools } from '../../src/mcp/index.js'
import { T, makeEngine, tenantRecords } from '../http/helpers.js'
import { INITIALIZE, getRequest, mcpRequest, rawOnce, type RawResponse } from './helpers.js'

const NOW_MS = Date.parse('2026-11-20T15:00:10Z')
const domains = (ENDPOINTS as readonly Endpoint[]).find((e) => e.id === 'domain-list')!

let engine: Engine
let key: string
let otherKey: string
let offKey: string

beforeAll(async () => {
  engine = await makeEngine()
  await engine.ingest(tenantRecords())
  key = (await engine.createApiKey({ teamId: T.acme })).key
  otherKey = (await engine.createApiKey({ teamId: T.globex })).key
  offKey = (await engine.createApiKey({ teamId: T.off })).key
})
afterAll(async () => {
  await engine.close()
})

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function serve(options: Partial<StartServerOptions> = {}): Promise<number> {
  const server = await startServer({
    engine,
    port: 0,
    signals: [],
    closeEngine: false,
    logger: false,
    rateLimit: { limit: 10_000, windowSeconds: 60 },
    ...options,
  })
  servers.push(server)
  return Number(new URL(server.url).port)
}

const post = (
  port: number,
  secret: string,
  body: unknown,
  sessionId?: string,
  extra?: Record<string, string>,
) => rawOnce(port, mcpRequest(port, secret, body, sessionId, extra))
const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' })
const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' })
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' }

async function open(port: number, secret: string): Promise<string> {
  const res = await post(port, secret, INITIALIZE)
  expect(res.status, res.body).toBe(200)
  return res.headers['mcp-session-id']!
}

function expectJsonRpcError(res: RawResponse, status: number, message: string, id: number | null): void {
  expect(res.status, res.body).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/json/)
  expect(res.headers['mcp-session-id']).toBeUndefined()
  const body = JSON.parse(res.body) as { jsonrpc: string; id: unknown; error: { message: string } }
  expect([body.jsonrpc, body.id, body.error.message]).toEqual(['2.0', id, message])
}

describe('rate limit: every MCP POST counts, as a REST request', () => {
  it('initialize, tools/list, ping and notifications over the limit: the REST 429 as a JSON-RPC error', async () => {
    let now = NOW_MS
    const port = await serve({
      clock: () => now,
      rateLimit: { limit: 4, windowSeconds: 60 },
      mcp: { maxSessionsPerKey: 1 },
    })
    const reset = String(Math.floor(NOW_MS / 60_000) * 60 + 60)
    const session = await open(port, key) // 1
    const counted = [
      await post(port, key, initialized, session), // 2
      await post(port, key, list(1), session), // 3
      await post(port, key, ping(2), session), // 4
    ]
    expect(counted.map((r) => r.status)).toEqual([202, 200, 200])
    expect(counted.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0'])
    // Over the limit, every method: the REST status, headers and detail.
    const rest = await rawOnce(port, getRequest(port, domains.path, key))
    expect(rest.status).toBe(429)
    expect(JSON.parse(rest.body)).toEqual({ detail: DETAIL.tooManyRequests })
    const refused: Array<[RawResponse, number | null]> = [
      [await post(port, key, INITIALIZE), INITIALIZE.id],
      [await post(port, key, list(3), session), 3],
      [await post(port, key, ping(4), session), 4],
      [await post(port, key, initialized, session), null],
      [await post(port, key, [ping(5), list(6)], session), null],
    ]
    for (const [res, id] of refused) {
      expectJsonRpcError(res, 429, DETAIL.tooManyRequests, id)
      expect(res.headers['retry-after']).toBe(rest.headers['retry-after'])
      expect(res.headers['x-ratelimit-limit']).toBe('4')
      expect(res.headers['x-ratelimit-remaining']).toBe('0')
      expect(res.headers['x-ratelimit-reset']).toBe(reset)
    }
    // A tool call over the limit stays a tool error with the same detail (the spec of the tools).
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'list_domains', arguments: {} },
    }
    const tool = await post(port, key, call, session)
    expect(tool.status).toBe(200)
    expect(JSON.parse(tool.body).result).toEqual({
      content: [{ type: 'text', text: DETAIL.tooManyRequests }],
      isError: true,
    })
    // The refused initialize opened no session: the key's only place still holds the first one.
    now += 60_000
    expect((await post(port, key, ping(8), session)).status).toBe(200)
  })

  it('each message of a batch counts once', async () => {
    const port = await serve({ rateLimit: { limit: 10, windowSeconds: 60 } })
    const session = await open(port, key)
    const res = await post(port, key, [ping(1), ping(2), initialized], session)
    expect(res.status).toBe(200)
    expect(res.headers['x-ratelimit-remaining']).toBe(String(10 - 1 - 3))
  })

  it('a bad key is the REST 401 and counts nothing; DELETE does not count', async () => {
    const port = await serve({ rateLimit: { limit: 10, windowSeconds: 60 } })
    const unauthorized = await post(port, 'va_live_nope', INITIALIZE)
    expect(unauthorized.status).toBe(401)
    expect(JSON.parse(unauthorized.body)).toEqual({ detail: DETAIL.unauthorized })
    const session = await open(port, key)
    const deleted = await rawOnce(port, mcpRequest(port, key, null, session))
    expect(deleted.status).toBe(200)
    expect(deleted.headers['x-ratelimit-remaining']).toBeUndefined()
    expect((await post(port, key, INITIALIZE)).headers['x-ratelimit-remaining']).toBe('8')
  })
})

describe('developer access', () => {
  it('a key whose team has developer access off cannot open a session, nor evict one', async () => {
    const port = await serve({ mcp: { maxSessions: 1 } })
    const session = await open(port, otherKey)
    const res = await post(port, offKey, INITIALIZE)
    expectJsonRpcError(res, 403, DETAIL.forbidden, INITIALIZE.id)
    // Counted, as the REST 403 is (check 2 comes before check 3).
    expect(res.headers['x-ratelimit-remaining']).toBe('9999')
    // Refused before any session lookup too.
    expectJsonRpcError(await post(port, offKey, list(2), session), 403, DETAIL.forbidden, 2)
    // The only place of the store still holds the other key's session.
    expect((await post(port, otherKey, ping(3), session)).status).toBe(200)
  })
})

describe('Origin and Host (DNS-rebinding protection)', () => {
  const withOrigin = (port: number, origin: string, secret = key) =>
    post(port, secret, INITIALIZE, undefined, { origin })

  it('by default: no Origin (not a browser) and loopback origins pass; any other origin is a 403', async () => {
    const port = await serve()
    expect((await post(port, key, INITIALIZE)).status).toBe(200)
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8787', 'http://[::1]:3000']) {
      expect((await withOrigin(port, origin)).status, origin).toBe(200)
    }
    for (const origin of ['https://evil.example', 'http://127.0.0.1.evil.example', 'null', 'file://']) {
      const res = await withOrigin(port, origin)
      expect(res.status, origin).toBe(403)
      expect(JSON.parse(res.body)).toEqual({ detail: MCP_DETAIL.originNotAllowed })
      // Before the key and the rate limit: nothing counted, even without a valid key.
      expect(res.headers['x-ratelimit-remaining']).toBeUndefined()
      expect((await withOrigin(port, origin, 'va_live_nope')).status).toBe(403)
    }
    // DELETE too.
    const session = await open(port, key)
    const del = await rawOnce(port, mcpRequest(port, key, null, session, { origin: 'https://evil.example' }))
    expect(del.status).toBe(403)
    expect((await post(port, key, ping(1), session)).status).toBe(200)
  })

  it('configured origins replace the default; * allows any', async () => {
    const port = await serve({ mcp: { allowedOrigins: ['https://app.example.com'] } })
    expect((await withOrigin(port, 'https://app.example.com')).status).toBe(200)
    expect((await withOrigin(port, 'http://localhost:5173')).status).toBe(403)
    const any = await serve({ mcp: { allowedOrigins: '*' } })
    expect((await withOrigin(any, 'https://evil.example')).status).toBe(200)
  })

  it('configured hosts: a request to another Host name is a 403', async () => {
    const port = await serve({ mcp: { allowedHosts: ['api.example.com'] } })
    const res = await post(port, key, INITIALIZE)
    expect(res.status).toBe(403)
    expect(JSON.parse(res.body)).toEqual({ detail: MCP_DETAIL.hostNotAllowed })
    const ok = await post(port, key, INITIALIZE, undefined, { host: `api.example.com:${port}` })
    expect(ok.status).toBe(200)
  })
})

describe('the tool list', () => {
  it('is built once per process and shared by every session', async () => {
    expect(listedTools()).toBe(listedTools())
    const port = await serve()
    const [a, b] = [await open(port, key), await open(port, otherKey)]
    const [listA, listB] = [await post(port, key, list(1), a), await post(port, otherKey, list(1), b)]
    expect(listA.body).toBe(listB.body)
    expect(JSON.parse(listA.body).result.tools).toEqual(listedTools())
  })
})

describe('configuration', () => {
  it('VA_MCP_REQUEST_TIMEOUT_MS, VA_MCP_ALLOWED_ORIGINS and VA_MCP_ALLOWED_HOSTS', () => {
    expect(loadConfig({}).mcp).toMatchObject({
      requestTimeoutMs: 60_000,
      allowedOrigins: undefined,
      allowedHosts: '*',
    })
    const config = loadConfig({
      VA_MCP_REQUEST_TIMEOUT_MS: '5000',
      VA_MCP_ALLOWED_ORIGINS: 'https://App.Example.com, http://localhost:5173/',
      VA_MCP_ALLOWED_HOSTS: 'API.example.com,[::1]',
    })
    expect(config.mcp).toMatchObject({
      requestTimeoutMs: 5_000,
      allowedOrigins: ['https://app.example.com', 'http://localhost:5173'],
      allowedHosts: ['api.example.com', '[::1]'],
    })
    expect(loadConfig({ VA_MCP_ALLOWED_ORIGINS: '*', VA_MCP_ALLOWED_HOSTS: '*' }).mcp).toMatchObject({
      allowedOrigins: '*',
      allowedHosts: '*',
    })
    expect(() => loadConfig({ VA_MCP_REQUEST_TIMEOUT_MS: '50' })).toThrow(
      'VA_MCP_REQUEST_TIMEOUT_MS must be an integer from 100 to 3600000.',
    )
    expect(() => loadConfig({ VA_MCP_ALLOWED_ORIGINS: 'https://app.example.com/path' })).toThrow(
      /^VA_MCP_ALLOWED_ORIGINS must be \* or a comma-separated list of origins .*"https:\/\/app.example.com\/path"/,
    )
    expect(() => loadConfig({ VA_MCP_ALLOWED_HOSTS: 'api.example.com:443' })).toThrow(
      /^VA_MCP_ALLOWED_HOSTS must be/,
    )
  })
})
