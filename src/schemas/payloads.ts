/**
 * @module zod schemas of the documented response payloads (docs/API.md, "Payloads"): they check
 * every payload before it is sent or cached and describe it in the OpenAPI document. Field order is
 * the order of the JSON.
 */
import { z } from 'zod'
import {
  channelModelParam,
  daysParam,
  domainIdParam,
  endDateParam,
  granularityParam,
  startDateParam,
  limitParam,
  modelParam,
  pageParam,
  sizeParam,
  uuidOutSchema,
} from './params.js'
import { UUID_RE } from './records.js'
import {
  type BrandRankingsPayload,
  type BrandSeriesPayload,
  type CitationsPayload,
  type CitedDomainsPayload,
  type FanoutQueriesPayload,
  type SentimentSeriesPayload,
  type CompetitorSeriesPayload,
  type ListDomainsPayload,
  type ListPromptsPayload,
  type ModelLeaderboardPayload,
  type PromptSeriesPayload,
  type SentimentOverviewPayload,
  type SentimentThemesPayload,
  type ValidatePayload,
} from '../types.js'
import { CHANNELS, PLANS } from '../foundation/vocabulary.js'

/**
 * `generated_at` of a payload: ISO 8601 in UTC, without milliseconds when they are zero.
 * @example
 * formatGeneratedAt(Date.parse('2026-11-20T15:00:00Z')) // '2026-11-20T15:00:00Z'
 */
export function formatGeneratedAt(ms: number): string {
  const s = new Date(ms).toISOString()
  return s.endsWith('.000Z') ? `${s.slice(0, -5)}Z` : s
}

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)
const count = z.number().int().min(0)
const generatedAt = z.iso
  .datetime({ offset: true })
  .meta({ description: 'When the response was computed (UTC).' })

/**
 * A response body: `data`, then the echo of the request's parameters in order, then
 * `generated_at`, named `id` in the OpenAPI document.
 * @example
 * const fooPayloadSchema = envelope('FooResponse', z.object({ items: z.array(fooSchema) }), { domain_id: echo.domain_id })
 */
function envelope<D extends z.ZodType, E extends z.ZodRawShape>(id: string, data: D, echoes: E) {
  const schema = z.object({ data, ...echoes, generated_at: generatedAt })
  payloadNames.add(schema, { id })
  return schema
}

/**
 * The component name of each response body (`PromptSeriesResponse`, ...). The endpoint table
 * registers it on the row's payload, whose echo fields it makes exact (src/api/endpoints.ts), so
 * the OpenAPI document has one component per body.
 * @example
 * payloadNames.get(promptSeriesPayloadSchema)?.id // 'PromptSeriesResponse'
 */
export const payloadNames = z.registry<{ id: string }>()

/**
 * Echo fields of the parameters, by name, as wide as every endpoint's parameter of that name
 * allows. Each row of the endpoint table narrows them to its own parameters' `echo` schemas
 * (src/api/endpoints.ts), so the bodies it serves and documents carry the exact bounds.
 */
const echo = {
  domain_id: domainIdParam.echo,
  days: daysParam.echo,
  /** A range (docs/API.md, "Date ranges and buckets"): echoed after `days` only when given. */
  start_date: startDateParam.echo,
  end_date: endDateParam.echo,
  /** Echoed after the other parameters, only when given. */
  granularity: granularityParam.echo,
  limit: z.int().min(1),
  model: modelParam.echo,
  page: pageParam.echo,
  size: sizeParam.echo,
}

/** The window's echo (docs/API.md, "Date ranges and buckets"): `days`, then `start_date` and `end_date` when a range was given. */
const windowEcho = { days: echo.days, start_date: echo.start_date, end_date: echo.end_date }
/** The echo of the brand and sentiment series: domain_id, the window, model, granularity when given. */
const modelSeriesEcho = {
  domain_id: echo.domain_id,
  ...windowEcho,
  model: echo.model,
  granularity: echo.granularity,
}

/** An id of a stored record in a payload: a lower-case UUID (`format: uuid`). */
const uuid = uuidOutSchema

/**
 * The id of a per-entity row: a competitor's UUID, or `user-brand-<domain_id>` for the brand row.
 * @example
 * z.object({ id: entityIdSchema, is_brand: z.boolean() })
 */
export const entityIdSchema = z.union([
  uuid,
  z
    .string()
    .regex(new RegExp(`^user-brand-${UUID_RE.source.slice(1)}`))
    .meta({ description: 'The brand row: user-brand-<domain_id>.' }),
])

