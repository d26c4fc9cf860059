/**
 * Suite "mcp": tool-call latency over MCP (Streamable HTTP, the SDK's client) beside the REST
 * latency of the same query, on 127.0.0.1 (documented in docs/MCP.md):
 *
 *   npm run bench -- --only=mcp-Lq [--calls=2000] [--rounds=10]
 *
 * The service runs in a child process over a generated dataset (bench/data/generator.ts; Lq by
 * default, L for the full year); this process runs one sequential client per transport (keep-alive;
 * both parse the JSON they get), the same request each time: the competitor time series of the main
 * domain, 30 days, all models. Two servers: the response cache on (every answer after the first is a
 * HIT: the cost of the transport itself) and off (every answer computed: the engine's in-memory
 * aggregates, then the transport). REST and MCP alternate in rounds so that load from other
 * processes falls on both alike. The query's path and tool come from the endpoint table (the row
 * computing the competitor series). Prints a table; writes bench/out/suite-mcp-<dataset>.json.
 */
import { fork } from 'node:child_process'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { startServer, type RunningServer } from '../../src/http/index.js'
import { openEngine } from '../../src/index.js'
import { toolName } from '../../src/mcp/tools.js'
import { BENCH_NOW, DATASETS, datasetRecords, mainDomainId } from '../data/generator.js'
import { quantile } from '../lib/timing.js'
import { startSuite, writeJson } from '../lib/suite.js'

const { args: values, quick, dsName, out, log } = startSuite('mcp', { defaultDataset: 'Lq' })
const spec = DATASETS[dsName]
if (spec === undefined) throw new Error(`unknown dataset ${dsName}`)
const calls = Number(values.calls ?? (quick ? 200 : 2000))
const rounds = Number(values.rounds ?? (quick ? 2 : 10))
const perRound = Math.ceil(calls / rounds)
const domainId = mainDomainId(spec)
/** The row measured: the competitor series, found by its engine method in the endpoint table. */
const row = (ENDPOINTS as readonly Endpoint[]).find((e) => e.method === 'computeCompetitorSeries')!
const args = { domain_id: domainId, days: 30, model: 'all' }
const query = `${row.path}?${new URLSearchParams({ ...args, days: '30' }).toString()}`
const tool = toolName(row)

/** What the serving child tells its parent. */
interface Served {
  key: string
  cached: string
  uncached: string
}

/** The child: the dataset, a key, and the two servers; runs until the parent disconnects. */
async function serveChild(): Promise<void> {
  const engine = await openEngine()
  await engine.ingest(datasetRecords(spec!))
  const { key } = await engine.createApiKey({ teamId: (await engine.getDomain(domainId))!.team_id })
  const start = (cacheOn: boolean): Promise<RunningServer> =>
    startServer({
      engine,
      port: 0,
      host: '127.0.0.1',
      signals: [],
      closeEngine: false,
      logger: false,
      clock: () => Date.parse(BENCH_NOW),
      rateLimit: { limit: 1_000_000, windowSeconds: 60 },
      ...(cacheOn ? {} : { cacheTtl: { seriesSeconds: 0, sentimentSeconds: 0 } }),
    })
  const [cached, uncached] = [await start(true), await start(false)]
  process.send!({ key, cached: cached.url, uncached: uncached.url } satisfies Served)
  process.once('disconnect', () => {
    void Promise.all([cached.close(), uncached.close()]).then(() => engine.close())
  })
}

interface Stats {
  p50: number
  p99: number
  mean: number
  samples: number
}
const stats = (samples: number[]): Stats => {
  const sorted = [...samples].sort((a, b) => a - b)
  const mean = samples.reduce((s, x) => s + x, 0) / samples.length
  const round = (x: number) => Math.round(x * 1000) / 1000
  return {
    p50: round(quantile(sorted, 0.5)),
    p99: round(quantile(sorted, 0.99)),
    mean: round(mean),
    samples: samples.length,
  }
}

