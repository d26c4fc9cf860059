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
import { ValidationError, isValidationError } from '../errors.js'
import { GRANULARITIES, dayOfDate, rangeIssues } from '../foundation/window.js'
import { CHANNELS } from '../foundation/vocabulary.js'
import type { Clock } from '../types.js'
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
  /**
   * The normalized value as a payload echoes it (its bounds, pattern or values): the echo field's
   * schema in the payloads and the OpenAPI document. Undefined for a parameter never echoed (`now`).
   */
  readonly echo?: z.ZodType
}

/** A parameter that payloads echo: its `echo` schema is given. */
export type EchoedParam<T = unknown, V = T> = Param<T, V> & { readonly echo: z.ZodType<T> }

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
export const textError =
  (name: string, accepts: string, message: string) =>
  (issue: { input?: unknown }): string =>
    Array.isArray(issue.input) ? repeated(name, accepts) : message

export interface IntRule {
  name: string
  min: number
  max: number
  fallback: number
  description: string
  /**
   * The forms leave an absent value absent and only document the default (applied after the
   * rules that need to know whether it was given: `days` beside a date range).
   */
  defaultLater?: boolean
}

/** `days`: the default is applied after the window's rules (src/foundation/window.ts), not by the forms. */
type DaysParam = Param<number | undefined> & { readonly echo: z.ZodType<number> }

/** A decimal integer in [min, max] with a default (text: digits only, `007` is 7). */
export function intParam(rule: IntRule): EchoedParam<number> {
  const { name, min, max, fallback, description, defaultLater = false } = rule
  const mustBe = `an integer from ${min} to ${max}`
  const message = paramMessage({ name, mustBe })
  // Digits beyond those of `max` (leading zeros aside) can only be out of range; longer text is refused.
  const digits = new RegExp(`^[0-9]{1,${Math.max(9, String(max).length)}}$`)
  const textRule = z
    .string({ error: textError(name, mustBe, message) })
    .regex(digits, { error: message })
    .transform(Number)
    .pipe(z.number().int({ error: message }).min(min, { error: message }).max(max, { error: message }))
    .optional()
  const int = z.int({ error: message }).min(min, { error: message }).max(max, { error: message })
  const meta = { type: 'integer', minimum: min, maximum: max, default: fallback, description }
  const text = (defaultLater ? textRule : textRule.default(fallback)).meta(meta)
  const value = defaultLater
    ? int.optional().meta({ default: fallback, description })
    : int.default(fallback).meta({ description })
  const echo = z.int().min(min).max(max)
  // With defaultLater the forms may give undefined: `daysParam` is typed for it (DaysParam).
  const param = { name, flag: name, required: false, mustBe, accepts: mustBe, description, text, value, echo }
  return param as EchoedParam<number>
}

const DOMAIN_ID_DESCRIPTION = 'The domain to report on (see GET /api/v1/domains).'
const DOMAIN_ID_DESCRIPTION_ANY = `${DOMAIN_ID_DESCRIPTION} A malformed, unknown or foreign id is answered 404.`

/**
 * A UUID as payloads carry it (lower case, as stored): the echoed `domain_id` and every other id
 * of a payload (`format: uuid` in the OpenAPI document).
 * @example
 * z.object({ id: uuidOutSchema })
 */
export const uuidOutSchema = z.string().regex(UUID_RE).meta({ format: 'uuid' })

/**
 * domain_id, required. `uuid`: a malformed id is invalid (400) and the parameter is documented
 * with `format: uuid`; otherwise any non-empty string passes and the access check answers it (the
 * sentiment endpoints' 404), so no format is declared. Lower-cased (both forms): ids are
 * case-insensitive, and every spelling, from any transport, shares one cache entry. Echoed as a
 * UUID either way: only a domain that exists gets a payload.
 */