export const promptEntrySchema = z.object({
  id: uuid,
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

/**
 * The prompt time series body.
 * @example
 * promptSeriesPayloadSchema.parse(await engine.computePromptSeries({ domainId }))
 */
export const promptSeriesPayloadSchema = envelope(
  'PromptSeriesResponse',
  z.object({ items: z.array(promptEntrySchema) }),
  {
    domain_id: echo.domain_id,
    ...windowEcho,
    limit: limitParam.echo,
    granularity: echo.granularity,
  },
)

export const competitorEntrySchema = z.object({
  id: entityIdSchema,
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

/**
 * The competitor time series body.
 * @example
 * competitorSeriesPayloadSchema.parse(await engine.computeCompetitorSeries({ domainId }))
 */
export const competitorSeriesPayloadSchema = envelope(
  'CompetitorSeriesResponse',
  z.object({ items: z.array(competitorEntrySchema) }),
  {
    domain_id: echo.domain_id,
    ...windowEcho,
    model: channelModelParam.echo,
    granularity: echo.granularity,
  },
)

/**
 * The sentiment overview body.
 * @example
 * sentimentOverviewPayloadSchema.parse(await engine.computeSentimentOverview({ domainId }))
 */
export const sentimentOverviewPayloadSchema = envelope(
  'SentimentOverviewResponse',
  z.object({
    positive_percent: z.number().min(0).max(100),
    negative_percent: z.number().min(0).max(100),
    total_mentions: count,
  }),
  {
    domain_id: echo.domain_id,
    ...windowEcho,
    model: echo.model,
  },
)

export const themeEntrySchema = z.object({
  id: uuid,
  name: z.string(),
  sentiment: z.enum(['positive', 'negative']),
  occurrences: count,
  created_at: isoDate,
})

/**
 * The sentiment themes body.
 * @example
 * sentimentThemesPayloadSchema.parse(await engine.computeSentimentThemes({ domainId }))
 */
export const sentimentThemesPayloadSchema = envelope(
  'SentimentThemesResponse',
  z.object({ items: z.array(themeEntrySchema) }),
  {
    domain_id: echo.domain_id,
    ...windowEcho,
    model: echo.model,
  },
)

// ---------------------------------------------------------------------------------------------
// Listings, rankings and brand time series (extensions.md sections 3-5).

/** A stored timestamp: ISO 8601 UTC with milliseconds. */
const timestamp = z.iso.datetime().meta({ description: 'ISO 8601 UTC with milliseconds.' })

/**
 * The key check body.
 * @example
 * validatePayloadSchema.parse(await engine.computeKeyCheck({ key, rateLimit }))
 */
export const validatePayloadSchema = envelope(
  'ValidateResponse',
  z.object({
    team_id: uuid,
    team_name: z.string(),
    plan: z.enum(PLANS),
    developer_access: z.boolean(),
    scoped_team_ids: z.array(uuid),
    allowed_domains: z.array(uuid).nullable(),
    rate_limit: z.object({
      limit_per_minute: z.number().int().min(1),
      remaining: count,
      reset_at: z.iso.datetime().meta({ description: 'When the rate-limit window ends (UTC).' }),
    }),
  }),
  {},
)

/** One page of a listing: `items`, `total`, `page`, `size`, `total_pages`. */
const page = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: count,
    page: z.number().int().min(1),
    size: count,
    total_pages: z.number().int().min(1),
  })

/**
 * The domains listing body: the domains a key can read, as one page.
 * @example
 * domainsPayloadSchema.parse(await engine.computeDomainList({ key }))
 */
export const domainsPayloadSchema = envelope(
  'DomainsResponse',
  page(
    z.object({
      id: uuid,
      name: z.string(),
      website: z.string().nullable(),
      created_at: timestamp.nullable(),
    }),
  ),
  {},
)

/** The domains listing: `{ data: { items, total, page, size, total_pages }, generated_at }`. */
export type DomainsPayload = z.output<typeof domainsPayloadSchema>

/**
 * The prompts listing body.
 * @example
 * promptListPayloadSchema.parse(await engine.computePromptList({ domainId }))
 */
export const promptListPayloadSchema = envelope(
  'PromptListResponse',
  page(
    z.object({
      id: uuid,
      text: z.string(),
      estimated_search_volume: count.nullable(),
      created_at: timestamp.nullable(),
    }),
  ),
  { domain_id: echo.domain_id, page: echo.page, size: echo.size },
)

/**
 * The brand rankings body.
 * @example
 * brandRankingsPayloadSchema.parse(await engine.computeBrandRankings({ domainId }))
 */
export const brandRankingsPayloadSchema = envelope(
  'BrandRankingsResponse',
  z.object({
    items: z.array(
      z.object({
        id: entityIdSchema,
        name: z.string(),
        website: z.string().nullable(),
        is_brand: z.boolean(),
        mentions: count,
        visibility: z.number().min(0).max(100),
        sov: z.number().min(0).max(100),
        avg_position: z.number().nullable(),
        prompts_mentioned: count,
        total_prompts: count,
      }),
    ),
  }),
  {
    domain_id: echo.domain_id,
    ...windowEcho,
    model: echo.model,
  },
)

/**
 * The model leaderboard body.
 * @example
 * modelLeaderboardPayloadSchema.parse(await engine.computeModelLeaderboard({ domainId }))
 */
export const modelLeaderboardPayloadSchema = envelope(
  'ModelLeaderboardResponse',
  z.object({
    items: z.array(
      z.object({
        model: z.enum(CHANNELS),
        visibility: z.number().min(0).max(100),
        avg_position: z.number().nullable(),
        mentions: count,
        responses: count,
      }),
    ),
  }),
  { domain_id: echo.domain_id, ...windowEcho },
)

/**
 * A brand time series body (the four share it).
 * @example
 * brandSeriesPayloadSchema.parse(await engine.computeBrandSeries({ domainId, metric: 'visibility' }))
 */
export const brandSeriesPayloadSchema = envelope(
  'BrandSeriesResponse',
  z.object({ items: z.array(z.object({ date: isoDate, value: z.number().min(0) })) }),
  modelSeriesEcho,
)

// ---------------------------------------------------------------------------------------------
// Citations, cited domains, fan-out queries, sentiment over time (docs/API.md, "Citations, fan-out and sentiment over time")

const channelList = z.array(z.enum(CHANNELS))
const percent = z.number().min(0).max(100)

export const citationItemSchema = z.object({
  url: z.string(),
  domain: z.string(),
  title: z.string().nullable(),
  page_type: z.string().nullable(),
  frequency: count,
  responses: count,
  prompt_count: count,
  brand_mentions: count,
  channels: channelList,
  models: z.array(z.string()),
  is_brand: z.boolean(),
  competitor_id: uuid.nullable(),
  first_seen: timestamp,
  last_seen: timestamp,
})

/**
 * The citations body: the cited URLs, most cited first.
 * @example
 * citationsPayloadSchema.parse(await engine.computeCitations({ domainId }))
 */
export const citationsPayloadSchema = envelope(
  'CitationsResponse',
  z.object({ items: z.array(citationItemSchema), total: count }),
  {
    domain_id: echo.domain_id,
    ...windowEcho,
    model: echo.model,
    limit: echo.limit,
  },
)

export const citedDomainItemSchema = z.object({
  domain: z.string(),
  frequency: count,
  responses: count,
  urls: count,
  share: percent,
  is_brand: z.boolean(),
  competitor_id: uuid.nullable(),
})

/**
 * The cited-domains body: the cited hosts, most cited first.
 * @example
 * citedDomainsPayloadSchema.parse(await engine.computeCitedDomains({ domainId }))
 */
export const citedDomainsPayloadSchema = envelope(
  'CitedDomainsResponse',
  z.object({ items: z.array(citedDomainItemSchema), total: count }),
  {
    domain_id: echo.domain_id,
    ...windowEcho,
    model: echo.model,
    limit: echo.limit,
  },
)

export const fanoutPromptItemSchema = z.object({
  id: uuid,
  text: z.string(),
  fanout_queries: z.array(z.object({ query: z.string(), count, channels: channelList })),
})

/**
 * The fan-out queries body: per prompt, the queries its answers issued.
 * @example
 * fanoutQueriesPayloadSchema.parse(await engine.computeFanoutQueries({ domainId }))
 */
export const fanoutQueriesPayloadSchema = envelope(
  'FanoutQueriesResponse',
  z.object({ items: z.array(fanoutPromptItemSchema), total: count }),
  {
    domain_id: echo.domain_id,
    ...windowEcho,
    model: echo.model,
  },
)

/**
 * The sentiment time series body: the overview's numbers per UTC date with a theme.
 * @example
 * sentimentSeriesPayloadSchema.parse(await engine.computeSentimentSeries({ domainId }))
 */
export const sentimentSeriesPayloadSchema = envelope(
  'SentimentTimeSeriesResponse',
  z.object({
    items: z.array(
      z.object({
        date: isoDate,
        positive_percent: percent,
        negative_percent: percent,
        total_mentions: count,
      }),
    ),
  }),
  modelSeriesEcho,
)

// The schemas and the public payload types (src/types.ts) must describe the same JSON.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Expect<T extends true> = T
type _PayloadTypesMatch = [
  Expect<Same<z.output<typeof promptSeriesPayloadSchema>, PromptSeriesPayload>>,
  Expect<Same<z.output<typeof competitorSeriesPayloadSchema>, CompetitorSeriesPayload>>,
  Expect<Same<z.output<typeof sentimentOverviewPayloadSchema>, SentimentOverviewPayload>>,
  Expect<Same<z.output<typeof sentimentThemesPayloadSchema>, SentimentThemesPayload>>,
  Expect<Same<z.output<typeof validatePayloadSchema>, ValidatePayload>>,
  Expect<Same<z.output<typeof domainsPayloadSchema>, ListDomainsPayload>>,
  Expect<Same<z.output<typeof promptListPayloadSchema>, ListPromptsPayload>>,
  Expect<Same<z.output<typeof brandRankingsPayloadSchema>, BrandRankingsPayload>>,
  Expect<Same<z.output<typeof modelLeaderboardPayloadSchema>, ModelLeaderboardPayload>>,
  Expect<Same<z.output<typeof brandSeriesPayloadSchema>, BrandSeriesPayload>>,
  Expect<Same<z.output<typeof citationsPayloadSchema>, CitationsPayload>>,
  Expect<Same<z.output<typeof citedDomainsPayloadSchema>, CitedDomainsPayload>>,
  Expect<Same<z.output<typeof fanoutQueriesPayloadSchema>, FanoutQueriesPayload>>,
  Expect<Same<z.output<typeof sentimentSeriesPayloadSchema>, SentimentSeriesPayload>>,
]
