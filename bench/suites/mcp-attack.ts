/**
 * Suite "mcp-attack": the /mcp attacks measured again after the fix (docs/RELIABILITY.md, "MCP:
 * every request ends, every POST counts"), on 127.0.0.1 only, bounded in time:
 *
 *   npm run bench -- --only=mcp-attack-S [--rounds=25] [--flood-s=10] [--idle-s=5]
 *
 * The service runs in a child process (dataset S, cache off so that calls compute), as two
 * servers over one engine: the attack's bounds (8 connections, 4 MCP sessions) and the defaults
 * with 60 requests a minute per key. This process:
 * 1. pipelines a tools/call and a ping with the same id on 8 sockets over 4 sessions, `rounds`
 *    times each, and counts the calls not answered within 10 s (hung); then /healthz and another
 *    key's initialize;
 * 2. measures /healthz (one keep-alive connection, sequential) idle, then while 8 connections
 *    flood `initialize` with a key already over its limit, and reports the statuses of the flood
 *    and the server's CPU per flood request. Prints a table; writes
 *    bench/out/suite-mcp-attack-S.json.
 */
import { fork } from 'node:child_process'
import * as http from 'node:http'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { API_PATHS, startServer } from '../../src/http/index.js'
import { openEngine } from '../../src/index.js'
import { toolName } from '../../src/mcp/tools.js'
import { BENCH_NOW, DATASETS, datasetRecords, mainDomainId } from '../data/generator.js'
import { quantile } from '../lib/timing.js'
import { messagesOf, startSuite, writeJson } from '../lib/suite.js'
import { INITIALIZE, RawConnection, mcpRequest, rawOnce } from '../../test/mcp/helpers.js'

const suite = startSuite('mcp-attack', { defaultDataset: 'S' })
const values = {
  rounds: String(suite.args.rounds ?? (suite.quick ? 5 : 25)),
  'flood-s': String(suite.args['flood-s'] ?? (suite.quick ? 2 : 10)),
  'idle-s': String(suite.args['idle-s'] ?? (suite.quick ? 1 : 5)),
  serve: suite.args.serve === true,
  flood: typeof suite.args.flood === 'string' ? suite.args.flood : undefined,
  port: suite.args.port,
  key: typeof suite.args.key === 'string' ? suite.args.key : undefined,
}
const spec = DATASETS.S
const domainId = mainDomainId(spec)
const ROWS = ENDPOINTS as readonly Endpoint[]
/** The tool called: the competitor series row's, by its engine method in the endpoint table. */
const TOOL = toolName(ROWS.find((e) => e.method === 'computeCompetitorSeries')!)
/** The REST path flooded: the domain list's, by its engine method in the endpoint table. */
const DOMAIN_LIST = ROWS.find((e) => e.method === 'computeDomainList')!

interface Served {
  /** The attack's bounds (8 connections, 4 sessions), a limit that never stops the run. */
  attackPort: number
  /** The defaults, 60 requests a minute per key. */
  floodPort: number
  attacker: string
  other: string
}

async function serveChild(): Promise<void> {
  const engine = await openEngine()
  await engine.ingest(datasetRecords(spec))
  const teamId = (await engine.getDomain(domainId))!.team_id
  const attacker = (await engine.createApiKey({ teamId })).key
  const other = (await engine.createApiKey({ teamId })).key
  const start = (options: Partial<Parameters<typeof startServer>[0]>) =>
    startServer({
      engine,
      port: 0,
      host: '127.0.0.1',
      signals: [],
      closeEngine: false,
      logger: false,
      clock: () => Date.parse(BENCH_NOW),
      cacheTtl: { seriesSeconds: 0, sentimentSeconds: 0 },
      ...options,
    })
  const attack = await start({
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
    edge: { maxConnections: 8 },
    mcp: { maxSessions: 4 },
  })
  const flood = await start({ rateLimit: { limit: 60, windowSeconds: 60 } })
  const portOf = (url: string) => Number(new URL(url).port)
  process.send!({
    attackPort: portOf(attack.url),
    floodPort: portOf(flood.url),
    attacker,
    other,
  } satisfies Served)
  process.on('message', (m) => {
    if (m === 'cpu') process.send!({ cpu: process.cpuUsage() })
  })
  process.once(
    'disconnect',
    () => void Promise.all([attack.close(), flood.close()]).then(() => engine.close()),
  )
}

const ms = (n: number) => Math.round(n * 100) / 100

