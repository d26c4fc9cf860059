/**
 * The one place where errors become HTTP answers. Engine errors are mapped by class; anything not
 * recognized is a 500 with a fixed body, so no DuckDB text, SQL or stack trace reaches a client.
 */
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { DETAIL, type AccessClass } from '../api/index.js'
import { isIngestError, isNotFoundError, isValidationError } from '../index.js'
import { OverloadedError } from './concurrency.js'

/** An HTTP answer for an error: status, JSON body, extra headers, and whether to log it as a fault. */
export interface ErrorAnswer {
  status: number
  body: { detail: string } & Record<string, unknown>
  headers?: Record<string, string>
  fault: boolean
}

/** The ingest body exceeded the configured size. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError' as const
  constructor(limit: number) {
    super(`request body larger than ${limit} bytes`)
  }
}

const CLIENT_DETAILS: Record<number, string> = {
  400: 'Bad request.',
  404: DETAIL.notFound,
  405: DETAIL.methodNotAllowed,
  411: 'Length required.',
  413: 'Request body too large.',
  415: 'Unsupported media type. Send NDJSON as application/x-ndjson.',
  431: 'Request header fields too large.',
}

function statusCodeOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const code = (error as { statusCode?: unknown }).statusCode
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined
}

function causedBy<T>(error: unknown, ctor: abstract new (...args: never[]) => T): boolean {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth += 1) {
    if (e instanceof ctor) return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}

/**
 * Maps any error thrown while serving a request (`access`: the access class of its route, if any).
 * @example
 * const answer = toErrorAnswer(new ValidationError([{ path: 'days', message: 'days must be ...' }]))
 * // { status: 400, body: { detail: 'days must be ...' }, fault: false }
 */
export function toErrorAnswer(error: unknown, access?: AccessClass): ErrorAnswer {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return {
      status: 400,
      body: { detail: error.validation[0]?.message ?? CLIENT_DETAILS[400]! },
      fault: false,
    }
  }
  if (isValidationError(error)) {
    return { status: 400, body: { detail: error.issues[0]?.message ?? CLIENT_DETAILS[400]! }, fault: false }
  }
  if (isNotFoundError(error)) {
    return access === 'sentiment'
      ? { status: 404, body: { detail: DETAIL.domainNotFound }, fault: false }
      : { status: 403, body: { detail: DETAIL.forbidden }, fault: false }
  }
  if (isIngestError(error)) {
    const detail = error.message.split('\n')[0] ?? 'ingest refused, nothing stored.'
    return { status: 400, body: { detail, issues: error.issues, total: error.total }, fault: false }
  }
  if (causedBy(error, BodyTooLargeError)) {
    return { status: 413, body: { detail: CLIENT_DETAILS[413]! }, fault: false }
  }
  if (error instanceof OverloadedError) {
    return { status: 503, body: { detail: DETAIL.busy }, headers: { 'retry-after': '1' }, fault: false }
  }
  const status = statusCodeOf(error)
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, body: { detail: CLIENT_DETAILS[status] ?? CLIENT_DETAILS[400]! }, fault: false }
  }
  return { status: 500, body: { detail: DETAIL.internal }, fault: true }
}
