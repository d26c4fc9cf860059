/**
 * @module The read endpoints (reports and listings), one route per row of the endpoint table
 * (src/api/endpoints.ts). After the auth hook (checks 1-3) and the query schema (check 4), the
 * handler runs checks 5-6 for the row's access class, then answers from the response cache (only
 * after authorization, keyed by endpoint and normalized parameters, never by key) or the engine.
 * A list payload is also offered as CSV (`Accept: text/csv` or `format=csv`, src/http/csv.ts),
 * written from the same (cached) JSON body.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import Negotiator from 'negotiator'
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
import type { CachedBody, CacheStatus } from '../cache.js'
import type { ServiceContext } from '../context.js'
import { CSV_TYPE, csvLayouts, toCsv } from '../csv.js'
import { JSON_TYPE } from '../edge/index.js'
import { payloadCheck } from '../payload-check.js'
import { payloadSerializer } from '../payload-serialize.js'
import { errorSchema } from '../schemas.js'
import { addVary, etagOf } from './conventions.js'
import { methodNotAllowed } from './headers.js'

/** The answers of every row besides its 200 (403: check 3, the key's team, on every row). */
const ERRORS = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  429: errorSchema,
  500: errorSchema,
  503: errorSchema,
}

/**
 * The answer to a read request: the JSON body (whether it came from the cache, and its ETag, hashed
 * once per cached body), or a refusal.
 */
export type EndpointAnswer = { body: string | Buffer; cache: CacheStatus | null; etag(): string } | Refusal

const etagFor = (value: CachedBody) => () => (value.etag ??= etagOf(value.body))

/**
 * Cache keys by parameters object, per endpoint: a route's valid query string validates to the same
 * frozen values each time (src/http/validation.ts), so its key is written once. Only frozen
 * parameters are remembered (others could change after their key was written).
 */
const cacheKeys = new WeakMap<Endpoint, WeakMap<object, string>>()

/** The response cache's key of a request: the endpoint and its normalized parameters. */
function cacheKeyOf(endpoint: Endpoint, params: Readonly<Record<string, unknown>>): string {
  if (!Object.isFrozen(params)) return JSON.stringify([endpoint.id, params])
  let keys = cacheKeys.get(endpoint)
  if (keys === undefined) cacheKeys.set(endpoint, (keys = new WeakMap()))
  let key = keys.get(params)
  if (key === undefined) keys.set(params, (key = JSON.stringify([endpoint.id, params])))
  return key
}

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
  const check = payloadCheck(endpoint.payload)
  const serialize = payloadSerializer(endpoint.payload)
  if (endpoint.access !== 'none') {
    const access = await authorizeDomain(engine, key, endpoint.access, params.domain_id as string)
    if ('status' in access) return access
  }
  const compute = async () => {
    const context = { now: new Date(clock()), caller: key, rateLimit }
    const payload = await queries.run(() =>
      ctx.metrics.timeQuery(endpoint.id, () => endpoint.compute(engine, params as never, context)),
    )
    // Checked without being copied (src/http/payload-check.ts), then sent as computed: the engine
    // writes the schema's key order (test/golden.test.ts, test/http/payload-wire.test.ts).
    const problem = check(payload)
    if (problem !== null) throw new Error(`${endpoint.id}: the payload breaks its schema: ${problem}`)
    // Written from the schema (JSON.stringify's text, src/http/payload-serialize.ts), encoded to
    // UTF-8 once: the ETag hashes these bytes and the socket writes them as they are.
    return { body: Buffer.from(serialize(payload)) }
  }
  if (endpoint.cache === 'none') {
    const value = await compute()
    return { body: value.body, cache: null, etag: etagFor(value) }
  }
  const { value, status } = await cache.getOrCompute(
    cacheKeyOf(endpoint, params),
    ctx.ttlMs[endpoint.cache],
    compute,
  )
  return { body: value.body, cache: status, etag: etagFor(value) }
}

/** The query parameter that picks the body's format on list endpoints, and its values. */
export const FORMAT_PARAM = 'format'
export const FORMATS = ['json', 'csv'] as const
export const FORMAT_DETAIL = `${FORMAT_PARAM} must be json or csv.`
/** The answer to `format=csv` on an endpoint whose payload is not a list. */
export const FORMAT_JSON_ONLY_DETAIL = `${FORMAT_PARAM} must be json: this endpoint's payload is not a list.`

/** The CSV layout of each list endpoint (the rows whose payload has a `data.items` list). */
export const CSV_LAYOUTS = csvLayouts(ENDPOINTS as readonly Endpoint[])

type Format = 'json' | 'csv' | 'invalid' | 'json-only'
const formats = new WeakMap<FastifyRequest, Format>()

/**
 * The format a request asked for: `format` when given (taken out of the query before its schema
 * sees it, so it is never part of a cache key; `csv` only where the payload is a list), else the
 * Accept header on a list endpoint (CSV when text/csv is preferred to application/json).
 */
function requestedFormat(request: FastifyRequest, list: boolean): Format {
  const query = request.query as Record<string, unknown> | undefined
  if (query !== undefined && query !== null && FORMAT_PARAM in query) {
    const value = query[FORMAT_PARAM]
    delete query[FORMAT_PARAM]
    if (value !== 'json' && value !== 'csv') return 'invalid'
    return value === 'csv' && !list ? 'json-only' : value
  }
  // Accept is a preference: an endpoint without a CSV form answers JSON.
  if (request.headers.accept === undefined || !list) return 'json'
  const preferred = new Negotiator(request).mediaType(['application/json', 'text/csv'])
  return preferred === 'text/csv' ? 'csv' : 'json'
}

/** Every row of the endpoint table as a GET route (and a 405 route for the other methods). */
export const endpointsPlugin: FastifyPluginAsync<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  for (const endpoint of ENDPOINTS as readonly Endpoint[]) {
    payloadCheck(endpoint.payload) // compiled now, not on the first request
    payloadSerializer(endpoint.payload)
    const layout = CSV_LAYOUTS.get(endpoint.id)
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
      preValidation: (request: FastifyRequest, _reply, done) => {
        formats.set(request, requestedFormat(request, layout !== undefined))
        done()
      },
      handler: async (request, reply) => {
        const format = formats.get(request) ?? 'json'
        if (format === 'invalid') return reply.code(400).send({ detail: FORMAT_DETAIL })
        if (format === 'json-only') return reply.code(400).send({ detail: FORMAT_JSON_ONLY_DETAIL })
        const params = request.query as Record<string, unknown>
        const answer = await answerEndpoint(ctx, endpoint, request.caller!.key, params, request.caller!.rate)
        if ('detail' in answer) return reply.code(answer.status).send({ detail: answer.detail })
        if (answer.cache !== null) reply.header('x-cache', answer.cache)
        if (layout !== undefined) addVary(reply, 'Accept')
        if (format === 'csv' && layout !== undefined)
          return reply.type(CSV_TYPE).send(toCsv(layout, JSON.parse(answer.body.toString())))
        // Returned, not sent: an async handler that returns `reply` makes Fastify wait for the
        // response's end (end-of-stream listeners on every request).
        reply.type(JSON_TYPE).header('etag', answer.etag())
        return answer.body
      },
    })
    app.route(methodNotAllowed(app, endpoint.path, 'GET'))
  }
}
