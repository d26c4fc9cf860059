/**
 * @module The one home of the request parameters' rules: names, bounds, defaults, patterns and the
 * sentences that say what each parameter accepts (docs/API.md, "Parameters").
 *
 * Each parameter is a {@link Param} with two zod forms built from the same rule:
 * - `text`: a string in, as query strings and command-line flags carry it (HTTP, CLI);
 * - `value`: a typed JSON value in, as the library and MCP tool arguments take it.
 * Both forms answer a bad value with the same sentence, `days must be an integer from 1 to 365.`
 * The compute functions' parameter schemas (camelCase keys, strict) are built here from the
 * `value` forms; the endpoint table (src/api/endpoints.ts) builds its query schemas from the
 * `text` forms with {@link querySchema}.
 */
import { z } from 'zod'
import { CHANNELS, type Clock } from '../types.js'
import { MODEL_ID_RE, UUID_RE } from './records.js'

/**
 * One request parameter: its rule, said once, in the forms every transport needs.
 * @example
 * daysParam.text.parse('7') // 7
 * daysParam.value.parse(7) // 7
 * `--${daysParam.flag} must be ${daysParam.mustBe}` // the CLI's sentence
 */
export interface Param<T = unknown, V = T> {
  /** The wire name (query parameter, JSON field, echo field). */
  readonly name: string
  /** The command-line flag, without the dashes. */
  readonly flag: string
  /** Whether a request must give it (no default). */
  readonly required: boolean
  /** Completes "<name> must be ...": what a valid value is. */
  readonly mustBe: string
  /** A short form of `mustBe` (in the message for a parameter given twice). */
  readonly accepts: string
  readonly description: string
  /** String in (query string, flag): validated, converted, defaulted. */
  readonly text: z.ZodType<T>
  /** Typed JSON in (library, tool arguments): validated, defaulted. */
  readonly value: z.ZodType<V>
}

/**
 * The 400 detail for a missing or empty `domain_id` (every endpoint that takes one).
 * @example
 * reply.code(400).send({ detail: DOMAIN_ID_REQUIRED })
 */
export const DOMAIN_ID_REQUIRED =
  'domain_id query parameter is required. List the domains this key can access with GET /api/v1/domains, then pass ?domain_id=<uuid>.'

/** The sentence for a bad value of `param`. */
export const paramMessage = (param: Pick<Param, 'name' | 'mustBe'>): string =>
  `${param.name} must be ${param.mustBe}.`

const repeated = (name: string, accepts: string): string => `${name} must be given only once (${accepts}).`

/** The `error` option of a text form: a repeated parameter (an array) names itself. */
const textError =
  (name: string, accepts: string, message: string) =>
  (issue: { input?: unknown }): string =>
    Array.isArray(issue.input) ? repeated(name, accepts) : message

interface IntRule {
  name: string
  min: number
  max: number
  fallback: number
  description: string
}

/** A decimal integer in [min, max] with a default (text: digits only, `007` is 7). */
function intParam(rule: IntRule): Param<number> {
  const { name, min, max, fallback, description } = rule
  const mustBe = `an integer from ${min} to ${max}`
  const message = paramMessage({ name, mustBe })
  const text = z
    .string({ error: textError(name, mustBe, message) })
    .regex(/^[0-9]{1,9}$/, { error: message })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: message }).max(max, { error: message }))
    .optional()
    .default(fallback)
    .meta({ type: 'integer', minimum: min, maximum: max, default: fallback, description })
  const value = z
    .int({ error: message })
    .min(min, { error: message })
    .max(max, { error: message })
    .default(fallback)
    .meta({ description })
  return { name, flag: name, required: false, mustBe, accepts: mustBe, description, text, value }
}

const DOMAIN_ID_DESCRIPTION = 'The domain to report on (see GET /api/v1/domains).'

/**
 * domain_id, required. `uuid`: a malformed id is invalid (400); otherwise any non-empty string
 * passes and the access check answers it (the sentiment endpoints' 404). Lower-cased: ids are
 * case-insensitive, and every spelling shares one cache entry.
 */
function domainIdParamOf(uuid: boolean): Param<string> {
  const name = 'domain_id'
  const mustBe = 'a UUID'
  const message = paramMessage({ name, mustBe })
  const base = z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? DOMAIN_ID_REQUIRED
          : Array.isArray(issue.input)
            ? repeated(name, mustBe)
            : message,
    })
    .min(1, { error: DOMAIN_ID_REQUIRED })
  const text = (uuid ? base.regex(UUID_RE, { error: message }) : base)
    .meta({ format: 'uuid', description: DOMAIN_ID_DESCRIPTION })
    .transform((id) => id.toLowerCase())
  const value = uuid
    ? z.string({ error: message }).regex(UUID_RE, { error: message })
    : z.string({ error: DOMAIN_ID_REQUIRED }).min(1, { error: DOMAIN_ID_REQUIRED })
  return {
    name,
    flag: 'domain',
    required: true,
    mustBe,
    accepts: mustBe,
    description: DOMAIN_ID_DESCRIPTION,
    text,
    value: value.meta({ description: DOMAIN_ID_DESCRIPTION }),
  }
}

/**
 * domain_id as every endpoint but the sentiment ones take it: a malformed id is a 400.
 * @example
 * domainIdParam.text.safeParse('nope').error?.issues[0]?.message // 'domain_id must be a UUID.'
 */
export const domainIdParam = domainIdParamOf(true)
/**
 * domain_id of the sentiment endpoints: any non-empty string; a malformed one is answered by the
 * domain check (404, the same body as an unknown domain).
 * @example
 * sentimentDomainIdParam.text.parse('NOPE') // 'nope'
 */