function domainIdParamOf(uuid: boolean): EchoedParam<string> {
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
  const text = (
    uuid
      ? base.regex(UUID_RE, { error: message }).meta({ format: 'uuid', description: DOMAIN_ID_DESCRIPTION })
      : base.meta({ description: DOMAIN_ID_DESCRIPTION_ANY })
  ).transform((id) => id.toLowerCase())
  const missing = (issue: { input?: unknown }) => (issue.input === undefined ? DOMAIN_ID_REQUIRED : message)
  const value = (
    uuid
      ? z.string({ error: missing }).regex(UUID_RE, { error: message })
      : z.string({ error: DOMAIN_ID_REQUIRED }).min(1, { error: DOMAIN_ID_REQUIRED })
  ).transform((id) => id.toLowerCase())
  return {
    name,
    flag: 'domain',
    required: true,
    mustBe,
    accepts: mustBe,
    description: DOMAIN_ID_DESCRIPTION,
    text,
    value: value.meta({ description: DOMAIN_ID_DESCRIPTION }),
    echo: uuidOutSchema,
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
  description: 'Trailing window in UTC days, today included. Not with start_date and end_date.',
  defaultLater: true,
}) as DaysParam

// Date ranges and buckets (docs/API.md, "Date ranges and buckets"). Their rules between parameters (both dates or
// neither, not with days, start <= end <= today, at most 365 days) live with the window
// (src/foundation/window.ts); `normalizeWindowParams` applies them to a request's values.

function dateParam(
  name: 'start_date' | 'end_date',
  flag: string,
  description: string,
): Param<string | undefined> & { readonly echo: z.ZodOptional<z.ZodType<string>> } {
  const mustBe = 'a calendar date YYYY-MM-DD'
  const message = paramMessage({ name, mustBe })
  const date = z.iso.date({ error: textError(name, mustBe, message) })
  return {
    name,
    flag,
    required: false,
    mustBe,
    accepts: mustBe,
    description,
    text: date.optional().meta({ description }),
    value: z.iso.date({ error: message }).optional().meta({ description }),
    echo: z.iso.date().optional(),
  }
}

/**
 * start_date: the first UTC date of an explicit window (with end_date, instead of days).
 * @example
 * startDateParam.text.safeParse('2025-04-31').success // false
 */
export const startDateParam = dateParam(
  'start_date',
  'start',
  'First UTC date of the window, YYYY-MM-DD (with end_date, instead of days; at most 365 days).',
)
/**
 * end_date: the last UTC date of an explicit window, today at the latest.
 * @example
 * endDateParam.text.parse('2026-01-31') // '2026-01-31'
 */
export const endDateParam = dateParam(
  'end_date',
  'end',
  'Last UTC date of the window, YYYY-MM-DD, today at the latest (with start_date).',
)

const GRANULARITY_MUST_BE = `one of ${GRANULARITIES.join(', ')}`
const GRANULARITY_MESSAGE = paramMessage({ name: 'granularity', mustBe: GRANULARITY_MUST_BE })
const GRANULARITY_DESCRIPTION =
  'Bucket of each datapoint: day (default), week (ISO weeks, Monday first) or month, in UTC; a bucket is dated by its first date inside the window.'
/** The 400 detail for `granularity` on an endpoint without a series. */
export const GRANULARITY_NOT_SERIES =
  'granularity is accepted only by the time-series endpoints (prompt, competitor, brand and sentiment series).'

/**
 * granularity of a time series: day, week or month; echoed only when given.
 * @example
 * granularityParam.text.parse('week') // 'week'
 */
export const granularityParam: Param<(typeof GRANULARITIES)[number] | undefined> & {
  readonly echo: z.ZodOptional<z.ZodType<(typeof GRANULARITIES)[number]>>
} = {
  name: 'granularity',
  flag: 'granularity',
  required: false,
  mustBe: GRANULARITY_MUST_BE,
  accepts: GRANULARITY_MUST_BE,
  description: GRANULARITY_DESCRIPTION,
  text: z
    .enum(GRANULARITIES, { error: textError('granularity', GRANULARITY_MUST_BE, GRANULARITY_MESSAGE) })
    .optional()
    .meta({ description: GRANULARITY_DESCRIPTION }),
  value: z
    .enum(GRANULARITIES, { error: GRANULARITY_MESSAGE })
    .optional()
    .meta({ description: GRANULARITY_DESCRIPTION }),
  echo: z.enum(GRANULARITIES).optional(),
}

