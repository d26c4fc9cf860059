/**
 * The zod schemas of the HTTP service: query strings (they validate requests and describe them in
 * the OpenAPI document) and response bodies (they check every payload before it is sent or cached
 * and describe it). Field order follows api-reference.md section 2.
 */
import { z } from 'zod'
import { CHANNELS } from '../types.js'

/** Any 8-4-4-4-12 hex id, in any case (the engine stores ids lower-cased). */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
/** Raw model identifiers accepted by the sentiment endpoints (semantics.md section 3). */
export const RAW_MODEL_PATTERN = /^[A-Za-z0-9._:/@+-]{1,100}$/

/**
 * The exact detail messages of semantics.md section 8 (and of the service's own answers).
 * @example
 * reply.code(401).send({ detail: DETAIL.unauthorized })
 */
export const DETAIL = {
  domainRequired:
    'domain_id query parameter is required. List the domains this key can access with GET /api/v1/domains, then pass ?domain_id=<uuid>.',
  unauthorized: 'Invalid or revoked API key.',
  forbidden: 'API access is not enabled for this team. Contact support.',
  planForbidden: 'Sentiment analysis requires a Pro, Business or Enterprise plan.',
  domainNotFound: 'Domain not found.',
  tooManyRequests: 'Too many requests. Please try again later.',
  notFound: 'Not found.',
  methodNotAllowed: 'Method not allowed.',
  internal: 'Internal server error.',
  busy: 'The service is busy. Please try again shortly.',
  unavailable: 'The service is shutting down. Please try again shortly.',
  adminUnauthorized: 'Invalid admin token.',
} as const

const channelList = CHANNELS.join(', ')
const DOMAIN_ID_MESSAGE = 'domain_id must be a UUID.'
const COMPETITOR_MODEL_MESSAGE = `model must be all or one of the channels ${channelList}.`
const SENTIMENT_MODEL_MESSAGE = `model must be all, one of the channels ${channelList}, or a raw model identifier of 1 to 100 characters from A-Z a-z 0-9 . _ : / @ + -.`

/** The message for a parameter given more than once. */
const repeated = (name: string, accepts: string): string => `${name} must be given only once (${accepts}).`

/** `error` option of a string schema: distinguishes a repeated parameter from a bad value. */
const stringError =
  (name: string, accepts: string, message: string) =>
  (issue: { input?: unknown }): string =>
    Array.isArray(issue.input) ? repeated(name, accepts) : message

/** A strictly decimal integer query parameter in [min, max] with a default. */
function intParam(name: string, min: number, max: number, fallback: number, description: string) {
  const accepts = `an integer from ${min} to ${max}`
  const message = `${name} must be ${accepts}.`
  return z
    .string({ error: stringError(name, accepts, message) })
    .regex(/^[0-9]{1,9}$/, { error: message })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: message }).max(max, { error: message }))
    .optional()
    .default(fallback)
    .meta({ type: 'integer', minimum: min, maximum: max, default: fallback, description })
}

/** domain_id: required; `strict` also requires the UUID shape (prompt and competitor endpoints). */
function domainIdParam(strict: boolean) {
  const base = z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? DETAIL.domainRequired
          : Array.isArray(issue.input)
            ? repeated('domain_id', 'a UUID')
            : DOMAIN_ID_MESSAGE,
    })
    .min(1, { error: DETAIL.domainRequired })
  const schema = strict ? base.regex(UUID_PATTERN, { error: DOMAIN_ID_MESSAGE }) : base
  return schema.meta({ format: 'uuid', description: 'The domain to report on (see GET /api/v1/domains).' })
}

const daysParam = intParam('days', 1, 365, 30, 'Trailing window in UTC days, today included.')

export const promptSeriesQuerySchema = z.object({
  domain_id: domainIdParam(true),
  days: daysParam,
  limit: intParam('limit', 1, 100, 25, 'Maximum number of prompts returned.'),
})

export const competitorSeriesQuerySchema = z.object({
  domain_id: domainIdParam(true),
  days: daysParam,
  model: z
    .enum(['all', ...CHANNELS], {
      error: stringError('model', `all or a channel name`, COMPETITOR_MODEL_MESSAGE),
    })
    .optional()
    .default('all')
    .meta({ description: 'A generic channel name, or all.' }),
})

