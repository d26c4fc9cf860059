/**
 * @module Headers and answers every response shares, whatever produced it: X-Request-Id,
 * Cache-Control, nosniff, X-Cache on 200s; errors mapped in one place (src/http/errors.ts); JSON
 * 404s and 405s answered before authentication; 503 for requests arriving while closing.
 */
import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { DETAIL, type AccessClass } from '../../api/index.js'
import { toErrorAnswer } from '../errors.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How the route checks domains (for the class-specific error mapping). */
    access?: AccessClass
  }
}

const JSON_TYPE = 'application/json; charset=utf-8'

const headers: FastifyPluginAsync = async (app) => {
  // Once close() is called, answers to requests still in flight end their connection, so that
  // keep-alive clients do not hold the server open until the keep-alive timeout.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })

  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    // Every 200 says whether it came from the cache; only report bodies ever do.
    if (reply.statusCode === 200 && !reply.hasHeader('x-cache')) reply.header('x-cache', 'MISS')
    done(null, payload)
  })

  app.setErrorHandler((error, request, reply) => {
    const answer = toErrorAnswer(error, request.routeOptions.config?.access)
    if (answer.fault) request.log.error({ err: error }, 'request failed')
    else if (answer.status >= 500) request.log.warn({ reason: answer.body.detail }, 'request refused')
    for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value)
    reply.removeHeader('x-cache')
    return reply.code(answer.status).type(JSON_TYPE).send(answer.body)
  })

  // Unknown routes answer 404 before any body is parsed; nothing new starts while closing.
  // Callback style (no promise per request); a refusal is sent without calling `done`.
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      return void reply
        .code(503)
        .header('retry-after', '5')
        .type(JSON_TYPE)
        .send({ detail: DETAIL.unavailable })
    }
    if (request.is404) return void reply.code(404).type(JSON_TYPE).send({ detail: DETAIL.notFound })
    done()
  })

  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).type(JSON_TYPE).send({ detail: DETAIL.notFound }),
  )
}

/** Common headers, error mapping, 404 and closing behaviour, for the whole server. */
export const headersPlugin = fp(headers, { name: 'va-headers' })

/**
 * The 405 route for the other methods on `url`, answered before any body is read. HEAD is
 * allowed wherever GET is (Fastify's exposeHeadRoutes answers it).
 * @example
 * app.route(methodNotAllowed(app, '/healthz', 'GET'))
 */
export function methodNotAllowed(app: FastifyInstance, url: string, allow: string | string[]): RouteOptions {
  const given = Array.isArray(allow) ? allow : [allow]
  const allowed = given.includes('GET') && !given.includes('HEAD') ? [...given, 'HEAD'] : given
  return {
    method: app.supportedMethods.filter((method) => !allowed.includes(method)),
    url,
    schema: { hide: true },
    onRequest: async (_request, reply) =>
      reply.code(405).header('allow', allowed.join(', ')).send({ detail: DETAIL.methodNotAllowed }),
    handler: async () => undefined,
  }
}