/** The window parameters, in echo order: `days`, then `start_date` and `end_date`. */
export const WINDOW_PARAMS = { days: daysParam, start_date: startDateParam, end_date: endDateParam } as const

/** Library form of `granularity` on a report without a series: any value is refused. */
const noGranularity = z.never({ error: GRANULARITY_NOT_SERIES }).optional()

/**
 * A request's values (wire names) after the window's rules: a ValidationError naming the parameter
 * for a bad pair, or for `granularity` where `params` has none; otherwise the values of `params`
 * only, `days` set to the window's length (a range) or its default. What every transport keys its
 * cache by and computes with.
 * @example
 * normalizeWindowParams(params, { domain_id: id, start_date: '2026-01-01', end_date: '2026-01-07' })
 * // { domain_id: id, days: 7, start_date: '2026-01-01', end_date: '2026-01-07' }
 */
export function normalizeWindowParams<V extends Record<string, unknown>>(params: ParamSet, values: V): V {
  if (!('days' in params)) return 'window' in params ? normalizeSignalWindow(params, values) : values
  if (!('granularity' in params) && values.granularity !== undefined) {
    throw new ValidationError([{ path: 'granularity', message: GRANULARITY_NOT_SERIES }])
  }
  const range = {
    days: values.days as number | undefined,
    startDate: values.start_date as string | undefined,
    endDate: values.end_date as string | undefined,
  }
  const issues = rangeIssues(range)
  if (issues.length > 0) throw new ValidationError(issues)
  const days =
    range.startDate === undefined || range.endDate === undefined
      ? (range.days ?? 30)
      : dayOfDate(range.endDate) - dayOfDate(range.startDate) + 1
  // In parameter order: the cache key is this object's JSON.
  const out: Record<string, unknown> = {}
  for (const name of Object.keys(params)) {
    const value = name === 'days' ? days : values[name]
    if (value !== undefined) out[name] = value
  }
  return out as V
}

/**
 * Whether a row reports over a window of days (`days`, or the signals' `window`): `granularity`
 * is a 400 there unless it is one of its parameters (docs/API.md, "GET /api/v1/signals").
 */
const windowed = (params: ParamSet): boolean => 'days' in params || 'window' in params

/** The signals' values (a `window` of days, no series): `granularity` refused, the rest in parameter order. */
function normalizeSignalWindow<V extends Record<string, unknown>>(params: ParamSet, values: V): V {
  if (values.granularity !== undefined) {
    throw new ValidationError([{ path: 'granularity', message: GRANULARITY_NOT_SERIES }])
  }
  const out: Record<string, unknown> = {}
  for (const name of Object.keys(params)) if (values[name] !== undefined) out[name] = values[name]
  return out as V
}

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
 * page of a listing: 1 to 1,000,000,000 (a bound so that clients and the OpenAPI document see an
 * ordinary integer), default 1; a page past the end has no items.
 * @example
 * pageParam.text.parse('3') // 3
 */
export const pageParam = intParam({
  name: 'page',
  min: 1,
  max: 1_000_000_000,
  fallback: 1,
  description: 'The page to return, from 1.',
})

/**
 * size of a listing's page: 1-500, default 50.
 * @example
 * sizeParam.text.safeParse('501').success // false
 */
