/**
 * @module The contract of the sentiment overview (docs/API.md, "GET /api/v1/sentiment/overview"):
 * its library parameters' schema, its payload schema and their public types.
 */
import { z } from 'zod'
import { sentimentParamsSchema } from '../../schemas/params.js'
import {
  count,
  echo,
  envelope,
  type Expect,
  type Same,
  segmentEcho,
  windowEcho,
} from '../../schemas/payloads.js'
import type { RangeEcho, SegmentEcho, SentimentParams } from '../../types.js'

/** The library form of the sentiment overview's parameters: the sentiment parameters. */
export const sentimentOverviewParamsSchema = sentimentParamsSchema
/** domain_id, the window and model (raw ids too). */
export type SentimentOverviewParams = SentimentParams

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
    ...segmentEcho,
  },
)

export interface SentimentOverviewPayload extends RangeEcho, SegmentEcho {
  data: { positive_percent: number; negative_percent: number; total_mentions: number }
  domain_id: string
  days: number
  model: string
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<
  Same<z.output<typeof sentimentOverviewPayloadSchema>, SentimentOverviewPayload>
>
