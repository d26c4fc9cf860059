/**
 * The typed client (`visibility-analytics/client`) against a running server on 127.0.0.1: every
 * operation of the served OpenAPI document is called through it and its payload compared with
 * the engine's for the same parameters; a 429 is retried after Retry-After (bounded); the paged
 * prompts listing iterates every page; the committed generated types equal a fresh generation
 * from the served document; the README's example (examples/client.ts) runs.
 */
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientTypesSource, TARGET } from '../../scripts/client-types.js'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { allPrompts, createVisibilityClient, type VisibilityClient } from '../../src/client/index.js'
import type { paths } from '../../src/client/openapi.js'
import { seedDemo, type DemoDomain } from '../../src/demo/index.js'
import { buildServer } from '../../src/http/index.js'
import { DOC_PATHS } from '../../src/http/plugins/docs.js'
import { openEngine, type ApiKeyInfo, type Engine } from '../../src/index.js'

/** A path of the served document, read from the endpoint table (or the docs' paths), typed as the client's path ending in `end`. */
const pathOf = <E extends string>(path: string, end: E): Extract<keyof paths, `${string}${E}`> => {
  expect(path.endsWith(end)).toBe(true)
  return path as Extract<keyof paths, `${string}${E}`>
}
const rowPath = (id: string): string => ENDPOINTS.find((e) => e.id === id)!.path

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const NOW = Date.parse('2026-11-20T15:00:30Z')
const rows = ENDPOINTS as readonly Endpoint[]
type Json = Record<string, unknown>
type Parameter = { name: string; in: string; required?: boolean }
type Doc = { paths: Record<string, Record<string, { operationId: string; parameters?: Parameter[] }>> }

/** The body without what two requests of one key differ in (the key check's remaining count). */
const stable = (body: unknown): unknown => {
  const copy = structuredClone(body) as { data?: { rate_limit?: Json } }
  delete copy.data?.rate_limit?.remaining
  return copy
}

describe('the typed client', () => {
  let engine: Engine
  let app: FastifyInstance
  let baseUrl: string
  let key: string
  let keyInfo: ApiKeyInfo
  let domain: DemoDomain
  let client: VisibilityClient

  beforeAll(async () => {
    engine = await openEngine()
    const seeded = await seedDemo(engine, { now: new Date(NOW), days: 14 })
    domain = seeded.domains.find((d) => d.plan === 'enterprise')!
    key = (await engine.createApiKey({ teamId: domain.teamId })).key
    keyInfo = (await engine.verifyApiKey(key))!
    app = await buildServer({
      engine,
      logger: false,
      clock: () => NOW,
      rateLimit: { limit: 10_000, windowSeconds: 60 },
    })
    baseUrl = await app.listen({ host: '127.0.0.1', port: 0 })
    client = createVisibilityClient({ baseUrl, apiKey: key })
  })
  afterAll(async () => {
    await app.close()
    await engine.close()
  })

  it('calls every operation of the served document; each table row answers what the engine computes', async () => {
    const doc = (await client.GET(pathOf(DOC_PATHS.openapi, '/openapi.json'))).data as unknown as Doc
    let compared = 0
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(method, op.operationId).toBe('get')
        const required = (op.parameters ?? []).filter((p) => p.in === 'query' && p.required)
        const query = Object.fromEntries(
          required.map((p) => [p.name, p.name === 'domain_id' ? domain.id : '']),
        )
        const { data, response } = await client.GET(path as never, { params: { query } } as never)
        expect(response.status, op.operationId).toBe(200)
        const row = rows.find((r) => r.operationId === op.operationId)
        if (row === undefined) continue
        const params = row.query.parse(query)
        const expected = await row.compute(engine, params as never, {
          now: new Date(NOW),
          caller: keyInfo,
          rateLimit: {
            limit: 10_000,
            remaining: 0,
            reset: Number(response.headers.get('x-ratelimit-reset')),
          },
        })
        expect(stable(data), row.id).toEqual(stable(JSON.parse(JSON.stringify(expected))))
        compared += 1
      }
    }
    expect(compared).toBe(rows.length)
  })

  it('retries a 429 after Retry-After, at most maxAttempts times', async () => {
    const limited = await buildServer({ engine, logger: false, rateLimit: { limit: 1, windowSeconds: 1 } })
    const url = await limited.listen({ host: '127.0.0.1', port: 0 })
    try {
      const statuses: number[] = []
      const recording: typeof fetch = async (input, init) => {
        const res = await fetch(input, init)
        statuses.push(res.status)
        return res
      }
      const retrying = createVisibilityClient({ baseUrl: url, apiKey: key, fetch: recording, maxAttempts: 5 })
      expect((await retrying.GET(pathOf(rowPath('domain-list'), '/domains'))).response.status).toBe(200)
      expect((await retrying.GET(pathOf(rowPath('domain-list'), '/domains'))).response.status).toBe(200)
      expect(statuses[0]).toBe(200)
      expect(statuses.slice(1).filter((s) => s === 429).length).toBeGreaterThanOrEqual(1)
      expect(statuses.at(-1)).toBe(200)
      // Bounded: one attempt only gives the 429 back.
      statuses.length = 0
      const other = (await engine.createApiKey({ teamId: domain.teamId })).key
      const once = createVisibilityClient({ baseUrl: url, apiKey: other, fetch: recording, maxAttempts: 1 })
      await once.GET(pathOf(rowPath('domain-list'), '/domains'))
      const refused = await once.GET(pathOf(rowPath('domain-list'), '/domains'))
      expect(refused.response.status).toBe(429)
      expect(refused.error).toEqual({ detail: expect.any(String) })
      expect(statuses).toEqual([200, 429])
    } finally {
      await limited.close()
    }
  })

  it('allPrompts iterates every page of the prompts listing', async () => {
    const whole = await client.GET(pathOf(rowPath('prompt-list'), '/prompts'), {
      params: { query: { domain_id: domain.id, size: 500 } },
    })
    const all = whole.data!.data.items
    expect(all.length).toBeGreaterThan(3)
    const iterated = []
    for await (const prompt of allPrompts(client, { domain_id: domain.id, size: 2 })) iterated.push(prompt)
    expect(iterated).toEqual(all)
    await expect(
      allPrompts(client, { domain_id: '00000000-0000-4000-8000-000000000000' }).next(),
    ).rejects.toThrow(/^40[34]: /)
  })

  it('the committed types are those generated from the served document (npm run client:types)', async () => {
    expect(await readFile(TARGET, 'utf8')).toBe(await clientTypesSource())
  })

  it("the README's example (examples/client.ts) runs against the server", async () => {
    const example = (await readFile(`${ROOT}examples/client.ts`, 'utf8')).split('*/\n')[1]!.trim()
    expect(await readFile(`${ROOT}README.md`, 'utf8')).toContain(`\`\`\`ts\n${example}\n\`\`\``)
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'examples/client.ts'],
      {
        cwd: ROOT,
        env: { ...process.env, VA_URL: baseUrl, VA_KEY: key },
        timeout: 60_000,
      },
    )
    expect(stdout).toMatch(/% positive over 30 days\n\d+ prompts tracked\n$/)
  })
})
