/**
 * @module The MCP endpoint of the API server (`/mcp`, Streamable HTTP, src/mcp): every request
 * needs an API key as REST does (401 with the REST body before any MCP exchange); each tool call
 * counts as one request against the key's rate limit (X-RateLimit-* on the HTTP response) and is
 * then answered like the REST request it mirrors: key team, parameters, domain and plan checks,
 * the response cache and the engine, through `answerEndpoint`. Refusals are tool errors carrying
 * the REST detail message.
 */
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { checkKeyTeam, DETAIL } from '../../api/index.js'
import type { ApiKeyInfo } from '../../index.js'
import {
  callContextOf,
  McpHttpSessions,
  MCP_METHODS,
  MCP_PATH,
  toolCallIds,
  type McpSessionOptions,
  type ToolBackend,
  type ToolOutcome,
} from '../../mcp/index.js'
import type { ServiceContext } from '../context.js'
import { toErrorAnswer } from '../errors.js'
import type { RateLimitDecision } from '../rate-limit.js'
import { requireKey, setRateHeaders } from './auth.js'
import { answerEndpoint } from './endpoints.js'

/** One HTTP request's tool calls: their key, their rate-limit decisions by JSON-RPC id, the reply. */
interface HttpCall {
  key: ApiKeyInfo
  rates: Map<string | number, RateLimitDecision>
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
      return checkKeyTeam(await ctx.engine.getTeam(call.key.team_id))?.detail ?? null
    },
    async call(tool, args, extra): Promise<ToolOutcome> {
      const { key, reply, rates } = callContextOf<HttpCall>(extra)!
      try {
        const answer = await answerEndpoint(ctx, tool.endpoint, key, args, rates.get(extra.requestId) ?? null)
        if ('detail' in answer) return { detail: answer.detail }
        if (answer.cache !== null) reply.header('x-cache', answer.cache)
        return { payload: JSON.parse(answer.body), text: answer.body }
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

/** The web Request of a Fastify request whose body is already parsed. */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  return new Request(new URL(request.url, 'http://localhost'), { method: request.method, headers })
}

/** `/mcp` on the API server. */
export const mcpPlugin: FastifyPluginAsync<{
  ctx: ServiceContext
  sessions?: McpSessionOptions | undefined
}> = async (app, { ctx, sessions }) => {
  const mcp = new McpHttpSessions(httpBackend(ctx, app.log), sessions, ctx.clock)
  app.addHook('onClose', async () => mcp.closeAll())

  app.route({
    method: [...MCP_METHODS],
    url: MCP_PATH,
    schema: { hide: true },
    handler: async (request, reply) => {
      const key = await requireKey(ctx, request, reply)
      if (key === null) return reply
      const call: HttpCall = { key, rates: new Map(), reply }
      for (const id of toolCallIds(request.body)) {
        const rate = await ctx.limiter.hit(key.id)
        call.rates.set(id, rate)
        setRateHeaders(reply, rate)
      }
      const response = await mcp.handle({
        request: webRequest(request),
        body: request.body,
        owner: key.id,
        context: call,
      })
      reply.code(response.status)
      response.headers.forEach((value, name) => {
        if (name !== 'content-length') reply.header(name, value)
      })
      return reply.send(response.body === null ? undefined : await response.text())
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
