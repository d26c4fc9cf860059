/**
 * @module The contract of the competitor time series (docs/API.md,
 * "GET /api/v1/competitor-time-series"): its library parameters' schema, its payload schema and
 * their public types.
 */
import { z } from 'zod'
import { SERIES_VALUES, channelModelParam, domainIdParam, nowParam } from '../../schemas/params.js'
import {
  count,
  echo,
  entityIdSchema,
  envelope,
  isoDate,
  type Expect,
  type Same,
  segmentEcho,
  windowEcho,
} from '../../schemas/payloads.js'
import type {
  Clock,
  DateRangeParams,
  GranularityEcho,
  GranularityParams,
  RangeEcho,
  SegmentEcho,
  SegmentFilters,
} from '../../types.js'

/** The library form of the competitor series' parameters (camelCase keys, unknown keys refused). */
export const competitorSeriesParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  ...SERIES_VALUES,
  model: channelModelParam.value,
  now: nowParam.value,
})

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
    ...segmentEcho,
  },
)

export interface CompetitorSeriesParams extends DateRangeParams, GranularityParams, SegmentFilters {
  domainId: string
  days?: number
  /** `all` (default) or a channel name. */
  model?: string
  now?: Clock
}

export interface CompetitorDatapoint {
  date: string
  mentions: number
  visibility: number
  sov: number
  avg_position: number
  sentiment: number
}

export interface CompetitorEntry {
  id: string
  name: string
  website: string | null
  is_brand: boolean
  avg_mentions: number
  avg_position: number
  avg_visibility: number
  avg_sov: number
  avg_sentiment: number
  total_queries: number
  series: CompetitorDatapoint[]
}

export interface CompetitorSeriesPayload extends RangeEcho, SegmentEcho, GranularityEcho {
  data: { items: CompetitorEntry[] }
  domain_id: string
  days: number
  model: string
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<
  Same<z.output<typeof competitorSeriesPayloadSchema>, CompetitorSeriesPayload>
>
