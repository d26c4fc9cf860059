/**
 * @module What a request log line says about the request: method, a URL that cannot carry a
 * secret, and the peer. No header is logged (Authorization, cookies, Host and the rest can all
 * carry a key). In the URL, the query keeps only the parameters the route defines, with values of
 * the shape parameters have; everything else is counted, not written. Key-shaped text
 * (`va_<word>_...`, also percent-encoded) in the path is masked.
 */
import type { FastifyRequest } from 'fastify'

/**
 * A value that may be logged as-is: the shape of ids, integers and model names. It has no `_`,
 * which every key has (`va_live_`).
 */
const PLAIN_VALUE = /^[A-Za-z0-9.:/@+-]{1,100}$/
/** An API key (or the start of one), in any case. */
const KEY_LIKE = /va_[a-z]+_[A-Za-z0-9_-]*/gi

/**
 * Whether `text` contains something shaped like an API key (`va_live_...`, any case).
 * @example
 * looksLikeKey('va_live_abc') // true
 */
export function looksLikeKey(text: string): boolean {
  return text.search(KEY_LIKE) !== -1
}
const MAX_PATH = 200

/** Decodes each run of valid %XX escapes, leaving invalid ones as they are. */
function decodeLoosely(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  })
}

/** The parameter names a route's zod querystring schema defines. */
function routeParameters(request: FastifyRequest): ReadonlySet<string> {
  const schema = request.routeOptions?.schema?.querystring as { shape?: Record<string, unknown> } | undefined
  return new Set(schema?.shape === undefined ? [] : Object.keys(schema.shape))
}

/**
 * The URL of a request as the logs show it.
 * @example
 * loggableUrl('/api/v1/domains?api_key=va_live_abc&days=7', new Set(['days']))
 * // '/api/v1/domains?days=7&(1 other parameter)'
 */
export function loggableUrl(url: string, parameters: ReadonlySet<string>): string {
  const mark = url.indexOf('?')
  const rawPath = mark === -1 ? url : url.slice(0, mark)
  let path = decodeLoosely(rawPath).replace(KEY_LIKE, 'va_[redacted]')
  if (path.length > MAX_PATH) path = `${path.slice(0, MAX_PATH)}...`
  if (mark === -1) return path
  const kept: string[] = []
  let others = 0
  for (const [name, value] of new URLSearchParams(url.slice(mark + 1))) {
    if (parameters.has(name) && PLAIN_VALUE.test(value)) kept.push(`${name}=${value}`)
    else others += 1
  }
  if (others > 0) kept.push(`(${others} other parameter${others === 1 ? '' : 's'})`)
  return `${path}?${kept.join('&')}`
}

/**
 * pino serializer of `req` (Fastify logs it on the "incoming request" line).
 * @example
 * Fastify({ logger: { serializers: { req: serializeRequest } } })
 */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: loggableUrl(request.url, routeParameters(request)),
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }
}