async function measure(url: string, key: string): Promise<{ rest: Stats; mcp: Stats }> {
  const server = { url }
  const headers = { authorization: `Bearer ${key}` }
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers },
  })
  const client = new Client({ name: 'mcp-latency', version: '1.0.0' })
  await client.connect(transport)
  const restOnce = async () => {
    const res = await fetch(`${server.url}${query}`, { headers })
    if (res.status !== 200) throw new Error(`REST answered ${res.status}`)
    return (await res.json()) as unknown
  }
  const mcpOnce = async () => {
    const result = await client.callTool({ name: tool, arguments: args })
    if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`)
    return result
  }
  // Warm-up (connections, JIT, aggregates, the cache entry), and one check that both agree.
  for (let i = 0; i < 50; i += 1) await Promise.all([restOnce(), mcpOnce()])
  const [body, result] = await Promise.all([restOnce(), mcpOnce()])
  if (JSON.stringify(body) !== JSON.stringify(result.structuredContent)) {
    throw new Error('REST and MCP payloads differ')
  }
  const rest: number[] = []
  const mcp: number[] = []
  for (let r = 0; r < rounds; r += 1) {
    for (const [once, into] of [
      [restOnce, rest],
      [mcpOnce, mcp],
    ] as const) {
      for (let i = 0; i < perRound; i += 1) {
        const t0 = performance.now()
        await once()
        into.push(performance.now() - t0)
      }
    }
  }
  await transport.terminateSession()
  await client.close()
  return { rest: stats(rest), mcp: stats(mcp) }
}

if (values.serve === true) {
  await serveChild()
} else {
  const child = fork(new URL(import.meta.url).pathname, [...process.argv.slice(2), '--serve'], {
    execArgv: process.execArgv,
  })
  const served = await new Promise<Served>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Served))
    child.once('exit', (code) => reject(new Error(`server process exited (${code})`)))
  })
  const results = {
    dataset: spec.name,
    query,
    calls: perRound * rounds,
    cacheOn: await measure(served.cached, served.key),
    cacheOff: await measure(served.uncached, served.key),
  }
  child.disconnect()
  report(results)
  out.sizes = { calls: results.calls }
  for (const [cache, pair] of [
    ['cache hit', results.cacheOn],
    ['computed', results.cacheOff],
  ] as const) {
    for (const [impl, st] of [
      ['REST', pair.rest],
      ['MCP tool call', pair.mcp],
    ] as const) {
      out.timings.push({
        case: `${tool}, ${cache}`,
        fn: row.method,
        days: 30,
        impl,
        median: st.p50,
        p95: st.p99,
        mean: st.mean,
        min: NaN,
        max: NaN,
        samples: st.samples,
      })
    }
  }
  out.notes.push('p95 column: p99 of the sequential calls')
  out.extra = results
  writeJson(`suite-mcp-${dsName}.json`, out)
  log('done')
}

function report(results: {
  dataset: string
  query: string
  calls: number
  cacheOn: { rest: Stats; mcp: Stats }
  cacheOff: { rest: Stats; mcp: Stats }
}): void {
  const row = (name: string, s: Stats) =>
    `| ${name.padEnd(28)} | ${s.p50.toFixed(3).padStart(8)} | ${s.p99.toFixed(3).padStart(8)} | ${s.mean.toFixed(3).padStart(8)} |`
  console.log(`dataset ${spec!.name}, ${results.calls} sequential calls per transport, ${query}`)
  console.log('| transport                    | p50 (ms) | p99 (ms) | mean     |')
  console.log('| ---------------------------- | -------- | -------- | -------- |')
  console.log(row('REST, cache hit', results.cacheOn.rest))
  console.log(row('MCP tool call, cache hit', results.cacheOn.mcp))
  console.log(row('REST, computed', results.cacheOff.rest))
  console.log(row('MCP tool call, computed', results.cacheOff.mcp))
  console.log(JSON.stringify(results))
}