export const sizeParam = intParam({
  name: 'size',
  min: 1,
  max: 500,
  fallback: 50,
  description: 'Items per page.',
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
): EchoedParam<string> {
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
    echo: schema(message),
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

const GIVEN_MODEL_DESCRIPTION = 'Keeps the analyses of this channel or raw model identifier (default: all).'

/**
 * model as `modelParam` (all, a channel, a raw model id), but never defaulted: echoed only when
 * given (docs/API.md, "GET /api/v1/query" and "GET /api/v1/answers"); absent means all.
 * @example
 * givenModelParam.text.parse(undefined) // undefined
 */
export const givenModelParam: EchoedParam<string | undefined> = {
  ...modelParam,
  description: GIVEN_MODEL_DESCRIPTION,
  text: z
    .string({ error: textError('model', modelParam.accepts, paramMessage(modelParam)) })
    .regex(MODEL_ID_RE, { error: paramMessage(modelParam) })
    .optional()
    .meta({ description: GIVEN_MODEL_DESCRIPTION }),
  value: z
    .string({ error: paramMessage(modelParam) })
    .regex(MODEL_ID_RE, { error: paramMessage(modelParam) })
    .optional()
    .meta({ description: GIVEN_MODEL_DESCRIPTION }),
  echo: z.string().regex(MODEL_ID_RE).optional() as z.ZodType<string | undefined>,
}

/**
 * A segment filter (docs/API.md "Segment filters"): optional, never defaulted, echoed only when
 * given. `normalize` maps an accepted value to its stored form.
 */
function segmentParamOf(rule: {
  name: string
  mustBe: string
  description: string
  accept: (raw: string) => string | undefined
  echo: z.ZodType<string>
}): Param<string | undefined> & { readonly echo: z.ZodOptional<z.ZodType<string>> } {
  const { name, mustBe, description, accept, echo } = rule
  const message = paramMessage({ name, mustBe })
  const form = (error: string | ((issue: { input?: unknown }) => string)) =>
    z
      .string({ error })
      .transform((raw, ctx) => {
        const normalized = accept(raw)
        if (normalized === undefined) {
          ctx.addIssue({ code: 'custom', message })
          return z.NEVER
        }
        return normalized
      })
      .optional()
      .meta({ type: 'string', description })
  return {
    name,
    flag: name,
    required: false,
    mustBe,
    accepts: mustBe,
    description,
    text: form(textError(name, mustBe, message)) as z.ZodType<string | undefined>,
    value: form(message) as z.ZodType<string | undefined>,
    // Echoed only when given.
    echo: echo.optional(),
  }
}

/** Trimmed text of 1 to `max` UTF-16 code units, or undefined when out of bounds. */
const trimmedWithin =
  (max: number) =>
  (raw: string): string | undefined => {
    const trimmed = raw.trim()
    return trimmed.length >= 1 && trimmed.length <= max ? trimmed : undefined
  }

/**
 * country: two letters A-Z in any case (not trimmed), normalized upper case.
 * @example
 * countryParam.text.parse('de') // 'DE'
 */
export const countryParam = segmentParamOf({
  name: 'country',
  mustBe: 'two letters A-Z (an ISO 3166-1 alpha-2 country code, any case)',
  description: 'Keeps the analyses of this country (ISO 3166-1 alpha-2, any case).',
  accept: (raw) => (/^[A-Za-z]{2}$/.test(raw) ? raw.toUpperCase() : undefined),
  echo: z.string().regex(/^[A-Z]{2}$/),
})

/**
 * topic: 1 to 100 characters after trimming, compared exactly (case-sensitive).
 * @example
 * topicParam.text.parse('  Pricing ') // 'Pricing'
 */
export const topicParam = segmentParamOf({
  name: 'topic',
  mustBe: 'a text of 1 to 100 characters after trimming',
  description: "Keeps the analyses whose prompt's topic is exactly this (trimmed, case-sensitive).",
  accept: trimmedWithin(100),
  echo: z.string().min(1).max(100),
})

/**
 * tag: 1 to 50 characters after trimming, compared exactly (case-sensitive).
 * @example
 * tagParam.text.parse('brand') // 'brand'
 */
export const tagParam = segmentParamOf({
  name: 'tag',
  mustBe: 'a text of 1 to 50 characters after trimming',
  description: 'Keeps the analyses whose prompt has this tag (trimmed, case-sensitive).',
  accept: trimmedWithin(50),
  echo: z.string().min(1).max(50),
})

/** The segment filters, in their echo order (after every other parameter). */
export const SEGMENT_PARAMS = { country: countryParam, topic: topicParam, tag: tagParam } as const
/** The segment filters' value forms (library parameters). */
export const SEGMENT_VALUES = {
  country: countryParam.value,
  topic: topicParam.value,
  tag: tagParam.value,
} as const

const NOW_ISO = 'an ISO 8601 timestamp with Z or an offset'
const NOW_VALUE_MESSAGE = `now must be a Date or ${NOW_ISO}.`
/** Whether a Date is a valid clock (the rule of `now` for a Date). */
const isValidDate = (d: Date): boolean => !Number.isNaN(d.getTime())

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
    .refine((v) => !(v instanceof Date) || isValidDate(v), {
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
  if (!windowed(params)) return z.object(shape) as unknown as z.ZodType<ParamValues<P>>
  // A window: the rules between parameters, and `granularity` seen where it is not a parameter.
  return z.looseObject(shape).transform((values, ctx) => {
    try {
      return checked(normalizeWindowParams(params, values))
    } catch (e) {
      if (!isValidationError(e)) throw e
      for (const issue of e.issues)
        ctx.addIssue({ code: 'custom', message: issue.message, path: [issue.path] })
      return z.NEVER
    }
  }) as unknown as z.ZodType<ParamValues<P>>
}

/**
 * Request values that passed a windowed row's query schema (each parameter's text form, then the
 * window's rules), and compute parameters built from such values (`checkedArgs`): a report takes
 * them as they are instead of parsing them again with its library schema (`parseParams`,
 * src/queries/context.ts). Only `querySchema` and `checkedArgs` add to it, and only frozen
 * objects, so what was checked cannot change afterwards. That a report's library schema would
 * return such parameters unchanged is tested for every row (test/api/checked-args.test.ts).
 */
const CHECKED = new WeakSet<object>()

/** Freezes `values` (a query's values: scalars and lists of scalars) and records them as checked. */
function checked<V extends Record<string, unknown>>(values: V): V {
  for (const value of Object.values(values)) if (Array.isArray(value)) Object.freeze(value)
  CHECKED.add(Object.freeze(values))
  return values
}

/**
 * `args`, a report's compute parameters built from `values`, recorded as checked when `values`
 * came out of a row's query schema (the report then takes them without a second parse; their
 * `now`, which no query schema saw, is checked when the report takes them: `isChecked`). Any other
 * `args` are returned as they are, and parsed by the report.
 * @example
 * engine.computeCompetitorSeries(checkedArgs(p, { domainId: p.domain_id, days: p.days, now }))
 */
export function checkedArgs<T extends object>(values: object, args: T): T {
  if (CHECKED.has(values)) CHECKED.add(Object.freeze(args))
  return args
}

/**
 * Whether `params` are checked (see `checkedArgs`) and their `now` a valid clock: a report takes
 * them as its library schema would return them.
 * @example
 * const p = isChecked(params) ? params : schema.parse(params)
 */
export function isChecked(params: unknown): boolean {
  if (typeof params !== 'object' || params === null || !CHECKED.has(params)) return false
  const now = (params as { now?: unknown }).now
  // A Date, what the services pass, without zod's union; anything else by the parameter's schema.
  return now instanceof Date ? isValidDate(now) : nowParam.value.safeParse(now).success
}

// The compute functions' parameters (camelCase keys, unknown keys refused) are built from the
// `value` forms by each report's contract (src/reports/<id>/contract.ts), from the pieces below and
// the parameter sets several reports share.

/** The window's value forms: `days`, or `startDate` and `endDate`. */
export const WINDOW_VALUES = {
  days: daysParam.value,
  startDate: startDateParam.value,
  endDate: endDateParam.value,
} as const
/** The window of a time series: with `granularity`; the segment filters (docs/API.md, "Segment filters"). */
export const SERIES_VALUES = {
  ...WINDOW_VALUES,
  granularity: granularityParam.value,
  ...SEGMENT_VALUES,
} as const
/** The window of a report without a series: any `granularity` refused; the segment filters. */
export const REPORT_VALUES = { ...WINDOW_VALUES, granularity: noGranularity, ...SEGMENT_VALUES } as const

/**
 * domain_id, the window and model (raw ids too): the sentiment reports, the brand rankings; the
 * sentiment and brand series extend it with `granularity`.
 * @example
 * sentimentParamsSchema.parse({ domainId: id, days: 7 }).model // 'all'
 */
export const sentimentParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  ...REPORT_VALUES,
  model: modelParam.value,
  now: nowParam.value,
})

/**
 * The citations and cited-domains reports' parameters: domain_id, the window, model and limit.
 * @example
 * citationListParamsSchema.parse({ domainId: id }).limit // 100
 */
export const citationListParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  ...REPORT_VALUES,
  model: modelParam.value,
  limit: citationLimitParam.value,
  now: nowParam.value,
})