export const sentimentQuerySchema = z.object({
  domain_id: domainIdParam(false),
  days: daysParam,
  model: z
    .string({
      error: stringError('model', 'all, a channel name or a raw model identifier', SENTIMENT_MODEL_MESSAGE),
    })
    .regex(RAW_MODEL_PATTERN, { error: SENTIMENT_MODEL_MESSAGE })
    .optional()
    .default('all')
    .meta({ description: 'all, a generic channel name, or a raw model identifier.' }),
})

export type PromptSeriesQuery = z.output<typeof promptSeriesQuerySchema>
export type CompetitorSeriesQuery = z.output<typeof competitorSeriesQuerySchema>
export type SentimentQuery = z.output<typeof sentimentQuerySchema>

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)
const count = z.number().int().min(0)
const generatedAt = z.iso
  .datetime({ offset: true })
  .meta({ description: 'When the response was computed (UTC).' })

export const promptEntrySchema = z.object({
  id: z.string(),
  text: z.string(),
  estimated_search_volume: count.nullable(),
  series: z.array(
    z.object({
      date: isoDate,
      mentions: count,
      responses: count,
      citations: count,
      avg_position: z.number().nullable(),
    }),
  ),
})

export const promptSeriesPayloadSchema = z
  .object({
    data: z.object({ items: z.array(promptEntrySchema) }),
    domain_id: z.string(),
    days: z.number().int(),
    limit: z.number().int(),
    generated_at: generatedAt,
  })
  .meta({ id: 'PromptSeriesResponse' })

export const competitorEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  website: z.string().nullable(),
  is_brand: z.boolean(),
  avg_mentions: z.number(),
  avg_position: z.number(),
  avg_visibility: z.number(),
  avg_sov: z.number(),
  avg_sentiment: z.number(),
  total_queries: count,
  series: z.array(
    z.object({
      date: isoDate,
      mentions: z.number(),
      visibility: z.number(),
      sov: z.number(),
      avg_position: z.number(),
      sentiment: z.number(),
    }),
  ),
})

export const competitorSeriesPayloadSchema = z
  .object({
    data: z.object({ items: z.array(competitorEntrySchema) }),
    domain_id: z.string(),
    days: z.number().int(),
    model: z.string(),
    generated_at: generatedAt,
  })
  .meta({ id: 'CompetitorSeriesResponse' })

export const sentimentOverviewPayloadSchema = z
  .object({
    data: z.object({
      positive_percent: z.number().min(0).max(100),
      negative_percent: z.number().min(0).max(100),
      total_mentions: count,
    }),
    domain_id: z.string(),
    days: z.number().int(),
    model: z.string(),
    generated_at: generatedAt,
  })
  .meta({ id: 'SentimentOverviewResponse' })

export const themeEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  sentiment: z.enum(['positive', 'negative']),
  occurrences: count,
  created_at: isoDate,
})

export const sentimentThemesPayloadSchema = z
  .object({
    data: z.object({ items: z.array(themeEntrySchema) }),
    domain_id: z.string(),
    days: z.number().int(),
    model: z.string(),
    generated_at: generatedAt,
  })
  .meta({ id: 'SentimentThemesResponse' })

export const domainsPayloadSchema = z
  .object({
    data: z.object({
      items: z.array(
        z.object({
          id: z.string(),
          brand_name: z.string(),
          website: z.string().nullable(),
          team_id: z.string(),
        }),
      ),
    }),
    generated_at: generatedAt,
  })
  .meta({ id: 'DomainsResponse' })

export const errorSchema = z.object({ detail: z.string() }).meta({ id: 'Error' })

export const healthSchema = z
  .object({ status: z.enum(['ok', 'unavailable']), database: z.enum(['open', 'closed']) })
  .meta({ id: 'Health' })

export const ingestResultSchema = z.object({
  teams: count,
  domains: count,
  prompts: count,
  competitors: count,
  themes: count,
  analyses: count,
  mentions: count,
  citations: count,
  theme_occurrences: count,
})

export const ingestErrorSchema = z.object({
  detail: z.string(),
  issues: z.array(
    z.object({
      line: z.number().int().optional(),
      index: z.number().int().optional(),
      field: z.string(),
      message: z.string(),
    }),
  ),
  total: count,
})
