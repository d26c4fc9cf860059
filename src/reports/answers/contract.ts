/**
 * @module The contract of the answers listing (docs/API.md, "GET /api/v1/answers"): its library
 * parameters' schema, its payload schema and their public types.
 */
import { z } from 'zod'
import {
  answersEntityParam,
  answersLimitParam,
  cursorParam,
  domainIdParam,
  givenModelParam,
  nowParam,
  promptIdParam,
  REPORT_VALUES,
  SEGMENT_VALUES,
} from '../../schemas/params.js'
import {
  count,
  echo,
  entityIdSchema,
  envelope,
  timestamp,
  type Expect,
  type Same,
  uuid,
  windowEcho,
} from '../../schemas/payloads.js'
import { CHANNELS } from '../../foundation/vocabulary.js'
import type { Channel, Clock, RangeEcho } from '../../types.js'

/** The library form of the answers listing's parameters. */
export const answersParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  ...REPORT_VALUES,
  model: givenModelParam.value,
  promptId: promptIdParam.value,
  entity: answersEntityParam.value,
  ...SEGMENT_VALUES,
  limit: answersLimitParam.value,
  cursor: cursorParam.value,
  now: nowParam.value,
})

const answerMentionSchema = z.object({
  entity_id: entityIdSchema,
  name: z.string(),
  is_brand: z.boolean(),
  position: z.number().int().nullable(),
  sentiment: z.number().nullable(),
})
const answerCitationSchema = z.object({
  url: z.string(),
  domain: z.string(),
  title: z.string().nullable(),
  page_type: z.string().nullable(),
})
const answerThemeSchema = z.object({
  id: uuid,
  name: z.string(),
  sentiment: z.enum(['positive', 'negative']),
  occurrences: count,
})

export const answerItemSchema = z.object({
  id: uuid,
  prompt_id: uuid,
  prompt_text: z.string(),
  channel: z.enum(CHANNELS),
  model: z.string(),
  country: z.string().nullable(),
  answered_at: timestamp,
  response: z.string().nullable(),
  mentions: z.array(answerMentionSchema),
  citations: z.array(answerCitationSchema),
  themes: z.array(answerThemeSchema),
  fanout_queries: z.array(z.string()),
})

/**
 * The answers body: one page of answers, newest first, and the cursor of the next page.
 * @example
 * answersPayloadSchema.parse(await engine.computeAnswers({ domainId }))
 */
export const answersPayloadSchema = envelope(
  'AnswersResponse',
  z.object({
    items: z.array(answerItemSchema),
    next_cursor: z.string().nullable().meta({
      description: 'Pass it as `cursor` for the next page; null on the page holding the last answer.',
    }),
  }),
  {
    domain_id: echo.domain_id,
    ...windowEcho,
    limit: echo.limit,
    model: z.string().optional(),
    prompt_id: uuid.optional(),
    entity: z.string().optional(),
    country: z.string().optional(),
    topic: z.string().optional(),
    tag: z.string().optional(),
    cursor: z.string().optional(),
  },
)

/** The answers listing's parameters (docs/API.md, "GET /api/v1/answers"). */
export interface AnswersParams {
  domainId: string
  /** 1-365, default 30; or `startDate` and `endDate`. */
  days?: number | undefined
  startDate?: string | undefined
  endDate?: string | undefined
  /** all (default), a channel or a raw model id. */
  model?: string | undefined
  /** A prompt id: its answers only. */
  promptId?: string | undefined
  /** `brand` or a competitor id: the answers that mention it. */
  entity?: string | undefined
  country?: string | undefined
  topic?: string | undefined
  tag?: string | undefined
  /** 1-100, default 20. */
  limit?: number | undefined
  /** The `next_cursor` of the previous page of the same query. */
  cursor?: string | undefined
  now?: Clock | undefined
}

export interface AnswerMention {
  /** A competitor's id, or `user-brand-<domain_id>` for the brand. */
  entity_id: string
  name: string
  is_brand: boolean
  position: number | null
  sentiment: number | null
}
export interface AnswerCitation {
  /** As ingested. */
  url: string
  /** Its host (docs/API.md, "Hosts"). */
  domain: string
  title: string | null
  page_type: string | null
}
export interface AnswerTheme {
  id: string
  /** The custom name when set. */
  name: string
  sentiment: 'positive' | 'negative'
  occurrences: number
}
export interface AnswerItem {
  id: string
  prompt_id: string
  prompt_text: string
  channel: Channel
  model: string
  country: string | null
  /** ISO 8601 UTC with milliseconds. */
  answered_at: string
  response: string | null
  mentions: AnswerMention[]
  citations: AnswerCitation[]
  themes: AnswerTheme[]
  fanout_queries: string[]
}

export interface AnswersPayload extends RangeEcho {
  data: { items: AnswerItem[]; next_cursor: string | null }
  domain_id: string
  days: number
  limit: number
  model?: string | undefined
  prompt_id?: string | undefined
  entity?: string | undefined
  country?: string | undefined
  topic?: string | undefined
  tag?: string | undefined
  cursor?: string | undefined
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<Same<z.output<typeof answersPayloadSchema>, AnswersPayload>>

/** The characters of answer text one MCP result carries in all (docs/MCP.md, `list_answers`). */
export const TOOL_TEXT_BUDGET = 40_000

/**
 * The payload as the MCP tool returns it: each answer's text cut to its share of
 * TOOL_TEXT_BUDGET (at least 500 characters), ending with `[... N more characters]`, so that a page
 * stays within a model's context. Everything else is the REST body's.
 * @example
 * fitAnswers(payload).data.items[0].response // 'Acme leads ... [... 12345 more characters]'
 */
export function fitAnswers(payload: AnswersPayload): AnswersPayload {
  const share = Math.max(500, Math.floor(TOOL_TEXT_BUDGET / Math.max(1, payload.data.items.length)))
  const items = payload.data.items.map((item) => {
    const text = item.response
    if (text === null || text.length <= share) return item
    // Never half of a surrogate pair.
    const cut = share - Number(/[\uD800-\uDBFF]/.test(text[share - 1]!))
    return { ...item, response: `${text.slice(0, cut)} [... ${text.length - cut} more characters]` }
  })
  return { ...payload, data: { ...payload.data, items } }
}