const UUID_MESSAGE = (path: string) => `${path} must be a UUID.`
const uuidValue = (path: string) =>
  z.string({ error: UUID_MESSAGE(path) }).regex(UUID_RE, { error: UUID_MESSAGE(path) })
const uuidList = (path: string) =>
  z.array(uuidValue(`${path}[]`), { error: `${path} must be a list of UUIDs.` })

/**
 * What a key says about its reach (library form of the key check's and the domains listing's `key`).
 * @example
 * keyScopeSchema.parse({ teamId, scopeTeamIds: [teamId], allowedDomains: null })
 */
export const keyScopeSchema = z.strictObject(
  {
    teamId: uuidValue('key.team_id'),
    scopeTeamIds: uuidList('key.scope_team_ids'),
    allowedDomains: uuidList('key.allowed_domains').nullable(),
  },
  { error: 'key must be an object with teamId, scopeTeamIds and allowedDomains.' },
)

// The answers listing's own parameters (docs/API.md, "GET /api/v1/answers").

/**
 * limit of the answers listing: 1-100, default 20.
 * @example
 * answersLimitParam.text.parse(undefined) // 20
 */
export const answersLimitParam = intParam({
  name: 'limit',
  min: 1,
  max: 100,
  fallback: 20,
  description: 'Answers per page.',
})

