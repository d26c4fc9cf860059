/**
 * @module The Streamable HTTP side of the MCP server, without a web framework: sessions (one
 * `McpServer` and one SDK transport each, in JSON response mode, owned by the API key that opened
 * them and bounded by src/mcp/sessions.ts), the JSON-RPC messages a POST body carries (so that
 * the HTTP layer counts each against the rate limit before any is answered), the Origin and Host
 * rules, and the guarantees the SDK's transport does not give on its own: every request ends (a
 * deadline; an answer when its session closes under it; the session freed when its client hangs
 * up) and a JSON-RPC id is answered once (a request reusing the id of one in flight on its
 * session is refused, where the transport would route both answers to the newer request and
 * leave the older waiting forever). The HTTP service's plugin (src/http/plugins/mcp.ts)
 * authenticates, counts, and relays web Requests and Responses.
 */
import { randomUUID } from 'node:crypto'
import { setMaxListeners } from 'node:events'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  ErrorCode,
  isInitializeRequest,
  isJSONRPCNotification,
  isJSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'
import { DETAIL } from '../api/index.js'
import { createMcpServer, type ToolBackend, type ToolCallExtra } from './server.js'
import { SessionStore, type McpSessionOptions } from './sessions.js'

/** The path of the MCP endpoint on the API server. */
export const MCP_PATH = '/mcp'

/** The methods `/mcp` answers (GET: no server-initiated stream is offered, so 405). */
export const MCP_METHODS = ['POST', 'DELETE'] as const

/** Most JSON-RPC messages one POST may carry (the SDK transport's own bound). */
export const MAX_MESSAGES_PER_POST = 100

/** The messages of `/mcp` refusals of its own (the REST ones are in DETAIL). */
export const MCP_DETAIL = {
  originNotAllowed: 'Origin not allowed.',
  hostNotAllowed: 'Host not allowed.',
  sessionRequired: 'Bad Request: Mcp-Session-Id header is required',
  sessionNotFound: 'Session not found',
  sessionClosed: 'Session closed before the answer was ready: open a new session.',
  tooManyMessages: `Invalid Request: a POST carries at most ${MAX_MESSAGES_PER_POST} messages.`,
  idInUse: (id: RequestId) =>
    `Invalid Request: id ${JSON.stringify(id)} is already in use by a request of this session that has not been answered yet; use a new id.`,
  timedOut: (ms: number) =>
    `No answer within ${ms / 1000} seconds: the request was cancelled and its session closed. Please try again.`,
} as const

/**
 * The JSON-RPC messages of a POST body (a batch is an array; anything else is one message).
 * @example
 * jsonRpcMessages([{ jsonrpc: '2.0', id: 1, method: 'ping' }]).length // 1
 */
export function jsonRpcMessages(body: unknown): unknown[] {
  return Array.isArray(body) ? (body as unknown[]) : [body]
}

/**
 * Whether a message is a `tools/call` request (whose refusals are tool errors, not HTTP errors).
 * @example
 * isToolCall({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_domains' } }) // true
 */
export function isToolCall(message: unknown): boolean {
  return isJSONRPCRequest(message) && message.method === 'tools/call'
}

/** The ids of the requests (not notifications) in a POST body, in order. */
function requestIds(messages: readonly unknown[]): RequestId[] {
  return messages.flatMap((m) => (isJSONRPCRequest(m) ? [m.id] : []))
}

/**
 * What a transport of one HTTP request hands to the tool handlers of its calls (through the
 * SDK's auth info): read it back with {@link callContextOf}.
 */
const CONTEXT_KEY = 'visibilityCall'

/**
 * The per-request context a handler's call was made with (what `handle` got as `context`).
 * @example
 * const call = callContextOf<HttpCall>(extra)
 */
export function callContextOf<C>(extra: ToolCallExtra): C | undefined {
  return extra.authInfo?.extra?.[CONTEXT_KEY] as C | undefined
}

/**
 * A JSON-RPC error answer: `message` is the REST detail where there is one; `id` the request's
 * (null when the body held no single request).
 * @example
 * mcpError(429, DETAIL.tooManyRequests, { id: 3, headers: { 'retry-after': '12' } })
 */
export function mcpError(
  status: number,
  message: string,
  options: { id?: RequestId | null; code?: number; headers?: Record<string, string> } = {},
): Response {
  const error = { code: options.code ?? -32000, message }
  const body = JSON.stringify({ jsonrpc: '2.0', error, id: options.id ?? null })
  return new Response(body, {
    status,
    headers: { 'content-type': 'application/json', ...options.headers },
  })
}

/** The id to answer a refused body with: its request's, when it holds exactly one message. */
export function singleId(body: unknown): RequestId | null {
  const messages = jsonRpcMessages(body)
  return messages.length === 1 && isJSONRPCRequest(messages[0]) ? messages[0].id : null
}

