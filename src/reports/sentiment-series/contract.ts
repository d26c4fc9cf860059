/**
 * @module The contract of the sentiment time series (docs/API.md,
 * "GET /api/v1/sentiment/time-series"): its library parameters' schema, its payload schema and
 * their public types.
 */
import { z } from 'zod'
import { granularityParam, sentimentParamsSchema } from '../../schemas/params.js'
import {
  count,
  envelope,
  isoDate,
  modelSeriesEcho,
  percent,
  type Expect,
  type Same,
} from '../../schemas/payloads.js'
import type {
  GranularityEcho,
  GranularityParams,
  RangeEcho,
  SegmentEcho,
  SentimentParams,
} from '../../types.js'

/** The library form of the sentiment series' parameters: the sentiment parameters and granularity. */
export const sentimentSeriesParamsSchema = sentimentParamsSchema.extend({
  granularity: granularityParam.value,
})

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

/** Parameters of the sentiment time series: those of the sentiment endpoints. */
export interface SentimentSeriesParams extends SentimentParams, GranularityParams {}

export interface SentimentSeriesPoint {
  date: string
  positive_percent: number
  negative_percent: number
  total_mentions: number
}

export interface SentimentSeriesPayload extends RangeEcho, SegmentEcho, GranularityEcho {
  data: { items: SentimentSeriesPoint[] }
  domain_id: string
  days: number
  model: string
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<Same<z.output<typeof sentimentSeriesPayloadSchema>, SentimentSeriesPayload>>