async function main(): Promise<void> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve'], { execArgv: process.execArgv })
  const fromChild = messagesOf(child)
  const served = await fromChild.next<Served>()
  const ask = <T>(what: string) => {
    child.send(what)
    return fromChild.next<T>()
  }
  const { attacker, other } = served
  let port = served.attackPort
  const rounds = Number(values.rounds)
  const call = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: TOOL, arguments: { domain_id: domainId } },
  })
  const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' })

  // 1. The pipelining attack, on the server with the attack's bounds.
  const sessions: string[] = []
  for (let i = 0; i < 4; i += 1) {
    const res = await rawOnce(port, mcpRequest(port, attacker, INITIALIZE))
    sessions.push(res.headers['mcp-session-id']!)
  }
  const sockets = await Promise.all(Array.from({ length: 8 }, () => RawConnection.open(port)))
  const tally = { calls: 0, answered: 0, hung: 0, pingRefused: 0, statuses: {} as Record<string, number> }
  await Promise.all(
    sockets.map(async (socket, s) => {
      for (let r = 0; r < rounds; r += 1) {
        const id = s * 1000 + r
        const sessionId = sessions[s % 4]!
        socket.write(
          mcpRequest(port, attacker, call(id), sessionId) + mcpRequest(port, attacker, ping(id), sessionId),
        )
        tally.calls += 1
        try {
          const answer = await socket.next(10_000)
          tally.statuses[answer.status] = (tally.statuses[answer.status] ?? 0) + 1
          tally.answered += 1
          if ((await socket.next(10_000)).status === 409) tally.pingRefused += 1
        } catch {
          tally.hung += 1
          return
        }
      }
    }),
  )
  const health = await rawOnce(
    port,
    `GET ${API_PATHS.health} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`,
    5_000,
  ).catch(() => null)
  const otherInit = await rawOnce(port, mcpRequest(port, other, INITIALIZE), 5_000).catch(() => null)
  for (const socket of sockets) socket.close()

  // 2. /healthz idle, then under an initialize flood from a key over its limit (defaults, 60/min).
  port = served.floodPort
  const healthAgent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const get = (path: string, key?: string) =>
    new Promise<number>((resolve, reject) => {
      const headers = key === undefined ? {} : { authorization: `Bearer ${key}` }
      const req = http.request({ host: '127.0.0.1', port, path, agent: healthAgent, headers }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      })
      req.on('error', reject)
      // A request the server never answers fails the suite instead of hanging it.
      req.setTimeout(30_000, () => req.destroy(new Error(`no answer to GET ${path} within 30 s`)))
      req.end()
    })
  const sampleHealth = async (seconds: number): Promise<number[]> => {
    const samples: number[] = []
    const end = Date.now() + seconds * 1000
    while (Date.now() < end && samples.length < 100_000) {
      const t0 = performance.now()
      await get(API_PATHS.health)
      samples.push(performance.now() - t0)
    }
    return samples.sort((a, b) => a - b)
  }
  const idle = await sampleHealth(Number(values['idle-s']))
  // Put the attacker over its limit with REST requests (derived from the endpoint table).
  let restStatus = 0
  for (let i = 0; i < 61 && restStatus !== 429; i += 1) restStatus = await get(DOMAIN_LIST.path, attacker)
  /** One flood phase in its own process (so that it does not slow this one's /healthz client). */
  const floodPhase = async (what: 'initialize' | 'rest') => {
    const seconds = Number(values['flood-s'])
    const cpu0 = (await ask<{ cpu: NodeJS.CpuUsage }>('cpu')).cpu
    const flooder = fork(
      new URL(import.meta.url).pathname,
      [`--flood=${what}`, `--port=${port}`, `--key=${attacker}`, `--flood-s=${seconds}`],
      { execArgv: process.execArgv },
    )
    const fromFlooder = messagesOf(flooder)
    await fromFlooder.next() // started
    const samples = await sampleHealth(seconds)
    // The counts may have come while /healthz was sampled: the queue keeps them.
    const counts = await fromFlooder.next<Flood>()
    const cpu1 = (await ask<{ cpu: NodeJS.CpuUsage }>('cpu')).cpu
    const cpuMs = (cpu1.user - cpu0.user + cpu1.system - cpu0.system) / 1000
    if (flooder.connected) flooder.disconnect() // it may have exited after its last message
    return {
      ...counts,
      healthz: { n: samples.length, p50: ms(quantile(samples, 0.5)), p99: ms(quantile(samples, 0.99)) },
      serverCpuMsPerRequest: ms(cpuMs / Math.max(1, counts.sent)),
      serverCores: ms(cpuMs / 1000 / seconds),
    }
  }
  const restFlood = await floodPhase('rest')
  const mcpFlood = await floodPhase('initialize')
  healthAgent.destroy()
  child.disconnect()

  const result = {
    pipelining: {
      ...tally,
      healthz: health?.status ?? 'reset',
      otherInitialize: otherInit?.status ?? 'reset',
    },
    healthzIdle: { n: idle.length, p50: ms(quantile(idle, 0.5)), p99: ms(quantile(idle, 0.99)) },
    restBefore: restStatus,
    restFlood,
    mcpFlood,
  }
  console.log(
    `pipelined call+ping pairs: ${tally.calls}, calls answered ${tally.answered}, hung ${tally.hung}, pings refused (409) ${tally.pingRefused}`,
  )
  console.log(
    `after: /healthz ${result.pipelining.healthz}, another key's initialize ${result.pipelining.otherInitialize}`,
  )
  console.log(
    `/healthz idle: p50 ${result.healthzIdle.p50} ms, p99 ${result.healthzIdle.p99} ms (${idle.length})`,
  )
  for (const [name, f] of [
    ['REST GET over the limit', restFlood],
    ['MCP initialize over the limit', mcpFlood],
  ] as const) {
    console.log(
      `${name}: ${f.sent} in ${values['flood-s']} s, statuses ${JSON.stringify(f.statuses)}, ${f.serverCpuMsPerRequest} ms server CPU each ` +
        `(${f.serverCores} cores); /healthz p50 ${f.healthz.p50} ms, p99 ${f.healthz.p99} ms (${f.healthz.n})`,
    )
  }
  console.log(JSON.stringify(result))
  const { out } = suite
  out.sizes = { rounds, sockets: 8, sessions: 4, floodSeconds: Number(values['flood-s']) }
  const healthRow = (name: string, h: { n: number; p50: number; p99: number }) =>
    out.timings.push({
      case: `${API_PATHS.health} ${name}`,
      fn: 'healthz',
      days: 0,
      impl: 'server',
      median: h.p50,
      p95: h.p99,
      mean: NaN,
      min: NaN,
      max: NaN,
      samples: h.n,
    })
  healthRow('idle', result.healthzIdle)
  healthRow('during a REST flood over the limit', restFlood.healthz)
  healthRow('during an MCP initialize flood over the limit', mcpFlood.healthz)
  out.notes.push('p95 column: p99 of the sequential /healthz calls')
  if (tally.hung > 0) out.failures.push(`${tally.hung} pipelined calls hung (no answer within 10 s)`)
  out.extra = result
  writeJson('suite-mcp-attack-S.json', out)
  process.exit(out.failures.length > 0 ? 1 : 0)
}

