/**
 * @module The contract of the prompt time series (docs/API.md,
 * "GET /api/v1/prompt-statistics-time-series"): its library parameters' schema, its payload schema
 * and their public types.
 */
import { z } from 'zod'
import { SERIES_VALUES, domainIdParam, limitParam, nowParam } from '../../schemas/params.js'
import {
  count,
  echo,
  envelope,
  isoDate,
  type Expect,
  type Same,
  uuid,
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

/** The library form of the prompt series' parameters (camelCase keys, unknown keys refused). */
export const promptSeriesParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  ...SERIES_VALUES,
  limit: limitParam.value,
  now: nowParam.value,
})

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
    ...segmentEcho,
  },
)

export interface PromptSeriesParams extends DateRangeParams, GranularityParams, SegmentFilters {
  domainId: string
  /** 1-365, default 30. */
  days?: number
  /** 1-100, default 25. */
  limit?: number
  /** Defaults to the current time. */
  now?: Clock
}

export interface PromptDatapoint {
  date: string
  mentions: number
  responses: number
  citations: number
  avg_position: number | null
}

export interface PromptEntry {
  id: string
  text: string
  estimated_search_volume: number | null
  series: PromptDatapoint[]
}

export interface PromptSeriesPayload extends RangeEcho, SegmentEcho, GranularityEcho {
  data: { items: PromptEntry[] }
  domain_id: string
  days: number
  limit: number
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<Same<z.output<typeof promptSeriesPayloadSchema>, PromptSeriesPayload>>
