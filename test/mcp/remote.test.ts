/**
 * `visibility mcp --api URL` (the built CLI, as an MCP client starts it) against a running server:
 * every tool of the table, each call answered by the REST request of its row with the key from
 * VA_API_KEY (same payload as the REST body), and REST refusals as tool errors with their detail.
 */
import { spawnSync } from 'node:child_process'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/http/index.js'
import { openEngine } from '../../src/index.js'
import { TOOLS } from '../../src/mcp/index.js'
import { EXAMPLE, argumentSets, restUrl, textOf } from './helpers.js'

const CLI = new URL('../../dist/src/cli/main.js', import.meta.url).pathname
const requiredArgs = (access: string) => (access === 'none' ? {} : { domain_id: EXAMPLE.domainId })

describe('visibility mcp --api URL (stdio, calling the REST API)', () => {
  let server: RunningServer
  let key = ''

  async function rest(path: string, secret = key): Promise<{ status: number; body: string }> {
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${secret}` } })
    return { status: res.status, body: await res.text() }
  }

  async function connect(secret: string, api = server.url): Promise<Client> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--api', api],
      env: { ...(process.env as Record<string, string>), VA_API_KEY: secret },
      stderr: 'pipe',
    })
    const client = new Client({ name: 'visibility-tests', version: '1.0.0' })
    await client.connect(transport)
    return client
  }

  beforeAll(async () => {
    const engine = await openEngine()
    await engine.ingestFile(EXAMPLE.data)
    key = (await engine.createApiKey({ teamId: EXAMPLE.teamId })).key
    server = await startServer({
      engine,
      port: 0,
      signals: [],
      logger: false,
      clock: () => Date.parse(EXAMPLE.now),
      rateLimit: { limit: 10_000, windowSeconds: 60 },
    })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('lists every tool and answers each call with the REST payload of the same request', async () => {
    const client = await connect(key)
    const { tools } = await client.listTools()
    // The key check too: this caller has a key.
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name))
    for (const tool of TOOLS) {
      for (const args of argumentSets(tool.endpoint, requiredArgs(tool.endpoint.access))) {
        const label = `${tool.name} ${JSON.stringify(args)}`
        const result = await client.callTool({ name: tool.name, arguments: args })
        const expected = await rest(restUrl(tool.endpoint, args))
        expect(expected.status, label).toBe(200)
        expect(result.isError, label).toBeFalsy()
        if (tool.endpoint.keyed === true) {
          // The key check's remaining count moves with every call: compare the rest.
          const withoutCount = (body: unknown) => {
            const { data } = body as { data: { rate_limit: Record<string, unknown> } }
            return { ...data, rate_limit: { ...data.rate_limit, remaining: null } }
          }
          expect(withoutCount(result.structuredContent), label).toEqual(
            withoutCount(JSON.parse(expected.body)),
          )
        } else {
          expect(result.structuredContent, label).toEqual(JSON.parse(expected.body))
          expect(textOf(result), label).toBe(expected.body)
        }
      }
    }
    await client.close()
  })

  it('answers REST refusals as tool errors with the REST detail', async () => {
    const client = await connect(key)
    const missing = '20000000-0000-4000-8000-0000000000ff'
    const restMissing = await rest(`/api/v1/competitor-time-series?domain_id=${missing}`)
    expect(restMissing.status).toBe(403) // an unknown domain is not told apart from another team's
    const unknown = await client.callTool({
      name: 'get_competitor_time_series',
      arguments: { domain_id: missing },
    })
    expect([unknown.isError, textOf(unknown)]).toEqual([
      true,
      (JSON.parse(restMissing.body) as { detail: string }).detail,
    ])
    const bad = await client.callTool({
      name: 'get_prompt_time_series',
      arguments: { domain_id: EXAMPLE.domainId, limit: 101 },
    })
    expect([bad.isError, textOf(bad)]).toEqual([true, 'limit must be an integer from 1 to 100.'])
    await client.close()

    const wrong = 'va_live_not-a-key-0000000000000000000000'
    const restWrong = await rest(`/api/v1/domains`, wrong)
    expect(restWrong.status).toBe(401)
    const stranger = await connect(wrong)
    const refused = await stranger.callTool({ name: 'list_domains', arguments: {} })
    expect([refused.isError, textOf(refused)]).toEqual([
      true,
      (JSON.parse(restWrong.body) as { detail: string }).detail,
    ])
    await stranger.close()
  })

  it('says when the API cannot be reached', async () => {
    const client = await connect(key, 'http://127.0.0.1:9')
    const result = await client.callTool({ name: 'list_domains', arguments: {} })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/^The API at http:\/\/127\.0\.0\.1:9\/ could not be reached/)
    await client.close()
  })

  it('refuses a missing key and a bad URL with usage errors', () => {
    const env = { ...process.env, VA_API_KEY: '' }
    const noKey = spawnSync(process.execPath, [CLI, 'mcp', '--api', server.url], { encoding: 'utf8', env })
    expect([noKey.status, noKey.stderr]).toEqual([2, expect.stringContaining('VA_API_KEY')])
    const badUrl = spawnSync(process.execPath, [CLI, 'mcp', '--api', 'ftp://x'], {
      encoding: 'utf8',
      env: { ...process.env, VA_API_KEY: key },
    })
    expect([badUrl.status, badUrl.stderr]).toEqual([
      2,
      expect.stringContaining('--api must be an http(s) URL'),
    ])
    expect(noKey.stdout + badUrl.stdout).toBe('')
  })
})
