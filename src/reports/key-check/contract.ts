/**
 * @module The contract of the key check (docs/API.md, "GET /api/v1/validate"): its library
 * parameters' schema, its payload schema and their public types.
 */
import { z } from 'zod'
import { keyScopeSchema, nowParam } from '../../schemas/params.js'
import { count, envelope, type Expect, type Same, uuid } from '../../schemas/payloads.js'
import { PLANS } from '../../foundation/vocabulary.js'
import type { Clock, KeyScope, Plan } from '../../types.js'

const RATE_LIMIT_MESSAGE =
  'rate_limit must be { limitPerMinute: integer >= 1, used: integer >= 0, resetAt: a Date or an ISO 8601 timestamp }.'

/** The library form of the key check's parameters: what the key says and its rate-limit window. */
export const validateParamsSchema = z.strictObject({
  key: keyScopeSchema,
  rateLimit: z.strictObject(
    {
      limitPerMinute: z.int({ error: RATE_LIMIT_MESSAGE }).min(1, { error: RATE_LIMIT_MESSAGE }),
      used: z.int({ error: RATE_LIMIT_MESSAGE }).min(0, { error: RATE_LIMIT_MESSAGE }),
      resetAt: z
        .union([z.date(), z.iso.datetime({ offset: true })], { error: RATE_LIMIT_MESSAGE })
        .refine((v) => !(v instanceof Date) || !Number.isNaN(v.getTime()), { error: RATE_LIMIT_MESSAGE }),
    },
    { error: RATE_LIMIT_MESSAGE },
  ),
  now: nowParam.value,
})

/**
 * The key check body.
 * @example
 * validatePayloadSchema.parse(await engine.computeKeyCheck({ key, rateLimit }))
 */
export const validatePayloadSchema = envelope(
  'ValidateResponse',
  z.object({
    team_id: uuid,
    team_name: z.string(),
    plan: z.enum(PLANS),
    developer_access: z.boolean(),
    scoped_team_ids: z.array(uuid),
    allowed_domains: z.array(uuid).nullable(),
    rate_limit: z.object({
      limit_per_minute: z.number().int().min(1),
      remaining: count,
      reset_at: z.iso.datetime().meta({ description: 'When the rate-limit window ends (UTC).' }),
    }),
  }),
  {},
)

export interface ValidateParams {
  key: KeyScope
  /** The key's rate-limit window after counting the request being answered. */
  rateLimit: {
    /** Requests allowed per window. */
    limitPerMinute: number
    /** Requests counted in the window, this one included. */
    used: number
    /** When the window ends. */
    resetAt: Clock
  }
  now?: Clock
}

export interface ValidatePayload {
  data: {
    team_id: string
    team_name: string
    plan: Plan
    developer_access: boolean
    scoped_team_ids: string[]
    allowed_domains: string[] | null
    rate_limit: { limit_per_minute: number; remaining: number; reset_at: string }
  }
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<Same<z.output<typeof validatePayloadSchema>, ValidatePayload>>
