/**
 * @module The contract of the fan-out queries (docs/API.md, "GET /api/v1/fanout-queries"): its
 * library parameters' schema, its payload schema and their public types.
 */
import { z } from 'zod'
import { REPORT_VALUES, domainIdParam, modelParam, nowParam } from '../../schemas/params.js'
import {
  channelList,
  count,
  echo,
  envelope,
  type Expect,
  type Same,
  uuid,
  segmentEcho,
  windowEcho,
} from '../../schemas/payloads.js'
import type { Channel, Clock, DateRangeParams, RangeEcho, SegmentEcho, SegmentFilters } from '../../types.js'

/** The library form of the fan-out queries' parameters: domain_id, the window, model (raw ids too). */
export const fanoutQueriesParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  ...REPORT_VALUES,
  model: modelParam.value,
  now: nowParam.value,
})

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
    ...segmentEcho,
  },
)

/** Parameters of the fan-out queries report. */
export interface FanoutQueriesParams extends DateRangeParams, SegmentFilters {
  domainId: string
  days?: number
  /** `all` (default), a channel name, or a raw model identifier. */
  model?: string
  now?: Clock
}

export interface FanoutQueryItem {
  /** Trimmed. */
  query: string
  /** Distinct analyses emitting it. */
  count: number
  channels: Channel[]
}

export interface FanoutPromptItem {
  id: string
  text: string
  fanout_queries: FanoutQueryItem[]
}

export interface FanoutQueriesPayload extends RangeEcho, SegmentEcho {
  data: { items: FanoutPromptItem[]; total: number }
  domain_id: string
  days: number
  model: string
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<Same<z.output<typeof fanoutQueriesPayloadSchema>, FanoutQueriesPayload>>
