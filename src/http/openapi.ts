/**
 * Completes the generated OpenAPI document with what route schemas cannot say (docs/API.md,
 * "Headers"): the optional `X-Request-Id` request header of every operation, the response headers
 * (marked required where every such response carries them), the response descriptions, and one
 * component per schema (zod's input twins of the output schemas are dropped when nothing refers to
 * them, and a referenced twin equal to its output schema is replaced by it). The HTTP conventions
 * (docs/HTTP.md) are documented on every GET operation: the ETag of a 200, If-None-Match and the
 * 304; on a list operation the `format` parameter and the text/csv form of its 200, with the
 * columns of src/http/csv.ts. Components and security schemes nothing refers to are dropped.
 */
import { ENDPOINTS, type Endpoint } from '../api/index.js'
import { csvLayouts } from './csv.js'
import { SANE_REQUEST_ID } from './edge/index.js'

type Json = Record<string, unknown>
type Header = { description: string; required: boolean; schema: Json }
type ResponseObject = {
  description?: string
  headers?: Record<string, Header>
  content?: Record<string, { schema: Json }>
}
type Parameter = { name: string; in: string }
type Operation = {
  operationId?: string
  description?: string
  security?: Array<Record<string, unknown>>
  parameters?: Parameter[]
  responses?: Record<string, ResponseObject>
}
type Document = {
  paths?: Record<string, Record<string, Operation>>
  security?: Array<Record<string, unknown>>
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> }
}

/** The security scheme of the API keys (`Authorization: Bearer <key>`). */
export const API_KEY_SCHEME = 'bearerAuth'
/** The security scheme of the internal ingest endpoint (the admin token). */
export const ADMIN_SCHEME = 'adminToken'

const REQUEST_ID_PARAMETER = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  description:
    'A request id for log correlation (a UUID, for example). Echoed in the X-Request-Id response header when it is 1-128 characters of A-Z a-z 0-9 . _ : / + = - and not shaped like an API key; otherwise the service generates a UUID.',
  schema: { type: 'string' },
}

const IF_NONE_MATCH_PARAMETER = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'ETags of bodies the client holds (from the ETag header of a 200, weak comparison, or *): when one matches the current body the answer is 304 without a body. A 304 is authenticated and counted by the rate limit like a 200.',
  schema: { type: 'string' },
}

const FORMAT_PARAMETER = {
  name: 'format',
  in: 'query',
  required: false,
  description:
    'json (default) or csv: the body as CSV (text/csv, one row per item or per datapoint of a series); overrides the Accept header. Not part of the response cache key.',
  schema: { type: 'string', enum: ['json', 'csv'] },
}

/** The CSV columns of each list operation, by operationId. */
const CSV_COLUMNS = new Map(
  [...csvLayouts(ENDPOINTS as readonly Endpoint[])].map(([id, layout]) => [
    (ENDPOINTS as readonly Endpoint[]).find((e) => e.id === id)!.operationId,
    layout.columns,
  ]),
)

const header = (description: string, schema: Json, required = true): Header => ({
  description,
  required,
  schema,
})
const count = { type: 'integer', minimum: 0 }

const ALWAYS: Record<string, Header> = {
  'X-Request-Id': header('The request id: the client value when it sent a sane one, else a generated UUID.', {
    type: 'string',
    pattern: SANE_REQUEST_ID.source,
  }),
  'Cache-Control': header('Always no-store.', { type: 'string', enum: ['no-store'] }),
  'X-Content-Type-Options': header('Always nosniff.', { type: 'string', enum: ['nosniff'] }),
}
const X_CACHE = header('HIT or MISS: whether the body came from the response cache.', {
  type: 'string',
  enum: ['HIT', 'MISS'],
})
const rate = (required: boolean): Record<string, Header> => ({
  'X-RateLimit-Limit': header(
    'Requests allowed per key and window.',
    { type: 'integer', minimum: 1 },
    required,
  ),
  'X-RateLimit-Remaining': header('Requests left in the current window.', count, required),
  'X-RateLimit-Reset': header('Unix epoch second at which the window ends.', count, required),
})
const retryAfter = (required: boolean) => header('Whole seconds to wait before retrying.', count, required)
const WWW_AUTHENTICATE = header('The bearer challenge.', { type: 'string' })
const ETAG = header(
  'Weak validator of the identity body (the same for its gzip and br encodings); send it back in If-None-Match.',
  { type: 'string', pattern: '^W/".+"$' },
)

/**
 * The headers of one response. Every response carries X-Request-Id, Cache-Control and
 * X-Content-Type-Options; every 200 X-Cache. On an API-key operation every answer after the key
 * was accepted carries the X-RateLimit-* headers: required on 200, 400, 403, 404 and 429; a 500 or
 * 503 may come before the key was read. A 429 carries Retry-After, and so does a 503 of an
 * authenticated operation (saturated or shutting down; the health check's own 503 does not).
 */
function headersOf(
  status: string,
  apiKey: boolean,
  authenticated: boolean,
  get: boolean,
): Record<string, Header> {
  const headers: Record<string, Header> = { ...ALWAYS }
  if (status === '200') headers['X-Cache'] = X_CACHE
  if (get && (status === '200' || status === '304')) headers.ETag = ETAG
  if (status === '401') headers['WWW-Authenticate'] = WWW_AUTHENTICATE
  else if (apiKey) Object.assign(headers, rate(['200', '304', '400', '403', '404', '429'].includes(status)))
  if (status === '429') headers['Retry-After'] = retryAfter(true)
  if (status === '503') headers['Retry-After'] = retryAfter(authenticated)
  return headers
}

