/**
 * @module The HTTP server under Fastify (its `serverFactory`): Node's own limits and timeouts set
 * from EdgeOptions, plus the two things Node does not bound by itself.
 *
 * - Pipelining: Node parses every request of a received chunk (about 1 400 small requests in
 *   64 KiB) before any answer is written, so a client that pipelines without reading could make
 *   the server hold thousands of requests and answers per connection. Here a connection with more
 *   than `maxPipelined` requests not yet answered (an answer counts until it is handed to the
 *   kernel, so a client that does not read keeps its answers counted) is closed, and requests
 *   parsed after that are dropped unseen.
 * - Connection cap: beyond `maxConnections` the connection that has waited longest on its client
 *   (idle keep-alive, headers or body still arriving, or answers it does not read) is closed to
 *   make room, so clients that hold connections open cannot lock out the ones that send requests.
 *   Connections whose request the server is still working on are never chosen; if every one is,
 *   the new connection is closed. Node's `maxConnections` (64 above the cap: its count lags behind
 *   closes made here) stays as a backstop.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyBaseLogger, FastifyServerFactory, FastifyServerFactoryHandler } from 'fastify'
import { refuseOnSocket } from './contract.js'
import type { EdgeOptions } from './options.js'

interface Connection {
  /** Requests received and not yet answered (an answer counts until it is flushed). */
  pending: number
  /** Requests received. */
  received: number
  /** The latest request. */
  request: IncomingMessage | undefined
  /** Since when the connection has been waiting on its client (ms, monotonic). */
  waitingSince: number
  /** Set once the edge closed it: requests parsed later are dropped. */
  cut: boolean
}

/**
 * Node keeps parsing the rest of the chunk it is in when a connection is closed, and for every
 * request parsed it builds a response object and, at close, an error with a stack trace: about
 * 20 ms of work per 64 KiB of small pipelined requests, most of the cost of a pipelining flood.
 * Replacing the parser's request callback (Node 20's `socket.parser.onIncoming`; nothing is done
 * when it is not there) leaves only the parsing itself.
 */
function dropRestOfChunk(socket: Socket): void {
  const parser = (socket as Socket & { parser?: { onIncoming?: unknown } | null }).parser
  if (parser != null && typeof parser.onIncoming === 'function') parser.onIncoming = () => 0
}

/** Whether the connection waits on its client rather than on the server. */
function waitsOnClient(socket: Socket, c: Connection): boolean {
  if (c.pending === 0) return true
  if (c.request !== undefined && !c.request.complete) return true
  return socket.writableNeedDrain
}

/**
 * The server factory for Fastify's `serverFactory` option.
 * @example
 * Fastify({ serverFactory: edgeServerFactory(resolveEdgeOptions()) })
 */
export function edgeServerFactory(options: EdgeOptions): FastifyServerFactory {
  return (handler, fastifyOptions) => {
    const log = fastifyOptions.logger as FastifyBaseLogger
    const connections = new Map<Socket, Connection>()
    const now = () => performance.now()

    const dispatch: FastifyServerFactoryHandler = (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket
      const c = connections.get(socket)
      if (c === undefined || c.cut || socket.destroyed) return
      c.pending += 1
      c.received += 1
      c.request = req
      c.waitingSince = now()
      if (c.pending > options.maxPipelined) {
        c.cut = true
        log.warn(
          { remoteAddress: socket.remoteAddress, pending: c.pending },
          'connection closed: too many pipelined requests waiting for their answers',
        )
        dropRestOfChunk(socket)
        socket.destroy()
        return
      }
      // Node only says `Connection: close` on the last answer and keeps the connection open;
      // set by hand, the header makes Node close it once the answer is sent.
      if (c.received === options.maxRequestsPerSocket) res.setHeader('connection', 'close')
      res.once('close', () => {
        c.pending -= 1
        if (c.pending === 0) c.waitingSince = now()
      })
      handler(req, res)
    }

    const server: Server = createServer(
      {
        maxHeaderSize: options.maxHeaderBytes,
        headersTimeout: options.headersTimeoutMs,
        requestTimeout: options.requestTimeoutMs,
        // How often Node checks the two timeouts above (their precision).
        connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(options.headersTimeoutMs / 4))),
        // Answered by the contract hook (JSON with the usual headers) instead of Node's bare 400.
        requireHostHeader: false,
      },
      dispatch,
    )
    server.keepAliveTimeout = options.keepAliveTimeoutMs
    // No traffic either way for idleTimeoutMs. While the server works on a complete request the
    // connection is kept; a body that stopped arriving is answered 408; anything else (an idle
    // keep-alive connection, a client that does not read its answer) is closed.
    server.setTimeout(options.idleTimeoutMs)
    server.on('timeout', (socket: Socket) => {
      const c = connections.get(socket)
      if (c !== undefined && c.pending > 0 && !waitsOnClient(socket, c))
        socket.setTimeout(options.idleTimeoutMs)
      else if (c !== undefined && c.pending > 0 && c.request?.complete === false)
        refuseOnSocket(socket, 408, 'idle timeout', log)
      else socket.destroy()
    })
    server.maxRequestsPerSocket = options.maxRequestsPerSocket
    server.maxConnections = options.maxConnections + 64
    // No automatic "100 Continue": the ingest route sends it once the token and headers passed.
    server.on('checkContinue', dispatch)
    // Answered 417 by the contract hook instead of Node's bare one.
    server.on('checkExpectation', dispatch)
    // A pipelined request beyond maxRequestsPerSocket: Node would answer a bare 503.
    server.on('dropRequest', (_req: IncomingMessage, socket: Socket) => {
      const c = connections.get(socket)
      if (c !== undefined) c.cut = true
      dropRestOfChunk(socket)
      socket.destroy()
    })

    server.on('connection', (socket: Socket) => {
      connections.set(socket, {
        pending: 0,
        received: 0,
        request: undefined,
        waitingSince: now(),
        cut: false,
      })
      socket.once('close', () => connections.delete(socket))
      if (connections.size <= options.maxConnections) return
      let victim: Socket | undefined
      let oldest = Infinity
      for (const [other, c] of connections) {
        if (other !== socket && !c.cut && c.waitingSince < oldest && waitsOnClient(other, c)) {
          victim = other
          oldest = c.waitingSince
        }
      }
      if (victim !== undefined) {
        log.info({ remoteAddress: victim.remoteAddress }, 'connection closed to make room: connection limit')
        connections.get(victim)!.cut = true
        victim.destroy()
      } else {
        log.warn({ remoteAddress: socket.remoteAddress }, 'connection refused: connection limit')
        connections.get(socket)!.cut = true
        socket.destroy()
      }
    })
    return server
  }
}
