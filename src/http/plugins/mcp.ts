/**
 * @module The MCP endpoint of the API server (`/mcp`, Streamable HTTP, src/mcp). Before any MCP
 * exchange: the Origin and Host rules (403), then checks 1-3 of the REST order on every POST: the
 * API key (the REST 401), the rate limit (each JSON-RPC message of the body counts as one request,
 * X-RateLimit-* on the HTTP response) and the key's team (developer access); a refusal is the
 * HTTP status of REST with a JSON-RPC error carrying the REST detail, so a refused `initialize`
 * opens no session. A refused `tools/call` is the exception: it is answered as a tool error with
 * the same detail, as the spec of the tools asks. A tool call is then answered like the REST
 * request it mirrors: parameters, domain and plan checks, the response cache and the engine,
 * through `answerEndpoint`.
 */
import { setMaxListeners } from 'node:events'
import type { Socket } from 'node:net'
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { checkKeyTeam, DETAIL } from '../../api/index.js'
import type { ApiKeyInfo } from '../../index.js'
import {
  callContextOf,
  isToolCall,
  jsonRpcMessages,
  MAX_MESSAGES_PER_POST,
  MCP_DETAIL,
  mcpError,
  McpHttpSessions,
  MCP_METHODS,
  MCP_PATH,
  originRefusal,
  singleId,
  type McpHttpOptions,
  type ToolBackend,
  type ToolOutcome,
} from '../../mcp/index.js'
import type { ServiceContext } from '../context.js'
import { toErrorAnswer } from '../errors.js'
import type { RateLimitDecision } from '../rate-limit.js'
import { requireKey, setRateHeaders } from './auth.js'
import { answerEndpoint } from './endpoints.js'

/** One HTTP request's messages: their key, rate-limit decisions, the key team's refusal, the reply. */
interface HttpCall {
  key: ApiKeyInfo
  /** Every count this request made (refunded when it is answered 5xx). */
  counted: RateLimitDecision[]
  /** The decisions of its tool calls, by JSON-RPC id. */
  rates: Map<string | number, RateLimitDecision>
  /** Check 3: the detail refusing the key's team, or null. */
  team: string | null
  reply: FastifyReply
}

/** Answers tool calls as the REST routes answer requests, after the HTTP layer counted them. */
function httpBackend(ctx: ServiceContext, log: FastifyBaseLogger): ToolBackend {
  return {
    // Checks 2-3, before the arguments: the call's rate-limit decision, then the key's team.
    async admit(extra) {
      const call = callContextOf<HttpCall>(extra)
      const rate = call?.rates.get(extra.requestId)
      if (call === undefined || rate === undefined) return DETAIL.internal
      if (!rate.allowed) return DETAIL.tooManyRequests
      return call.team
    },
    async call(tool, args, extra): Promise<ToolOutcome> {
      const { key, reply, rates } = callContextOf<HttpCall>(extra)!
      try {
        const answer = await answerEndpoint(ctx, tool.endpoint, key, args, rates.get(extra.requestId) ?? null)
        if ('detail' in answer) return { detail: answer.detail }
        if (answer.cache !== null) reply.header('x-cache', answer.cache)
        const text = answer.body.toString()
        return { payload: JSON.parse(text), text }
      } catch (error) {
        const answer = toErrorAnswer(error, tool.endpoint.access)
        if (answer.fault) log.error({ err: error, tool: tool.name }, 'tool call failed')
        // As over REST, a call the service failed to answer does not count.
        if (answer.status >= 500) {
          setRateHeaders(reply, await ctx.limiter.refund(key.id, rates.get(extra.requestId)!.windowStart))
        }
        return { detail: answer.body.detail }
      }
    },
  }
}

/**
 * Checks 2-3 of a POST, before any session is looked up or opened: one count per JSON-RPC message
 * (at least one), then the key's team. A refusal of a message other than a tool call refuses the
 * whole POST (the response to send); a tool call's refusal waits in `call` for its handler.
 */
