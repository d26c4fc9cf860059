/**
 * Completes the generated OpenAPI document with what route schemas cannot say (docs/API.md,
 * "Headers"): the optional `X-Request-Id` request header of every operation, the response headers
 * (marked required where every such response carries them), the response descriptions, and one
 * component per schema (zod's input twins of the output schemas are dropped when nothing refers to
 * them, and a referenced twin equal to its output schema is replaced by it).
 */
import { SANE_REQUEST_ID } from './edge/index.js'

type Json = Record<string, unknown>
type Header = { description: string; required: boolean; schema: Json }
type ResponseObject = { description?: string; headers?: Record<string, Header> }
type Parameter = { name: string; in: string }
type Operation = {
  security?: Array<Record<string, unknown>>
  parameters?: Parameter[]
  responses?: Record<string, ResponseObject>
}
type Document = {
  paths?: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, unknown> }
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

/**
 * The headers of one response. Every response carries X-Request-Id, Cache-Control and
 * X-Content-Type-Options; every 200 X-Cache. On an API-key operation every answer after the key
 * was accepted carries the X-RateLimit-* headers: required on 200, 400, 403, 404 and 429; a 500 or
 * 503 may come before the key was read. A 429 carries Retry-After, and so does a 503 of an
 * authenticated operation (saturated or shutting down; the health check's own 503 does not).
 */
function headersOf(status: string, apiKey: boolean, authenticated: boolean): Record<string, Header> {
  const headers: Record<string, Header> = { ...ALWAYS }
  if (status === '200') headers['X-Cache'] = X_CACHE
  if (status === '401') headers['WWW-Authenticate'] = WWW_AUTHENTICATE
  else if (apiKey) Object.assign(headers, rate(['200', '400', '403', '404', '429'].includes(status)))
  if (status === '429') headers['Retry-After'] = retryAfter(true)
  if (status === '503') headers['Retry-After'] = retryAfter(authenticated)
  return headers
}

const DESCRIPTIONS: Record<string, string> = {
  '200': 'Success.',
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
    for (const operation of Object.values(operations)) {
      const security = schemes(operation)
      const apiKey = security.has(API_KEY_SCHEME)
      const parameters = (operation.parameters ?? []).filter((p) => p.name !== REQUEST_ID_PARAMETER.name)
      operation.parameters = [...parameters, structuredClone(REQUEST_ID_PARAMETER)]
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        response.headers = {
          ...response.headers,
          ...structuredClone(headersOf(status, apiKey, security.size > 0)),
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
  return document
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
 * `<id>Input` (input). A twin equal to its output schema is replaced by it; a twin that nothing
 * refers to (the paths or another referenced component) is removed.
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
    if (name.endsWith(INPUT_SUFFIX) && !reachable.has(name)) delete schemas[name]
  }
}
