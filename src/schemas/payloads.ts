/**
 * @module The toolkit of the documented response payloads (docs/API.md, "Payloads"): the envelope,
 * the echo fields and the shared field schemas each report's payload schema is built from
 * (src/reports/<id>/contract.ts). The payload schemas check every payload before it is sent or
 * cached and describe it in the OpenAPI document. Field order is the order of the JSON.
 */
import { z } from 'zod'
import {
  daysParam,
  domainIdParam,
  endDateParam,
  granularityParam,
  startDateParam,
  modelParam,
  pageParam,
  sizeParam,
  countryParam,
  topicParam,
  tagParam,
  uuidOutSchema,
} from './params.js'
import { UUID_RE } from './records.js'
import { CHANNELS } from '../foundation/vocabulary.js'

/**
 * `generated_at` of a payload: ISO 8601 in UTC, without milliseconds when they are zero.
 * @example
 * formatGeneratedAt(Date.parse('2026-11-20T15:00:00Z')) // '2026-11-20T15:00:00Z'
 */
export function formatGeneratedAt(ms: number): string {
  const s = new Date(ms).toISOString()
  return s.endsWith('.000Z') ? `${s.slice(0, -5)}Z` : s
}

export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)
export const count = z.number().int().min(0)
const generatedAt = z.iso
  .datetime({ offset: true })
  .meta({ description: 'When the response was computed (UTC).' })

/**
 * A response body: `data`, then the echo of the request's parameters in order, then
 * `generated_at`, named `id` in the OpenAPI document.
 * @example
 * const fooPayloadSchema = envelope('FooResponse', z.object({ items: z.array(fooSchema) }), { domain_id: echo.domain_id })
 */
export function envelope<D extends z.ZodType, E extends z.ZodRawShape>(id: string, data: D, echoes: E) {
  const schema = z.object({ data, ...echoes, generated_at: generatedAt })
  payloadNames.add(schema, { id })
  return schema
}

/**
 * The component name of each response body (`PromptSeriesResponse`, ...). The endpoint table
 * registers it on the row's payload, whose echo fields it makes exact (src/api/endpoints.ts), so
 * the OpenAPI document has one component per body.
 * @example
 * payloadNames.get(promptSeriesPayloadSchema)?.id // 'PromptSeriesResponse'
 */
export const payloadNames = z.registry<{ id: string }>()

/**
 * Echo fields of the parameters, by name, as wide as every endpoint's parameter of that name
 * allows. Each row of the endpoint table narrows them to its own parameters' `echo` schemas
 * (src/api/endpoints.ts), so the bodies it serves and documents carry the exact bounds.
 */
export const echo = {
  domain_id: domainIdParam.echo,
  days: daysParam.echo,
  /** A range (docs/API.md, "Date ranges and buckets"): echoed after `days` only when given. */
  start_date: startDateParam.echo,
  end_date: endDateParam.echo,
  /** Echoed after the other parameters, only when given. */
  granularity: granularityParam.echo,
  limit: z.int().min(1),
  model: modelParam.echo,
  page: pageParam.echo,
  size: sizeParam.echo,
  /** The segment filters (docs/API.md, "Segment filters"): echoed last, only when given. */
  country: countryParam.echo,
  topic: topicParam.echo,
  tag: tagParam.echo,
}

/** The window's echo (docs/API.md, "Date ranges and buckets"): `days`, then `start_date` and `end_date` when a range was given. */
export const windowEcho = { days: echo.days, start_date: echo.start_date, end_date: echo.end_date }
/** The segment filters' echo (docs/API.md, "Segment filters"): after every other parameter, each only when given. */
export const segmentEcho = { country: echo.country, topic: echo.topic, tag: echo.tag }
/** The echo of the brand and sentiment series: domain_id, the window, model, granularity and the filters when given. */
export const modelSeriesEcho = {
  domain_id: echo.domain_id,
  ...windowEcho,
  model: echo.model,
  granularity: echo.granularity,
  ...segmentEcho,
}

/** An id of a stored record in a payload: a lower-case UUID (`format: uuid`). */
export const uuid = uuidOutSchema

/**
 * The id of a per-entity row: a competitor's UUID, or `user-brand-<domain_id>` for the brand row.
 * @example
 * z.object({ id: entityIdSchema, is_brand: z.boolean() })
 */
export const entityIdSchema = z.union([
  uuid,
  z
    .string()
    .regex(new RegExp(`^user-brand-${UUID_RE.source.slice(1)}`))
    .meta({ description: 'The brand row: user-brand-<domain_id>.' }),
])

/** A stored timestamp: ISO 8601 UTC with milliseconds. */
export const timestamp = z.iso.datetime().meta({ description: 'ISO 8601 UTC with milliseconds.' })

/** One page of a listing: `items`, `total`, `page`, `size`, `total_pages`. */
export const page = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: count,
    page: z.number().int().min(1),
    size: count,
    total_pages: z.number().int().min(1),
  })

/** Channel names, in the order of CHANNELS. */
export const channelList = z.array(z.enum(CHANNELS))
/** A percentage, 0-100. */
export const percent = z.number().min(0).max(100)

/**
 * True when A and B are the same type: each contract checks its payload schema against its public
 * payload type with it (`type _Check = Expect<Same<z.output<typeof schema>, Payload>>`).
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
/** Compiles only for `true`. */
export type Expect<T extends true> = T
