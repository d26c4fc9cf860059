/**
 * The MCP server over Streamable HTTP on the API server (/mcp), with the SDK's own client over a
 * real socket on 127.0.0.1: the tool list and its schemas, every tool against its REST request,
 * invalid arguments, authentication, the shared cache, the rate limit under concurrent calls, and
 * the bounds on sessions.
 */
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { DETAIL, startServer, type RunningServer, type StartServerOptions } from '../../src/http/index.js'
import { toolDetail } from '../../src/api/index.js'
import { QueryError, openEngine, type Engine } from '../../src/index.js'
import { TOOLS } from '../../src/mcp/index.js'
import { EXAMPLE, argumentSets, connectHttp, restUrl, textOf, type HttpClient } from './helpers.js'

const NOW_MS = Date.parse(EXAMPLE.now)
const TABLE = ENDPOINTS as readonly Endpoint[]

let engine: Engine
let key: string
let otherKey: string

beforeAll(async () => {
  engine = await openEngine()
  await engine.ingestFile(EXAMPLE.data)
  key = (await engine.createApiKey({ teamId: EXAMPLE.teamId })).key
  otherKey = (await engine.createApiKey({ teamId: EXAMPLE.teamId })).key
})
afterAll(async () => {
  await engine.close()
})

const servers: RunningServer[] = []
const clients: HttpClient[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function serve(options: Partial<StartServerOptions> = {}): Promise<RunningServer> {
  const server = await startServer({
    engine,
    port: 0,
    signals: [],
    closeEngine: false,
    logger: false,
    clock: () => NOW_MS,
    rateLimit: { limit: 10_000, windowSeconds: 60 },
    ...options,
  })
  servers.push(server)
  return server
}

async function connect(url: string, secret = key): Promise<HttpClient> {
  const c = await connectHttp(url, secret)
  clients.push(c)
  return c
}

const requiredArgs = (endpoint: Endpoint): Record<string, unknown> =>
  endpoint.access === 'none' ? {} : { domain_id: EXAMPLE.domainId }

const remainingOf = (response: Response): number => Number(response.headers.get('x-ratelimit-remaining'))

const rest = (url: string, path: string, secret = key) =>
  fetch(`${url}${path}`, { headers: { authorization: `Bearer ${secret}` } })

describe('tools/list', () => {
  it('lists one read-only tool per endpoint of the table, with valid input and output schemas', async () => {
    const server = await serve()
    const { client } = await connect(server.url)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name))
    const ajv = new Ajv({ strict: false })
    addFormats.default(ajv)
    for (const tool of tools) {
      const endpoint = TOOLS.find((t) => t.name === tool.name)!.endpoint
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true)
      expect(tool.description?.length, tool.name).toBeGreaterThan(40)
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow()
      expect(tool.outputSchema?.type, tool.name).toBe('object')
      expect(() => ajv.compile(tool.outputSchema!), tool.name).not.toThrow()
      // Every parameter of the row, described for a model, with the REST bounds and defaults.
      const properties = tool.inputSchema.properties as Record<string, Record<string, unknown>>
      expect(Object.keys(properties), tool.name).toEqual(Object.keys(endpoint.params))
      expect(tool.inputSchema.required ?? [], tool.name).toEqual(
        Object.values(endpoint.params)
          .filter((p) => p.required)
          .map((p) => p.name),
      )
      for (const param of Object.values(endpoint.params)) {
        const property = properties[param.name]!
        expect(String(property.description), `${tool.name}.${param.name}`).not.toMatch(/GET \/api/)
        expect(String(property.description).length).toBeGreaterThan(10)
        // days: documented 30, applied after the window's rules (absent when a range stands instead).
        if (!param.required) {
          const fallback = param.name === 'days' ? 30 : param.value.parse(undefined)
          expect(property.default, `${tool.name}.${param.name}`).toEqual(fallback)
        }
      }
      if ('domain_id' in properties) expect(properties.domain_id!.description).toContain('list_domains')
    }
    const days = (tools[0]!.inputSchema.properties as Record<string, Record<string, unknown>>).days!
    expect(days).toMatchObject({ type: 'integer', minimum: 1, maximum: 365, default: 30 })
  })

  it('offers the weekly summary prompt, naming existing tools', async () => {
    const server = await serve()
    const { client } = await connect(server.url)
    const prompt = await client.getPrompt({
      name: 'weekly_visibility_summary',
      arguments: { domain_id: EXAMPLE.domainId },
    })
    const text = textOf({ content: [prompt.messages[0]!.content] })
    expect(text).toContain(EXAMPLE.domainId)
    const named: string[] = [...(text.match(/\b(?:get|list)_[a-z_]+\b/g) ?? [])]
    expect(named.length).toBeGreaterThan(2)
    // The server's instructions too name only tools that exist.
    named.push(...(client.getInstructions()?.match(/\b(?:get|list)_[a-z_]+\b/g) ?? []))
    for (const name of named) expect(TOOLS.map((t) => t.name)).toContain(name)
  })
})

