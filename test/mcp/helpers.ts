/**
 * Shared setup of the MCP suites: the SDK's own client over Streamable HTTP (with the HTTP
 * responses it saw, for their headers), argument samples per parameter, and REST query strings.
 */
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
    for (const value of SAMPLES[param.name] ?? []) {
      if (value !== undefined) sets.push({ ...required, [param.name]: value })
    }
  }
  if ('start_date' in endpoint.params) {
    sets.push({ ...required, ...RANGE })
    if ('granularity' in endpoint.params) sets.push({ ...required, ...RANGE, granularity: 'week' })
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
