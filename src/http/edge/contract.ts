/**
 * @module The response contract on every path: whatever answers a request (a route, a hook, the
 * error handler, Fastify's router for a malformed URL, or Node's parser for a malformed request or
 * a timeout), the response carries X-Request-Id, `Cache-Control: no-store`,
 * `X-Content-Type-Options: nosniff` and a `{"detail"}` JSON body that echoes nothing the client sent.
 */
import { randomUUID } from 'node:crypto'
import { METHODS, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify'
import { clientDetail, toErrorAnswer } from '../errors.js'
import { looksLikeKey } from './logging.js'

export const JSON_TYPE = 'application/json; charset=utf-8'

/** Headers of every response besides X-Request-Id. */
export const CONTRACT_HEADERS = Object.freeze({
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
})

/** Details of the edge's own refusals (status-generic ones come from `clientDetail`). */
export const EDGE_DETAIL = {
  hostRequired: 'Bad request: an HTTP/1.1 request must carry a Host header.',
} as const

/** The request ids echoed (unless shaped like an API key): 1-128 characters of this set. */
export const SANE_REQUEST_ID = /^[A-Za-z0-9._:/+=-]{1,128}$/

/**
 * Fastify's `genReqId`: the client's X-Request-Id when it is 1-128 characters of
 * `[A-Za-z0-9._:/+=-]` and not shaped like an API key (it is echoed and logged), else a new UUID.
 * @example
 * Fastify({ requestIdHeader: false, genReqId: requestIdOf })
 */
export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers['x-request-id']
  return typeof sent === 'string' && SANE_REQUEST_ID.test(sent) && !looksLikeKey(sent) ? sent : randomUUID()
}

/** Node's parser and timeout errors, by code, and the status they answer. */
const CLIENT_ERROR_STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
}

/**
 * A complete HTTP/1.1 response that closes the connection, for answers written on a bare socket.
 * @example
 * socket.write(rawResponse(431, randomUUID()))
 */
export function rawResponse(status: number, requestId: string): Buffer {
  const body = JSON.stringify({ detail: clientDetail(status) })
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    `content-type: ${JSON_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    ...Object.entries(CONTRACT_HEADERS).map(([name, value]) => `${name}: ${value}`),
    `date: ${new Date().toUTCString()}`,
    'connection: close',
  ]
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${body}`, 'latin1')
}

/**
 * Fastify's `clientErrorHandler`: a request Node's parser refused (conflicting Content-Length and
 * Transfer-Encoding, headers over the size limit, bad syntax) or that did not arrive within the
 * headers or request timeout. Answers the documented JSON when nothing of another response is on
 * the wire yet, logs the error code (never the raw bytes), and closes the connection.
 * @example
 * Fastify({ clientErrorHandler: handleClientError })
 */
export function handleClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return
  refuseOnSocket(socket, CLIENT_ERROR_STATUS[error.code ?? ''] ?? 400, error.code ?? 'unknown', this.log)
}

/**
 * Answers `status` on a bare socket unless another response has started on it, logs why, and
 * closes the connection.
 * @example
 * server.on('timeout', (socket) => refuseOnSocket(socket, 408, 'idle timeout', log))
 */
export function refuseOnSocket(socket: Socket, status: number, code: string, log: FastifyBaseLogger): void {
  if (socket.destroyed) return
  const reqId = randomUUID()
  log.info({ reqId, code, status, remoteAddress: socket.remoteAddress }, 'client error')
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
  if (socket.writable && (inFlight == null || !inFlight.headersSent)) socket.write(rawResponse(status, reqId))
  socket.destroy()
}

/** Sets the contract headers and sends `{"detail"}` (for replies that bypass the route hooks). */
function sendDetail(reply: FastifyReply, requestId: string, status: number, detail: string): FastifyReply {
  return reply
    .code(status)
    .headers({ ...CONTRACT_HEADERS, 'x-request-id': requestId, 'content-type': JSON_TYPE })
    .send(JSON.stringify({ detail }))
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route or hook runs (a URL that
 * is not valid percent-encoding). Same JSON and headers as every other 400.
 * @example
 * Fastify({ frameworkErrors: handleFrameworkError })
 */
export const handleFrameworkError: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error,
  request,
  reply,
) => {
  const answer = toErrorAnswer(error)
  request.log.info({ code: error.code, status: answer.status }, 'request refused by the router')
  sendDetail(reply, request.id, answer.status, answer.body.detail)
}

/** Whether the request announced a body that has not been read to its end. */
function hasUnreadBody(request: FastifyRequest): boolean {
  const { headers, complete, readableEnded } = request.raw
  const announced =
    headers['transfer-encoding'] !== undefined ||
    (headers['content-length'] !== undefined && headers['content-length'] !== '0')
  return announced && !complete && !readableEnded
}

/**
 * The hooks of the contract, on the root instance before any route: every HTTP method is known to
 * the router (so another method on a known path is a 405, never a 404); HTTP/1.1 without Host is a
 * 400 and an Expect other than 100-continue a 417, both answered here instead of by Node; every
 * response gets the contract headers; a response sent before the request body was read closes the
 * connection rather than draining the rest of the body.
 * @example
 * const app = Fastify(options); installContract(app)
 */
export function installContract(app: FastifyInstance): void {
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method))
      app.addHttpMethod(method, { hasBody: true })
  }

  // Callback style (no promise per request); a refusal is sent without calling `done`.
  app.addHook('onRequest', (request, reply, done) => {
    const { raw } = request
    if (raw.httpVersionMajor === 1 && raw.httpVersionMinor === 1 && request.headers.host === undefined)
      return void reply.code(400).type(JSON_TYPE).send({ detail: EDGE_DETAIL.hostRequired })
    const expect = request.headers.expect
    if (expect !== undefined && !/^\s*100-continue\s*$/i.test(expect))
      return void reply
        .code(417)
        .type(JSON_TYPE)
        .send({ detail: clientDetail(417) })
    done()
  })

  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id)
    reply.headers(CONTRACT_HEADERS)
    if (hasUnreadBody(request)) reply.header('connection', 'close')
    done(null, payload)
  })
}
