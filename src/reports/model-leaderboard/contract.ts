/**
 * @module The contract of the model leaderboard (docs/API.md, "GET /api/v1/model-leaderboard"): its
 * library parameters' schema, its payload schema and their public types.
 */
import { z } from 'zod'
import { REPORT_VALUES, domainIdParam, nowParam } from '../../schemas/params.js'
import {
  count,
  echo,
  envelope,
  type Expect,
  type Same,
  segmentEcho,
  windowEcho,
} from '../../schemas/payloads.js'
import { CHANNELS } from '../../foundation/vocabulary.js'
import type { Channel, Clock, DateRangeParams, RangeEcho, SegmentEcho, SegmentFilters } from '../../types.js'

/** The library form of the model leaderboard's parameters: domain_id and the window. */
export const modelLeaderboardParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  ...REPORT_VALUES,
  now: nowParam.value,
})

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
  { domain_id: echo.domain_id, ...windowEcho, ...segmentEcho },
)

export interface ModelLeaderboardParams extends DateRangeParams, SegmentFilters {
  domainId: string
  days?: number
  now?: Clock
}

export interface LeaderboardItem {
  /** The channel. */
  model: Channel
  visibility: number
  avg_position: number | null
  mentions: number
  responses: number
}

export interface ModelLeaderboardPayload extends RangeEcho, SegmentEcho {
  data: { items: LeaderboardItem[] }
  domain_id: string
  days: number
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<
  Same<z.output<typeof modelLeaderboardPayloadSchema>, ModelLeaderboardPayload>
>