interface Flood {
  sent: number
  statuses: Record<string, number>
  detail: string
}

/** A flooding process: 6 keep-alive connections sending `what` with `key` for `flood-s` seconds. */
async function flood(what: string, port: number, key: string, seconds: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 })
  const body = JSON.stringify(INITIALIZE)
  const out: Flood = { sent: 0, statuses: {}, detail: '' }
  const once = () =>
    new Promise<void>((resolve) => {
      const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${key}` }
      if (what === 'initialize') {
        Object.assign(headers, {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
        })
      }
      const method = what === 'initialize' ? 'POST' : 'GET'
      const path = what === 'initialize' ? '/mcp' : DOMAIN_LIST.path
      const req = http.request({ host: '127.0.0.1', port, path, method, agent, headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const status = res.statusCode ?? 0
          out.statuses[status] = (out.statuses[status] ?? 0) + 1
          if (status === 429 && out.detail === '') {
            const parsed = JSON.parse(Buffer.concat(chunks).toString()) as {
              detail?: string
              error?: { message: string }
            }
            out.detail = parsed.detail ?? parsed.error?.message ?? ''
          }
          resolve()
        })
      })
      req.on('error', () => resolve())
      req.end(what === 'initialize' ? body : undefined)
    })
  process.send!('started')
  const end = Date.now() + seconds * 1000
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (Date.now() < end && out.sent < 1_000_000) {
        out.sent += 1
        await once()
      }
    }),
  )
  agent.destroy()
  process.send!(out)
}

if (values.serve) await serveChild()
else if (values.flood !== undefined)
  await flood(values.flood, Number(values.port), values.key!, Number(values['flood-s']))
else await main()