async function admitPost(ctx: ServiceContext, call: HttpCall, body: unknown): Promise<Response | null> {
  const messages = jsonRpcMessages(body)
  const tooMany = messages.length > MAX_MESSAGES_PER_POST
  let refused: RateLimitDecision | null = null
  for (const message of tooMany || messages.length === 0 ? [body] : messages) {
    const rate = await ctx.limiter.hit(call.key.id)
    call.counted.push(rate)
    setRateHeaders(call.reply, rate)
    if (isToolCall(message)) call.rates.set((message as { id: string | number }).id, rate)
    else if (!rate.allowed) refused = rate
  }
  const id = singleId(body)
  if (refused !== null) {
    const headers = { 'retry-after': String(refused.retryAfter) }
    return mcpError(429, DETAIL.tooManyRequests, { id, headers })
  }
  if (tooMany) return mcpError(400, MCP_DETAIL.tooManyMessages, { code: -32600 })
  call.team = checkKeyTeam(await ctx.engine.getTeam(call.key.team_id))?.detail ?? null
  if (call.team !== null && !messages.every(isToolCall)) return mcpError(403, call.team, { id })
  return null
}

/** The web Request of a Fastify request whose body is already parsed. */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  return new Request(new URL(request.url, 'http://localhost'), { method: request.method, headers })
}

/** Sends a web Response through the Fastify reply. */
async function relay(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.code(response.status)
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') reply.header(name, value)
  })
  return reply.send(response.body === null ? undefined : await response.text())
}

/** One signal per connection: each request of it listens while it waits (removed after). */
const HANG_UPS = new WeakMap<Socket, AbortSignal>()

/** An AbortSignal aborted when the request's connection closes (the client hung up). */
function hangUpSignal(request: FastifyRequest): AbortSignal {
  const socket = request.raw.socket
  let signal = HANG_UPS.get(socket)
  if (signal === undefined) {
    const controller = new AbortController()
    // Pipelined requests of one connection all wait on it at once.
    setMaxListeners(0, controller.signal)
    if (socket.destroyed) controller.abort()
    else socket.once('close', () => controller.abort())
    signal = controller.signal
    HANG_UPS.set(socket, signal)
  }
  return signal
}

/** `/mcp` on the API server. */
export const mcpPlugin: FastifyPluginAsync<{
  ctx: ServiceContext
  options?: McpHttpOptions | undefined
}> = async (app, { ctx, options = {} }) => {
  const mcp = new McpHttpSessions(httpBackend(ctx, app.log), options, ctx.clock)
  app.addHook('onClose', async () => mcp.closeAll())

  app.route({
    method: [...MCP_METHODS],
    url: MCP_PATH,
    schema: { hide: true },
    // Origin and Host first, before the key and before the body is read.
    onRequest: async (request, reply) => {
      const refusal = originRefusal(request.headers, options)
      if (refusal !== null) return reply.code(403).send({ detail: refusal })
      return undefined
    },
    handler: async (request, reply) => {
      const key = await requireKey(ctx, request, reply)
      if (key === null) return reply
      const call: HttpCall = { key, counted: [], rates: new Map(), team: null, reply }
      // DELETE (ending one's own session) is not counted: refusing it would keep the session open.
      const refusal = request.method === 'POST' ? await admitPost(ctx, call, request.body) : null
      if (refusal !== null) return relay(reply, refusal)
      const response = await mcp.handle({
        request: webRequest(request),
        body: request.body,
        owner: key.id,
        context: call,
        signal: hangUpSignal(request),
      })
      // As over REST, a request the service failed to answer (deadline) does not count.
      if (response.status >= 500) {
        for (const rate of call.counted)
          setRateHeaders(reply, await ctx.limiter.refund(key.id, rate.windowStart))
      }
      return relay(reply, response)
    },
  })
  // GET (a server-initiated stream) and the other methods: 405 before authentication, as REST.
  app.route({
    method: app.supportedMethods.filter((m) => !(MCP_METHODS as readonly string[]).includes(m)),
    url: MCP_PATH,
    schema: { hide: true },
    onRequest: async (_request, reply) =>
      reply.code(405).header('allow', MCP_METHODS.join(', ')).send({ detail: DETAIL.methodNotAllowed }),
    handler: async () => undefined,
  })
}
