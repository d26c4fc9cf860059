/**
 * Every MCP request ends, and nothing it held stays held (issue 21, item 1): the attack that took
 * the service offline (a tool call and a ping pipelined on one session with the same JSON-RPC
 * id), a DELETE of one's own session during a call, a cancellation, a call past the deadline and
 * a client hanging up mid-call. Over raw sockets on 127.0.0.1 against a server with the attack's
 * small bounds (8 connections, 4 sessions); the engine's queries are slowed down so that the
 * calls are in flight when the second request arrives. After each: /healthz answers on a new
 * connection, another key opens every session the store holds (so none stayed busy) and its
 * REST requests are answered.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { DETAIL, startServer, type RunningServer, type StartServerOptions } from '../../src/http/index.js'
import type { Engine } from '../../src/index.js'
import { MCP_DETAIL } from '../../src/mcp/index.js'
import { D, T, makeEngine, tenantRecords } from '../http/helpers.js'
import { INITIALIZE, RawConnection, getRequest, mcpRequest, rawOnce, type RawResponse } from './helpers.js'

const MAX_CONNECTIONS = 8
const MAX_SESSIONS = 4
/** How long any answer may take here (the slowed queries take 300 ms to 2 s). */
const BOUND_MS = 5_000
const competitors = (ENDPOINTS as readonly Endpoint[]).find((e) => e.id === 'competitor-series')!

let engine: Engine
let attacker: string
let other: string
let delayMs = 0

/** The engine with every `compute*` query slowed by `delayMs`. */
let slow: Engine

beforeAll(async () => {
  engine = await makeEngine()
  await engine.ingest(tenantRecords())
  attacker = (await engine.createApiKey({ teamId: T.acme })).key
  other = (await engine.createApiKey({ teamId: T.globex })).key
  slow = new Proxy(engine, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target)
      if (typeof value !== 'function') return value
      const fn = (value as (...a: unknown[]) => unknown).bind(target)
      if (!String(property).startsWith('compute')) return fn
      return async (...args: unknown[]) => {
        await new Promise((resolve) => setTimeout(resolve, delayMs))
        return fn(...args)
      }
    },
  })
})
afterAll(async () => {
  await engine.close()
})

const servers: RunningServer[] = []
const connections: RawConnection[] = []
afterEach(async () => {
  for (const c of connections.splice(0)) c.close()
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function serve(
  options: Partial<StartServerOptions> = {},
): Promise<{ server: RunningServer; port: number }> {
  const server = await startServer({
    engine: slow,
    port: 0,
    signals: [],
    closeEngine: false,
    logger: false,
    shutdownTimeoutMs: 500,
    rateLimit: { limit: 10_000, windowSeconds: 60 },
    cacheTtl: { seriesSeconds: 0, sentimentSeconds: 0 },
    maxConcurrentQueries: 8,
    edge: { maxConnections: MAX_CONNECTIONS },
    mcp: { maxSessions: MAX_SESSIONS },
    ...options,
  })
  servers.push(server)
  return { server, port: Number(new URL(server.url).port) }
}

async function open(port: number): Promise<RawConnection> {
  const c = await RawConnection.open(port)
  connections.push(c)
  return c
}

async function initialize(port: number, key: string): Promise<RawResponse> {
  return rawOnce(port, mcpRequest(port, key, INITIALIZE))
}

async function session(port: number, key: string): Promise<string> {
  const res = await initialize(port, key)
  expect(res.status, res.body).toBe(200)
  return res.headers['mcp-session-id']!
}

const call = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'get_competitor_time_series', arguments: { domain_id: D.acme1 } },
})
const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' })

/**
 * What the attack broke, checked while the attacker's sockets stay open: /healthz on a new
 * connection, another key filling the whole session store (each of its sessions evicts an idle
 * one: a session left busy would make one of them a 503) and using one, and its REST request.
 */
async function othersUnaffected(port: number): Promise<void> {
  const health = await rawOnce(port, getRequest(port, '/healthz'), 2_000)
  expect(health.status).toBe(200)
  const ids: string[] = []
  for (let i = 0; i < MAX_SESSIONS; i += 1) ids.push(await session(port, other))
  const listed = await rawOnce(
    port,
    mcpRequest(port, other, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, ids[0]),
  )
  expect(listed.status).toBe(200)
  expect(JSON.parse(listed.body).result.tools.length).toBeGreaterThan(0)
  const rest = await rawOnce(port, getRequest(port, `${competitors.path}?domain_id=${D.globex}`, other))
  expect(rest.status).toBe(200)
}

