/**
 * What every report needs: the catalog (dimension rows), the aggregate rows, and the request
 * resolved to a domain and a window. Reports only read: nothing here calls back into the engine.
 */
import type { z } from 'zod'
import type { Catalog, DomainRow } from '../catalog.js'
import { NotFoundError, ValidationError } from '../errors.js'
import type { AggregateSource } from '../tables/aggregates.js'
import type { Clock } from '../types.js'
import { isChecked } from '../schemas/params.js'
import { formatGeneratedAt } from '../schemas/payloads.js'
import {
  bucketStarts,
  resolveWindow,
  type DayWindow,
  type Granularity,
  type WindowEcho,
} from '../foundation/window.js'
import { segmentEcho, withSegment, type SegmentEcho, type SegmentParams } from './segment.js'

export interface QueryContext {
  readonly catalog: Catalog
  readonly aggregates: AggregateSource
  /** The key signing the answers listing's cursors (docs/API.md, "GET /api/v1/answers"). */
  readonly cursorKey?: Uint8Array
}

/**
 * Parses parameters with a zod schema; a failure becomes a ValidationError naming the parameter.
 * Parameters built from a request that its row's query schema already checked are taken as they
 * are (`isChecked`, src/schemas/params.ts): the HTTP service's requests are parsed once.
 */
export function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  if (isChecked(params)) return params as z.output<S>
  const r = schema.safeParse(params ?? {})
  if (r.success) return r.data
  const issues = r.error.issues.map((i) => {
    if (i.code === 'unrecognized_keys') {
      return {
        path: i.keys.join(', '),
        message: `unknown parameter${i.keys.length > 1 ? 's' : ''} ${i.keys.join(', ')}.`,
      }
    }
    const path = i.path.map((k) => String(k).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)).join('.')
    return path === ''
      ? { path: 'params', message: 'params must be an object.' }
      : { path, message: i.message }
  })
  throw new ValidationError(issues)
}

/** A report request resolved: its domain, its window and the `generated_at` of the payload. */
export interface ReportScope {
  domain: DomainRow
  window: DayWindow
  /** The echo of the window: `days`, then `start_date` and `end_date` when a range was given. */
  echo: WindowEcho
  /** The echo of `granularity`: present only when the request gave it (docs/API.md, "Date ranges and buckets"). */
  granularityEcho: { granularity?: Granularity }
  /** The bucket of each window date (index: day - window.startDay); by day when none was given. */
  buckets: Int32Array
  /** The echo of the segment filters given (docs/API.md, "Segment filters"): after every other parameter. */
  segmentEcho: SegmentEcho
  generatedAt: string
}

/** What every report's parameters carry (the segment filters on the reports that take them). */
export interface ScopeParams extends SegmentParams {
  domainId: string
  days?: number | undefined
  startDate?: string | undefined
  endDate?: string | undefined
  granularity?: Granularity | undefined
  now?: Clock | undefined
}

/**
 * A report's parameters checked with its schema, its scope resolved, and the context to compute
 * with: `ctx` itself, or for a request with segment filters, one that reads the rows of the
 * analyses that pass them (src/queries/segment.ts).
 */
export function parseRequest<S extends z.ZodType<ScopeParams>>(
  ctx: QueryContext,
  schema: S,
  params: unknown,
): { p: z.output<S>; scope: ReportScope; ctx: QueryContext } {
  const p = parseParams(schema, params)
  return { p, scope: resolveScope(ctx.catalog, p), ctx: withSegment(ctx, p) }
}

/**
 * Resolves the window (`days` ending at `now`, or the explicit range; a ValidationError for a bad
 * pair) and the domain (NotFoundError when unknown).
 */
export function resolveScope(catalog: Catalog, params: ScopeParams): ReportScope {
  const ms = clockMs(params.now)
  const { window, echo } = resolveWindow(params, ms)
  const domain = resolveDomain(catalog, params.domainId)
  const g = params.granularity
  return {
    domain,
    window,
    echo,
    granularityEcho: g === undefined ? {} : { granularity: g },
    buckets: bucketStarts(window, g ?? 'day'),
    segmentEcho: segmentEcho(params),
    generatedAt: formatGeneratedAt(ms),
  }
}

/** A domain by id in any case; NotFoundError when unknown. */
export function resolveDomain(catalog: Catalog, domainId: string): DomainRow {
  const id = domainId.toLowerCase()
  const domain = catalog.domains.get(id)
  if (domain === undefined) throw new NotFoundError('domain', id)
  return domain
}

/** A clock in ms since the epoch (the current time when not given). */
export function clockMs(now: Clock | undefined): number {
  return now === undefined ? Date.now() : now instanceof Date ? now.getTime() : Date.parse(now)
}
