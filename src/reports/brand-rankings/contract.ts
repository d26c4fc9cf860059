/**
 * @module The contract of the brand rankings (docs/API.md, "GET /api/v1/brand-rankings"): its
 * library parameters' schema, its payload schema and their public types.
 */
import { z } from 'zod'
import { sentimentParamsSchema } from '../../schemas/params.js'
import {
  count,
  echo,
  entityIdSchema,
  envelope,
  type Expect,
  type Same,
  segmentEcho,
  windowEcho,
} from '../../schemas/payloads.js'
import type { BrandReportParams, RangeEcho, SegmentEcho } from '../../types.js'

/** The library form of the brand rankings' parameters: domain_id, the window, model (raw ids too). */
export const brandReportParamsSchema = sentimentParamsSchema

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
    ...segmentEcho,
  },
)

/** domain_id, the window and model (raw ids too). */
export type BrandRankingsParams = BrandReportParams

export interface BrandRankingItem {
  id: string
  name: string
  website: string | null
  is_brand: boolean
  mentions: number
  visibility: number
  sov: number
  avg_position: number | null
  prompts_mentioned: number
  total_prompts: number
}

export interface BrandRankingsPayload extends RangeEcho, SegmentEcho {
  data: { items: BrandRankingItem[] }
  domain_id: string
  days: number
  model: string
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<Same<z.output<typeof brandRankingsPayloadSchema>, BrandRankingsPayload>>
