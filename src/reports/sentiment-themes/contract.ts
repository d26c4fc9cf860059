/**
 * @module The contract of the sentiment themes (docs/API.md, "GET /api/v1/sentiment/themes"): its
 * library parameters' schema, its payload schema and their public types.
 */
import { z } from 'zod'
import { sentimentParamsSchema } from '../../schemas/params.js'
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
import type { RangeEcho, SegmentEcho, SentimentParams } from '../../types.js'

/** The library form of the sentiment themes' parameters: the sentiment parameters. */
export const sentimentThemesParamsSchema = sentimentParamsSchema
/** domain_id, the window and model (raw ids too). */
export type SentimentThemesParams = SentimentParams

export const themeEntrySchema = z.object({
  id: uuid,
  name: z.string(),
  sentiment: z.enum(['positive', 'negative']),
  occurrences: count,
  created_at: isoDate,
})

/**
 * The sentiment themes body.
 * @example
 * sentimentThemesPayloadSchema.parse(await engine.computeSentimentThemes({ domainId }))
 */
export const sentimentThemesPayloadSchema = envelope(
  'SentimentThemesResponse',
  z.object({ items: z.array(themeEntrySchema) }),
  {
    domain_id: echo.domain_id,
    ...windowEcho,
    model: echo.model,
    ...segmentEcho,
  },
)

export interface ThemeEntry {
  id: string
  name: string
  sentiment: 'positive' | 'negative'
  occurrences: number
  created_at: string
}

export interface SentimentThemesPayload extends RangeEcho, SegmentEcho {
  data: { items: ThemeEntry[] }
  domain_id: string
  days: number
  model: string
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<Same<z.output<typeof sentimentThemesPayloadSchema>, SentimentThemesPayload>>