const DESCRIPTIONS: Record<string, string> = {
  '200': 'Success.',
  '304': 'Not modified: the body has the ETag sent in If-None-Match (no body; counted by the rate limit).',
  '400': 'The request is malformed, or a parameter is missing or invalid; detail names it.',
  '401': 'The bearer token is missing, malformed or revoked.',
  '403': 'API access not enabled for the team or the domain, or the plan lacks sentiment.',
  '404': 'Domain not found: malformed, unknown or not visible to the key.',
  '413': 'The body is larger than the configured limit.',
  '415':
    'The body is not NDJSON (Content-Type application/x-ndjson, application/ndjson or application/jsonl).',
  '429': 'Rate limit exceeded; Retry-After says how many seconds until the window resets.',
  '500': 'Internal server error.',
  '503': 'Unavailable: too many queries in progress, or the service is shutting down.',
}

const schemes = (operation: Operation): Set<string> =>
  new Set((operation.security ?? []).flatMap((requirement) => Object.keys(requirement)))

/**
 * Completes `document` (mutated and returned): request id parameter, response headers and
 * descriptions on every operation, then one component per schema.
 * @example
 * transformObject: (doc) => completeDocument(jsonSchemaTransformObject(doc))
 */
export function completeDocument<T>(document: T): T {
  const doc = document as Document
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const security = schemes(operation)
      const apiKey = security.has(API_KEY_SCHEME)
      const get = method === 'get'
      const added = [REQUEST_ID_PARAMETER, ...(get ? [IF_NONE_MATCH_PARAMETER] : [])]
      const columns = CSV_COLUMNS.get(operation.operationId ?? '')
      const parameters = (operation.parameters ?? []).filter(
        (p) => !added.some((a) => a.name === p.name) && p.name !== FORMAT_PARAMETER.name,
      )
      operation.parameters = [
        ...parameters,
        ...(columns !== undefined ? [structuredClone(FORMAT_PARAMETER)] : []),
        ...structuredClone(added),
      ]
      if (get && operation.responses?.['200'] !== undefined && operation.responses['304'] === undefined)
        operation.responses = { '200': operation.responses['200'], '304': {}, ...operation.responses }
      if (columns !== undefined) {
        const ok = operation.responses!['200']!
        ok.content = {
          ...ok.content,
          'text/csv': {
            schema: {
              type: 'string',
              description: `With format=csv or Accept: text/csv. Columns: ${columns.join(', ')}.`,
            },
          },
        }
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        response.headers = {
          ...response.headers,
          ...structuredClone(headersOf(status, apiKey, security.size > 0, get)),
        }
        const described = DESCRIPTIONS[status]
        if (
          described !== undefined &&
          (response.description === undefined || response.description === 'Default Response')
        ) {
          response.description = described
        }
      }
    }
  }
  dropInputTwins(doc)
  dropUnusedSchemes(doc)
  return document
}

/** Security schemes no operation (nor the document's default) requires. */
function dropUnusedSchemes(doc: Document): void {
  const schemesUsed = new Set((doc.security ?? []).flatMap((r) => Object.keys(r)))
  for (const operations of Object.values(doc.paths ?? {}))
    for (const operation of Object.values(operations)) for (const s of schemes(operation)) schemesUsed.add(s)
  const declared = doc.components?.securitySchemes ?? {}
  for (const name of Object.keys(declared)) if (!schemesUsed.has(name)) delete declared[name]
}

const INPUT_SUFFIX = 'Input'

/** Every `$ref` of `value` to a component schema, by name. */
function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found)
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/'))
        found.add(child.slice('#/components/schemas/'.length))
      else refsIn(child, found)
    }
  }
  return found
}

function replaceRefs(value: unknown, from: string, to: string): void {
  if (Array.isArray(value)) for (const item of value) replaceRefs(item, from, to)
  else if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>
    for (const [key, child] of Object.entries(object)) {
      if (key === '$ref' && child === `#/components/schemas/${from}`)
        object[key] = `#/components/schemas/${to}`
      else replaceRefs(child, from, to)
    }
  }
}

/**
 * fastify-type-provider-zod emits every registered schema twice, as `<id>` (output) and
 * `<id>Input` (input). A twin equal to its output schema is replaced by it; then every component
 * nothing refers to (the paths or another referenced component) is removed: the unused twins, and
 * the bodies of routes this server does not have (the ingest endpoint without an admin token).
 */
function dropInputTwins(doc: Document): void {
  const schemas = doc.components?.schemas
  if (schemas === undefined) return
  for (const name of Object.keys(schemas)) {
    if (!name.endsWith(INPUT_SUFFIX)) continue
    const output = name.slice(0, -INPUT_SUFFIX.length)
    if (output in schemas && JSON.stringify(schemas[name]) === JSON.stringify(schemas[output])) {
      replaceRefs(doc, name, output)
      delete schemas[name]
    }
  }
  // Components reachable from the paths, transitively.
  const reachable = refsIn(doc.paths)
  for (let grew = true; grew;) {
    grew = false
    for (const name of [...reachable]) {
      for (const ref of refsIn(schemas[name])) {
        if (!reachable.has(ref)) {
          reachable.add(ref)
          grew = true
        }
      }
    }
  }
  for (const name of Object.keys(schemas)) {
    if (!reachable.has(name)) delete schemas[name]
  }
}
