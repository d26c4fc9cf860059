/**
 * @module The contract of the analyst's question (docs/API.md, "GET /api/v1/query"): its own
 * parameters (dimensions, entity, compare, min_responses, its limit and its optional model), the
 * rules between them, its library parameters' schema, its payload schema and their public types.
 */
import { z } from 'zod'
import {
  SERIES_VALUES,
  domainIdParam,
  granularityParam,
  intParam,
  givenModelParam,
  nowParam,
  pageParam,
  paramMessage,
  textError,
  type EchoedParam,
} from '../../schemas/params.js'
import { MODEL_ID_RE, UUID_RE } from '../../schemas/records.js'
import {
  count,
  echo,
  entityIdSchema,
  envelope,
  isoDate,
  uuid,
  segmentEcho,
  windowEcho,
  type Expect,
  type Same,
} from '../../schemas/payloads.js'
import type { Clock, DateRangeParams, Granularity, RangeEcho } from '../../types.js'

/** The dimensions a query may group by, in the order of their fields in a row's documentation. */
export const QUERY_DIMENSIONS = ['date', 'channel', 'model', 'country', 'prompt', 'topic', 'tag'] as const
export type QueryDimension = (typeof QUERY_DIMENSIONS)[number]
/** The most dimensions one query groups by. */
export const MAX_QUERY_DIMENSIONS = 3

const DIMENSIONS_MUST_BE = `a comma-separated list of at most ${MAX_QUERY_DIMENSIONS} distinct names among ${QUERY_DIMENSIONS.join(', ')}`
const DIMENSIONS_MESSAGE = paramMessage({ name: 'dimensions', mustBe: DIMENSIONS_MUST_BE })
const DIMENSIONS_DESCRIPTION =
  'What to group the analyses by: up to 3 of date, channel, model, country, prompt, topic, tag, comma-separated (none: one group of every analysis).'

/** The dimensions of a list of names, or undefined when one is unknown, empty or repeated, or there are too many. */
function dimensionsOf(names: readonly string[]): QueryDimension[] | undefined {
  if (names.length > MAX_QUERY_DIMENSIONS) return undefined
  if (new Set(names).size !== names.length) return undefined
  if (!names.every((n) => (QUERY_DIMENSIONS as readonly string[]).includes(n))) return undefined
  return names as QueryDimension[]
}

const checkedDimensions = (names: readonly string[], ctx: z.RefinementCtx): QueryDimension[] => {
  const dims = dimensionsOf(names)
  if (dims === undefined) {
    ctx.addIssue({ code: 'custom', message: DIMENSIONS_MESSAGE })
    return z.NEVER
  }
  return dims
}

/**
 * dimensions: text `prompt,channel` (an empty text is an empty item: refused); value a list of names
 * (or the same comma-separated text). Default: none. Echoed as a JSON array in the given order.
 * @example
 * dimensionsParam.text.parse('country,date') // ['country', 'date']
 */
export const dimensionsParam: EchoedParam<QueryDimension[]> = {
  name: 'dimensions',
  flag: 'dimensions',
  required: false,
  mustBe: DIMENSIONS_MUST_BE,
  accepts: DIMENSIONS_MUST_BE,
  description: DIMENSIONS_DESCRIPTION,
  text: z
    .string({ error: textError('dimensions', DIMENSIONS_MUST_BE, DIMENSIONS_MESSAGE) })
    .transform((raw, ctx) => checkedDimensions(raw.split(','), ctx))
    .optional()
    .transform((v) => v ?? [])
    .meta({ type: 'string', default: '', description: DIMENSIONS_DESCRIPTION }) as unknown as z.ZodType<
    QueryDimension[]
  >,
  value: z
    .union([z.array(z.string()), z.string()], { error: DIMENSIONS_MESSAGE })
    .default([])
    .meta({ description: DIMENSIONS_DESCRIPTION })
    .transform((raw, ctx) =>
      checkedDimensions(typeof raw === 'string' ? raw.split(',') : raw, ctx),
    ) as unknown as z.ZodType<QueryDimension[]>,
  echo: z.array(z.enum(QUERY_DIMENSIONS)).max(MAX_QUERY_DIMENSIONS),
}

const ENTITY_MUST_BE = 'brand, all, or a competitor id (a UUID)'
const ENTITY_MESSAGE = paramMessage({ name: 'entity', mustBe: ENTITY_MUST_BE })
const ENTITY_DESCRIPTION =
  'Whose mentions to count: brand (default), all (the brand and every competitor, one row each), or a competitor id.'
const entityForm = (error: string | ((issue: { input?: unknown }) => string)) =>
  z
    .string({ error })
    .refine((v) => v === 'brand' || v === 'all' || UUID_RE.test(v), { error: ENTITY_MESSAGE })
    .overwrite((v) => v.toLowerCase())

