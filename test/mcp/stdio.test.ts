/**
 * `visibility mcp --db PATH` (the built CLI, as an MCP client starts it) with the SDK's own stdio
 * client: the tools, every tool against the REST payload for the same parameters on the same
 * database, argument errors, and a clean exit that releases the database file.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../../src/http/index.js'
import { openEngine } from '../../src/index.js'
import { LOCAL_TOOLS, TOOLS } from '../../src/mcp/index.js'
import { EXAMPLE, argumentSets, restUrl, textOf } from './helpers.js'

const CLI = new URL('../../dist/src/cli/main.js', import.meta.url).pathname
const requiredArgs = (access: string) => (access === 'none' ? {} : { domain_id: EXAMPLE.domainId })

describe('visibility mcp --db PATH (stdio)', () => {
  let dir: string
  let db: string
  /** REST bodies by tool name and arguments, computed on the same file before the CLI opens it. */
  const restBodies = new Map<string, string>()
  const label = (name: string, args: Record<string, unknown>) => `${name} ${JSON.stringify(args)}`

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'va-mcp-stdio-'))
    db = join(dir, 'demo.duckdb')
    const engine = await openEngine({ path: db })
    await engine.ingestFile(EXAMPLE.data)
    const { key } = await engine.createApiKey({ teamId: EXAMPLE.teamId })
    const app = await buildServer({
      engine,
      logger: false,
      clock: () => Date.parse(EXAMPLE.now),
      rateLimit: { limit: 10_000, windowSeconds: 60 },
    })
    for (const tool of LOCAL_TOOLS) {
      for (const args of argumentSets(tool.endpoint, requiredArgs(tool.endpoint.access))) {
        const res = await app.inject({
          url: restUrl(tool.endpoint, args),
          headers: { authorization: `Bearer ${key}` },
        })
        expect(res.statusCode).toBe(200)
        restBodies.set(label(tool.name, args), res.body)
      }
    }
    await app.close()
    await engine.close()
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('lists the tools and answers each call with the REST payload; exits and releases the file', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--db', db, '--now', EXAMPLE.now],
      stderr: 'pipe',
    })
    const client = new Client({ name: 'visibility-tests', version: '1.0.0' })
    await client.connect(transport)
    const { tools } = await client.listTools()
    // Every tool but the key check (no key on stdio).
    expect(tools.map((t) => t.name)).toEqual(LOCAL_TOOLS.map((t) => t.name))
    expect(TOOLS.filter((t) => !LOCAL_TOOLS.includes(t)).map((t) => t.name)).toEqual(['get_validate'])

    for (const tool of LOCAL_TOOLS) {
      for (const args of argumentSets(tool.endpoint, requiredArgs(tool.endpoint.access))) {
        const result = await client.callTool({ name: tool.name, arguments: args })
        const body = restBodies.get(label(tool.name, args))!
        expect(result.structuredContent, label(tool.name, args)).toEqual(JSON.parse(body))
        expect(textOf(result), label(tool.name, args)).toBe(body)
      }
    }

    const bad = await client.callTool({
      name: 'get_prompt_time_series',
      arguments: { domain_id: EXAMPLE.domainId, limit: 101 },
    })
    expect([bad.isError, textOf(bad)]).toEqual([true, 'limit must be an integer from 1 to 100.'])
    const unknown = await client.callTool({
      name: 'get_competitor_time_series',
      arguments: { domain_id: '20000000-0000-4000-8000-0000000000ff' },
    })
    expect([unknown.isError, textOf(unknown)]).toEqual([
      true,
      'domain 20000000-0000-4000-8000-0000000000ff not found',
    ])

    await client.close()
    // The server process is gone and DuckDB closed: the file opens again.
    const reopened = await openEngine({ path: db, readOnly: true })
    expect((await reopened.listDomains()).data.total).toBe(1)
    await reopened.close()
  })

  it('refuses a missing --db with a usage error', async () => {
    const { spawnSync } = await import('node:child_process')
    const run = spawnSync(process.execPath, [CLI, 'mcp'], { encoding: 'utf8' })
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('--db is required')
    expect(run.stdout).toBe('')
  })
})
