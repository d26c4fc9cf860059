/**
 * @module The contract of the four brand time series (docs/API.md, "Brand time series"): its
 * library parameters' schema, its payload schema and their public types.
 */
import { z } from 'zod'
import { granularityParam, sentimentParamsSchema } from '../../schemas/params.js'
import { envelope, isoDate, modelSeriesEcho, type Expect, type Same } from '../../schemas/payloads.js'
import { BRAND_METRICS } from '../../foundation/vocabulary.js'
import type {
  BrandMetric,
  BrandReportParams,
  GranularityEcho,
  GranularityParams,
  RangeEcho,
  SegmentEcho,
} from '../../types.js'

const METRIC_MESSAGE = `metric must be one of ${BRAND_METRICS.join(', ')}.`

/**
 * The library form of a brand series' parameters: those of the sentiment series and the metric
 * (the endpoint table's four rows each fix one).
 */
export const brandSeriesParamsSchema = sentimentParamsSchema.extend({
  granularity: granularityParam.value,
  metric: z.enum(BRAND_METRICS, { error: METRIC_MESSAGE }),
})

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

export interface BrandSeriesParams extends BrandReportParams, GranularityParams {
  /** Which of the four brand time series. */
  metric: BrandMetric
}

export interface ValuePoint {
  date: string
  value: number
}

export interface BrandSeriesPayload extends RangeEcho, SegmentEcho, GranularityEcho {
  data: { items: ValuePoint[] }
  domain_id: string
  days: number
  model: string
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<Same<z.output<typeof brandSeriesPayloadSchema>, BrandSeriesPayload>>
