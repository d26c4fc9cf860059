/**
 * @module The contract of the prompts listing (docs/API.md, "GET /api/v1/prompts"): its library
 * parameters' schema, its payload schema and their public types.
 */
import { z } from 'zod'
import { domainIdParam, nowParam, pageParam, sizeParam, tagParam, topicParam } from '../../schemas/params.js'
import {
  count,
  echo,
  envelope,
  page,
  timestamp,
  type Expect,
  type Same,
  uuid,
} from '../../schemas/payloads.js'
import type { Clock, Page } from '../../types.js'

/** The library form of the prompts listing's parameters. */
export const listPromptsParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  page: pageParam.value,
  size: sizeParam.value,
  topic: topicParam.value,
  tag: tagParam.value,
  now: nowParam.value,
})

/**
 * The prompts listing body.
 * @example
 * promptListPayloadSchema.parse(await engine.computePromptList({ domainId }))
 */
export const promptListPayloadSchema = envelope(
  'PromptListResponse',
  page(
    z.object({
      id: uuid,
      text: z.string(),
      estimated_search_volume: count.nullable(),
      created_at: timestamp.nullable(),
      topic: z.string().nullable(),
      tags: z.array(z.string()),
    }),
  ),
  { domain_id: echo.domain_id, page: echo.page, size: echo.size, topic: echo.topic, tag: echo.tag },
)

export interface ListPromptsParams {
  domainId: string
  /** >= 1, default 1. */
  page?: number
  /** 1-500, default 50. */
  size?: number
  /** Lists only the prompts with this topic (trimmed, exact). */
  topic?: string
  /** Lists only the prompts with this tag (trimmed, exact). */
  tag?: string
  now?: Clock
}

export interface PromptItem {
  id: string
  text: string
  estimated_search_volume: number | null
  /** ISO 8601 UTC with milliseconds, or null. */
  created_at: string | null
  /** Trimmed, or null. */
  topic: string | null
  /** Trimmed, distinct, sorted by UTF-16 code units. */
  tags: string[]
}

export interface ListPromptsPayload {
  data: Page<PromptItem>
  domain_id: string
  page: number
  size: number
  topic?: string | undefined
  tag?: string | undefined
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<Same<z.output<typeof promptListPayloadSchema>, ListPromptsPayload>>