describe('tools/call answers what REST answers', () => {
  it('every tool, for every argument set, with the cache off: the same payload, byte for byte', async () => {
    const server = await serve({ cacheTtl: { seriesSeconds: 0, sentimentSeconds: 0 } })
    const { client } = await connect(server.url)
    let compared = 0
    for (const tool of TOOLS) {
      for (const args of argumentSets(tool.endpoint, requiredArgs(tool.endpoint))) {
        const label = `${tool.name} ${JSON.stringify(args)}`
        const result = await client.callTool({ name: tool.name, arguments: args })
        const res = await rest(server.url, restUrl(tool.endpoint, args))
        expect(res.status, label).toBe(200)
        const body = await res.text()
        expect(result.isError ?? false, label).toBe(false)
        // The key check reports the window after its own request: one more used over REST.
        const same = (text: string) =>
          tool.endpoint.id === 'key-check' ? text.replace(/"remaining":\d+/, '"remaining":N') : text
        expect(same(JSON.stringify(result.structuredContent)), label).toEqual(same(body))
        expect(same(textOf(result)), label).toBe(same(body))
        compared += 1
      }
    }
    expect(compared).toBeGreaterThanOrEqual(TABLE.length * 2)
  })

  it('a non-empty answer for the example (the comparison is not between two empty payloads)', async () => {
    const server = await serve()
    const { client } = await connect(server.url)
    const result = await client.callTool({
      name: 'get_competitor_time_series',
      arguments: { domain_id: EXAMPLE.domainId.toUpperCase(), days: 7, model: 'chatgpt' },
    })
    const payload = result.structuredContent as {
      data: { items: unknown[] }
      domain_id: string
      days: number
    }
    expect(payload.data.items.length).toBeGreaterThan(1)
    expect([payload.domain_id, payload.days]).toEqual([EXAMPLE.domainId, 7])
  })

  it('a tool call and its REST request share one cache entry (normalized parameters)', async () => {
    const server = await serve()
    const { client, responses } = await connect(server.url)
    const competitors = TABLE.find((e) => e.id === 'competitor-series')!
    // MCP first (upper-case id, defaults filled in), then REST: a HIT with the same bytes.
    const result = await client.callTool({
      name: 'get_competitor_time_series',
      arguments: { domain_id: EXAMPLE.domainId.toUpperCase() },
    })
    expect(responses.at(-1)!.headers.get('x-cache')).toBe('MISS')
    const res = await rest(server.url, restUrl(competitors, { domain_id: EXAMPLE.domainId, days: 30 }))
    expect(res.headers.get('x-cache')).toBe('HIT')
    expect(await res.text()).toBe(textOf(result))
    // REST first, then MCP: the tool call's HTTP response says HIT.
    await rest(server.url, restUrl(competitors, { domain_id: EXAMPLE.domainId, days: 9, model: 'claude' }))
    await client.callTool({
      name: 'get_competitor_time_series',
      arguments: { domain_id: EXAMPLE.domainId, days: 9, model: 'claude' },
    })
    expect(responses.at(-1)!.headers.get('x-cache')).toBe('HIT')
  })
})

