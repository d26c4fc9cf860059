/**
 * The authorization matrix over MCP: the REST suite's keys x domains x every domain-scoped
 * endpoint (test/http/access-cases.ts), each cell asked as a tool call with the SDK's client. The
 * cache stays on and authorized cells go first, so every refused cell is asked while a cached
 * answer exists: no cross-tenant answer, ever; refusals carry the REST detail. The tools without a
 * domain are asked by every live key, and a tool of the table outside the matrix fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/http/index.js'
import type { ApiKeyInfo, Engine } from '../../src/index.js'
import { TOOLS, toolName } from '../../src/mcp/index.js'
import {
  CELLS,
  DETAILS,
  DOMAIN_IDS,
  KEYS,
  createMatrixKeys,
  expectReadable,
  type DomainName,
} from '../http/access-cases.js'
import { makeEngine, tenantRecords } from '../http/helpers.js'
import { connectHttp, textOf, type HttpClient } from './helpers.js'

describe('authorization matrix over MCP', () => {
  let engine: Engine
  let server: RunningServer
  let secrets: Map<string, { key: string; info: ApiKeyInfo }>
  const clients = new Map<string, HttpClient>()
  /** The live keys whose own team has developer access off: refused before a session opens. */
  const teamOff = new Set<string>()

  beforeAll(async () => {
    engine = await makeEngine()
    await engine.ingest(tenantRecords())
    secrets = await createMatrixKeys(engine)
    server = await startServer({
      engine,
      port: 0,
      signals: [],
      closeEngine: false,
      logger: false,
      rateLimit: { limit: 100_000, windowSeconds: 60 },
    })
    for (const [name, spec] of Object.entries(KEYS)) {
      if (spec.revoke) continue
      const team = await engine.getTeam(secrets.get(name)!.info.team_id)
      if (team?.developer_access !== true) teamOff.add(name)
      else clients.set(name, await connectHttp(server.url, secrets.get(name)!.key))
    }
  })
  afterAll(async () => {
    for (const c of clients.values()) await c.close()
    await server.close()
    await engine.close()
  })

  it('a revoked key cannot open a session (401 before any MCP exchange)', async () => {
    const revoked = Object.entries(KEYS).filter(([, spec]) => spec.revoke)
    expect(revoked.length).toBeGreaterThan(0)
    for (const [name] of revoked) {
      await expect(connectHttp(server.url, secrets.get(name)!.key)).rejects.toThrow(DETAILS[401])
    }
  })

  it('a key whose team has developer access off cannot open a session (403, the REST detail)', async () => {
    expect(teamOff.size).toBeGreaterThan(0)
    for (const name of teamOff) {
      await expect(connectHttp(server.url, secrets.get(name)!.key)).rejects.toThrow(DETAILS[403])
      // Its cells are all the REST 403: refusing the session refuses exactly what REST refuses.
      for (const c of CELLS.filter((cell) => cell.keyName === name)) expect(c.cell, name).toBe(403)
    }
  })

  /** The cells asked as tool calls: those of the keys that may open a session. */
  const asked: typeof CELLS = []
  it('asserts every cell of the keys that may open a session as tool calls', async () => {
    asked.push(...CELLS.filter((c) => clients.has(c.keyName)))
    expect(asked.length).toBe(CELLS.filter((c) => !KEYS[c.keyName]!.revoke && !teamOff.has(c.keyName)).length)
    expect(asked.length).toBeGreaterThan(100)
    const failures: string[] = []
    for (const { keyName, domainName, endpoint, cell } of asked) {
      const { info } = secrets.get(keyName)!
      const domainId = DOMAIN_IDS[domainName]
      const name = toolName(endpoint)
      const result = await clients.get(keyName)!.client.callTool({ name, arguments: { domain_id: domainId } })
      const label = `${keyName} x ${domainName} x ${name}`
      const text = textOf(result)
      if (cell === 200) {
        if (result.isError) {
          failures.push(`${label}: expected an answer, got ${text}`)
          continue
        }
        expectReadable(info, domainId, (ok, why) => expect(ok, `${label}: ${why}`).toBe(true))
        expect((result.structuredContent as { domain_id: string }).domain_id, label).toBe(domainId)
      } else {
        if (!result.isError) {
          failures.push(`${label}: expected ${String(cell)}, got an answer`)
          continue
        }
        expect(result.structuredContent, label).toBeUndefined()
        expect(text, label).not.toContain('generated_at')
        // The REST detail, in the REST order of checks (a key team without access: 403 before 400).
        expect(text, label).toBe(DETAILS[String(cell)])
      }
    }
    expect(failures).toEqual([])
  })

  it('list_domains of each live key is exactly its answered cells', async () => {
    for (const [keyName, spec] of Object.entries(KEYS)) {
      const client = clients.get(keyName)
      if (client === undefined) continue
      const result = await client.client.callTool({ name: 'list_domains', arguments: {} })
      const expected = (Object.keys(DOMAIN_IDS) as DomainName[])
        .filter((d) => spec.expect[d][0] === 200)
        .map((d) => DOMAIN_IDS[d])
        .sort()
      const items = (result.structuredContent as { data: { items: Array<{ id: string }> } }).data.items
      expect(items.map((d) => d.id).sort(), keyName).toEqual(expected)
    }
  })

  const keyOnly = new Set<string>()
  it('every tool without a domain answers each live key by its key alone', async () => {
    for (const tool of TOOLS.filter((t) => t.endpoint.access === 'none')) {
      keyOnly.add(tool.name)
      for (const [keyName, client] of clients) {
        const result = await client.client.callTool({ name: tool.name, arguments: {} })
        expect(result.isError ?? false, `${keyName} x ${tool.name}: ${textOf(result)}`).toBe(false)
      }
    }
  })

  it('every tool of the endpoint table is in the matrix', () => {
    const covered = new Set([...asked.map((c) => toolName(c.endpoint)), ...keyOnly])
    expect(TOOLS.map((t) => t.name).filter((name) => !covered.has(name))).toEqual([])
  })
})
