/**
 * @module The read endpoints (reports and listings), one route per row of the endpoint table
 * (src/api/endpoints.ts). After the auth hook (checks 1-3) and the query schema (check 4), the
 * handler runs checks 5-6 for the row's access class, then answers from the response cache (only
 * after authorization, keyed by endpoint and normalized parameters, never by key) or the engine.
 */
import type { FastifyPluginAsync } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { authorizeDomain, ENDPOINTS, type Endpoint } from '../../api/index.js'
import type { ServiceContext } from '../context.js'
import { errorSchema } from '../schemas.js'
import { methodNotAllowed } from './headers.js'

const JSON_TYPE = 'application/json; charset=utf-8'
const ERRORS = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  429: errorSchema,
  500: errorSchema,
  503: errorSchema,
}

/** Every row of the endpoint table as a GET route (and a 405 route for the other methods). */
export const endpointsPlugin: FastifyPluginAsync<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  const { engine, cache, queries, clock } = ctx
  for (const endpoint of ENDPOINTS as readonly Endpoint[]) {
    const domainScoped = endpoint.access !== 'none'
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
        response: { 200: endpoint.payload, ...(domainScoped && { 404: errorSchema }), ...ERRORS },
      },
      onRequest: app.authenticate,
      handler: async (request, reply) => {
        const caller = request.caller!
        const params = request.query as Record<string, unknown>
        if (endpoint.access !== 'none') {
          const domainId = params.domain_id as string
          const access = await authorizeDomain(engine, caller.key, endpoint.access, domainId)
          if ('status' in access) return reply.code(access.status).send({ detail: access.detail })
        }
        const compute = async () => {
          const context = { now: new Date(clock()), caller: caller.key }
          const payload = await queries.run(() =>
            ctx.metrics.timeQuery(endpoint.id, () => endpoint.compute(engine, params as never, context)),
          )
          return { body: JSON.stringify(endpoint.payload.parse(payload)) }
        }
        if (endpoint.cache === 'none') return reply.type(JSON_TYPE).send((await compute()).body)
        const cacheKey = JSON.stringify([endpoint.id, params])
        const { value, status } = await cache.getOrCompute(cacheKey, ctx.ttlMs[endpoint.cache], compute)
        return reply.header('x-cache', status).type(JSON_TYPE).send(value.body)
      },
    })
    app.route(methodNotAllowed(app, endpoint.path, 'GET'))
  }
}
