/**
 * @module The webhook endpoints, behind the admin token (docs/WEBHOOKS.md), registered from the
 * route table of src/api/webhooks.ts, and, when the server runs the webhooks (`webhooks` option:
 * `visibility serve`), the detection and the delivery worker started with the server and the
 * webhook metrics on /metrics.
 *
 *   POST   /internal/v1/webhooks                   create: 201 with the signing secret (shown once)
 *   GET    /internal/v1/webhooks[?team_id=]        every subscription (never a secret)
 *   DELETE /internal/v1/webhooks/{id}              delete (with its outbox and log)
 *   POST   /internal/v1/webhooks/{id}/test         a ping event: 202 with its event id
 *   GET    /internal/v1/webhooks/{id}/deliveries   the latest attempts, newest first
 */
import type { FastifyPluginAsync } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { Counter, Gauge, type Registry } from 'prom-client'
import { z } from 'zod'
import {
  WEBHOOK_DETAIL,
  WEBHOOK_ROUTES,
  createWebhookChecked,
  createdWebhookSchema,
  pingResultSchema,
  webhookDeliverySchema,
  webhookIdChecked,
  webhookSubscriptionSchema,
  webhooksOfChecked,
} from '../../api/index.js'
import { ValidationError, webhooksOf, type WebhookOptions, type WebhookService } from '../../index.js'
import type { ServiceContext } from '../context.js'
import { errorSchema } from '../schemas.js'
import { adminGuard } from './admin.js'
import { methodNotAllowed } from './headers.js'

export interface WebhooksPluginOptions {
  ctx: ServiceContext
  /** The admin token (no token: no routes). */
  adminToken?: string | undefined
  /** Run detection and delivery with these options while the server runs (unset: routes only). */
  run?: WebhookOptions | undefined
}

const ERRORS = { 400: errorSchema, 401: errorSchema, 404: errorSchema, 500: errorSchema }
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

/**
 * The webhook metrics on a registry: events created, deliveries by outcome, queue depth and the
 * oldest pending event's age (read from the outbox at each scrape).
 */
export function registerWebhookMetrics(registry: Registry, hooks: WebhookService): void {
  const registers = [registry]
  let seenEvents = 0
  new Counter({
    name: 'va_webhook_events_created_total',
    help: 'Webhook events written to the outbox by detection.',
    registers,
    collect() {
      this.inc(hooks.counters.eventsCreated - seenEvents)
      seenEvents = hooks.counters.eventsCreated
    },
  })
  const seen: Record<string, number> = {}
  new Counter({
    name: 'va_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome: delivered, retry, failed or disabled (410).',
    labelNames: ['outcome'],
    registers,
    collect() {
      for (const [outcome, n] of Object.entries(hooks.counters.deliveries)) {
        this.inc({ outcome }, n - (seen[outcome] ?? 0))
        seen[outcome] = n
      }
    },
  })
  const queue = () => (hooks.started ? hooks.queue().catch(() => null) : Promise.resolve(null))
  new Gauge({
    name: 'va_webhook_queue_depth',
    help: 'Webhook events pending delivery (outbox rows not yet delivered or failed).',
    registers,
    async collect() {
      this.set((await queue())?.pending ?? 0)
    },
  })
  new Gauge({
    name: 'va_webhook_oldest_pending_age_seconds',
    help: 'Age of the oldest webhook event pending delivery (0: none).',
    registers,
    async collect() {
      this.set((await queue())?.oldestPendingAgeSeconds ?? 0)
    },
  })
}