/** An optional text parameter checked by `accept` (undefined: refused with the parameter's sentence). */
function optionalTextParam(rule: {
  name: string
  /** The command-line flag (default: the name). */
  flag?: string
  mustBe: string
  description: string
  accept: (raw: string) => string | undefined
  echo: z.ZodType<string>
}): EchoedParam<string | undefined> {
  return { ...segmentParamOf(rule), flag: rule.flag ?? rule.name }
}

const UUID_LOWER = (raw: string): string | undefined => (UUID_RE.test(raw) ? raw.toLowerCase() : undefined)

/**
 * prompt_id of the answers listing: a UUID (any case, normalized lower case); a prompt of another
 * domain, or unknown, gives the empty result.
 * @example
 * promptIdParam.text.parse('0B6C...') // '0b6c...'
 */
export const promptIdParam = optionalTextParam({
  name: 'prompt_id',
  flag: 'prompt',
  mustBe: 'a UUID (a prompt id of the domain)',
  description:
    "Keeps the answers to this prompt (see GET /api/v1/prompts); another domain's prompt gives no answer.",
  accept: UUID_LOWER,
  echo: uuidOutSchema,
})

/**
 * entity of the answers listing: `brand` or a competitor id (a UUID, normalized lower case); a
 * UUID that is not a competitor of the domain gives the empty result.
 * @example
 * answersEntityParam.text.parse('brand') // 'brand'
 */
export const answersEntityParam = optionalTextParam({
  name: 'entity',
  mustBe: 'brand or a competitor id (a UUID)',
  description: 'Keeps the answers that mention the brand (`brand`) or this competitor (its id).',
  accept: (raw) => (raw === 'brand' ? raw : UUID_LOWER(raw)),
  echo: z.union([z.literal('brand'), uuidOutSchema]),
})

/** The characters of a cursor: base64url and the dot between its parts. */
const CURSOR_RE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/

/**
 * cursor of the answers listing: the `next_cursor` of an earlier page of the same query. Its form
 * is checked here; its signature and parameters by the listing (src/reports/answers/cursor.ts).
 * @example
 * cursorParam.text.safeParse('nope').success // false
 */
export const cursorParam = optionalTextParam({
  name: 'cursor',
  mustBe: 'the next_cursor of an earlier page of the same query',
  description:
    'The next_cursor of the previous page (the same parameters, limit included); absent: the first page.',
  accept: (raw) => (raw.length <= 200 && CURSOR_RE.test(raw) ? raw : undefined),
  echo: z.string().max(200),
})