describe('every request ends', () => {
  it('a tool call and a ping pipelined with one id: the call is answered, the ping refused, nothing hangs', async () => {
    delayMs = 300
    const { port } = await serve()
    const sessions: string[] = []
    for (let i = 0; i < MAX_SESSIONS; i += 1) sessions.push(await session(port, attacker))
    // The attack: on each of MAX_CONNECTIONS sockets, a call and a ping with the call's id.
    const sockets = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => open(port)))
    sockets.forEach((socket, i) => {
      const sessionId = sessions[i % MAX_SESSIONS]!
      socket.write(
        mcpRequest(port, attacker, call(i + 1), sessionId) +
          mcpRequest(port, attacker, ping(i + 1), sessionId),
      )
    })
    const answers = await Promise.all(
      sockets.map(async (socket) => [await socket.next(BOUND_MS), await socket.next(BOUND_MS)] as const),
    )
    answers.forEach(([callAnswer, pingAnswer], i) => {
      expect(callAnswer.status, callAnswer.body).toBe(200)
      const answered = JSON.parse(callAnswer.body)
      expect(answered.id).toBe(i + 1)
      expect(answered.result.isError ?? false, callAnswer.body).toBe(false)
      expect(answered.result.structuredContent.domain_id).toBe(D.acme1)
      expect(pingAnswer.status).toBe(409)
      expect(JSON.parse(pingAnswer.body)).toEqual({
        jsonrpc: '2.0',
        id: i + 1,
        error: { code: -32600, message: MCP_DETAIL.idInUse(i + 1) },
      })
    })
    // Once answered, the id is free again on its session.
    sockets[0]!.write(mcpRequest(port, attacker, ping(1), sessions[0]))
    expect((await sockets[0]!.next(BOUND_MS)).status).toBe(200)
    await othersUnaffected(port)
  })

  it('two requests with one id in one batch are refused before either runs', async () => {
    const { port } = await serve()
    const id = await session(port, attacker)
    const res = await rawOnce(port, mcpRequest(port, attacker, [ping(5), call(5)], id))
    expect(res.status).toBe(409)
    expect(JSON.parse(res.body).error.message).toBe(MCP_DETAIL.idInUse(5))
  })

  it("a DELETE of one's own session during a call: both are answered at once, nothing hangs", async () => {
    delayMs = 2_000
    const { port } = await serve()
    const sessions: string[] = []
    for (let i = 0; i < MAX_SESSIONS; i += 1) sessions.push(await session(port, attacker))
    const calling = await Promise.all(sessions.map(() => open(port)))
    calling.forEach((socket, i) => socket.write(mcpRequest(port, attacker, call(1), sessions[i])))
    await new Promise((resolve) => setTimeout(resolve, 200))
    const started = Date.now()
    for (const id of sessions) {
      const deleted = await rawOnce(port, mcpRequest(port, attacker, null, id), BOUND_MS)
      expect(deleted.status).toBe(200)
    }
    for (const socket of calling) {
      // Answered when its session closed, not when the 2 s query ended.
      const answer = await socket.next(1_000)
      expect(answer.status).toBe(404)
      expect(JSON.parse(answer.body)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32001, message: MCP_DETAIL.sessionClosed },
      })
    }
    expect(Date.now() - started).toBeLessThan(1_500)
    await othersUnaffected(port)
  })

  it('a cancellation is accepted and the call is still answered on its own POST', async () => {
    delayMs = 300
    const { port } = await serve()
    const id = await session(port, attacker)
    const socket = await open(port)
    socket.write(mcpRequest(port, attacker, call(7), id))
    await new Promise((resolve) => setTimeout(resolve, 50))
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } }
    expect((await rawOnce(port, mcpRequest(port, attacker, cancel, id))).status).toBe(202)
    const answer = await socket.next(BOUND_MS)
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body).result.structuredContent.domain_id).toBe(D.acme1)
  })

  it('a call past the deadline: a JSON-RPC error, not counted, its session closed', async () => {
    delayMs = 3_000
    const { port } = await serve({ mcp: { maxSessions: MAX_SESSIONS, requestTimeoutMs: 300 } })
    const id = await session(port, attacker)
    const started = Date.now()
    const answer = await rawOnce(port, mcpRequest(port, attacker, call(3), id), BOUND_MS)
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(answer.status).toBe(503)
    expect(answer.headers['retry-after']).toBe('1')
    expect(JSON.parse(answer.body)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32000, message: MCP_DETAIL.timedOut(300) },
    })
    // Refunded, as a REST 5xx: only the initialize counted.
    expect(answer.headers['x-ratelimit-remaining']).toBe(String(10_000 - 1))
    const gone = await rawOnce(port, mcpRequest(port, attacker, ping(4), id))
    expect(gone.status).toBe(404)
    await othersUnaffected(port)
  })

  it('a client hanging up mid-call releases its session at once', async () => {
    delayMs = 2_000
    const { port } = await serve({ mcp: { maxSessions: 1 } })
    const id = await session(port, attacker)
    const socket = await open(port)
    socket.write(mcpRequest(port, attacker, call(1), id))
    await new Promise((resolve) => setTimeout(resolve, 200))
    // While the call runs its session is busy: another key cannot take the only place.
    const refused = await initialize(port, other)
    expect([refused.status, JSON.parse(refused.body).error.message]).toEqual([503, DETAIL.busy])
    socket.close()
    await new Promise((resolve) => setTimeout(resolve, 100))
    // Hung up: released (idle), so the other key's session evicts it, long before the query ends.
    const res = await initialize(port, other)
    expect(res.status, res.body).toBe(200)
    expect((await rawOnce(port, mcpRequest(port, attacker, ping(2), id))).status).toBe(404)
  })
})