describe('invalid arguments', () => {
  const BAD_VALUES: unknown[] = [0, -1, 1.5, 100_000, 'not valid!', '', true, null, { a: 1 }]

  it('every parameter of every tool: a bad value is a tool error with the REST sentence for it', async () => {
    const server = await serve()
    const { client } = await connect(server.url)
    let checked = 0
    for (const tool of TOOLS) {
      for (const param of Object.values(tool.endpoint.params)) {
        for (const bad of BAD_VALUES) {
          const parsed = param.value.safeParse(bad)
          if (parsed.success) continue
          const args = { ...requiredArgs(tool.endpoint), [param.name]: bad }
          const result = await client.callTool({ name: tool.name, arguments: args })
          const label = `${tool.name} ${param.name}=${JSON.stringify(bad)}`
          expect(result.isError, label).toBe(true)
          expect(textOf(result), label).toBe(toolDetail(parsed.error.issues[0]!.message))
          expect(textOf(result), label).toContain(param.name)
          checked += 1
        }
      }
    }
    expect(checked).toBeGreaterThan(20)
  })

  it('the published sentences: days, limit, model, domain_id; unknown and missing arguments name themselves', async () => {
    const server = await serve()
    const { client } = await connect(server.url)
    const call = async (name: string, args: Record<string, unknown>) =>
      textOf(await client.callTool({ name, arguments: args }))
    const id = EXAMPLE.domainId
    // The first issue in parameter order, as over REST.
    expect(await call('get_prompt_time_series', { domain_id: id, days: 366, limit: 0 })).toBe(
      'days must be an integer from 1 to 365.',
    )
    expect(await call('get_prompt_time_series', { domain_id: id, limit: 0 })).toBe(
      'limit must be an integer from 1 to 100.',
    )
    expect(await call('get_competitor_time_series', { domain_id: id, model: 'gpt-4o' })).toMatch(
      /^model must be all or one of the channels chatgpt, perplexity, /,
    )
    expect(await call('get_competitor_time_series', { domain_id: 'nope' })).toBe('domain_id must be a UUID.')
    expect(await call('get_competitor_time_series', {})).toBe(DETAIL.toolDomainRequired)
    expect(await call('get_sentiment_themes', { days: 7 })).toBe(DETAIL.toolDomainRequired)
    expect(await call('get_competitor_time_series', { domain_id: id, dayz: 7 })).toBe(
      'Unknown argument dayz: get_competitor_time_series takes domain_id, days, start_date, end_date, model, granularity, country, topic, tag.',
    )
    // The window's rules between arguments and granularity where there is no series, as over REST.
    expect(
      await call('get_competitor_time_series', { domain_id: id, days: 7, start_date: '2026-01-01' }),
    ).toBe('days cannot be combined with start_date and end_date: give one or the other.')
    expect(await call('get_brand_rankings', { domain_id: id, granularity: 'week' })).toBe(
      'Unknown argument granularity: get_brand_rankings takes domain_id, days, start_date, end_date, model, country, topic, tag.',
    )
    // The sentiment endpoints let any id through to the domain check, as over REST (404 there).
    expect(await call('get_sentiment_overview', { domain_id: 'nope' })).toBe(DETAIL.domainNotFound)
  })

  it('an invalid call counts against the rate limit, as a 400 does over REST', async () => {
    const server = await serve({ rateLimit: { limit: 50, windowSeconds: 60 } })
    const { client, responses } = await connect(server.url)
    const before = remainingOf(responses.at(-1)!)
    await client.callTool({
      name: 'get_prompt_time_series',
      arguments: { domain_id: EXAMPLE.domainId, days: 0 },
    })
    expect(remainingOf(responses.at(-1)!)).toBe(before - 1)
  })
})