export const sentimentDomainIdParam = domainIdParamOf(false)

/**
 * days: the trailing window, 1-365, default 30.
 * @example
 * daysParam.text.parse(undefined) // 30
 */
export const daysParam = intParam({
  name: 'days',
  min: 1,
  max: 365,
  fallback: 30,
  description: 'Trailing window in UTC days, today included.',
})

/**
 * limit of the prompt series: 1-100, default 25.
 * @example
 * limitParam.text.safeParse('101').success // false
 */
export const limitParam = intParam({
  name: 'limit',
  min: 1,
  max: 100,
  fallback: 25,
  description: 'Maximum number of prompts returned.',
})

/**
 * limit of the citations and cited-domains reports: 1-1000, default 100.
 * @example
 * citationLimitParam.text.parse(undefined) // 100
 */
export const citationLimitParam = intParam({
  name: 'limit',
  min: 1,
  max: 1000,
  fallback: 100,
  description: 'Maximum number of items returned (total counts them all).',
})

const CHANNEL_LIST = CHANNELS.join(', ')

function modelParamOf(
  accepts: string,
  mustBe: string,
  description: string,
  schema: (error: string | ((issue: { input?: unknown }) => string)) => z.ZodType<string>,
): Param<string> {
  const name = 'model'
  const message = paramMessage({ name, mustBe })
  return {
    name,
    flag: name,
    required: false,
    mustBe,
    accepts,
    description,
    text: schema(textError(name, accepts, message))
      .optional()
      .default('all')
      .meta({ description }),
    value: schema(message).default('all').meta({ description }),
  }
}

/**
 * model where only `all` or a channel name is valid (the competitor series).
 * @example
 * channelModelParam.text.safeParse('gpt-4o').success // false
 */
export const channelModelParam = modelParamOf(
  'all or a channel name',
  `all or one of the channels ${CHANNEL_LIST}`,
  'A generic channel name, or all.',
  (error) => z.enum(['all', ...CHANNELS], { error }),
)

/**
 * model where a raw model identifier is valid too (the sentiment endpoints): a channel name is the
 * channel; any other value of 1-100 characters from [A-Za-z0-9._:/@+-] is a raw model id.
 * @example
 * modelParam.text.parse('gpt-4o-2024-08-06') // 'gpt-4o-2024-08-06'
 */
export const modelParam = modelParamOf(
  'all, a channel name or a raw model identifier',
  `all, one of the channels ${CHANNEL_LIST}, or a raw model identifier of 1 to 100 characters from A-Z a-z 0-9 . _ : / @ + -`,
  'all, a generic channel name, or a raw model identifier.',
  (error) => z.string({ error }).regex(MODEL_ID_RE, { error }),
)

const NOW_ISO = 'an ISO 8601 timestamp with Z or an offset'
const NOW_VALUE_MESSAGE = `now must be a Date or ${NOW_ISO}.`

/**
 * now: the clock of a computation (library and CLI; the HTTP service always uses the request time).
 * @example
 * nowParam.text.parse('2026-11-20T15:00:00Z') // '2026-11-20T15:00:00Z'
 */
export const nowParam: Param<string | undefined, Clock | undefined> = {
  name: 'now',
  flag: 'now',
  required: false,
  mustBe: NOW_ISO,
  accepts: NOW_ISO,
  description: 'The clock: today is its UTC date (default: the current time).',
  text: z.iso.datetime({ offset: true, error: paramMessage({ name: 'now', mustBe: NOW_ISO }) }).optional(),
  value: z
    .union([z.date(), z.iso.datetime({ offset: true, error: NOW_VALUE_MESSAGE })], {
      error: NOW_VALUE_MESSAGE,
    })
    .refine((v) => !(v instanceof Date) || !Number.isNaN(v.getTime()), {
      error: 'now must be a valid Date.',
    })
    .optional(),
}

/** Parameters by wire name. */
export type ParamSet = Readonly<Record<string, Param<unknown, unknown>>>
/** The parsed values of a parameter set. */
export type ParamValues<P extends ParamSet> = {
  [K in keyof P]: P[K] extends Param<infer T, unknown> ? T : never
}

/**
 * The query-string schema of a parameter set: unknown parameters are ignored, the first issue
 * in parameter order is the one reported.
 * @example
 * querySchema({ days: daysParam }).parse({ days: '7', other: 'x' }) // { days: 7 }
 */
export function querySchema<P extends ParamSet>(params: P): z.ZodType<ParamValues<P>> {
  const shape = Object.fromEntries(Object.entries(params).map(([name, param]) => [name, param.text]))
  return z.object(shape) as unknown as z.ZodType<ParamValues<P>>
}

// The compute functions' parameters: camelCase keys, unknown keys refused.
export const promptSeriesParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  days: daysParam.value,
  limit: limitParam.value,
  now: nowParam.value,
})
export const competitorSeriesParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  days: daysParam.value,
  model: channelModelParam.value,
  now: nowParam.value,
})
export const sentimentParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  days: daysParam.value,
  model: modelParam.value,
  now: nowParam.value,
})

// Citations, cited domains, fan-out queries (extensions section 6); the sentiment time series
// takes sentimentParamsSchema.
export const citationsParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  days: daysParam.value,
  model: modelParam.value,
  limit: citationLimitParam.value,
  now: nowParam.value,
})
export const fanoutQueriesParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  days: daysParam.value,
  model: modelParam.value,
  now: nowParam.value,
})
