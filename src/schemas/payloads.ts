/**
 * @module zod schemas of the documented response payloads (docs/API.md, "Payloads"): they check
 * every payload before it is sent or cached and describe it in the OpenAPI document. Field order is
 * the order of the JSON.
 */
import { z } from 'zod'
import { CHANNELS } from '../types.js'
import type {
  CitationsPayload,
  CitedDomainsPayload,
  FanoutQueriesPayload,
  SentimentSeriesPayload,
  CompetitorSeriesPayload,
  PromptSeriesPayload,
  SentimentOverviewPayload,
  SentimentThemesPayload,
} from '../types.js'

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
  return z.object({ data, ...echoes, generated_at: generatedAt }).meta({ id })
}

/** Echo fields of the parameters, by name. */
const echo = {
  domain_id: z.string(),
  days: z.number().int(),
  limit: z.number().int(),
  model: z.string(),
}

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

/**
 * The prompt time series body.
 * @example
 * promptSeriesPayloadSchema.parse(await engine.computePromptSeries({ domainId }))
 */
export const promptSeriesPayloadSchema = envelope(
  'PromptSeriesResponse',
  z.object({ items: z.array(promptEntrySchema) }),
  { domain_id: echo.domain_id, days: echo.days, limit: echo.limit },
)

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

/**
 * The competitor time series body.
 * @example
 * competitorSeriesPayloadSchema.parse(await engine.computeCompetitorSeries({ domainId }))
 */
export const competitorSeriesPayloadSchema = envelope(
  'CompetitorSeriesResponse',
  z.object({ items: z.array(competitorEntrySchema) }),
  { domain_id: echo.domain_id, days: echo.days, model: echo.model },
)

/**
 * The sentiment overview body.
 * @example
 * sentimentOverviewPayloadSchema.parse(await engine.sentimentOverview({ domainId }))
 */
export const sentimentOverviewPayloadSchema = envelope(
  'SentimentOverviewResponse',
  z.object({
    positive_percent: z.number().min(0).max(100),
    negative_percent: z.number().min(0).max(100),
    total_mentions: count,
  }),
  { domain_id: echo.domain_id, days: echo.days, model: echo.model },
)

export const themeEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  sentiment: z.enum(['positive', 'negative']),
  occurrences: count,
  created_at: isoDate,
})

/**
 * The sentiment themes body.
 * @example
 * sentimentThemesPayloadSchema.parse(await engine.sentimentThemes({ domainId }))
 */
export const sentimentThemesPayloadSchema = envelope(
  'SentimentThemesResponse',
  z.object({ items: z.array(themeEntrySchema) }),
  { domain_id: echo.domain_id, days: echo.days, model: echo.model },
)

/**
 * The domains listing body: the domains a key can read.
 * @example
 * domainsPayloadSchema.parse(await listReadableDomains(engine, key, new Date()))
 */
export const domainsPayloadSchema = envelope(
  'DomainsResponse',
  z.object({
    items: z.array(
      z.object({
        id: z.string(),
        brand_name: z.string(),
        website: z.string().nullable(),
        team_id: z.string(),
      }),
    ),
  }),
  {},
)

/** The domains listing: `{ data: { items }, generated_at }`. */
export type DomainsPayload = z.output<typeof domainsPayloadSchema>

// ---------------------------------------------------------------------------------------------
// Citations, cited domains, fan-out queries, sentiment over time (extensions sections 6, 7)

const channelList = z.array(z.enum(CHANNELS))
const storedTimestamp = z.iso.datetime().meta({ description: 'ISO 8601 UTC with milliseconds.' })
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
  competitor_id: z.string().nullable(),
  first_seen: storedTimestamp,
  last_seen: storedTimestamp,
})

/**
 * The citations body: the cited URLs, most cited first.
 * @example
 * citationsPayloadSchema.parse(await engine.citations({ domainId }))
 */
export const citationsPayloadSchema = envelope(
  'CitationsResponse',
  z.object({ items: z.array(citationItemSchema), total: count }),
  { domain_id: echo.domain_id, days: echo.days, model: echo.model, limit: echo.limit },
)

export const citedDomainItemSchema = z.object({
  domain: z.string(),
  frequency: count,
  responses: count,
  urls: count,
  share: percent,
  is_brand: z.boolean(),
  competitor_id: z.string().nullable(),
})

/**
 * The cited-domains body: the cited hosts, most cited first.
 * @example
 * citedDomainsPayloadSchema.parse(await engine.citedDomains({ domainId }))
 */
export const citedDomainsPayloadSchema = envelope(
  'CitedDomainsResponse',
  z.object({ items: z.array(citedDomainItemSchema), total: count }),
  { domain_id: echo.domain_id, days: echo.days, model: echo.model, limit: echo.limit },
)

export const fanoutPromptItemSchema = z.object({
  id: z.string(),
  text: z.string(),
  fanout_queries: z.array(z.object({ query: z.string(), count, channels: channelList })),
})

/**
 * The fan-out queries body: per prompt, the queries its answers issued.
 * @example
 * fanoutQueriesPayloadSchema.parse(await engine.fanoutQueries({ domainId }))
 */
export const fanoutQueriesPayloadSchema = envelope(
  'FanoutQueriesResponse',
  z.object({ items: z.array(fanoutPromptItemSchema), total: count }),
  { domain_id: echo.domain_id, days: echo.days, model: echo.model },
)

/**
 * The sentiment time series body: the overview's numbers per UTC date with a theme.
 * @example
 * sentimentSeriesPayloadSchema.parse(await engine.sentimentSeries({ domainId }))
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
  { domain_id: echo.domain_id, days: echo.days, model: echo.model },
)

// The schemas and the public payload types (src/types.ts) must describe the same JSON.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Expect<T extends true> = T
type _PayloadTypesMatch = [
  Expect<Same<z.output<typeof promptSeriesPayloadSchema>, PromptSeriesPayload>>,
  Expect<Same<z.output<typeof competitorSeriesPayloadSchema>, CompetitorSeriesPayload>>,
  Expect<Same<z.output<typeof sentimentOverviewPayloadSchema>, SentimentOverviewPayload>>,
  Expect<Same<z.output<typeof sentimentThemesPayloadSchema>, SentimentThemesPayload>>,
  Expect<Same<z.output<typeof citationsPayloadSchema>, CitationsPayload>>,
  Expect<Same<z.output<typeof citedDomainsPayloadSchema>, CitedDomainsPayload>>,
  Expect<Same<z.output<typeof fanoutQueriesPayloadSchema>, FanoutQueriesPayload>>,
  Expect<Same<z.output<typeof sentimentSeriesPayloadSchema>, SentimentSeriesPayload>>,
]
