/**
 * MCP tool fuzzing over HTTP (/mcp of the service in this process): every tool of the endpoint
 * table called with generated arguments: valid values derived from each parameter's rule, other
 * tenants' and unknown domains, wrong types, SQL and path-traversal strings, huge strings, extra
 * and prototype keys. Every call ends (a result, a tool error or a JSON-RPC error), no answer
 * carries DuckDB text, SQL or a stack trace, the service stays healthy, and a tool of the table
 * left out fails the coverage test.
 *
 * Default 20 calls per tool; VA_LONG=1 runs 500 (VA_MCP_FUZZ_RUNS overrides).
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/http/index.js'
import { TOOLS } from '../../src/mcp/index.js'
import { connectHttp, type HttpClient } from '../mcp/helpers.js'
import { LEAK, ROUTES, makeTenants, validValues, type Tenants } from './http-setup.js'

const LONG = process.env.VA_LONG === '1'
const RUNS = Number(process.env.VA_MCP_FUZZ_RUNS ?? (LONG ? 500 : 20))
const SEED = Number(process.env.VA_SEED ?? 2121)

const ODD = [
  "' OR '1'='1",
  '1; SELECT * FROM api_keys',
  '../../etc/passwd',
  '%00',
  '',
  ' ',
  'NaN',
  'x'.repeat(5_000),
  '٣',
]

let t: Tenants
let server: RunningServer
let mcp: HttpClient
const called = new Set<string>()
const tally = { calls: 0, results: 0, toolErrors: 0, rpcErrors: 0 }

beforeAll(async () => {
  t = await makeTenants()
  server = await startServer({
    engine: t.engine,
    port: 0,
    signals: [],
    closeEngine: false,
    logger: false,
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
  })
  mcp = await connectHttp(server.url, [...t.keys.values()][0]!.secret)
})
afterAll(async () => {
  await mcp?.close()
  await server?.close()
  await t?.engine.close()
  if (tally.calls) console.log(`[reliability] mcp fuzz: ${JSON.stringify(tally)} over ${called.size} tools`)
})

/** Generated arguments of a tool: its parameters with valid, foreign, odd and wrongly typed values. */
function argumentsArb(tool: (typeof TOOLS)[number]) {
  const params = Object.values(tool.endpoint.params)
  const domains = [...t.domains.keys()]
  const texts = validValues(tool.endpoint)
  const valueArb = (name: string) => {
    const valid = (texts[name] ?? []).flatMap((v) => [v, Number(v)]).filter((v) => v === v)
    return fc.oneof(
      ...(valid.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...valid) }] : []),
      { weight: name === 'domain_id' ? 6 : 1, arbitrary: fc.constantFrom(...domains) },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 2, arbitrary: fc.constantFrom<unknown>(...ODD) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, [], {}, [1, 2], -1, 1e308, 0.5) },
      { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
    )
  }
  const entries = params.map((p) =>
    fc.option(
      valueArb(p.name).map((v) => [p.name, v] as const),
      { nil: undefined, freq: p.required ? 20 : 2 },
    ),
  )
  const extra = fc.option(
    fc.tuple(fc.constantFrom('__proto__', 'constructor', 'now', 'api_key', 'x'.repeat(300)), fc.jsonValue()),
    { nil: undefined, freq: 5 },
  )
  return fc.tuple(fc.tuple(...entries), extra).map(([pairs, more]) => {
    const args: Record<string, unknown> = {}
    for (const pair of [...pairs, more])
      if (pair !== undefined)
        Object.defineProperty(args, pair[0], {
          value: pair[1],
          enumerable: true,
          configurable: true,
          writable: true,
        })
    return args
  })
}

describe('MCP tool fuzzing over HTTP', () => {
  it('every route of the endpoint table is a tool', () => {
    expect(TOOLS.map((tool) => tool.endpoint.id)).toEqual(ROUTES.map((e) => e.id))
  })

  for (const [index, tool] of TOOLS.entries()) {
    it(
      `${tool.name}: ${RUNS} generated calls end, without internals`,
      async () => {
        await fc.assert(
          fc.asyncProperty(argumentsArb(tool), async (args) => {
            tally.calls += 1
            called.add(tool.name)
            let text: string
            try {
              const result = await mcp.client.callTool({ name: tool.name, arguments: args })
              if (result.isError === true) tally.toolErrors += 1
              else tally.results += 1
              text = JSON.stringify(result)
            } catch (error) {
              tally.rpcErrors += 1
              text = String((error as Error).message)
            }
            // The caller's own text echoed back (a topic or tag filter, trimmed) is no leak.
            for (const value of Object.values(args as Record<string, unknown>))
              if (typeof value === 'string' && value.trim() !== '')
                for (let form = value.trim(), i = 0; i < 3; i += 1, form = JSON.stringify(form).slice(1, -1))
                  text = text.split(form).join('')
            if (LEAK.test(text))
              throw new Error(
                `internal text for ${tool.name} ${JSON.stringify(args).slice(0, 200)}: ${text.slice(0, 300)}`,
              )
          }),
          { numRuns: RUNS, seed: SEED + index, endOnFailure: true },
        )
        const health = await fetch(`${server.url}/healthz`)
        expect(health.status).toBe(200)
      },
      LONG ? 1_800_000 : 120_000,
    )
  }

  it('called every tool the server lists, and every tool of the table', async () => {
    const { tools } = await mcp.client.listTools()
    expect(tools.map((tool) => tool.name).filter((name) => !called.has(name))).toEqual([])
    expect(TOOLS.map((tool) => tool.name).filter((name) => !called.has(name))).toEqual([])
  })
})
