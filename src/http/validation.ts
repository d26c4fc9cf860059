/**
 * @module The routes' validator compiler: fastify-type-provider-zod's, with the result of a valid
 * query string remembered per route. A query string as parsed holds only strings and lists of
 * strings, so its JSON text stands for it exactly; the schemas are pure (no clock, no I/O), so the
 * same parsed query always validates to the same values. A remembered result is those values
 * (frozen: requests share them), never the raw input; an invalid query is validated every time
 * (its 400 names its first issue, as before).
 */
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify'
import { validatorCompiler } from 'fastify-type-provider-zod'
import { LRUCache } from 'lru-cache'

/** Valid query strings remembered per route (the least recently used go first). */
export const REMEMBERED_QUERIES = 1024

/** What zod's compiled validators return: the parsed values, or the error. */
type Result = { value?: unknown; error?: Error | FastifySchemaValidationError[] }
type Validate = (data: unknown) => Result

/** Freezes `value` and everything it holds (validated values: plain objects, arrays, scalars). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) deepFreeze(inner)
  }
  return value
}

/**
 * `validate` of a query string with its valid results remembered, keyed by the parsed query's JSON.
 * @example
 * const check = rememberingQueries(validatorCompiler({ schema, method, url, httpPart: 'querystring' }))
 */
export function rememberingQueries(validate: Validate, size = REMEMBERED_QUERIES): Validate {
  const known = new LRUCache<string, Result>({ max: size })
  return (data) => {
    const text = JSON.stringify(data)
    const hit = known.get(text)
    if (hit !== undefined) return hit
    const result = validate(data)
    if (result.error === undefined) known.set(text, { value: deepFreeze(result.value) })
    return result
  }
}

/**
 * The validator compiler of the service: zod's, remembering valid query strings.
 * @example
 * app.setValidatorCompiler(serviceValidatorCompiler)
 */
export const serviceValidatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
  const validate = validatorCompiler(route as Parameters<typeof validatorCompiler>[0]) as Validate
  return route.httpPart === 'querystring' ? rememberingQueries(validate) : validate
}