export const webhooksPlugin: FastifyPluginAsync<WebhooksPluginOptions> = async (
  app,
  { ctx, adminToken, run },
) => {
  const hooks = webhooksOf(ctx.engine)
  if (run !== undefined && hooks !== null) {
    hooks.configure(run)
    registerWebhookMetrics(ctx.metrics.registry, hooks)
    app.addHook('onReady', async () => hooks.start())
  }
  if (!adminToken) return
  const refuseNonAdmin = adminGuard(adminToken)
  const admin = {
    onRequest: async (...[request, reply]: Parameters<typeof refuseNonAdmin>) =>
      refuseNonAdmin(request, reply),
  }
  const routes = app.withTypeProvider<ZodTypeProvider>()
  // A body that is not JSON reaches the handler as text, so its refusal names the expected body.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body))
  const service = () => webhooksOfChecked(ctx.engine)
  const idOf = (params: unknown) => webhookIdChecked((params as { id: string }).id)

  routes.route({
    method: WEBHOOK_ROUTES.create.method,
    url: WEBHOOK_ROUTES.create.path,
    schema: { hide: true, response: { 201: createdWebhookSchema, ...ERRORS } },
    ...admin,
    handler: async (request, reply) => {
      const created = await createWebhookChecked(ctx.engine, request.body)
      request.log.info({ webhook: { id: created.id, team_id: created.team_id } }, 'webhook created')
      return reply.code(201).send(created)
    },
  })
  routes.route({
    method: WEBHOOK_ROUTES.list.method,
    url: WEBHOOK_ROUTES.list.path,
    schema: {
      hide: true,
      response: { 200: z.object({ items: z.array(webhookSubscriptionSchema) }), ...ERRORS },
    },
    ...admin,
    handler: async (request) => {
      const { team_id: team, ...rest } = request.query as Record<string, unknown>
      const unknown = Object.keys(rest)
      if (unknown.length > 0)
        throw new ValidationError([
          { path: unknown[0]!, message: `unknown parameter ${unknown.join(', ')}.` },
        ])
      if (team !== undefined && (typeof team !== 'string' || !UUID.test(team)))
        throw new ValidationError([{ path: 'team_id', message: WEBHOOK_DETAIL.teamMalformed }])
      return { items: await service().list(team) }
    },
  })
  app.route(methodNotAllowed(app, WEBHOOK_ROUTES.list.path, ['GET', 'POST']))

  routes.route({
    method: WEBHOOK_ROUTES.delete.method,
    url: WEBHOOK_ROUTES.delete.path,
    schema: { hide: true, response: { 200: webhookSubscriptionSchema, ...ERRORS } },
    ...admin,
    handler: async (request, reply) => {
      const id = idOf(request.params)
      const sub = await service().get(id)
      if (sub === null || !(await service().delete(id)))
        return reply.code(404).send({ detail: WEBHOOK_DETAIL.notFound })
      request.log.info({ webhook: { id } }, 'webhook deleted')
      return sub
    },
  })
  app.route(methodNotAllowed(app, WEBHOOK_ROUTES.delete.path, 'DELETE'))

  routes.route({
    method: WEBHOOK_ROUTES.test.method,
    url: WEBHOOK_ROUTES.test.path,
    schema: { hide: true, response: { 202: pingResultSchema, ...ERRORS } },
    ...admin,
    handler: async (request, reply) => {
      const id = idOf(request.params)
      const event = await service().ping(id)
      if (event === null) return reply.code(404).send({ detail: WEBHOOK_DETAIL.notFound })
      return reply.code(202).send({ event_id: event, type: 'ping' as const, subscription_id: id })
    },
  })
  app.route(methodNotAllowed(app, WEBHOOK_ROUTES.test.path, 'POST'))

  routes.route({
    method: WEBHOOK_ROUTES.deliveries.method,
    url: WEBHOOK_ROUTES.deliveries.path,
    schema: { hide: true, response: { 200: z.object({ items: z.array(webhookDeliverySchema) }), ...ERRORS } },
    ...admin,
    handler: async (request, reply) => {
      const id = idOf(request.params)
      const { limit: rawLimit, ...rest } = request.query as Record<string, unknown>
      const unknown = Object.keys(rest)
      if (unknown.length > 0)
        throw new ValidationError([
          { path: unknown[0]!, message: `unknown parameter ${unknown.join(', ')}.` },
        ])
      const limit = rawLimit === undefined ? 100 : Number(rawLimit)
      if (
        !Number.isInteger(limit) ||
        limit < 1 ||
        limit > 1000 ||
        !/^[0-9]+$/.test(String(rawLimit ?? '100'))
      )
        throw new ValidationError([{ path: 'limit', message: 'limit must be an integer from 1 to 1000.' }])
      if ((await service().get(id)) === null) return reply.code(404).send({ detail: WEBHOOK_DETAIL.notFound })
      return { items: await service().deliveries(id, limit) }
    },
  })
  app.route(methodNotAllowed(app, WEBHOOK_ROUTES.deliveries.path, 'GET'))
}
