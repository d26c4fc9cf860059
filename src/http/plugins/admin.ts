/**
 * @module The internal endpoint: POST /internal/v1/ingest, NDJSON records stored in one engine
 * transaction, behind the admin token (a bearer token compared as SHA-256 digests in constant
 * time). Registered only when an admin token is configured.
 */
import { timingSafeEqual } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { DETAIL } from '../../api/index.js'
import { isIngestError, warmNdjsonWorker } from '../../index.js'
import { sha256, type ServiceContext } from '../context.js'
import { NDJSON_MEDIA_TYPES, ingestGate, makeSpoolDir, spoolIngestBody } from '../edge/index.js'
import { ADMIN_SCHEME } from '../openapi.js'
import { errorSchema, ingestBodySchema, ingestErrorSchema, ingestResultSchema } from '../schemas.js'
import { adminTokenProblem, bearerToken } from './auth.js'
import { methodNotAllowed } from './headers.js'

/** The ingest path. */
export const INGEST_PATH = '/internal/v1/ingest'

export interface AdminOptions {
  ctx: ServiceContext
  adminToken: string
  /** Largest body in bytes. */
  maxIngestBytes: number
  /** Where ingest bodies are spooled (default: the temp directory). */
  spoolRoot?: string | undefined
}

/**
 * The check every admin route runs first (onRequest): the bearer token against the admin token,
 * compared as SHA-256 digests in constant time, answering 401 when it differs. The token is never
 * logged: the logger redacts the Authorization header.
 * @example
 * onRequest: async (request, reply) => refuseNonAdmin(request, reply) ?? undefined
 */
export function adminGuard(
  adminToken: string,
): (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined {
  const tokenProblem = adminTokenProblem(adminToken)
  if (tokenProblem !== null) throw new Error(tokenProblem)
  const adminTokenHash = sha256(adminToken)
  return (request, reply) => {
    const token = bearerToken(request.headers.authorization)
    if (token !== null && timingSafeEqual(sha256(token), adminTokenHash)) return undefined
    return reply
      .code(401)
      .header('www-authenticate', 'Bearer realm="visibility-analytics-internal"')
      .send({ detail: DETAIL.adminUnauthorized })
  }
}

export const adminPlugin: FastifyPluginAsync<AdminOptions> = async (
  app,
  { ctx, adminToken, maxIngestBytes, spoolRoot },
) => {
  const refuseNonAdmin = adminGuard(adminToken)
  const refuseIngest = ingestGate(maxIngestBytes)
  // The body is handed to the handler as a stream: records flow into a temp file as they arrive.
  const passThrough = (
    _request: FastifyRequest,
    payload: Readable,
    done: (err: null, body: Readable) => void,
  ) => done(null, payload)
  app.removeAllContentTypeParsers()
  app.addContentTypeParser(NDJSON_MEDIA_TYPES, passThrough)
  // The bodies are read by the NDJSON worker: started now, not by the first request.
  warmNdjsonWorker()

  app.withTypeProvider<ZodTypeProvider>().route({
    method: 'POST',
    url: INGEST_PATH,
    schema: {
      operationId: 'ingestRecords',
      summary: 'Ingest NDJSON records',
      description:
        'Internal: stores the NDJSON records of the body in one transaction (all or none) and clears the response cache. Exists only when an admin token is configured.',
      security: [{ [ADMIN_SCHEME]: [] }],
      consumes: NDJSON_MEDIA_TYPES,
      body: ingestBodySchema,
      response: {
        200: ingestResultSchema,
        400: ingestErrorSchema.or(errorSchema),
        401: errorSchema,
        413: errorSchema,
        415: errorSchema,
        500: errorSchema,
        503: errorSchema,
      },
    },
    onRequest: async (request, reply) => refuseNonAdmin(request, reply) ?? refuseIngest(request, reply),
    handler: async (request) => {
      // The body goes to a private temp file first, then into one engine transaction: a slow
      // upload never holds the write transaction open, and issues carry line numbers exactly
      // as `ingestFile` reports them.
      const dir = await makeSpoolDir(spoolRoot)
      const file = join(dir, 'body.ndjson')
      const started = performance.now()
      const seconds = () => (performance.now() - started) / 1000
      try {
        await spoolIngestBody(request, file, maxIngestBytes)
        const result = await ctx.engine.ingestFile(file)
        ctx.clearCaches()
        ctx.metrics.observeIngest('stored', seconds(), result)
        request.log.info({ ingest: result }, 'ingest stored')
        return result
      } catch (e) {
        ctx.metrics.observeIngest(isIngestError(e) ? 'refused' : 'failed', seconds())
        throw e
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
  })
  app.route(methodNotAllowed(app, INGEST_PATH, 'POST'))
}
