/**
 * @module The Fastify application, assembled from one plugin per concern. The order of checks of
 * docs/API.md runs across them:
 *
 *   auth (onRequest): 401 key -> 429 rate limit -> 403 key team   (before any parameter is read)
 *   endpoints (validation): 400 parameters                          (zod schemas, first issue wins)
 *   endpoints (handler): 403/404 domain -> 403 plan -> cache -> engine (cache only after authorization)
 */
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyServerOptions } from 'fastify'
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { ENDPOINTS, type EndpointId } from '../api/index.js'
import { createServiceContext, type ServiceContext, type ServiceContextOptions } from './context.js'
import {
  edgeServerOptions,
  installContract,
  resolveEdgeOptions,
  serializeRequest,
  type EdgeOptions,
} from './edge/index.js'
import { adminPlugin, INGEST_PATH } from './plugins/admin.js'
import { authPlugin } from './plugins/auth.js'
import { dashboardPlugin } from './plugins/dashboard.js'
import { DOC_PATHS, docsPlugin, swaggerPlugin } from './plugins/docs.js'
import { conventionsPlugin } from './plugins/conventions.js'
import { endpointsPlugin } from './plugins/endpoints.js'
import { headersPlugin } from './plugins/headers.js'
import { mcpPlugin } from './plugins/mcp.js'
import type { McpHttpOptions } from '../mcp/index.js'
import type { WebhookOptions } from '../index.js'
import { metricsPlugin, retentionPlugin } from './plugins/observe.js'
import { webhooksPlugin } from './plugins/webhooks.js'
import { operationsPlugin, OPERATION_PATHS } from './plugins/operations.js'
import { serviceValidatorCompiler } from './validation.js'

export type { CacheTtlOptions } from './context.js'

/** Where and how much to log: `false` for silence, or pino options (level, destination stream). */
export type LoggerOption = false | { level?: string; stream?: { write(message: string): void } }

export interface BuildServerOptions extends ServiceContextOptions {
  /** Bearer token for POST /internal/v1/ingest; the endpoint does not exist when unset. */
  adminToken?: string | undefined
  /** Largest ingest body in bytes (default 256 MiB). */
  maxIngestBytes?: number
  /**
   * Where ingest bodies are spooled (default: the temp directory); startServer removes the spool
   * directories left there by processes that died during an ingest.
   */
  spoolRoot?: string | undefined
  /** Connection and request limits (timeouts, caps, header size); defaults in EDGE_DEFAULTS. */
  edge?: Partial<EdgeOptions>
  /** Default: info-level JSON logs on stdout. */
  logger?: LoggerOption
  /** MCP at /mcp: session bounds (count, per key, idle time), request deadline, Origin and Host. */
  mcp?: McpHttpOptions
  // Operations (docs/API.md, "Operations endpoints")
  /** Where POST /internal/v1/backup writes its backups (one new directory each); unset: 409. */
  backupDir?: string | undefined
  /** Prune analyses older than today - retainDays once at start, then every day; unset: never. */
  retainDays?: number | undefined
  /** Milliseconds between two prunes (default one day). */
  retentionIntervalMs?: number
  /**
   * Plugins registered after authentication and before the endpoints (cluster mode: the shard's
   * domain ownership check and its internal move endpoints).
   */
  extensions?: FastifyPluginAsync<{ ctx: ServiceContext }>[]
  /** Origins a browser script may call the API from (VA_CORS_ORIGINS); empty or unset: CORS off. */
  corsOrigins?: readonly string[]
  /** Run webhook detection and delivery with these options (docs/WEBHOOKS.md); unset: not run. */
  webhooks?: WebhookOptions | undefined
}

/**
 * The paths the service answers.
 * @example
 * await app.inject({ url: `${API_PATHS.overview}?domain_id=${id}`, headers })
 */
export const API_PATHS = {
  ...(Object.fromEntries(ENDPOINTS.map((e) => [e.id, e.path])) as Record<EndpointId, string>),
  ...DOC_PATHS,
  ingest: INGEST_PATH,
  ...OPERATION_PATHS,
}

const REDACT = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'authorization']

function loggerConfig(option: LoggerOption | undefined): NonNullable<FastifyServerOptions['logger']> {
  if (option === false) return false
  return {
    level: option?.level ?? 'info',
    redact: { paths: REDACT, censor: '[redacted]' },
    serializers: { req: serializeRequest },
    ...(option?.stream !== undefined ? { stream: option.stream } : {}),
  }
}

/**
 * Builds the HTTP service over an open engine (the caller keeps ownership: it is never closed
 * here). Call `ready()` or `listen()` on the result.
 * @example
 * const app = await buildServer({ engine, adminToken: process.env.VA_ADMIN_TOKEN })
 * const res = await app.inject({ url: '/healthz' })
 */
export async function buildServer(options: BuildServerOptions): Promise<FastifyInstance> {
  const ctx = createServiceContext(options)
  const app = Fastify({
    logger: loggerConfig(options.logger),
    requestIdHeader: false,
    // HEAD on every GET route: same status and headers, no body.
    exposeHeadRoutes: true,
    // Requests arriving while closing are answered by the headers plugin (JSON, usual headers).
    return503OnClosing: false,
    ...edgeServerOptions(resolveEdgeOptions(options.edge)),
  }).withTypeProvider<ZodTypeProvider>()
  installContract(app)
  app.setValidatorCompiler(serviceValidatorCompiler)
  app.setSerializerCompiler(serializerCompiler)

  await app.register(conventionsPlugin, { corsOrigins: options.corsOrigins ?? [] })
  await app.register(swaggerPlugin)
  await app.register(metricsPlugin, { ctx })
  await app.register(headersPlugin)
  await app.register(authPlugin, { ctx })
  for (const extension of options.extensions ?? []) await app.register(extension, { ctx })
  await app.register(endpointsPlugin, { ctx })
  await app.register(mcpPlugin, { ctx, options: options.mcp })
  await app.register(docsPlugin, { ctx })
  await app.register(dashboardPlugin)
  if (options.adminToken) {
    const maxIngestBytes = options.maxIngestBytes ?? 256 * 1024 * 1024
    await app.register(adminPlugin, {
      ctx,
      adminToken: options.adminToken,
      maxIngestBytes,
      spoolRoot: options.spoolRoot,
    })
    await app.register(operationsPlugin, {
      ctx,
      adminToken: options.adminToken,
      backupDir: options.backupDir,
    })
  }
  await app.register(webhooksPlugin, { ctx, adminToken: options.adminToken, run: options.webhooks })
  if (options.retainDays !== undefined) {
    const intervalMs = options.retentionIntervalMs ?? 86_400_000
    await app.register(retentionPlugin, { ctx, retainDays: options.retainDays, intervalMs })
  }
  return app
}
