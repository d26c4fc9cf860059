/**
 * Shared setup of the MCP suites: the SDK's own client over Streamable HTTP (with the HTTP
 * responses it saw, for their headers), argument samples per parameter, REST query strings, and
 * a raw HTTP/1.1 connection for what the SDK's client never does (pipelining, hanging up).
 */
import { connect, type Socket } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { Endpoint } from '../../src/api/index.js'

/** The spec's worked example: its dataset, the one domain and the clock its queries use. */
export const EXAMPLE = {
  data: new URL('../../fixtures/spec-example/data.ndjson', import.meta.url).pathname,
  domainId: '5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c',
  teamId: '0a9c2f4e-1b7d-4c3a-9e8f-5d6b7a8c9d01',
  now: '2026-11-20T15:00:00Z',
} as const

/** A connected MCP client and the HTTP responses its transport received, in order. */
export interface HttpClient {
  client: Client
  transport: StreamableHTTPClientTransport
  responses: Response[]
  close(): Promise<void>
}

/**
 * Connects the SDK's client to `${url}/mcp` with an API key.
 * @example
 * const { client, close } = await connectHttp(server.url, key)
 */
export async function connectHttp(url: string, key: string): Promise<HttpClient> {
  const responses: Response[] = []
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: async (input, init) => {
      const response = await fetch(input, init)
      responses.push(response)
      return response
    },
  })
  const client = new Client({ name: 'visibility-tests', version: '1.0.0' })
  await client.connect(transport)
  return {
    client,
    transport,
    responses,
    async close() {
      await transport.terminateSession().catch(() => undefined)
      await client.close()
    },
  }
}

/** The text of a tool result's first content item. */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content[0]
  return content?.type === 'text' ? content.text : ''
}

/**
 * Values to try per parameter name (undefined: the default). A parameter without samples is
 * called with its default only; a required one must have samples.
 */
const SAMPLES: Record<string, unknown[]> = {
  days: [undefined, 1, 7, 365],
  limit: [undefined, 1, 100],
  model: [undefined, 'all', 'chatgpt', 'perplexity'],
  granularity: [undefined, 'day', 'week', 'month'],
  // query_visibility: a list, or the same as comma-separated text.
  dimensions: [undefined, 'country,channel', ['prompt', 'tag'], 'date'],
  entity: [undefined, 'brand'], // 'all' is the query's only: its golden cases and property test
  compare: [undefined, 'previous'],
  min_responses: [undefined, 1, 30],
}
/** A range instead of days (extensions section 9): both dates together. */
const RANGE = { start_date: '2026-01-01', end_date: '2026-03-31' }

/**
 * Argument sets for an endpoint: its defaults, then each parameter's samples with the others at
 * their defaults.
 * @example
 * argumentSets(endpoint, { domain_id: id }) // [{ domain_id: id }, { domain_id: id, days: 1 }, ...]
 */
export function argumentSets(
  endpoint: Endpoint,
  required: Record<string, unknown>,
): Array<Record<string, unknown>> {
  const sets: Array<Record<string, unknown>> = [{ ...required }]
  for (const param of Object.values(endpoint.params)) {
    if (param.required) {
      if (!(param.name in required)) throw new Error(`no value for the required ${param.name}`)
      continue
    }
    // granularity needs the date dimension where there are dimensions (query_visibility).
    const dated =
      param.name === 'granularity' && 'dimensions' in endpoint.params ? { dimensions: 'date' } : {}
    for (const value of SAMPLES[param.name] ?? []) {
      if (value !== undefined) sets.push({ ...required, ...dated, [param.name]: value })
    }
  }
  if ('start_date' in endpoint.params) {
    sets.push({ ...required, ...RANGE })
    if ('granularity' in endpoint.params) {
      const dated = 'dimensions' in endpoint.params ? { dimensions: 'date' } : {}
      sets.push({ ...required, ...RANGE, ...dated, granularity: 'week' })
    }
  }
  return sets
}