/**
 * entity: `brand` (default), `all`, or a competitor's UUID (lower-cased; one of another domain, or
 * unknown, gives the empty result).
 * @example
 * entityParam.text.parse('ALL') // refused: 'entity must be brand, all, or a competitor id (a UUID).'
 */
export const entityParam: EchoedParam<string> = {
  name: 'entity',
  flag: 'entity',
  required: false,
  mustBe: ENTITY_MUST_BE,
  accepts: ENTITY_MUST_BE,
  description: ENTITY_DESCRIPTION,
  text: entityForm(textError('entity', ENTITY_MUST_BE, ENTITY_MESSAGE))
    .optional()
    .default('brand')
    .meta({ type: 'string', description: ENTITY_DESCRIPTION }) as unknown as z.ZodType<string>,
  value: entityForm(ENTITY_MESSAGE)
    .default('brand')
    .meta({ default: 'brand', description: ENTITY_DESCRIPTION }) as unknown as z.ZodType<string>,
  echo: z.union([z.enum(['brand', 'all']), z.string().regex(UUID_RE).meta({ format: 'uuid' })]),
}

export const COMPARES = ['none', 'previous'] as const
export type QueryCompare = (typeof COMPARES)[number]
const COMPARE_MUST_BE = 'none or previous'
const COMPARE_MESSAGE = paramMessage({ name: 'compare', mustBe: COMPARE_MUST_BE })
const COMPARE_DESCRIPTION =
  'previous: each row also gets the same numbers over the previous window of the same length, and the change with its p-value (not with the date dimension).'

/**
 * compare: `none` (default) or `previous`.
 * @example
 * compareParam.text.parse(undefined) // 'none'
 */
export const compareParam: EchoedParam<QueryCompare> = {
  name: 'compare',
  flag: 'compare',
  required: false,
  mustBe: COMPARE_MUST_BE,
  accepts: COMPARE_MUST_BE,
  description: COMPARE_DESCRIPTION,
  text: z
    .enum(COMPARES, { error: textError('compare', COMPARE_MUST_BE, COMPARE_MESSAGE) })
    .optional()
    .default('none')
    .meta({ description: COMPARE_DESCRIPTION }),
  value: z
    .enum(COMPARES, { error: COMPARE_MESSAGE })
    .default('none')
    .meta({ description: COMPARE_DESCRIPTION }),
  echo: z.enum(COMPARES),
}

/**
 * min_responses: 0-1,000,000, default 0: rows with fewer responses are left out (before paging).
 * @example
 * minResponsesParam.text.parse('30') // 30
 */
export const minResponsesParam = {
  ...intParam({
    name: 'min_responses',
    min: 0,
    max: 1_000_000,
    fallback: 0,
    description: 'Rows with fewer responses (analyses) than this are left out, before paging.',
  }),
  flag: 'min-responses',
}

/**
 * limit of the query's pages: 1-10,000, default 1000.
 * @example
 * queryLimitParam.text.safeParse('10001').success // false
 */
export const queryLimitParam = intParam({
  name: 'limit',
  min: 1,
  max: 10_000,
  fallback: 1000,
  description: 'Rows per page (total counts them all).',
})

const modelEcho = z.string().regex(MODEL_ID_RE).optional()

/** The 400 detail of `compare=previous` with the `date` dimension. */
export const COMPARE_WITH_DATE = 'compare must be none when dimensions includes date.'
/** The 400 detail of `granularity` without the `date` dimension. */
export const GRANULARITY_WITHOUT_DATE = 'granularity is accepted only with the date dimension.'

/**
 * The rules between the query's parameters (after each one's own): `compare=previous` is refused
 * with the `date` dimension, `granularity` without it.
 * @example
 * queryRuleIssues({ dimensions: ['date'], compare: 'previous' }) // [{ path: 'compare', ... }]
 */
export function queryRuleIssues(p: {
  dimensions?: readonly string[] | undefined
  compare?: string | undefined
  granularity?: string | undefined
}): { path: string; message: string }[] {
  const dated = (p.dimensions ?? []).includes('date')
  const issues: { path: string; message: string }[] = []
  if (p.compare === 'previous' && dated) issues.push({ path: 'compare', message: COMPARE_WITH_DATE })
  if (p.granularity !== undefined && !dated)
    issues.push({ path: 'granularity', message: GRANULARITY_WITHOUT_DATE })
  return issues
}

/** The library form of the query's parameters (camelCase keys, unknown keys refused). */
export const queryParamsSchema = z.strictObject({
  domainId: domainIdParam.value,
  ...SERIES_VALUES,
  dimensions: dimensionsParam.value,
  entity: entityParam.value,
  compare: compareParam.value,
  minResponses: minResponsesParam.value,
  page: pageParam.value,
  limit: queryLimitParam.value,
  model: givenModelParam.value,
  now: nowParam.value,
})

