/**
 * The Fastify application: the four report endpoints, the domains listing, health, the OpenAPI
 * document and the internal ingest endpoint, with the access checks of semantics.md section 8 in
 * their documented order:
 *
 *   onRequest: 401 key -> 429 rate limit -> 403 key team      (before any parameter is read)
 *   validation: 400 parameters                                  (zod schemas, first issue wins)
 *   handler: 403/404 domain -> 403 plan -> cache -> engine      (cache only after authorization)
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import fastifySwagger from '@fastify/swagger'
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify'
import {
  createJsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import type { z } from 'zod'
import type { ApiKeyInfo, DomainInfo, Engine, TeamInfo } from '../types.js'
import {
  adminTokenProblem,
  authorizeDomain,
  bearerToken,
  checkKeyTeam,
  keyCanRead,
  type ReportEndpoint,
} from './access.js'
import { ResponseCache } from './cache.js'
import { QueryLimiter } from './concurrency.js'
import {
  NDJSON_MEDIA_TYPES,
  edgeServerOptions,
  installContract,
  ingestGate,
  resolveEdgeOptions,
  serializeRequest,
  spoolIngestBody,
  staticJson,
  type EdgeOptions,
} from './edge/index.js'
import { toErrorAnswer } from './errors.js'
import { addResponseHeadersToDocument } from './openapi.js'
import { FixedWindowRateLimiter, type RateLimitDecision, type RateLimitOptions } from './rate-limit.js'
import {
  DETAIL,
  competitorSeriesPayloadSchema,
  competitorSeriesQuerySchema,
  domainsPayloadSchema,
  errorSchema,
  healthSchema,
  ingestErrorSchema,
  ingestResultSchema,
  promptSeriesPayloadSchema,
  promptSeriesQuerySchema,
  sentimentOverviewPayloadSchema,
  sentimentQuerySchema,
  sentimentThemesPayloadSchema,
} from './schemas.js'

/** Cache lifetimes in seconds; 0 disables caching for that group. */
export interface CacheTtlOptions {
  /** Sentiment overview and themes (default 3600). */
  sentimentSeconds?: number
  /** Prompt and competitor time series (default 300). */
  seriesSeconds?: number
}

/** Where and how much to log: `false` for silence, or pino options (level, destination stream). */
export type LoggerOption = false | { level?: string; stream?: { write(message: string): void } }

export interface BuildServerOptions {
  /** The engine to serve (the caller keeps ownership: buildServer never closes it). */
  engine: Engine
  /** Bearer token for POST /internal/v1/ingest; the endpoint does not exist when unset. */
  adminToken?: string | undefined
  /** Per-key fixed window (default 60 requests per 60 s). */
  rateLimit?: RateLimitOptions
  cacheTtl?: CacheTtlOptions
  /** Engine queries running at once (default 4). */
  maxConcurrentQueries?: number
  /** Queries waiting for a slot before further ones get 503 (default 16 per slot). */
  maxQueuedQueries?: number
  /** Largest ingest body in bytes (default 256 MiB). */
  maxIngestBytes?: number
  /** Connection and request limits (timeouts, caps, header size); defaults in EDGE_DEFAULTS. */
  edge?: Partial<EdgeOptions>
  /** Milliseconds clock for the rate limit, the cache and the reports' `now` (default Date.now). */
  clock?: () => number
  /** Default: info-level JSON logs on stdout. */
  logger?: LoggerOption
}

/**
 * The paths the service answers.
 * @example
 * await app.inject({ url: `${API_PATHS.overview}?domain_id=${id}`, headers })
 */
export const API_PATHS = {
  prompts: '/api/v1/prompt-statistics-time-series',
  competitors: '/api/v1/competitor-time-series',
  overview: '/api/v1/sentiment/overview',
  themes: '/api/v1/sentiment/themes',
  domains: '/api/v1/domains',
  openapi: '/api/v1/openapi.json',
  health: '/healthz',
  ingest: '/internal/v1/ingest',
} as const

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The report a route serves (for the endpoint-specific error mapping). */
    endpoint?: ReportEndpoint
  }
}

/** What the auth hook learned about a request, for the handler and the response hooks. */
interface RequestState {
  key: ApiKeyInfo
  rate: RateLimitDecision
}

const REDACT = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'authorization']
const errorResponses = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  429: errorSchema,
  500: errorSchema,
  503: errorSchema,
}

function loggerConfig(option: LoggerOption | undefined): NonNullable<FastifyServerOptions['logger']> {
  if (option === false) return false
  return {
    level: option?.level ?? 'info',
    redact: { paths: REDACT, censor: '[redacted]' },
    serializers: { req: serializeRequest },
    ...(option?.stream !== undefined ? { stream: option.stream } : {}),
  }
}