describe('authentication and sessions', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  }
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(body),
    })

  it('a missing or bad key is the REST 401 before any MCP exchange; the SDK client cannot connect', async () => {
    const server = await serve()
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: 'Basic abc' }]) {
      const res = await post(server.url, initialize, headers)
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="visibility-analytics"')
      expect(res.headers.get('mcp-session-id')).toBeNull()
      expect(await res.json()).toEqual({ detail: DETAIL.unauthorized })
    }
    await expect(connectHttp(server.url, 'va_live_wrong')).rejects.toThrow(DETAIL.unauthorized)
  })

  it('GET /mcp is a 405 (no server-initiated stream), before authentication', async () => {
    const server = await serve()
    const res = await fetch(`${server.url}/mcp`, { headers: { accept: 'text/event-stream' } })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST, DELETE')
  })

  it("a session belongs to the key that opened it: another key's requests answer 404", async () => {
    const server = await serve()
    const own = await connect(server.url)
    const sessionId = own.transport.sessionId!
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' }
    const foreign = await post(server.url, list, {
      authorization: `Bearer ${otherKey}`,
      'mcp-session-id': sessionId,
    })
    expect(foreign.status).toBe(404)
    const del = await fetch(`${server.url}/mcp`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${otherKey}`, 'mcp-session-id': sessionId },
    })
    expect(del.status).toBe(404)
    expect((await own.client.listTools()).tools.length).toBe(TOOLS.length)
  })

  it('DELETE ends a session; a request without a session must be an initialize', async () => {
    const server = await serve()
    const c = await connect(server.url)
    const sessionId = c.transport.sessionId!
    await c.transport.terminateSession()
    const res = await post(
      server.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { authorization: `Bearer ${key}`, 'mcp-session-id': sessionId },
    )
    expect(res.status).toBe(404)
    const none = await post(
      server.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { authorization: `Bearer ${key}` },
    )
    expect(none.status).toBe(400)
  })

  it('sessions opened and never closed are bounded per key and in all; idle ones expire', async () => {
    let now = NOW_MS
    const server = await serve({
      clock: () => now,
      mcp: { maxSessions: 5, maxSessionsPerKey: 3, idleSeconds: 60 },
    })
    const open = async (secret: string): Promise<string> => {
      const res = await post(server.url, initialize, { authorization: `Bearer ${secret}` })
      expect(res.status).toBe(200)
      return res.headers.get('mcp-session-id')!
    }
    const alive = async (secret: string, id: string): Promise<boolean> => {
      const res = await post(
        server.url,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { authorization: `Bearer ${secret}`, 'mcp-session-id': id },
      )
      return res.status === 202
    }
    // One key opening 40 sessions keeps only its 3 most recent.
    const mine: string[] = []
    for (let i = 0; i < 40; i += 1) mine.push(await open(key))
    const states = await Promise.all(mine.map((id) => alive(key, id)))
    expect(states.filter(Boolean).length).toBe(3)
    expect(states.slice(-3)).toEqual([true, true, true])
    // Other keys fill the store: the least recently used sessions go, never more than 5 in all.
    const theirs = [await open(otherKey), await open(otherKey), await open(otherKey)]
    const all: Array<[string, string]> = [
      ...mine.slice(-3).map((id): [string, string] => [key, id]),
      ...theirs.map((id): [string, string] => [otherKey, id]),
    ]
    const open5 = await Promise.all(all.map(([secret, id]) => alive(secret, id)))
    expect(open5.filter(Boolean).length).toBe(5)
    expect(open5[0]).toBe(false)
    // Idle for the idle time: gone.
    now += 60_000
    expect(await alive(otherKey, theirs[2]!)).toBe(false)
  })
})

describe('failures', () => {
  it('an engine failure is a tool error with the fixed detail (no DuckDB text) and does not count', async () => {
    const failing = new Proxy(engine, {
      get(target, property) {
        if (property === 'computeCompetitorSeries') {
          return async () => {
            throw new QueryError('competitor_series', {
              cause: new Error('Binder Error: column "x" not found'),
            })
          }
        }
        const value: unknown = Reflect.get(target, property, target)
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
      },
    })
    const server = await serve({ engine: failing, rateLimit: { limit: 50, windowSeconds: 60 } })
    const { client, responses } = await connect(server.url)
    const result = await client.callTool({
      name: 'get_competitor_time_series',
      arguments: { domain_id: EXAMPLE.domainId },
    })
    expect([result.isError, textOf(result)]).toEqual([true, DETAIL.internal])
    // The handshake (initialize, notifications/initialized) counted; the failed call did not.
    expect(remainingOf(responses.at(-1)!)).toBe(48)
    await client.callTool({ name: 'list_domains', arguments: {} })
    expect(remainingOf(responses.at(-1)!)).toBe(47)
  })
})

describe('rate limit', () => {
  it('exact under concurrent tool calls from two sessions of one key; X-RateLimit-* on each response', async () => {
    const limit = 16
    const server = await serve({ rateLimit: { limit, windowSeconds: 60 } })
    const a = await connect(server.url)
    const b = await connect(server.url)
    // Each handshake counted its 2 POSTs (initialize, notifications/initialized; GET is a 405).
    const counted = (r: Response) => r.headers.has('x-ratelimit-remaining')
    const [seenA, seenB] = [a.responses.length, b.responses.length]
    const handshakes = [...a.responses, ...b.responses].filter(counted).length
    expect(handshakes).toBe(4)
    const allowed = limit - handshakes
    const calls = Array.from({ length: 30 }, (_, i) => {
      const tool = TOOLS[i % TOOLS.length]!
      return (i % 2 === 0 ? a : b).client.callTool({
        name: tool.name,
        arguments: requiredArgs(tool.endpoint),
      })
    })
    const results = await Promise.all(calls)
    const refused = results.filter((r) => r.isError)
    expect(results.length - refused.length).toBe(allowed)
    for (const r of refused) expect(textOf(r)).toBe(DETAIL.tooManyRequests)
    // The HTTP responses of the tool calls: remaining counts down to 0 exactly once per call.
    // (the client's GET for a server stream, a 405, may land among them: it is not counted)
    const callResponses = [...a.responses.slice(seenA), ...b.responses.slice(seenB)].filter(counted)
    expect(callResponses).toHaveLength(30)
    const remaining = callResponses
      .map((r) => Number(r.headers.get('x-ratelimit-remaining')))
      .sort((x, y) => x - y)
    expect(remaining).toEqual([
      ...Array<number>(30 - allowed + 1).fill(0),
      ...Array.from({ length: allowed - 1 }, (_, i) => i + 1),
    ])
    for (const r of callResponses) {
      expect(r.headers.get('x-ratelimit-limit')).toBe(String(limit))
      expect(r.headers.get('x-ratelimit-reset')).toBe(String(Math.floor(NOW_MS / 60_000) * 60 + 60))
    }
    // One budget per key for REST and MCP: REST is refused now too.
    const res = await rest(server.url, '/api/v1/domains')
    expect(res.status).toBe(429)
  })
})
