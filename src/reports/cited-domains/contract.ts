/**
 * @module The contract of the cited domains (docs/API.md, "GET /api/v1/cited-domains"): its library
 * parameters' schema, its payload schema and their public types.
 */
import { z } from 'zod'
import { citationListParamsSchema } from '../../schemas/params.js'
import {
  count,
  echo,
  envelope,
  percent,
  type Expect,
  type Same,
  uuid,
  segmentEcho,
  windowEcho,
} from '../../schemas/payloads.js'
import type { CitationListParams, RangeEcho, SegmentEcho } from '../../types.js'

/** The library form of the cited-domains report's parameters: those of the citation lists. */
export const citedDomainsParamsSchema = citationListParamsSchema

export const citedDomainItemSchema = z.object({
  domain: z.string(),
  frequency: count,
  responses: count,
  urls: count,
  share: percent,
  is_brand: z.boolean(),
  competitor_id: uuid.nullable(),
})

/**
 * The cited-domains body: the cited hosts, most cited first.
 * @example
 * citedDomainsPayloadSchema.parse(await engine.computeCitedDomains({ domainId }))
 */
export const citedDomainsPayloadSchema = envelope(
  'CitedDomainsResponse',
  z.object({ items: z.array(citedDomainItemSchema), total: count }),
  {
    domain_id: echo.domain_id,
    ...windowEcho,
    model: echo.model,
    limit: echo.limit,
    ...segmentEcho,
  },
)

/** domain_id, the window, model (raw ids too) and limit (1-1000, default 100). */
export type CitedDomainsParams = CitationListParams

/** One cited host of the cited-domains report. */
export interface CitedDomainItem {
  domain: string
  frequency: number
  responses: number
  /** Distinct cited URLs on the host. */
  urls: number
  /** frequency / all citation entries * 100. */
  share: number
  is_brand: boolean
  competitor_id: string | null
}

export interface CitedDomainsPayload extends RangeEcho, SegmentEcho {
  data: { items: CitedDomainItem[]; total: number }
  domain_id: string
  days: number
  model: string
  limit: number
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<Same<z.output<typeof citedDomainsPayloadSchema>, CitedDomainsPayload>>
