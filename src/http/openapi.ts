/**
 * Completes the generated OpenAPI document with what route schemas cannot say: the response
 * headers (docs/API.md, "Headers").
 */

type Header = { description: string; schema: Record<string, unknown> }
type ResponseObject = { description?: string; headers?: Record<string, Header> }
type Operation = { security?: unknown[]; responses?: Record<string, ResponseObject> }
type Document = { paths?: Record<string, Record<string, Operation>> }

const COMMON: Record<string, Header> = {
  'X-Request-Id': {
    description: 'The request id: the client value when it sent a sane one, else a generated UUID.',
    schema: { type: 'string' },
  },
  'Cache-Control': { description: 'Always no-store.', schema: { type: 'string' } },
}
const RATE: Record<string, Header> = {
  'X-RateLimit-Limit': { description: 'Requests allowed per key and window.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Unix epoch second at which the window ends.',
    schema: { type: 'integer' },
  },
}
const DESCRIPTIONS: Record<string, string> = {
  '200': 'Success.',
  '400': 'A parameter is missing or invalid; detail names it.',
  '401': 'API key missing, malformed or revoked.',
  '403': 'API access not enabled for the team or the domain, or the plan lacks sentiment.',
  '404': 'Domain not found (sentiment endpoints: malformed, unknown or not visible to the key).',
  '429': 'Rate limit exceeded; Retry-After says how many seconds until the window resets.',
  '500': 'Internal server error.',
  '503': 'Too many queries in progress; retry after Retry-After seconds.',
}

/**
 * Adds response headers and descriptions to every operation of `document` (mutated and returned).
 * @example
 * transformObject: (doc) => addResponseHeadersToDocument(jsonSchemaTransformObject(doc))
 */
export function addResponseHeadersToDocument<T>(document: T): T {
  const paths = (document as Document).paths ?? {}
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      const authenticated = Array.isArray(operation.security) && operation.security.length > 0
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const headers: Record<string, Header> = { ...COMMON }
        if (authenticated && status !== '401') Object.assign(headers, RATE)
        if (status === '200' && authenticated) {
          headers['X-Cache'] = {
            description: 'HIT or MISS: whether the body came from the cache.',
            schema: { type: 'string', enum: ['HIT', 'MISS'] },
          }
        }
        if (status === '429' || status === '503') {
          headers['Retry-After'] = { description: 'Whole seconds to wait.', schema: { type: 'integer' } }
        }
        response.headers = { ...response.headers, ...headers }
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
  return document
}
