/** What every compute function needs: the catalog, a way to run a named query, and the window. */
import type { DuckDBValue } from '@duckdb/node-api'
import type { z } from 'zod'
import type { Catalog, DomainRow } from '../catalog.js'
import { NotFoundError, ValidationError } from '../errors.js'
import { formatGeneratedAt } from '../schemas/payloads.js'
import type { Clock } from '../types.js'

export const DAY_MS = 86_400_000

export interface QueryContext {
  readonly catalog: Catalog
  /** Runs `sql/<id>.sql` (or its in-memory equivalent) with INTEGER parameters; returns its columns. */
  run(id: string, values: Record<string, number>): Promise<ArrayLike<DuckDBValue>[]>
}

/** Parses parameters with a zod schema; a failure becomes a ValidationError naming the parameter. */
export function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
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

export interface Window {
  domain: DomainRow
  startDay: number
  endDay: number
  generatedAt: string
}

/** Resolves the domain and the window of `days` UTC dates ending at the UTC date of `now`. */
export function resolveWindow(
  catalog: Catalog,
  domainId: string,
  days: number,
  now: Clock | undefined,
): Window {
  const id = domainId.toLowerCase()
  const domain = catalog.domains.get(id)
  if (domain === undefined) throw new NotFoundError('domain', id)
  const ms = now === undefined ? Date.now() : now instanceof Date ? now.getTime() : Date.parse(now)
  const endDay = Math.floor(ms / DAY_MS)
  return { domain, startDay: endDay - days + 1, endDay, generatedAt: formatGeneratedAt(ms) }
}

const dateCache = new Map<number, string>()
/** `YYYY-MM-DD` of a day number (days since 1970-01-01). */
export function formatDay(day: number): string {
  let s = dateCache.get(day)
  if (s === undefined) {
    s = new Date(day * DAY_MS).toISOString().slice(0, 10)
    if (dateCache.size < 100_000) dateCache.set(day, s)
  }
  return s
}

/** Numbers from DuckDB columns: the SQL casts every value to INTEGER or DOUBLE. */
export const num = (v: DuckDBValue): number => v as number