/** The REST URL of the same request. */
export function restUrl(endpoint: Endpoint, args: Record<string, unknown>): string {
  const query = new URLSearchParams(
    Object.entries(args).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString()
  return query === '' ? endpoint.path : `${endpoint.path}?${query}`
}

/** One HTTP response read off a raw socket. */
export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * An HTTP/1.1 connection written by hand, so that requests can be pipelined on it (the attack
 * of issue 21) and the socket closed at will. Every read is bounded in time.
 * @example
 * const c = await RawConnection.open(port)
 * c.write(mcpPost(port, key, { jsonrpc: '2.0', id: 1, method: 'ping' }, sessionId))
 * const response = await c.next(5_000)
 */
export class RawConnection {
  readonly socket: Socket
  #buffer = Buffer.alloc(0)
  readonly #ready: RawResponse[] = []
  #waiter: (() => void) | null = null
  #ended = false

  private constructor(socket: Socket) {
    this.socket = socket
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk])
      this.#parse()
    })
    const end = () => {
      this.#ended = true
      this.#wake()
    }
    socket.on('close', end)
    socket.on('error', end)
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => resolve(new RawConnection(socket)))
      socket.once('error', reject)
    })
  }

  write(request: string): void {
    this.socket.write(request)
  }

  /** The next response; rejects when the socket ends first or nothing comes within `timeoutMs`. */
  async next(timeoutMs: number): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const response = this.#ready.shift()
      if (response !== undefined) return response
      if (this.#ended) throw new Error('connection closed before a response')
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no response within ${timeoutMs} ms`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.#waiter = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      this.#waiter = null
    }
  }

  close(): void {
    this.socket.destroy()
  }

  #wake(): void {
    this.#waiter?.()
  }

  #parse(): void {
    for (;;) {
      const end = this.#buffer.indexOf('\r\n\r\n')
      if (end < 0) return
      const [statusLine, ...lines] = this.#buffer.subarray(0, end).toString('latin1').split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
      }
      const length = Number(headers['content-length'] ?? 0)
      if (headers['transfer-encoding'] !== undefined) throw new Error('chunked answers are not expected')
      if (this.#buffer.length < end + 4 + length) return
      const body = this.#buffer.subarray(end + 4, end + 4 + length).toString('utf8')
      this.#buffer = this.#buffer.subarray(end + 4 + length)
      this.#ready.push({ status: Number(statusLine!.split(' ')[1]), headers, body })
      this.#wake()
    }
  }
}

/**
 * The text of a request to /mcp: a POST of `body` (with the session's id when given), or a
 * DELETE of the session when `body` is null.
 */
export function mcpRequest(
  port: number,
  key: string,
  body: unknown,
  sessionId?: string,
  extra: Record<string, string> = {},
): string {
  const payload = body === null ? '' : JSON.stringify(body)
  const headers: Record<string, string> = {
    host: `127.0.0.1:${port}`,
    authorization: `Bearer ${key}`,
    accept: 'application/json, text/event-stream',
    ...(body === null ? {} : { 'content-type': 'application/json' }),
    ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
    'content-length': String(Buffer.byteLength(payload)),
    ...extra,
  }
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`)
  return `${body === null ? 'DELETE' : 'POST'} /mcp HTTP/1.1\r\n${head.join('')}\r\n${payload}`
}

/** A GET of `path` as raw text (for /healthz and REST paths). */
export function getRequest(port: number, path: string, key?: string): string {
  const auth = key === undefined ? '' : `authorization: Bearer ${key}\r\n`
  return `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${auth}\r\n`
}

/** The initialize request of a raw client. */
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
} as const

/**
 * One request on a fresh connection, closed after its answer.
 * @example
 * const res = await rawOnce(port, mcpRequest(port, key, INITIALIZE))
 */
export async function rawOnce(port: number, request: string, timeoutMs = 5_000): Promise<RawResponse> {
  const c = await RawConnection.open(port)
  try {
    c.write(request)
    return await c.next(timeoutMs)
  } finally {
    c.close()
  }
}
