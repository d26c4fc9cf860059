/**
 * @module The contract of the cited pages (docs/API.md, "GET /api/v1/citations"): its library
 * parameters' schema, its payload schema and their public types.
 */
import { z } from 'zod'
import { citationListParamsSchema } from '../../schemas/params.js'
import {
  channelList,
  count,
  echo,
  envelope,
  timestamp,
  type Expect,
  type Same,
  uuid,
  segmentEcho,
  windowEcho,
} from '../../schemas/payloads.js'
import type { Channel, CitationListParams, RangeEcho, SegmentEcho } from '../../types.js'

/** The library form of the citations report's parameters: those of the citation lists. */
export const citationsParamsSchema = citationListParamsSchema

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
    ...segmentEcho,
  },
)

/** domain_id, the window, model (raw ids too) and limit (1-1000, default 100). */
export type CitationsParams = CitationListParams

/** One cited URL of the citations report. */
export interface CitationItem {
  /** The WHATWG serialization of the URL, without its fragment. */
  url: string
  /** Its host: lower case, without a trailing dot or a leading `www.`. */
  domain: string
  title: string | null
  page_type: string | null
  /** Citation entries (an analysis citing it twice counts twice). */
  frequency: number
  /** Distinct analyses citing it. */
  responses: number
  prompt_count: number
  /** Citing analyses that mention the brand. */
  brand_mentions: number
  channels: Channel[]
  models: string[]
  is_brand: boolean
  competitor_id: string | null
  /** ISO 8601 UTC with milliseconds. */
  first_seen: string
  last_seen: string
}

export interface CitationsPayload extends RangeEcho, SegmentEcho {
  data: { items: CitationItem[]; total: number }
  domain_id: string
  days: number
  model: string
  limit: number
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<Same<z.output<typeof citationsPayloadSchema>, CitationsPayload>>
