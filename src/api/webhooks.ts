/**
 * @module The webhook operations as every transport offers them (docs/WEBHOOKS.md): the table of
 * admin routes (the HTTP plugin registers it, the CLI's `--server` client reads its paths), the
 * body schema of a new subscription, the shapes answered, and the checked operations themselves.
 */
import { z } from 'zod'
import {
  ValidationError,
  WEBHOOK_EVENTS,
  webhooksOf,
  type Engine,
  type WebhookDelivery,
  type WebhookService,
  type WebhookSubscription,
} from '../index.js'
import { UUID_RE } from '../schemas/records.js'

/** Details of the webhook endpoints' own refusals. */
export const WEBHOOK_DETAIL = {
  idMalformed: 'id must be a UUID.',
  notFound: 'No webhook subscription with this id.',
  teamMalformed: 'team_id must be a UUID.',
  unavailable: 'Webhooks are not available on this engine.',
} as const

const uuid = (field: string) =>
  z.string({ error: `${field} must be a UUID.` }).regex(UUID_RE, { error: `${field} must be a UUID.` })

/** POST /internal/v1/webhooks. */
export const createWebhookBodySchema = z.strictObject(
  {
    team_id: uuid('team_id'),
    url: z.string({ error: 'url must be a string.' }).min(1, { error: 'url must not be empty.' }),
    events: z
      .array(
        z.enum(WEBHOOK_EVENTS, { error: `events: each event must be one of ${WEBHOOK_EVENTS.join(', ')}.` }),
        {
          error: `events must be an array of event types (${WEBHOOK_EVENTS.join(', ')}).`,
        },
      )
      .min(1, { error: 'events must name at least one event type.' }),
    domain_ids: z
      .array(uuid('domain_ids: each id'), { error: 'domain_ids must be an array of domain UUIDs, or null.' })
      .min(1, { error: 'domain_ids must name at least one domain, or be null (every domain of the team).' })
      .max(1000, { error: 'domain_ids must name at most 1000 domains.' })
      .nullable(),
  },
  { error: 'The body must be a JSON object {"team_id", "url", "events", "domain_ids"}.' },
)

export const webhookSubscriptionSchema = z.object({
  id: z.string(),
  team_id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  domain_ids: z.array(z.string()).nullable(),
  created_at: z.string(),
  disabled_at: z.string().nullable(),
  disabled_reason: z.string().nullable(),
}) satisfies z.ZodType<WebhookSubscription>

export const createdWebhookSchema = webhookSubscriptionSchema.extend({ secret: z.string() })

export const webhookDeliverySchema = z.object({
  event_id: z.string(),
  attempt: z.number(),
  status_code: z.number().nullable(),
  error: z.string().nullable(),
  outcome: z.enum(['delivered', 'retry', 'failed', 'disabled']),
  at: z.string(),
}) satisfies z.ZodType<WebhookDelivery>

export const pingResultSchema = z.object({
  event_id: z.string(),
  type: z.literal('ping'),
  subscription_id: z.string(),
})

/** The admin routes of the webhooks, once (paths with `:id` for the subscription). */
export const WEBHOOK_ROUTES = {
  create: { method: 'POST', path: '/internal/v1/webhooks' },
  list: { method: 'GET', path: '/internal/v1/webhooks' },
  delete: { method: 'DELETE', path: '/internal/v1/webhooks/:id' },
  test: { method: 'POST', path: '/internal/v1/webhooks/:id/test' },
  deliveries: { method: 'GET', path: '/internal/v1/webhooks/:id/deliveries' },
} as const

/** A route's path with the subscription id filled in. */
export function webhookPath(route: keyof typeof WEBHOOK_ROUTES, id?: string): string {
  const path: string = WEBHOOK_ROUTES[route].path
  return id === undefined ? path : path.replace(':id', encodeURIComponent(id))
}

/** The webhooks of an engine, or a refusal naming why there are none. */
export function webhooksOfChecked(engine: Engine): WebhookService {
  const hooks = webhooksOf(engine)
  if (hooks === null) throw new ValidationError([{ path: 'engine', message: WEBHOOK_DETAIL.unavailable }])
  return hooks
}

/** Refuses an id that is not a UUID (named `id`). */
export function webhookIdChecked(id: string): string {
  if (!UUID_RE.test(id)) throw new ValidationError([{ path: 'id', message: WEBHOOK_DETAIL.idMalformed }])
  return id.toLowerCase()
}

/**
 * Creates a subscription from a request body: the body's shape first, then the store (the team
 * exists, each domain is the team's, the URL may receive webhooks). A refusal is a
 * ValidationError naming the field.
 * @example
 * const created = await createWebhookChecked(engine, { team_id, url, events: ['signal.created'], domain_ids: null })
 */
export async function createWebhookChecked(
  engine: Engine,
  body: unknown,
): Promise<WebhookSubscription & { secret: string }> {
  const parsed = createWebhookBodySchema.safeParse(body)
  if (!parsed.success) {
    throw new ValidationError(
      parsed.error.issues.map((i) => ({
        path: i.path.join('.') || 'body',
        message:
          i.code === 'unrecognized_keys'
            ? `unknown field ${i.keys.join(', ')}.`
            : i.path.length > 0 && i.code === 'invalid_type' && i.input === undefined
              ? `${String(i.path[0])} is required.`
              : i.message,
      })),
    )
  }
  return webhooksOfChecked(engine).create(parsed.data)
}
