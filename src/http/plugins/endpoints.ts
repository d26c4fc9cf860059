/**
 * @module The read endpoints (reports and listings), one route per row of the endpoint table
 * (src/api/endpoints.ts). After the auth hook (checks 1-3) and the query schema (check 4), the
 * handler runs checks 5-6 for the row's access class, then answers from the response cache (only
 * after authorization, keyed by endpoint and normalized parameters, never by key) or the engine.
 */
import type { FastifyPluginAsync } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import {
  authorizeDomain,
  domainRefusalStatuses,
  ENDPOINTS,
  type Endpoint,
  type RateLimitState,
  type Refusal,
} from '../../api/index.js'
import type { ApiKeyInfo } from '../../index.js'
import type { CacheStatus } from '../cache.js'
import type { ServiceContext } from '../context.js'
import { errorSchema } from '../schemas.js'
import { methodNotAllowed } from './headers.js'

const JSON_TYPE = 'application/json; charset=utf-8'
/** The answers of every row besides its 200 (403: check 3, the key's team, on every row). */
const ERRORS = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  429: errorSchema,
  500: errorSchema,
  503: errorSchema,
}

/** The answer to a read request: the JSON body (and whether it came from the cache), or a refusal. */
export type EndpointAnswer = { body: string; cache: CacheStatus | null } | Refusal

/**
 * Checks 5-6 and the answer of one read request whose key passed checks 1-3 and whose parameters
 * are valid and normalized: the domain check of the row's access class, then the response cache
 * (only after authorization, keyed by endpoint and normalized parameters, never by key) or the
 * engine, the payload checked against its schema. Engine failures are thrown (the caller maps them
 * with `toErrorAnswer`). Every transport of the service (REST routes, MCP tool calls) answers
 * through here.
 * @example
 * const answer = await answerEndpoint(ctx, endpoint, caller.key, { domain_id: id, days: 30, limit: 25 })
 * if ('detail' in answer) return reply.code(answer.status).send({ detail: answer.detail })
 */
export async function answerEndpoint(
  ctx: ServiceContext,
  endpoint: Endpoint,
  key: ApiKeyInfo,
  params: Readonly<Record<string, unknown>>,
  rateLimit: RateLimitState | null = null,
): Promise<EndpointAnswer> {
  const { engine, cache, queries, clock } = ctx
  if (endpoint.access !== 'none') {
    const access = await authorizeDomain(engine, key, endpoint.access, params.domain_id as string)
    if ('status' in access) return access
  }
  const compute = async () => {
    const context = { now: new Date(clock()), caller: key, rateLimit }
    const payload = await queries.run(() =>
      ctx.metrics.timeQuery(endpoint.id, () => endpoint.compute(engine, params as never, context)),
    )
    return { body: JSON.stringify(endpoint.payload.parse(payload)) }
  }
  if (endpoint.cache === 'none') return { body: (await compute()).body, cache: null }
  const cacheKey = JSON.stringify([endpoint.id, params])
  const { value, status } = await cache.getOrCompute(cacheKey, ctx.ttlMs[endpoint.cache], compute)
  return { body: value.body, cache: status }
}

/** Every row of the endpoint table as a GET route (and a 405 route for the other methods). */
export const endpointsPlugin: FastifyPluginAsync<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  for (const endpoint of ENDPOINTS as readonly Endpoint[]) {
    // 404 only where the row's domain check answers it (the sentiment access class).
    const notFound = domainRefusalStatuses(endpoint.access).includes(404)
    app.withTypeProvider<ZodTypeProvider>().route({
      method: 'GET',
      url: endpoint.path,
      config: { access: endpoint.access },
      schema: {
        operationId: endpoint.operationId,
        summary: endpoint.summary,
        ...(endpoint.description !== undefined && { description: endpoint.description }),
        security: [{ bearerAuth: [] }],
        ...(Object.keys(endpoint.params).length > 0 && { querystring: endpoint.query }),
        response: { 200: endpoint.payload, ...ERRORS, ...(notFound && { 404: errorSchema }) },
      },
      onRequest: app.authenticate,
      handler: async (request, reply) => {
        const params = request.query as Record<string, unknown>
        const answer = await answerEndpoint(ctx, endpoint, request.caller!.key, params, request.caller!.rate)
        if ('detail' in answer) return reply.code(answer.status).send({ detail: answer.detail })
        if (answer.cache !== null) reply.header('x-cache', answer.cache)
        return reply.type(JSON_TYPE).send(answer.body)
      },
    })
    app.route(methodNotAllowed(app, endpoint.path, 'GET'))
  }
}
