/**
 * @module The MCP server of a remote API (`visibility mcp --api URL`): the generated tools over
 * stdio, each call sent as the REST request of its row with the caller's API key, so an assistant
 * works against any running service, a cluster's router included. The API decides everything (key,
 * rate limit, domain access, plan); a refusal is a tool error carrying the REST `detail`.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { createMcpServer, type ToolBackend, type ToolOutcome } from './server.js'
import { connectStdio, type StdioOptions } from './stdio.js'
import { TOOLS, type ToolDefinition } from './tools.js'

/** Whether a fetch failed because the connection closed before any answer (undici's `UND_ERR_SOCKET`). */
function closedBeforeAnswer(error: unknown): boolean {
  return (error as { cause?: { code?: unknown } }).cause?.code === 'UND_ERR_SOCKET'
}

/**
 * A GET as an HTTP/1.1 client should send it: when a reused connection closes before any answer
 * (a proxy's signal that the request was not processed, e.g. HAProxy when the server under it
 * died), the GET is sent once more. Node's fetch does not do this by itself.
 * @example
 * const { response, resent } = await idempotentGet(`${router}/api/v1/domains`, { authorization })
 */
export async function idempotentGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; resent: boolean }> {
  const get = async () => {
    const response = await fetch(url, { headers })
    return { status: response.status, body: await response.text() }
  }
  try {
    return { ...(await get()), resent: false }
  } catch (error) {
    if (!closedBeforeAnswer(error)) throw error
    return { ...(await get()), resent: true }
  }
}

/**
 * The REST URL of a tool call: the row's path with the (normalized) arguments as its query string.
 * With a date range the normalized `days` is the range's length, derived: it is left out, since a
 * request giving both is refused.
 * @example
 * restCallUrl('http://127.0.0.1:8080', tool, { domain_id: id, days: 7 }) // '.../api/v1/...?domain_id=...&days=7'
 */
export function restCallUrl(api: string, tool: ToolDefinition, args: Record<string, unknown>): string {
  const url = new URL(tool.endpoint.path, api)
  const range = args.start_date !== undefined && args.start_date !== null
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null || (range && name === 'days')) continue
    if (Array.isArray(value) && value.length === 0) continue
    // A list argument (the query's dimensions) is one comma-separated parameter over REST.
    url.searchParams.append(name, Array.isArray(value) ? value.map(String).join(',') : String(value))
  }
  return url.toString()
}

/** The `detail` of a REST error body, or a sentence naming the status when the body has none. */
function restDetail(status: number, body: string): string {
  try {
    const detail = (JSON.parse(body) as { detail?: unknown }).detail
    if (typeof detail === 'string' && detail !== '') return detail
  } catch {
    // not JSON (a proxy's own page): name the status
  }
  return `The API answered HTTP ${status}.`
}

/**
 * A backend that answers each call with the REST API at `api`, authenticated with `key`.
 * @example
 * const server = createMcpServer(remoteBackend('http://127.0.0.1:8080', process.env.VA_API_KEY!))
 */
export function remoteBackend(api: string, key: string): ToolBackend {
  const headers = { authorization: `Bearer ${key}`, accept: 'application/json' }
  return {
    async call(tool, args): Promise<ToolOutcome> {
      let answer: { status: number; body: string }
      try {
        answer = await idempotentGet(restCallUrl(api, tool, args), headers)
      } catch (error) {
        const cause = (error as { cause?: { message?: unknown } }).cause?.message
        return { detail: `The API at ${api} could not be reached${cause ? ` (${String(cause)})` : ''}.` }
      }
      if (answer.status !== 200) return { detail: restDetail(answer.status, answer.body) }
      try {
        return { payload: JSON.parse(answer.body) as unknown, text: answer.body }
      } catch {
        return { detail: `The API answered HTTP 200 with a body that is not JSON.` }
      }
    },
  }
}

/**
 * Serves every tool of the API at `api` over stdio until the input ends or `close()` is called.
 * @example
 * const { closed } = await serveRemoteStdio('http://127.0.0.1:8080', key)
 * await closed
 */
export async function serveRemoteStdio(
  api: string,
  key: string,
  options: Pick<StdioOptions, 'stdin' | 'stdout'> = {},
): Promise<{ server: Server; close(): Promise<void>; closed: Promise<void> }> {
  return connectStdio(createMcpServer(remoteBackend(api, key), TOOLS), options)
}