/** A Wilson interval in percent, `[low, high]`. */
const interval = z.array(z.number().min(0).max(100)).length(2)
const percent = z.number().min(0).max(100)

/** The dimension fields of a row (those the request names, in its order: the schema leaves the order open). */
const queryDimensionFields = z.looseObject({
  date: isoDate.optional(),
  channel: z.string().optional(),
  model: z.string().optional(),
  country: z.string().nullable().optional(),
  prompt_id: uuid.optional(),
  topic: z.string().nullable().optional(),
  tag: z.string().nullable().optional(),
})

/** The entity and its numbers, in this order, after the dimension fields. */
const queryRowFields = z.looseObject({
  entity_id: entityIdSchema,
  entity_name: z.string(),
  is_brand: z.boolean(),
  responses: count,
  mentions: count,
  visibility: percent,
  visibility_ci: interval,
  sov: percent,
  sov_total: count,
  position_sum: z.number(),
  position_count: count,
  avg_position: z.number().nullable(),
  sentiment_sum: z.number(),
  sentiment_count: count,
  avg_sentiment: z.number().nullable(),
  citations: count,
  citations_total: count,
  citability: percent,
  previous: z
    .object({ responses: count, mentions: count, visibility: percent, visibility_ci: interval.nullable() })
    .optional(),
  change: z
    .object({
      visibility_delta: z.number().min(-100).max(100),
      p_value: z.number().min(0).max(1).nullable(),
      significant: z.boolean(),
    })
    .optional(),
})

/**
 * One row: the dimension values, then the entity and its numbers. The outer record keeps the
 * row's own key order when the schema writes it (an object schema would write its shape's order).
 */
export const queryRowSchema = z.intersection(
  z.looseObject({}),
  z.intersection(queryDimensionFields, queryRowFields),
) as unknown as z.ZodType<QueryRow> // typed as the row: the open objects' index signatures left out

/**
 * The query body.
 * @example
 * queryPayloadSchema.parse(await engine.computeQuery({ domainId, dimensions: ['country'] }))
 */
export const queryPayloadSchema = envelope(
  'QueryResponse',
  z.object({
    items: z.array(queryRowSchema),
    total: count,
    page: z.number().int().min(1),
    limit: z.number().int().min(1),
    total_pages: z.number().int().min(1),
  }),
  {
    domain_id: echo.domain_id,
    ...windowEcho,
    dimensions: dimensionsParam.echo,
    entity: entityParam.echo,
    compare: compareParam.echo,
    min_responses: minResponsesParam.echo,
    page: pageParam.echo,
    limit: queryLimitParam.echo,
    granularity: granularityParam.echo,
    model: modelEcho,
    ...segmentEcho,
  },
)

export interface QueryParams extends DateRangeParams {
  domainId: string
  days?: number
  /** Up to 3 of date, channel, model, country, prompt, topic, tag (or them comma-separated). */
  dimensions?: readonly QueryDimension[] | string
  /** `brand` (default), `all`, or a competitor id. */
  entity?: string
  compare?: QueryCompare
  minResponses?: number
  page?: number
  limit?: number
  /** With the `date` dimension only. */
  granularity?: Granularity
  /** `all` (the default, not echoed), a channel name or a raw model id. */
  model?: string
  country?: string
  topic?: string
  tag?: string
  now?: Clock
}

/** The numbers of a group and entity over the previous window. */
export interface QueryPrevious {
  responses: number
  mentions: number
  visibility: number
  visibility_ci: number[] | null
}

export interface QueryChange {
  visibility_delta: number
  p_value: number | null
  significant: boolean
}

/** One row of the query; its dimension fields come first, in the order of `dimensions`. */
export interface QueryRow {
  date?: string
  channel?: string
  model?: string
  country?: string | null
  prompt_id?: string
  topic?: string | null
  tag?: string | null
  entity_id: string
  entity_name: string
  is_brand: boolean
  responses: number
  mentions: number
  visibility: number
  visibility_ci: number[]
  sov: number
  sov_total: number
  position_sum: number
  position_count: number
  avg_position: number | null
  sentiment_sum: number
  sentiment_count: number
  avg_sentiment: number | null
  citations: number
  citations_total: number
  citability: number
  previous?: QueryPrevious
  change?: QueryChange
}

export interface QueryPayload extends RangeEcho {
  data: { items: QueryRow[]; total: number; page: number; limit: number; total_pages: number }
  domain_id: string
  days: number
  dimensions: QueryDimension[]
  entity: string
  compare: QueryCompare
  min_responses: number
  page: number
  limit: number
  granularity?: Granularity | undefined
  model?: string | undefined
  country?: string | undefined
  topic?: string | undefined
  tag?: string | undefined
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON (rows checked apart: their
// dimension fields are open).
type _PayloadTypeMatches = Expect<
  Same<Omit<z.output<typeof queryPayloadSchema>, 'data'>, Omit<QueryPayload, 'data'>>
>
