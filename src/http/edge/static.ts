/**
 * @module Documents that never change while the server runs (the OpenAPI document) are
 * serialized once: every answer sends the same Buffer, so many requests for them, answered or
 * still queued, share one copy instead of each holding its own.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { JSON_TYPE } from './contract.js'

/**
 * A route handler that answers `build()` as JSON, serialized on first use and reused.
 * @example
 * app.get('/api/v1/openapi.json', staticJson(() => app.swagger()))
 */
export function staticJson(
  build: () => unknown,
): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  let body: Buffer | undefined
  return async (_request, reply) => {
    body ??= Buffer.from(JSON.stringify(build()), 'utf8')
    return reply.type(JSON_TYPE).send(body)
  }
}