/** ISO 8601 UTC without zero milliseconds, as the engine writes generated_at. */
function isoSeconds(ms: number): string {
  const iso = new Date(ms).toISOString()
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}

function setRateHeaders(reply: FastifyReply, rate: RateLimitDecision): void {
  reply.header('x-ratelimit-limit', String(rate.limit))
  reply.header('x-ratelimit-remaining', String(rate.remaining))
  reply.header('x-ratelimit-reset', String(rate.reset))
}

/**
 * Builds the HTTP service over an open engine. Call `ready()` or `listen()` on the result.
 * @example
 * const app = await buildServer({ engine, adminToken: process.env.VA_ADMIN_TOKEN })
 * const res = await app.inject({ url: '/healthz' })
 */
export async function buildServer(options: BuildServerOptions): Promise<FastifyInstance> {
  const { engine } = options
  const clock = options.clock ?? Date.now
  const ttlMs = {
    sentiment: (options.cacheTtl?.sentimentSeconds ?? 3600) * 1000,
    series: (options.cacheTtl?.seriesSeconds ?? 300) * 1000,
  }
  const maxConcurrent = options.maxConcurrentQueries ?? 4
  const limiter = new FixedWindowRateLimiter(options.rateLimit ?? { limit: 60, windowSeconds: 60 }, clock)
  const cache = new ResponseCache({ clock })
  const queries = new QueryLimiter({
    maxConcurrent,
    maxQueued: options.maxQueuedQueries ?? maxConcurrent * 16,
  })
  const maxIngestBytes = options.maxIngestBytes ?? 256 * 1024 * 1024
  const tokenProblem = options.adminToken ? adminTokenProblem(options.adminToken) : null
  if (tokenProblem !== null) throw new Error(tokenProblem)
  const adminTokenHash = options.adminToken ? sha256(options.adminToken) : null
  const states = new WeakMap<FastifyRequest, RequestState>()

  const serverOptions: FastifyServerOptions = {
    logger: loggerConfig(options.logger),
    requestIdHeader: false,
    exposeHeadRoutes: false,
    // Requests arriving while closing are answered by the hook below (JSON, with the usual headers).
    return503OnClosing: false,
    ...edgeServerOptions(resolveEdgeOptions(options.edge)),
  }
  const app = Fastify(serverOptions).withTypeProvider<ZodTypeProvider>()
  installContract(app)

  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Visibility Analytics API',
        version: '1.0.0',
        description: 'Prompt, competitor and sentiment reports of a tracked domain.',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: createJsonSchemaTransform({
      skipList: [],
      zodToJsonConfig: {
        // Integer query parameters are validated as strings of digits; describe them as integers.
        override: (ctx) => {
          const schema = ctx.jsonSchema as Record<string, unknown>
          if (schema.type !== 'integer') return
          delete schema.pattern
          // zod drops a default that does not fit the (string) input type: restore it.
          const def = ctx.zodSchema._zod.def as { type: string; defaultValue?: unknown }
          if (def.type === 'default' && schema.default === undefined) schema.default = def.defaultValue
        },
      },
    }),
    transformObject: (documentObject) =>
      addResponseHeadersToDocument(jsonSchemaTransformObject(documentObject)),
  })

  // Once close() is called, answers to requests still in flight end their connection, so that
  // keep-alive clients do not hold the server open until the keep-alive timeout.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })

  // X-Request-Id, no-store and nosniff are set by the edge's contract hook.
  app.addHook('onSend', async (request, reply, payload) => {
    if (closing) reply.header('connection', 'close')
    // Every 200 says whether it came from the cache; only report bodies ever do.
    if (reply.statusCode === 200 && !reply.hasHeader('x-cache')) reply.header('x-cache', 'MISS')
    const state = states.get(request)
    if (state !== undefined && reply.statusCode >= 500) {
      // A request answered 5xx does not count against the key's limit.
      state.rate = limiter.refund(state.key.id, state.rate.windowStart)
      setRateHeaders(reply, state.rate)
    }
    return payload
  })

  app.setErrorHandler((error, request, reply) => {
    const endpoint = request.routeOptions.config?.endpoint
    const answer = toErrorAnswer(error, endpoint)
    if (answer.fault) request.log.error({ err: error }, 'request failed')
    else if (answer.status >= 500) request.log.warn({ reason: answer.body.detail }, 'request refused')
    for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value)
    reply.removeHeader('x-cache')
    return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body)
  })

  // Unknown routes answer 404 before any body is parsed; nothing new starts while closing.
  app.addHook('onRequest', async (request, reply) => {
    if (closing) {
      return reply
        .code(503)
        .header('retry-after', '5')
        .type('application/json; charset=utf-8')
        .send({ detail: DETAIL.unavailable })
    }
    if (request.is404)
      return reply.code(404).type('application/json; charset=utf-8').send({ detail: DETAIL.notFound })
    return undefined
  })

  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).type('application/json; charset=utf-8').send({ detail: DETAIL.notFound }),
  )

  /** onRequest hook of the authenticated routes: steps 1 (401), 2 (429) and 3 (403) of section 8. */
  async function authenticate(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> {
    const token = bearerToken(request.headers.authorization)
    const key = token === null ? null : await engine.verifyApiKey(token)
    if (key === null) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="visibility-analytics"')
        .send({ detail: DETAIL.unauthorized })
    }
    const rate = limiter.hit(key.id)
    states.set(request, { key, rate })
    setRateHeaders(reply, rate)
    if (!rate.allowed) {
      return reply
        .code(429)
        .header('retry-after', String(rate.retryAfter))
        .send({ detail: DETAIL.tooManyRequests })
    }
    const refusal = checkKeyTeam(await engine.getTeam(key.team_id))
    if (refusal !== null) return reply.code(refusal.status).send({ detail: refusal.detail })
    return undefined
  }

  /** 405 for the other methods on a path, answered before any body is read. */
  function methodNotAllowed(url: string, allow: string): RouteOptions {
    return {
      method: app.supportedMethods.filter((method) => method !== allow),
      url,
      schema: { hide: true },
      onRequest: async (_request, reply) =>
        reply.code(405).header('allow', allow).send({ detail: DETAIL.methodNotAllowed }),
      handler: async () => undefined,
    }
  }

  interface ReportSpec<Q> {
    endpoint: ReportEndpoint
    summary: string
    description: string
    query: z.ZodType<Q, Record<string, unknown>>
    payload: z.ZodType
    ttlMs: number
    /** Normalized parameters, defaults filled in (the cache key; the engine's arguments). */
    normalize: (query: Q) => { domainId: string } & Record<string, string | number>
    compute: (params: { domainId: string } & Record<string, string | number>, now: Date) => Promise<unknown>
  }

  function reportRoute<Q>(spec: ReportSpec<Q>): void {
    const url = API_PATHS[spec.endpoint]
    app.route({
      method: 'GET',
      url,
      config: { endpoint: spec.endpoint },
      schema: {
        summary: spec.summary,
        description: spec.description,
        security: [{ bearerAuth: [] }],
        querystring: spec.query,
        response: { 200: spec.payload, 404: errorSchema, ...errorResponses },
      },
      onRequest: authenticate,
      handler: async (request, reply) => {
        const state = states.get(request)!
        const params = spec.normalize(request.query as Q)
        const access = await authorizeDomain(engine, state.key, spec.endpoint, params.domainId)
        if ('status' in access) return reply.code(access.status).send({ detail: access.detail })
        const cacheKey = JSON.stringify([spec.endpoint, params])
        const { value, status } = await cache.getOrCompute(cacheKey, spec.ttlMs, async () => {
          const payload = await queries.run(() => spec.compute(params, new Date(clock())))
          return { body: JSON.stringify(spec.payload.parse(payload)) }
        })
        return reply.header('x-cache', status).type('application/json; charset=utf-8').send(value.body)
      },
    })
    app.route(methodNotAllowed(url, 'GET'))
  }

  reportRoute({
    endpoint: 'prompts',
    summary: 'Prompt statistics time series',
    description:
      'The top tracked prompts ranked by total mentions over the window, each with a daily series.',
    query: promptSeriesQuerySchema,
    payload: promptSeriesPayloadSchema,
    ttlMs: ttlMs.series,
    normalize: (q) => ({ domainId: q.domain_id.toLowerCase(), days: q.days, limit: q.limit }),
    compute: (p, now) =>
      engine.computePromptSeries({ domainId: p.domainId, days: Number(p.days), limit: Number(p.limit), now }),
  })
  reportRoute({
    endpoint: 'competitors',
    summary: 'Competitor time series',
    description:
      'Daily visibility, share of voice, mentions, position and sentiment of the brand and each tracked competitor.',
    query: competitorSeriesQuerySchema,
    payload: competitorSeriesPayloadSchema,
    ttlMs: ttlMs.series,
    normalize: (q) => ({ domainId: q.domain_id.toLowerCase(), days: q.days, model: q.model }),
    compute: (p, now) =>
      engine.computeCompetitorSeries({
        domainId: p.domainId,
        days: Number(p.days),
        model: String(p.model),
        now,
      }),
  })
  reportRoute({
    endpoint: 'overview',
    summary: 'Sentiment overview',
    description:
      'The positive/negative split of sentiment themes and the mentions they cover. Requires a Pro, Business or Enterprise plan.',
    query: sentimentQuerySchema,
    payload: sentimentOverviewPayloadSchema,
    ttlMs: ttlMs.sentiment,
    normalize: (q) => ({ domainId: q.domain_id.toLowerCase(), days: q.days, model: q.model }),
    compute: (p, now) =>
      engine.sentimentOverview({ domainId: p.domainId, days: Number(p.days), model: String(p.model), now }),
  })
  reportRoute({
    endpoint: 'themes',
    summary: 'Sentiment themes',
    description:
      'The sentiment themes of the window, each tagged positive or negative. Requires a Pro, Business or Enterprise plan.',
    query: sentimentQuerySchema,
    payload: sentimentThemesPayloadSchema,
    ttlMs: ttlMs.sentiment,
    normalize: (q) => ({ domainId: q.domain_id.toLowerCase(), days: q.days, model: q.model }),
    compute: (p, now) =>
      engine.sentimentThemes({ domainId: p.domainId, days: Number(p.days), model: String(p.model), now }),
  })

  app.route({
    method: 'GET',
    url: API_PATHS.domains,
    schema: {
      summary: 'Domains this key can access',
      security: [{ bearerAuth: [] }],
      response: { 200: domainsPayloadSchema, ...errorResponses },
    },
    onRequest: authenticate,
    handler: async (request) => {
      const { key } = states.get(request)!
      const teams = new Map<string, TeamInfo | null>()
      const items: DomainInfo[] = []
      for (const domain of await queries.run(() => engine.listDomains())) {
        if (!teams.has(domain.team_id)) teams.set(domain.team_id, await engine.getTeam(domain.team_id))
        if (keyCanRead(key, domain, teams.get(domain.team_id) ?? null)) {
          items.push({
            id: domain.id,
            brand_name: domain.brand_name,
            website: domain.website,
            team_id: domain.team_id,
          })
        }
      }
      return { data: { items }, generated_at: isoSeconds(clock()) }
    },
  })
  app.route(methodNotAllowed(API_PATHS.domains, 'GET'))

  app.route({
    method: 'GET',
    url: API_PATHS.health,
    schema: { summary: 'Liveness and database state', response: { 200: healthSchema, 503: healthSchema } },
    handler: async (_request, reply) =>
      engine.isOpen
        ? { status: 'ok' as const, database: 'open' as const }
        : reply.code(503).send({ status: 'unavailable' as const, database: 'closed' as const }),
  })
  app.route(methodNotAllowed(API_PATHS.health, 'GET'))

  app.route({
    method: 'GET',
    url: API_PATHS.openapi,
    schema: { hide: true },
    handler: staticJson(() => app.swagger()),
  })
  app.route(methodNotAllowed(API_PATHS.openapi, 'GET'))

  if (adminTokenHash !== null) {
    const refuseIngest = ingestGate(maxIngestBytes)
    await app.register(async (internal) => {
      // The body is handed to the handler as a stream: records flow into the engine as they arrive.
      const passThrough = (
        _request: FastifyRequest,
        payload: Readable,
        done: (err: null, body: Readable) => void,
      ) => done(null, payload)
      internal.removeAllContentTypeParsers()
      internal.addContentTypeParser(NDJSON_MEDIA_TYPES, passThrough)
      internal.withTypeProvider<ZodTypeProvider>().route({
        method: 'POST',
        url: API_PATHS.ingest,
        schema: {
          hide: true,
          response: { 200: ingestResultSchema, 400: ingestErrorSchema, 401: errorSchema, 413: errorSchema },
        },
        onRequest: async (request, reply) => {
          const token = bearerToken(request.headers.authorization)
          if (token === null || !timingSafeEqual(sha256(token), adminTokenHash)) {
            return reply
              .code(401)
              .header('www-authenticate', 'Bearer realm="visibility-analytics-internal"')
              .send({ detail: DETAIL.adminUnauthorized })
          }
          return refuseIngest(request, reply)
        },
        handler: async (request) => {
          // The body goes to a private temp file first, then into one engine transaction: a slow
          // upload never holds the write transaction open, and issues carry line numbers exactly
          // as `ingestFile` reports them.
          const dir = await mkdtemp(join(tmpdir(), 'va-ingest-'))
          const file = join(dir, 'body.ndjson')
          try {
            await spoolIngestBody(request, file, maxIngestBytes)
            const result = await engine.ingestFile(file)
            cache.clear()
            request.log.info({ ingest: result }, 'ingest stored')
            return result
          } finally {
            await rm(dir, { recursive: true, force: true })
          }
        },
      })
      internal.route(methodNotAllowed(API_PATHS.ingest, 'POST'))
    })
  }

  return app
}
