/**
 * The one place where errors become HTTP answers. Engine errors are mapped by class; anything not
 * recognized is a 500 with a fixed body, so no DuckDB text, SQL or stack trace reaches a client.
 */
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { DETAIL, type AccessClass } from '../api/index.js'
import {
  isIngestError,
  isNotFoundError,
  isValidationError,
  isVisibilityError,
  type VisibilityError,
} from '../index.js'

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

/** The ingest body is compressed (gzip, zstd, xz, zip): a 415, not a line-by-line refusal. */
export class CompressedBodyError extends Error {
  override name = 'CompressedBodyError' as const
  constructor() {
    super('request body is compressed')
  }
}

/** Detail messages of the cluster's refusals (src/cluster): its errors are mapped here, by code. */
export const CLUSTER_DETAIL = {
  misdirected: 'Misdirected request: this domain is served by another shard.',
  controlPlaneDown: 'The control plane is unreachable. Please try again shortly.',
  moving: 'This domain is being moved to another shard. Please try again shortly.',
  ingestFailed: 'The cluster ingest failed on some shards; sending the same call again completes it.',
} as const

const UNAUTHORIZED_HEADERS = { 'www-authenticate': 'Bearer realm="visibility-analytics"' }

/**
 * The answer of a VisibilityError by its code, for the codes not answered by class above
 * (engine faults such as QUERY, CLOSED and READ_ONLY stay 500s).
 */
function codeAnswer(error: VisibilityError): ErrorAnswer | null {
  switch (error.code) {
    case 'OVERLOADED':
      return { status: 503, body: { detail: DETAIL.busy }, headers: { 'retry-after': '1' }, fault: false }
    case 'DOMAIN_MOVING':
      return {
        status: 503,
        body: { detail: CLUSTER_DETAIL.moving },
        headers: { 'retry-after': '5' },
        fault: false,
      }
    case 'CONTROL_PLANE_UNAVAILABLE':
      return {
        status: 503,
        body: { detail: CLUSTER_DETAIL.controlPlaneDown },
        headers: { 'retry-after': '5' },
        fault: false,
      }
    case 'KEY_REVOKED':
      // A key found revoked after authentication (a cluster shard's rate-limit count refused it).
      return {
        status: 401,
        body: { detail: DETAIL.unauthorized },
        headers: UNAUTHORIZED_HEADERS,
        fault: false,
      }
    case 'CLUSTER_INGEST':
      return { status: 502, body: { detail: CLUSTER_DETAIL.ingestFailed }, fault: true }
    case 'WORK_DIR':
    case 'USAGE':
    case 'COMMAND':
      // Their messages are written for the caller: they name the parameter and quote no file.
      return { status: 400, body: { detail: error.message.split('\n')[0]! }, fault: false }
    default:
      return null
  }
}

/** The 415 detail for a compressed body (by Content-Encoding or by its first bytes). */
export const COMPRESSED_DETAIL =
  'Unsupported media type: compressed bodies are not accepted. Send NDJSON uncompressed as application/x-ndjson.'

const CLIENT_DETAILS: Record<number, string> = {
  400: 'Bad request.',
  404: DETAIL.notFound,
  405: DETAIL.methodNotAllowed,
  408: 'Request timeout: the request was not received in time.',
  411: 'Length required.',
  413: 'Request body too large.',
  415: 'Unsupported media type. Send NDJSON as application/x-ndjson.',
  417: 'Expectation failed: only Expect: 100-continue is supported.',
  431: 'Request header fields too large.',
}

/**
 * The fixed detail of a 4xx status (400's for a status without one of its own).
 * @example
 * clientDetail(431) // 'Request header fields too large.'
 */
export function clientDetail(status: number): string {
  return CLIENT_DETAILS[status] ?? CLIENT_DETAILS[400]!
}

function statusCodeOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const code = (error as { statusCode?: unknown }).statusCode
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined
}

function causedBy(error: unknown, match: (e: unknown) => boolean): boolean {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth += 1) {
    if (match(e)) return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}

const instanceOf =
  <T>(ctor: abstract new (...args: never[]) => T) =>
  (e: unknown): boolean =>
    e instanceof ctor

/** The request stream failed because the client went away or was cut (a timeout, a limit). */
const bodyAborted = (e: unknown): boolean => {
  const code = (e as { code?: unknown }).code
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE'
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
  if (causedBy(error, instanceOf(BodyTooLargeError))) {
    return { status: 413, body: { detail: CLIENT_DETAILS[413]! }, fault: false }
  }
  if (causedBy(error, instanceOf(CompressedBodyError))) {
    return { status: 415, body: { detail: COMPRESSED_DETAIL }, fault: false }
  }
  if (causedBy(error, bodyAborted)) {
    // Seldom delivered: the connection is closed (a timeout, a limit, or the client left).
    return { status: 408, body: { detail: clientDetail(408) }, fault: false }
  }
  if (isVisibilityError(error)) {
    const answer = codeAnswer(error)
    if (answer !== null) return answer
  }
  const status = statusCodeOf(error)
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, body: { detail: clientDetail(status) }, fault: false }
  }
  return { status: 500, body: { detail: DETAIL.internal }, fault: true }
}
