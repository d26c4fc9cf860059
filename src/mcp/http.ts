/**
 * @module The Streamable HTTP side of the MCP server, without a web framework: sessions (one
 * `McpServer` and one SDK transport each, in JSON response mode, owned by the API key that opened
 * them and bounded by src/mcp/sessions.ts) and the tool calls a POST body carries (so that the
 * HTTP layer counts each against the rate limit before any is answered). The HTTP service's
 * plugin (src/http/plugins/mcp.ts) authenticates, counts, and relays web Requests and Responses.
 */
import { randomUUID } from 'node:crypto'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { isInitializeRequest, isJSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js'
import { DETAIL } from '../api/index.js'
import { createMcpServer, type ToolBackend, type ToolCallExtra } from './server.js'
import { SessionStore, type McpSessionOptions } from './sessions.js'

/** The path of the MCP endpoint on the API server. */
export const MCP_PATH = '/mcp'

/** The methods `/mcp` answers (GET: no server-initiated stream is offered, so 405). */
export const MCP_METHODS = ['POST', 'DELETE'] as const

/**
 * The ids of the `tools/call` requests in a POST body (one message or a batch).
 * @example
 * toolCallIds({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_domains' } }) // [7]
 */
export function toolCallIds(body: unknown): RequestId[] {
  const messages = Array.isArray(body) ? (body as unknown[]) : [body]
  return messages.flatMap((m) => (isJSONRPCRequest(m) && m.method === 'tools/call' ? [m.id] : []))
}

/**
 * What the transport of one HTTP request hands to the tool handlers of its calls (through the
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

function jsonRpcError(status: number, message: string, headers: Record<string, string> = {}): Response {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null })
  return new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } })
}

/** One open session: its server and transport. */
class HttpSession {
  readonly server: Server
  readonly transport: WebStandardStreamableHTTPServerTransport
  constructor(backend: ToolBackend, onOpen: (id: string) => void, onClose: (id: string) => void) {
    this.server = createMcpServer(backend)
    this.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: onOpen,
      onsessionclosed: onClose,
    })
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
}

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

  /** Answers one request to `/mcp`. */
  async handle(input: McpHttpRequest): Promise<Response> {
    const { request, body, owner, context } = input
    if (!(MCP_METHODS as readonly string[]).includes(request.method)) {
      return jsonRpcError(405, DETAIL.methodNotAllowed, { allow: MCP_METHODS.join(', ') })
    }
    const options = {
      parsedBody: body,
      authInfo: { token: '', clientId: owner, scopes: [], extra: { [CONTEXT_KEY]: context } },
    }
    const sessionId = request.headers.get('mcp-session-id')
    if (sessionId !== null) {
      const session = this.store.acquire(sessionId, owner)
      if (session === null) return jsonRpcError(404, 'Session not found')
      try {
        return await session.transport.handleRequest(request, options)
      } finally {
        this.store.release(sessionId)
      }
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      return jsonRpcError(400, 'Bad Request: Mcp-Session-Id header is required')
    }
    if (!this.store.makeRoom(owner)) return jsonRpcError(503, DETAIL.busy, { 'retry-after': '1' })
    const session: HttpSession = new HttpSession(
      this.#backend,
      (id) => this.store.add(id, owner, session),
      (id) => this.store.delete(id),
    )
    await session.server.connect(session.transport)
    const response = await session.transport.handleRequest(request, options)
    if (session.transport.sessionId === undefined || response.status !== 200) {
      if (session.transport.sessionId !== undefined) this.store.delete(session.transport.sessionId)
      await session.close()
    }
    return response
  }

  /** Closes every session (when the server closes). */
  closeAll(): Promise<void> {
    return this.store.closeAll()
  }
}