/** Which browser pages and Host names may use `/mcp` (DNS-rebinding protection). */
export interface McpOriginOptions {
  /**
   * Origins (`scheme://host[:port]`) whose requests are accepted, or '*' for any; default: the
   * loopback ones (localhost, 127.0.0.1, [::1], any port). A request without Origin (a client
   * that is not a browser) is always accepted.
   */
  allowedOrigins?: readonly string[] | '*' | undefined
  /** Host header names (without port; IPv6 in brackets) accepted, or '*' (default) for any. */
  allowedHosts?: readonly string[] | '*' | undefined
}

/** Options of the `/mcp` endpoint: the session bounds, the request deadline, Origin and Host. */
export type McpHttpOptions = McpSessionOptions & McpOriginOptions

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]']

/**
 * The origin of an Origin header value (lower-case scheme and host, default port dropped); null
 * when it is not an http(s) origin (`null`, a path, credentials...).
 * @example
 * parseOrigin('HTTPS://App.Example.com:443') // 'https://app.example.com'
 */
export function parseOrigin(value: string): string | null {
  try {
    const url = new URL(value)
    const bare = url.username === '' && url.password === '' && url.pathname === '/' && url.search === ''
    if (!['http:', 'https:'].includes(url.protocol) || !bare || url.hash !== '') return null
    return url.origin
  } catch {
    return null
  }
}

function hostnameOf(host: string): string | null {
  try {
    return new URL(`http://${host}`).hostname
  } catch {
    return null
  }
}

/**
 * Why `/mcp` refuses a request's Origin or Host (403 with this detail), or null. The MCP spec's
 * DNS-rebinding guidance: a web page on another origin must not reach the server through the
 * user's browser, whatever name its host resolves to.
 * @example
 * originRefusal({ origin: 'https://evil.example', host: '127.0.0.1:8787' }, {}) // 'Origin not allowed.'
 * originRefusal({ host: '127.0.0.1:8787' }, {}) // null: no Origin, not a browser
 */
export function originRefusal(
  headers: { origin?: string | undefined; host?: string | undefined },
  options: McpOriginOptions,
): string | null {
  const hosts = options.allowedHosts ?? '*'
  if (hosts !== '*') {
    const hostname = headers.host === undefined ? null : hostnameOf(headers.host)
    if (hostname === null || !hosts.includes(hostname)) return MCP_DETAIL.hostNotAllowed
  }
  if (headers.origin === undefined) return null
  const origins = options.allowedOrigins
  if (origins === '*') return null
  const origin = parseOrigin(headers.origin)
  if (origin === null) return MCP_DETAIL.originNotAllowed
  const allowed =
    origins === undefined ? LOOPBACK_HOSTS.includes(new URL(origin).hostname) : origins.includes(origin)
  return allowed ? null : MCP_DETAIL.originNotAllowed
}

/** What a request hands to the SDK transport. */
type HandleOptions = NonNullable<Parameters<WebStandardStreamableHTTPServerTransport['handleRequest']>[1]>

/** One open session: its server and transport, and the ids of the requests it is answering. */
class HttpSession {
  readonly server: Server
  readonly transport: WebStandardStreamableHTTPServerTransport
  /** Ids of the requests this session is answering: a second request with one is refused. */
  readonly inFlight = new Set<RequestId>()
  /** Aborted when the session closes, whatever closed it (DELETE, eviction, expiry, deadline). */
  readonly #closed = new AbortController()

  constructor(backend: ToolBackend, onOpen: (id: string) => void, onClose: (id: string) => void) {
    this.server = createMcpServer(backend)
    this.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: onOpen,
      onsessionclosed: onClose,
    })
    // Every request of the session in flight listens to it.
    setMaxListeners(0, this.#closed.signal)
    this.server.onclose = () => this.#closed.abort()
  }

  get closed(): AbortSignal {
    return this.#closed.signal
  }

  async close(): Promise<void> {
    await this.server.close()
  }
}

/** One HTTP request to `/mcp`, as the web framework hands it over. */
export interface McpHttpRequest {
  /** The web Request (method, headers, URL); its body is already parsed into `body`. */
  request: Request
  body: unknown
  /** The id of the API key that sent it: sessions belong to one key. */
  owner: string
  /** Handed to the tool handlers of the request's calls ({@link callContextOf}). */
  context: unknown
  /** Aborted when the client hangs up: the request stops waiting and its session is released. */
  signal?: AbortSignal | undefined
}

/** The status of the answer to a request whose client hung up (nginx's "client closed request"). */
export const CLIENT_GONE_STATUS = 499

/**
 * The MCP sessions of one HTTP service.
 * @example
 * const mcp = new McpHttpSessions(backend, { maxSessions: 100 })
 * const response = await mcp.handle({ request, body, owner: key.id, context })
 */
