/**
 * @module The operations endpoints, behind the admin token (the same constant-time check as
 * ingest, src/http/plugins/admin.ts): API keys on a running server, retention, backups and the
 * Prometheus metrics. Registered only when an admin token is configured.
 *
 *   POST   /internal/v1/keys        create a key: 201 with the secret (shown once)
 *   GET    /internal/v1/keys        every key, revoked ones included (never a secret or hash)
 *   DELETE /internal/v1/keys/{id}   revoke: refused from the very next request
 *   POST   /internal/v1/prune       delete analyses older than today - older_than_days
 *   POST   /internal/v1/backup      a consistent snapshot into a new directory of VA_BACKUP_DIR
 *   GET    /metrics                 Prometheus text format
 */
import { join } from 'node:path'
import type { FastifyPluginAsync } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  createKeyChecked,
  OPERATION_DETAIL,
  apiKeySchema,
  backupResultSchema,
  createdKeySchema,
  pruneBodySchema,
  pruneResultSchema,
} from '../../api/index.js'
import { isValidationError, ValidationError } from '../../index.js'
import type { ServiceContext } from '../context.js'
import { errorSchema } from '../schemas.js'
import { adminGuard } from './admin.js'
import { methodNotAllowed } from './headers.js'

/** The paths of the operations endpoints. */
export const OPERATION_PATHS = {
  keys: '/internal/v1/keys',
  key: '/internal/v1/keys/:id',
  prune: '/internal/v1/prune',
  backup: '/internal/v1/backup',
  metrics: '/metrics',
} as const

export interface OperationsOptions {
  ctx: ServiceContext
  adminToken: string
  /** Where POST /internal/v1/backup writes (one new directory per backup); unset: 409. */
  backupDir?: string | undefined
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

/** A backup directory's name: the UTC time, sortable (`backup-20261120T150000.123Z`). */
export function backupName(now: Date): string {
  return `backup-${now.toISOString().replace(/[-:]/g, '')}`
}

const ERRORS = { 400: errorSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema, 500: errorSchema }

export const operationsPlugin: FastifyPluginAsync<OperationsOptions> = async (
  app,
  { ctx, adminToken, backupDir },
) => {
  const refuseNonAdmin = adminGuard(adminToken)
  const { engine, metrics } = ctx
  const admin = {
    onRequest: async (...[request, reply]: Parameters<typeof refuseNonAdmin>) =>
      refuseNonAdmin(request, reply),
  }
  const routes = app.withTypeProvider<ZodTypeProvider>()
  // A body that is not JSON reaches the handlers as text, so its refusal names the expected body.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body))

  routes.route({
    method: 'POST',
    url: OPERATION_PATHS.keys,
    schema: { hide: true, response: { 201: createdKeySchema, ...ERRORS } },
    ...admin,
    handler: async (request, reply) => {
      const { key, info } = await createKeyChecked(engine, request.body)
      metrics.observeOperation('key_create', true)
      request.log.info({ key: { id: info.id, team_id: info.team_id } }, 'api key created')
      return reply.code(201).send({ ...info, key })
    },
  })
  routes.route({
    method: 'GET',
    url: OPERATION_PATHS.keys,
    schema: { hide: true, response: { 200: z.object({ items: z.array(apiKeySchema) }), ...ERRORS } },
    ...admin,
    handler: async () => ({ items: await engine.listApiKeys() }),
  })
  app.route(methodNotAllowed(app, OPERATION_PATHS.keys, ['GET', 'POST']))

  routes.route({
    method: 'DELETE',
    url: OPERATION_PATHS.key,
    schema: { hide: true, response: { 200: apiKeySchema, ...ERRORS } },
    ...admin,
    handler: async (request, reply) => {
      const { id } = request.params as { id: string }
      if (!UUID.test(id))
        throw new ValidationError([{ path: 'id', message: OPERATION_DETAIL.keyIdMalformed }])
      const revoked = await engine.revokeApiKey(id)
      metrics.observeOperation('key_revoke', revoked)
      if (!revoked) return reply.code(404).send({ detail: OPERATION_DETAIL.keyNotFound })
      request.log.info({ key: { id: id.toLowerCase() } }, 'api key revoked')
      const info = (await engine.listApiKeys()).find((k) => k.id === id.toLowerCase())!
      return info
    },
  })
  app.route(methodNotAllowed(app, OPERATION_PATHS.key, 'DELETE'))

  routes.route({
    method: 'POST',
    url: OPERATION_PATHS.prune,
    schema: { hide: true, response: { 200: pruneResultSchema, ...ERRORS } },
    ...admin,
    handler: async (request) => {
      const body = pruneBodySchema.safeParse(request.body)
      if (!body.success) throw new ValidationError([{ path: 'body', message: body.error.issues[0]!.message }])
      try {
        const result = await engine.prune({
          olderThanDays: body.data.older_than_days,
          now: new Date(ctx.clock()),
        })
        ctx.clearCaches()
        metrics.observeOperation('prune', true)
        metrics.observeDeleted('prune', result.deleted)
        request.log.info({ prune: result }, 'pruned')
        return result
      } catch (e) {
        metrics.observeOperation('prune', false)
        throw e
      }
    },
  })
  app.route(methodNotAllowed(app, OPERATION_PATHS.prune, 'POST'))

  routes.route({
    method: 'POST',
    url: OPERATION_PATHS.backup,
    schema: { hide: true, response: { 201: backupResultSchema, ...ERRORS } },
    ...admin,
    handler: async (request, reply) => {
      if (backupDir === undefined) return reply.code(409).send({ detail: OPERATION_DETAIL.backupsOff })
      try {
        const result = await engine.backup(join(backupDir, backupName(new Date(ctx.clock()))))
        metrics.observeOperation('backup', true)
        request.log.info({ backup: { dir: result.dir, tables: result.manifest.tables } }, 'backup written')
        return reply.code(201).send(result)
      } catch (e) {
        metrics.observeOperation('backup', false)
        // The target cannot be written (permissions, space): the operator's problem, said plainly.
        if (isValidationError(e))
          return reply.code(500).send({ detail: `Backup failed: ${e.issues[0]!.message}` })
        throw e
      }
    },
  })
  app.route(methodNotAllowed(app, OPERATION_PATHS.backup, 'POST'))

  app.route({
    method: 'GET',
    url: OPERATION_PATHS.metrics,
    schema: { hide: true },
    ...admin,
    handler: async (_request, reply) =>
      reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  })
  app.route(methodNotAllowed(app, OPERATION_PATHS.metrics, 'GET'))
}
