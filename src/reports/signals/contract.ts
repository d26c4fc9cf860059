/**
 * @module The contract of the signals (docs/API.md, "GET /api/v1/signals"): its parameters
 * (`window`, `min_responses`, `min_delta`), its library parameters' schema, its payload schema
 * and their public types.
 */
import { z } from 'zod'
import {
  domainIdParam,
  intParam,
  nowParam,
  paramMessage,
  textError,
  uuidOutSchema,
  type EchoedParam,
} from '../../schemas/params.js'
import { count, echo, entityIdSchema, envelope, isoDate, percent } from '../../schemas/payloads.js'
import type { Expect, Same } from '../../schemas/payloads.js'
import type { Clock } from '../../types.js'

/**
 * window of the signals: the length in days of the current period (ending today) and of the
 * baseline before it: 1-90, default 7.
 * @example
 * signalWindowParam.text.parse('14') // 14
 */
export const signalWindowParam = intParam({
  name: 'window',
  min: 1,
  max: 90,
  fallback: 7,
  description: 'Days in the current period (ending today, UTC) and in the baseline period just before it.',
})

/**
 * min_responses of the signals: both periods of a candidate need at least this many analyses:
 * 1-1,000,000, default 30.
 */
export const signalMinResponsesParam: EchoedParam<number> = {
  ...intParam({
    name: 'min_responses',
    min: 1,
    max: 1_000_000,
    fallback: 30,
    description: 'Analyses each period of a segment needs before a change in it can be a signal.',
  }),
  flag: 'min-responses',
}

const MIN_DELTA_MUST_BE = 'a number from 0 to 100'
const MIN_DELTA_MESSAGE = paramMessage({ name: 'min_delta', mustBe: MIN_DELTA_MUST_BE })
const MIN_DELTA_DESCRIPTION =
  'Smallest change of visibility, in percentage points, that can be a signal (either direction).'
/** Plain decimal notation: digits, at most one point (no sign, exponent, spaces or hex). */
const DECIMAL = /^(?:[0-9]{1,12}(?:\.[0-9]{0,17})?|\.[0-9]{1,17})$/

/**
 * min_delta of the signals: percentage points, a number from 0 to 100 (decimals allowed), default
 * 5; echoed as a JSON number.
 * @example
 * minDeltaParam.text.parse('2.5') // 2.5
 */
export const minDeltaParam: EchoedParam<number> = {
  name: 'min_delta',
  flag: 'min-delta',
  required: false,
  mustBe: MIN_DELTA_MUST_BE,
  accepts: MIN_DELTA_MUST_BE,
  description: MIN_DELTA_DESCRIPTION,
  text: z
    .string({ error: textError('min_delta', MIN_DELTA_MUST_BE, MIN_DELTA_MESSAGE) })
    .regex(DECIMAL, { error: MIN_DELTA_MESSAGE })
    .transform(Number)
    .pipe(z.number().min(0, { error: MIN_DELTA_MESSAGE }).max(100, { error: MIN_DELTA_MESSAGE }))
    .optional()
    .default(5)
    .meta({ type: 'number', minimum: 0, maximum: 100, default: 5, description: MIN_DELTA_DESCRIPTION }),
  value: z
    .number({ error: MIN_DELTA_MESSAGE })
    .min(0, { error: MIN_DELTA_MESSAGE })
    .max(100, { error: MIN_DELTA_MESSAGE })
    .default(5)
    .meta({ description: MIN_DELTA_DESCRIPTION }),
  echo: z.number().min(0).max(100),
}

/** The signals' parameters by wire name, in echo order (the endpoint row's `params`). */
export const SIGNAL_PARAMS = {
  domain_id: domainIdParam,
  window: signalWindowParam,
  min_responses: signalMinResponsesParam,
  min_delta: minDeltaParam,
} as const

/** The library form of the signals' parameters. */
export const signalsParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  window: signalWindowParam.value,
  minResponses: signalMinResponsesParam.value,
  minDelta: minDeltaParam.value,
  now: nowParam.value,
})

/** The kinds of segment a signal is about (docs/API.md, "GET /api/v1/signals"). */
export const SEGMENT_KINDS = ['all', 'channel', 'country', 'topic'] as const
export type SegmentKind = (typeof SEGMENT_KINDS)[number]
/** The confidence tiers, most confident first. */
export const SIGNAL_TIERS = ['high', 'confident', 'worth_a_look'] as const
export type SignalTier = (typeof SIGNAL_TIERS)[number]

const periodSchema = z.object({
  start_date: isoDate,
  end_date: isoDate,
  responses: count,
  mentions: count,
  visibility: percent,
  visibility_ci: z
    .array(percent)
    .length(2)
    .meta({ description: 'Wilson score interval at 95%, [low, high], in percent.' }),
})

/** One signal, its fields in the documented order. */
export const signalSchema = z.object({
  id: uuidOutSchema.meta({
    description:
      'Stable fingerprint of (domain, entity, segment, metric, window, window end): a UUID of version 8.',
  }),
  metric: z.literal('visibility'),
  entity_id: entityIdSchema,
  entity_name: z.string(),
  is_brand: z.boolean(),
  segment: z.object({ kind: z.enum(SEGMENT_KINDS), value: z.string().nullable() }),
  baseline: periodSchema,
  current: periodSchema,
  visibility_delta: z.number().min(-100).max(100),
  direction: z.enum(['up', 'down']),
  p_value: z.number().min(0).max(1),
  tier: z.enum(SIGNAL_TIERS),
})

/**
 * The signals body.
 * @example
 * signalsPayloadSchema.parse(await engine.computeSignals({ domainId }))
 */
export const signalsPayloadSchema = envelope('SignalsResponse', z.object({ items: z.array(signalSchema) }), {
  domain_id: echo.domain_id,
  window: signalWindowParam.echo,
  min_responses: signalMinResponsesParam.echo,
  min_delta: minDeltaParam.echo,
})

export interface SignalsParams {
  domainId: string
  /** Days of each period, 1-90 (default 7). */
  window?: number
  /** Analyses each period needs, 1-1,000,000 (default 30). */
  minResponses?: number
  /** Percentage points, 0-100 (default 5). */
  minDelta?: number
  now?: Clock
}

/** One period of a signal: its dates (both included) and the entity's visibility there. */
export interface SignalPeriod {
  start_date: string
  end_date: string
  responses: number
  mentions: number
  visibility: number
  /** [low, high]. */
  visibility_ci: number[]
}

export interface Signal {
  id: string
  metric: 'visibility'
  entity_id: string
  entity_name: string
  is_brand: boolean
  segment: { kind: SegmentKind; value: string | null }
  baseline: SignalPeriod
  current: SignalPeriod
  visibility_delta: number
  direction: 'up' | 'down'
  p_value: number
  tier: SignalTier
}

export interface SignalsPayload {
  data: { items: Signal[] }
  domain_id: string
  window: number
  min_responses: number
  min_delta: number
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<Same<z.output<typeof signalsPayloadSchema>, SignalsPayload>>