export class McpHttpSessions {
  readonly store: SessionStore<HttpSession>
  readonly #backend: ToolBackend

  constructor(backend: ToolBackend, options: McpSessionOptions = {}, clock: () => number = Date.now) {
    this.#backend = backend
    this.store = new SessionStore<HttpSession>(options, clock)
  }

  /** Answers one request to `/mcp` (after the caller's checks: key, rate limit, key team). */
  async handle(input: McpHttpRequest): Promise<Response> {
    const { request, owner, context, signal } = input
    if (!(MCP_METHODS as readonly string[]).includes(request.method)) {
      return mcpError(405, DETAIL.methodNotAllowed, { headers: { allow: MCP_METHODS.join(', ') } })
    }
    // Cancellations are accepted and not acted on: every tool is a short read, and a cancelled
    // request would never be answered (its POST left waiting until the deadline).
    const messages = jsonRpcMessages(input.body).filter(
      (m) => !(isJSONRPCNotification(m) && m.method === 'notifications/cancelled'),
    )
    const body = Array.isArray(input.body) ? messages : messages[0]
    const options: HandleOptions = {
      parsedBody: body,
      authInfo: { token: '', clientId: owner, scopes: [], extra: { [CONTEXT_KEY]: context } },
    }
    const sessionId = request.headers.get('mcp-session-id')
    if (sessionId !== null) {
      const session = this.store.acquire(sessionId, owner)
      if (session === null) return mcpError(404, MCP_DETAIL.sessionNotFound, { code: -32001 })
      try {
        // DELETE closes the session itself: nothing to wait for but the transport.
        if (request.method === 'DELETE') return await session.transport.handleRequest(request, options)
        if (request.method === 'POST' && messages.length === 0) return new Response(null, { status: 202 })
        return await this.#answer(session, request, options, messages, signal)
      } finally {
        this.store.release(sessionId)
      }
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      return mcpError(400, MCP_DETAIL.sessionRequired)
    }
    if (!this.store.makeRoom(owner)) return mcpError(503, DETAIL.busy, { headers: { 'retry-after': '1' } })
    const session: HttpSession = new HttpSession(
      this.#backend,
      (id) => this.store.add(id, owner, session),
      (id) => this.store.delete(id),
    )
    await session.server.connect(session.transport)
    const response = await this.#answer(session, request, options, messages, signal)
    if (session.transport.sessionId === undefined || response.status !== 200) {
      if (session.transport.sessionId !== undefined) this.store.delete(session.transport.sessionId)
      await session.close()
    }
    return response
  }

  /**
   * The transport's answer to a POST, unless an id of it is in flight already (409), the session
   * closes first (404), the deadline passes (503; the session is closed, freeing whatever the
   * request held) or the client hangs up (no one reads the answer; the session is released).
   */
  async #answer(
    session: HttpSession,
    request: Request,
    options: HandleOptions,
    messages: readonly unknown[],
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    const ids = requestIds(messages)
    const reused = ids.find((id, i) => session.inFlight.has(id) || ids.indexOf(id) !== i)
    if (reused !== undefined) {
      return mcpError(409, MCP_DETAIL.idInUse(reused), { id: reused, code: ErrorCode.InvalidRequest })
    }
    const id = ids.length === 1 ? ids[0]! : null
    const timeoutMs = this.store.options.requestTimeoutMs
    for (const i of ids) session.inFlight.add(i)
    const answered = session.transport.handleRequest(request, options)
    const settle = () => {
      for (const i of ids) session.inFlight.delete(i)
    }
    answered.then(settle, settle)
    return new Promise<Response>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer)
        session.closed.removeEventListener('abort', onClosed)
        signal?.removeEventListener('abort', onGone)
      }
      const done = (response: Response) => {
        cleanup()
        resolve(response)
      }
      const onClosed = () => done(mcpError(404, MCP_DETAIL.sessionClosed, { id, code: -32001 }))
      const onGone = () => done(new Response(null, { status: CLIENT_GONE_STATUS }))
      const timer = setTimeout(() => {
        done(mcpError(503, MCP_DETAIL.timedOut(timeoutMs), { id, headers: { 'retry-after': '1' } }))
        if (session.transport.sessionId !== undefined) this.store.delete(session.transport.sessionId)
        void session.close()
      }, timeoutMs)
      session.closed.addEventListener('abort', onClosed, { once: true })
      signal?.addEventListener('abort', onGone, { once: true })
      if (session.closed.aborted) onClosed()
      else if (signal?.aborted === true) onGone()
      answered.then(done, (error: unknown) => {
        cleanup()
        reject(error instanceof Error ? error : new Error(String(error)))
      })
    })
  }

  /** Closes every session (when the server closes). */
  closeAll(): Promise<void> {
    return this.store.closeAll()
  }
}
