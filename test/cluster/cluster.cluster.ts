/**
 * The cluster, for real: PostgreSQL, three shards and HAProxy on 127.0.0.1 (harness.ts), against
 * one in-process node holding the same data. Run with `npm run test:cluster` (not part of `npm test`).
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS } from '../../src/api/index.js'
import { CLUSTER_DETAIL, ControlPlane, SHARD_PATHS } from '../../src/cluster/index.js'
import { buildServer } from '../../src/http/index.js'
import { idempotentGet, TOOLS } from '../../src/mcp/index.js'
import { openEngine, type AnalysisRecord, type Engine } from '../../src/index.js'
import { dimRecords, makeAnalysis, makeDims, type Dims } from '../support/generate.js'
import { rng } from '../support/random.js'
import { ADMIN_TOKEN, Bench, CLI, RATE_LIMIT, waitFor, type ShardProcess } from './harness.js'

const bench = new Bench()
let cp: ControlPlane
let single: Engine
let node: FastifyInstance
let dims: Dims
let singleKey = ''
let mcpKey = ''
const keys: string[] = []
let nextKey = 0
/** A key of the pool (each allows RATE_LIMIT requests a minute). */
const key = () => keys[nextKey++ % keys.length]!

let batch = 0
function analyses(domainId: string, n: number): AnalysisRecord[] {
  const r = rng(1000 + batch)
  const b = batch++
  return Array.from({ length: n }, (_, i) => {
    const a = makeAnalysis(
      r,
      dims,
      domainId,
      `${(0xa000 + b).toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
      Date.now() - 3_600_000,
      60,
    )
    // The record additions too (citation titles and page types, fan-out queries): moves carry them.
    const citations = a.citations.map((c, j) =>
      j % 2 === 0 ? { ...c, title: `Page ${i % 7}`, page_type: j === 0 ? 'article' : null } : c,
    )
    const fanout = i % 3 === 0 ? { fanout_queries: [`best tools ${i % 5}`, `compare ${i % 4}`] } : {}
    return { ...a, citations, ...fanout }
  })
}

function writeNdjson(name: string, records: unknown[]): string {
  const file = join(bench.dir, name)
  writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n')
  return file
}

/** Both sides of one ingest: the single node and the cluster (through the CLI). */
async function ingestBoth(records: unknown[]): Promise<void> {
  await single.ingest(records)
  const r = await bench.cli([
    'cluster',
    'ingest',
    writeNdjson(`ingest-${batch}-${Date.now()}.ndjson`, records),
  ])
  expect(r.status, r.stderr).toBe(0)
}

const strip = (text: string): string => {
  const body = JSON.parse(text) as Record<string, unknown>
  return JSON.stringify({ ...body, generated_at: null })
}

const DOMAIN_ENDPOINTS = ENDPOINTS.filter((e) => 'domain_id' in e.params)

/**
 * A GET through the router as an HTTP/1.1 client sends it (idempotentGet): when HAProxy closes a
 * reused connection without an answer (its signal that the request was not processed: a shard died
 * under it), the GET is sent once more; `closed` says whether that happened.
 */
async function viaRouter(path: string): Promise<{ status: number; body: string; closed: boolean }> {
  const r = await idempotentGet(`${bench.routerUrl}${path}`, { authorization: `Bearer ${key()}` })
  return { status: r.status, body: r.body, closed: r.resent }
}

async function viaNode(path: string): Promise<{ status: number; body: string }> {
  const res = await node.inject({ url: path, headers: { authorization: `Bearer ${singleKey}` } })
  return { status: res.statusCode, body: res.body }
}

/** Every domain endpoint of a domain through the router, equal to the single node's answers. */
async function expectSamePayloads(domainId: string): Promise<void> {
  for (const e of DOMAIN_ENDPOINTS) {
    const path = `${e.path}?domain_id=${domainId}`
    const [a, b] = await Promise.all([viaRouter(path), viaNode(path)])
    expect({ path, status: a.status, body: a.status === b.status ? '' : a.body }).toEqual({
      path,
      status: b.status,
      body: '',
    })
    expect(strip(a.body), path).toBe(strip(b.body))
  }
}

async function shardOf(domainId: string): Promise<ShardProcess> {
  const a = await cp.assignment(domainId)
  return bench.shards.find((s) => s.name === a!.shard)!
}

/** Statuses per domain under load; `closed`: domains whose GET had to be sent again (see viaRouter). */
interface LoadSeen {
  statuses: Map<string, number[]>
  closed: Set<string>
}

/** Reads every domain through the router until `stop`, counting statuses per domain. */
function readLoad(concurrency: number): { stop: () => Promise<LoadSeen> } {
  const seen: LoadSeen = { statuses: new Map(), closed: new Set() }
  const errors: string[] = []
  let running = true
  const worker = async (w: number) => {
    let i = w
    while (running) {
      const d = dims.domains[i++ % dims.domains.length]!.id
      const e = DOMAIN_ENDPOINTS[i % DOMAIN_ENDPOINTS.length]!
      const status = await viaRouter(`${e.path}?domain_id=${d}`).then(
        (r) => {
          if (r.closed) seen.closed.add(d)
          if (r.status !== 200) errors.push(`${r.status} ${e.path} ${d}: ${r.body.slice(0, 160)}`)
          return r.status
        },
        (err: Error) => {
          errors.push(`${e.path} ${d}: ${err.message}: ${String((err.cause as Error | undefined)?.message)}`)
          return -1
        },
      )
      seen.statuses.set(d, [...(seen.statuses.get(d) ?? []), status])
    }
  }
  const workers = Array.from({ length: concurrency }, (_, w) => worker(w))
  return {
    stop: async () => {
      running = false
      await Promise.all(workers)
      if (errors.length > 0) console.warn('read errors:', [...new Set(errors)].slice(0, 10))
      return seen
    },
  }
}

beforeAll(async () => {
  await bench.startPostgres()
  for (const name of ['s1', 's2', 's3']) await bench.addShard(name)
  cp = await ControlPlane.connect(bench.url, { max: 4 })
  dims = makeDims(11, { teams: 2, domainsPerTeam: 4 })
  // The single node signs the answers' cursors with the cluster's secret, so its pages' next_cursor
  // are the shards' byte for byte (docs/API.md, "GET /api/v1/answers").
  const cursorSecret = await cp.setting('cursor_secret', () => randomBytes(32).toString('base64url'))
  single = await openEngine({ cursorSecret })
  node = await buildServer({
    engine: single,
    logger: false,
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
    // The test ingests into the engine directly, past the HTTP layer that would clear its cache.
    cacheTtl: { sentimentSeconds: 0, seriesSeconds: 0 },
  })
  const records = [...dimRecords(dims), ...dims.domains.flatMap((d) => analyses(d.id, 150))]
  await ingestBoth(records)
  const teamIds = dims.teams.map((t) => t.id)
  singleKey = (await single.createApiKey({ teamId: teamIds[0]!, scopeTeamIds: teamIds })).key
  // Enough keys that the tests' reads (many more per minute on a quiet machine) never meet the
  // shards' limit of RATE_LIMIT a minute per key; the MCP test has a key of its own.
  for (let i = 0; i < 1000; i++)
    keys.push((await cp.createKey({ teamId: teamIds[0]!, scopeTeamIds: teamIds })).key)
  mcpKey = (await cp.createKey({ teamId: teamIds[0]!, scopeTeamIds: teamIds })).key
  await bench.startHaproxy()
}, 180_000)

afterAll(async () => {
  await node?.close()
  await single?.close()
  await cp?.close().catch(() => undefined)
  await bench.stop()
}, 60_000)

describe('routing', () => {
  it('spreads the domains over the three shards', async () => {
    const shards = new Set((await cp.domainLoads()).map((d) => d.shard))
    expect(shards.size).toBe(3)
  })

  it('through HAProxy, every domain and endpoint answers byte for byte as one node does', async () => {
    for (const d of dims.domains) await expectSamePayloads(d.id)
    // Requests without a domain go to any shard: the listing is the same everywhere.
    const [a, b] = await Promise.all([viaRouter('/api/v1/domains'), viaNode('/api/v1/domains')])
    expect(a.status).toBe(200)
    expect(strip(a.body)).toBe(strip(b.body))
  })

  it('a shard answers 421 with a JSON detail for a domain it does not own', async () => {
    const d = dims.domains[0]!.id
    const owner = await shardOf(d)
    const other = bench.shards.find((s) => s !== owner)!
    const res = await fetch(`${other.url}/api/v1/prompts?domain_id=${d}`, {
      headers: { authorization: `Bearer ${key()}` },
    })
    expect(res.status).toBe(421)
    expect(await res.json()).toEqual({
      detail: 'Misdirected request: this domain is served by another shard.',
    })
    const ok = await fetch(`${owner.url}/api/v1/prompts?domain_id=${d}`, {
      headers: { authorization: `Bearer ${key()}` },
    })
    expect(ok.status).toBe(200)
  })
})

describe("internal endpoints: every dir inside the shard's work directory", () => {
  /** The shards' work directory: `cluster-work` beside their database files (harness.ts). */
  const work = () => join(bench.dir, 'cluster-work')
  const internal = async (path: string, body: unknown) => {
    const res = await fetch(`${bench.shards[0]!.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: res.status, text: await res.text() }
  }

  it('refuses absolute paths, "..", symbolic links out and files, naming dir and quoting no file', async () => {
    mkdirSync(work(), { recursive: true })
    symlinkSync('/etc', join(work(), 'escape'))
    // A file of the work directory whose text a JSON parser would quote in its message.
    mkdirSync(join(work(), 'junk'))
    // Named as an export's part, so the import reads it and its reader fails on the text.
    writeFileSync(join(work(), 'junk', 'teams.parquet'), 'secret-line-one{\nsecret-line-two\n')
    writeFileSync(join(work(), 'junk', 'domains.parquet'), 'secret-line-three{\n')
    writeFileSync(join(work(), 'plain-file'), 'secret-file-text')
    const cases: Array<[string, unknown]> = [
      [SHARD_PATHS.import, { dir: '/etc/passwd' }],
      [SHARD_PATHS.import, { dir: '../s1.duckdb' }],
      [SHARD_PATHS.import, { dir: 'a/../../etc' }],
      [SHARD_PATHS.import, { dir: 'escape' }],
      [SHARD_PATHS.import, { dir: 'escape/passwd' }],
      [SHARD_PATHS.import, { dir: 'plain-file' }],
      [SHARD_PATHS.import, { dir: 'junk' }],
      [SHARD_PATHS.import, { dir: 'missing' }],
      [SHARD_PATHS.import, {}],
      [SHARD_PATHS.export, { dir: join(bench.dir, 'outside-export') }],
      [SHARD_PATHS.export, { dir: 'escape/va-export' }],
      [SHARD_PATHS.export, { dir: '../outside-export' }],
      [SHARD_PATHS.discard, { dir: 'escape' }],
      [SHARD_PATHS.discard, { dir: '/tmp' }],
    ]
    for (const [path, body] of cases) {
      const r = await internal(path, body)
      const what = `${path} ${JSON.stringify(body)}`
      expect(r.status, what).toBe(400)
      const detail = (JSON.parse(r.text) as { detail: string }).detail
      expect(detail, what).toMatch(/^dir /)
      expect(r.text, what).not.toMatch(/secret|root:|JSON|Unexpected token/)
    }
    expect(existsSync(join(bench.dir, 'outside-export'))).toBe(false)
    expect(existsSync('/etc/va-export')).toBe(false)
    expect(existsSync(join(work(), 'junk', 'teams.parquet'))).toBe(true)
  })

  it('an export and an import inside the work directory still work', async () => {
    const d = dims.domains[0]!.id
    const owner = await shardOf(d)
    const res = await fetch(`${owner.url}${SHARD_PATHS.export}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dir: 'check/one-domain', domain_id: d }),
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { tables: Record<string, number>; path: string }
    expect(body.tables.analyses).toBeGreaterThan(0)
    expect(body.path.startsWith(work())).toBe(true)
    const again = await internal(SHARD_PATHS.export, { dir: 'check/one-domain' })
    expect(again.status).toBe(400) // an existing directory is never overwritten
    const gone = await internal(SHARD_PATHS.discard, { dir: 'check' })
    expect(gone.status).toBe(200)
    expect(existsSync(join(work(), 'check'))).toBe(false)
  })
})

describe('placement does not leak', () => {
  it('a non-owner shard answers 421 only to a key that may read the domain; others get the 403 of an unknown id', async () => {
    const d = dims.domains.find((x) => x.team_id === dims.teams[0]!.id)!.id
    const owner = await shardOf(d)
    const other = bench.shards.find((s) => s !== owner)!
    const get = async (url: string, secret: string, path: string) => {
      const r = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${secret}` } })
      return { status: r.status, body: await r.text() }
    }
    const unknown = '0f0f0f0f-0000-4000-8000-000000000000'
    for (const e of DOMAIN_ENDPOINTS) {
      // Fresh keys per endpoint: each allows RATE_LIMIT requests a minute.
      const outsider = (await cp.createKey({ teamId: dims.teams[1]!.id })).key
      const allowlisted = (
        await cp.createKey({
          teamId: dims.teams[0]!.id,
          allowedDomains: [dims.domains.find((x) => x.team_id === dims.teams[0]!.id && x.id !== d)!.id],
        })
      ).key
      for (const secret of [outsider, allowlisted]) {
        const foreign = await get(other.url, secret, `${e.path}?domain_id=${d}`)
        const none = await get(other.url, secret, `${e.path}?domain_id=${unknown}`)
        const atOwner = await get(owner.url, secret, `${e.path}?domain_id=${d}`)
        expect(foreign.status, e.path).not.toBe(421)
        expect(foreign.status, e.path).toBe(atOwner.status)
        expect(foreign.body, e.path).toBe(atOwner.body)
        if (secret === outsider) expect(foreign, e.path).toEqual(none)
      }
      // A key that may read it learns where it lives (unless its plan already refuses it).
      const reader = await get(other.url, key(), `${e.path}?domain_id=${d}`)
      const atOwner = await get(owner.url, key(), `${e.path}?domain_id=${d}`)
      expect(reader, e.path).toEqual(
        atOwner.status === 200
          ? { status: 421, body: JSON.stringify({ detail: CLUSTER_DETAIL.misdirected }) }
          : atOwner,
      )
    }
  })

  it('through HAProxy a percent-escaped, upper-case domain_id goes to its owner every time', async () => {
    const path = DOMAIN_ENDPOINTS[0]!.path
    for (const domain of dims.domains.slice(0, 3)) {
      const d = domain.id
      const escaped = d
        .toUpperCase()
        .replaceAll('-', '%2D')
        .replace(/[0-9]/, (c) => `%3${c}`)
      const want = await viaNode(`${path}?domain_id=${d}`)
      for (let i = 0; i < 9; i++) {
        const r = await viaRouter(`${path}?domain_id=${escaped}`)
        expect({ i, status: r.status }).toEqual({ i, status: 200 })
        expect(strip(r.body)).toBe(strip(want.body))
      }
    }
  })
})

describe('keys and rate limit across shards', () => {
  it('a key revoked on one shard is refused by every shard from the next request', async () => {
    const teamId = dims.teams[0]!.id
    const created = await cp.createKey({ teamId })
    const [s1, s2, s3] = bench.shards
    for (const s of [s1!, s2!, s3!]) {
      const r = await fetch(`${s.url}/api/v1/validate`, {
        headers: { authorization: `Bearer ${created.key}` },
      })
      expect(r.status).toBe(200)
    }
    const revoke = await fetch(`${s1!.url}/internal/v1/keys/${created.info.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(revoke.status).toBe(200)
    for (const s of [s2!, s3!, s1!]) {
      const r = await fetch(`${s.url}/api/v1/validate`, {
        headers: { authorization: `Bearer ${created.key}` },
      })
      expect(r.status, s.name).toBe(401)
    }
  })

  it(`the rate limit is exact across shards: of 60 requests spread over three shards, exactly ${RATE_LIMIT} succeed`, async () => {
    const created = await cp.createKey({ teamId: dims.teams[0]!.id })
    // All 60 in one window: start with at least 15 s left in it.
    await waitFor('a fresh rate-limit window', async () => 60 - ((Date.now() / 1000) % 60) > 15, 60_000)
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(`${bench.shards[i % 3]!.url}/api/v1/validate`, {
          headers: { authorization: `Bearer ${created.key}` },
        }).then((r) => r.status),
      ),
    )
    expect(statuses.filter((s) => s === 200).length).toBe(RATE_LIMIT)
    expect(statuses.filter((s) => s === 429).length).toBe(60 - RATE_LIMIT)
  })
})

describe('failures', () => {
  it('kill -9 of a shard under load: only its domains fail; after a restart it serves everything again', async () => {
    const victim = bench.shards[1]!
    const victimDomains = new Set(
      (await cp.domainLoads()).filter((d) => d.shard === victim.name).map((d) => d.id),
    )
    const load = readLoad(6)
    let seen: LoadSeen
    try {
      await new Promise((r) => setTimeout(r, 500))
      bench.killShard(victim)
      await new Promise((r) => setTimeout(r, 2500))
    } finally {
      seen = await load.stop()
      if (victim.child === null) await bench.startShard(victim)
    }
    for (const [domain, statuses] of seen.statuses) {
      const allowed = victimDomains.has(domain) ? [200, 503] : [200]
      expect([...new Set(statuses.filter((s) => !allowed.includes(s)))], domain).toEqual([])
    }
    // Only requests of the dead shard were cut; every other domain answered on the first try.
    expect([...seen.closed].filter((d) => !victimDomains.has(d))).toEqual([])
    expect([...victimDomains].some((d) => seen.statuses.get(d)?.includes(503))).toBe(true)
    await waitFor('the router to see the shard again', async () => {
      const d = [...victimDomains][0]!
      return (await viaRouter(`/api/v1/prompts?domain_id=${d}`)).status === 200
    })
    for (const d of victimDomains) await expectSamePayloads(d)
  })

  it('control plane down: shards serve from their cache for a bounded time, then answer 503; back when it returns', async () => {
    const d = dims.domains[0]!.id
    const owner = await shardOf(d)
    const k = keys[0]!
    const get = () =>
      fetch(`${owner.url}/api/v1/prompts?domain_id=${d}`, { headers: { authorization: `Bearer ${k}` } })
    expect((await get()).status).toBe(200)
    bench.stopPostgres()
    expect((await get()).status).toBe(200) // cached key, counted locally
    await new Promise((r) => setTimeout(r, 4500)) // VA_CLUSTER_STALE_S=3 on the test shards
    const down = await get()
    expect(down.status).toBe(503)
    expect(await down.json()).toEqual({
      detail: 'The control plane is unreachable. Please try again shortly.',
    })
    bench.restartPostgres()
    await waitFor('the shard to reach the control plane again', async () => (await get()).status === 200)
    // Every shard comes back, not only this one.
    await waitFor('every shard to reach the control plane again', async () => {
      const statuses = await Promise.all(
        bench.shards.map(async (s) => {
          const r = await fetch(`${s.url}/api/v1/validate`, { headers: { authorization: `Bearer ${k}` } })
          return r.status
        }),
      )
      return statuses.every((s) => s === 200)
    })
    await expectSamePayloads(d)
  })
})

describe('moves', () => {
  it('moves a domain under read and ingest load: no failed read, no analysis lost or duplicated', async () => {
    const d = dims.domains[2]!.id
    const from = await shardOf(d)
    const to = bench.shards.find((s) => s !== from)!
    await expectSamePayloads(d)
    const load = readLoad(4)
    // Ingest during the move: refused with 503 + Retry-After while moving, then accepted.
    let ingestRunning = true
    const refusals: string[] = []
    const ingester = (async () => {
      while (ingestRunning) {
        const records = analyses(d, 20)
        const r = await bench.cli(['cluster', 'ingest', writeNdjson(`during-${batch}.ndjson`, records)])
        if (r.status === 0) await single.ingest(records)
        else refusals.push(`${r.status} ${r.stderr.trim()}`)
        await new Promise((res) => setTimeout(res, 100))
      }
    })()
    const move = await bench.cli(['cluster', 'move', d, '--to', to.name, '--haproxy', bench.haproxyDir])
    ingestRunning = false
    await ingester
    // An ingest that met the move was refused whole (nothing stored), naming the move.
    for (const r of refusals)
      expect(r).toMatch(/^1 .*is being moved to another shard; retry in a few seconds$/)
    const seen = await load.stop()
    expect(move.status, move.stderr + move.stdout).toBe(0)
    for (const [domain, statuses] of seen.statuses)
      expect([...new Set(statuses.filter((s) => s !== 200))], domain).toEqual([])
    expect([...seen.closed]).toEqual([])
    expect((await cp.assignment(d))!.shard).toBe(to.name)
    await expectSamePayloads(d)
    // The source no longer serves it.
    const old = await fetch(`${from.url}/api/v1/prompts?domain_id=${d}`, {
      headers: { authorization: `Bearer ${key()}` },
    })
    expect(old.status).toBe(421)
  }, 300_000) // a loaded 2-core machine: the CLI processes of the ingest load start slowly
})

describe('fleet-wide batch', () => {
  const NOW = new Date(Date.now() - 60_000).toISOString()

  it('visibility report --cluster writes, for every domain, the payloads one node computes', async () => {
    const out = join(bench.dir, 'reports')
    const r = await bench.cli(['report', '--cluster', bench.url, '--all', '--out', out, '--now', NOW])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout.trim().split('\n')).toHaveLength(dims.domains.length)
    for (const d of dims.domains) {
      const base = { domainId: d.id, days: 30, now: NOW }
      const want: Record<string, unknown> = {
        'prompts.json': await single.computePromptSeries(base),
        'competitors.json': await single.computeCompetitorSeries({ ...base, model: 'all' }),
        'sentiment-overview.json': await single.sentimentOverview({ ...base, model: 'all' }),
        'sentiment-themes.json': await single.sentimentThemes({ ...base, model: 'all' }),
        'model-leaderboard.json': await single.modelLeaderboard(base),
        'sentiment-series.json': await single.sentimentSeries({ ...base, model: 'all' }),
        'cited-domains.json': await single.citedDomains({ ...base, model: 'all' }),
        'citations.json': await single.citations({ ...base, model: 'all' }),
      }
      for (const [file, payload] of Object.entries(want))
        expect(readFileSync(join(out, d.id, file), 'utf8'), `${d.id}/${file}`).toBe(
          `${JSON.stringify(payload, null, 2)}\n`,
        )
      expect(readFileSync(join(out, d.id, 'report.html'), 'utf8')).toContain(d.brand_name)
    }
  })

  it('visibility cluster export writes one hive-partitioned tree that DuckDB reads in one query, as one node exports it', async () => {
    const fleet = join(bench.dir, 'fleet-export')
    const r = await bench.cli(['cluster', 'export', '--out', fleet])
    expect(r.status, r.stderr).toBe(0)
    const local = join(bench.dir, 'single-export')
    await single.exportParquet(local)
    const db = await DuckDBInstance.create(':memory:')
    const conn = await db.connect()
    const rows = async (root: string, table: string) => {
      // A table with no rows (e.g. prompt_tags when no prompt has a tag) writes no partition.
      const dir = join(root, table)
      const files = existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : []
      if (!['teams', 'domains'].includes(table) && !files.some((f) => f.endsWith('.parquet'))) return []
      const from = ['teams', 'domains'].includes(table)
        ? `read_parquet('${root}/${table}.parquet')`
        : `read_parquet('${root}/${table}/**/*.parquet', hive_partitioning = true)`
      return (await conn.runAndReadAll(`SELECT * FROM ${from} ORDER BY ALL`)).getRowObjectsJson()
    }
    const tables = Object.keys((JSON.parse(r.stdout) as { tables: Record<string, number> }).tables)
    expect(tables).toEqual(expect.arrayContaining(['analyses', 'mentions', 'citations', 'fanout_queries']))
    const counts = (JSON.parse(r.stdout) as { tables: Record<string, number> }).tables
    for (const t of [...tables, 'teams', 'domains']) {
      const [a, b] = [await rows(fleet, t), await rows(local, t)]
      if (a.length === 0) expect(counts[t] ?? 0, `${t}: no partition only when the table is empty`).toBe(0)
      expect(a.length, t).toBe(b.length)
      expect(a, t).toEqual(b)
    }
    // One query over the whole fleet: analyses per domain, every domain there.
    const perDomain = (
      await conn.runAndReadAll(
        `SELECT domain_id, count(*)::INTEGER AS n FROM read_parquet('${fleet}/analyses/**/*.parquet', hive_partitioning = true) GROUP BY domain_id`,
      )
    ).getRowObjectsJson()
    expect(perDomain.map((row) => row.domain_id).sort()).toEqual(dims.domains.map((d) => d.id).sort())
    conn.closeSync()
    db.closeSync()
  })
})

describe('rebalance', () => {
  it('moves domains from the fullest shard to the emptiest until no move narrows the gap; payloads unchanged', async () => {
    // Unbalance: two domains of one shard get 400 more analyses each.
    const loads = await cp.domainLoads()
    const heavy = loads.filter((d) => d.shard === loads[0]!.shard).slice(0, 2)
    expect(heavy).toHaveLength(2)
    for (const d of heavy) await ingestBoth(analyses(d.id, 400))
    const gap = (ls: Array<{ shard: string; analyses: number }>) => {
      const per = new Map(bench.shards.map((s) => [s.name, 0]))
      for (const d of ls) per.set(d.shard, per.get(d.shard)! + d.analyses)
      return Math.max(...per.values()) - Math.min(...per.values())
    }
    const before = await cp.domainLoads()
    const r = await bench.cli(['cluster', 'rebalance', '--haproxy', bench.haproxyDir])
    expect(r.status, r.stderr).toBe(0)
    const moves = JSON.parse(r.stdout) as Array<{ domain: string; from: string; to: string }>
    expect(moves.length).toBeGreaterThan(0)
    const after = await cp.domainLoads()
    expect(gap(after)).toBeLessThan(gap(before))
    // Nothing lost: the same analyses in total, each moved domain where the report says.
    const total = (ls: Array<{ analyses: number }>) => ls.reduce((n, d) => n + d.analyses, 0)
    expect(total(after)).toBe(total(before))
    for (const m of moves) {
      expect((await cp.assignment(m.domain))!.shard).toBe(m.to)
      await expectSamePayloads(m.domain)
    }
    // No further move would narrow the gap.
    const per = new Map(bench.shards.map((s) => [s.name, 0]))
    for (const d of after) per.set(d.shard, per.get(d.shard)! + d.analyses)
    const fullest = [...per.entries()].sort((a, b) => b[1] - a[1])[0]![0]
    expect(after.filter((d) => d.shard === fullest && d.analyses > 0 && 2 * d.analyses < gap(after))).toEqual(
      [],
    )
  })
})

/** An SDK client on `transport`: the prompts tool of every domain answers as REST does (and pings). */
async function expectToolsAsRest(transport: Transport, ping: boolean): Promise<void> {
  const tool = TOOLS.find((t) => t.endpoint.id === 'prompt-series')!
  const client = new Client({ name: 'cluster-tests', version: '1.0.0' })
  await client.connect(transport)
  for (const d of dims.domains) {
    const result = await client.callTool({ name: tool.name, arguments: { domain_id: d.id } })
    expect(result.isError, d.id).toBeFalsy()
    const rest = await viaNode(`${tool.endpoint.path}?domain_id=${d.id}`)
    expect(strip(JSON.stringify(result.structuredContent))).toBe(strip(rest.body))
    if (ping) await client.ping()
  }
  await client.close()
}

describe('MCP through the router', () => {
  /** One raw MCP POST (JSON answers: the service runs the SDK transport with JSON responses). */
  const mcpPost = async (url: string, secret: string, body: unknown, session?: string) => {
    const res = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${secret}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(session === undefined ? {} : { 'mcp-session-id': session }),
      },
      body: JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, session: res.headers.get('mcp-session-id'), text }
  }
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'cluster', version: '1' },
    },
  }

  it('sessions through HAProxy stick to their shard: every ping of several sessions is 200', async () => {
    const secret = (
      await cp.createKey({ teamId: dims.teams[0]!.id, scopeTeamIds: dims.teams.map((t) => t.id) })
    ).key
    const sessions: string[] = []
    for (let s = 0; s < 3; s++) {
      const init = await mcpPost(bench.routerUrl, secret, initialize)
      expect(init.status, init.text).toBe(200)
      sessions.push(init.session!)
      const ack = await mcpPost(
        bench.routerUrl,
        secret,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        init.session!,
      )
      expect(ack.status).toBe(202)
    }
    const statuses: number[] = []
    for (let i = 0; i < 6; i++)
      for (const session of sessions)
        statuses.push(
          (await mcpPost(bench.routerUrl, secret, { jsonrpc: '2.0', id: 10 + i, method: 'ping' }, session))
            .status,
        )
    expect(statuses).toEqual(statuses.map(() => 200))
  })

  it("a tool call on a shard that does not own the domain answers the owner's payload, never an empty one", async () => {
    const tool = TOOLS.find((t) => t.endpoint.id === 'prompt-series')!
    for (const d of dims.domains.slice(0, 4)) {
      const owner = await shardOf(d.id)
      const other = bench.shards.find((s) => s !== owner)!
      const secret = (
        await cp.createKey({ teamId: dims.teams[0]!.id, scopeTeamIds: dims.teams.map((t) => t.id) })
      ).key
      const init = await mcpPost(other.url, secret, initialize)
      expect(init.status).toBe(200)
      await mcpPost(other.url, secret, { jsonrpc: '2.0', method: 'notifications/initialized' }, init.session!)
      const rest = await viaNode(`${tool.endpoint.path}?domain_id=${d.id}`)
      // Twice: the second answer may come from the non-owner's cache, and must be the same.
      for (let i = 0; i < 2; i++) {
        const call = await mcpPost(
          other.url,
          secret,
          {
            jsonrpc: '2.0',
            id: 2 + i,
            method: 'tools/call',
            params: { name: tool.name, arguments: { domain_id: d.id } },
          },
          init.session!,
        )
        expect(call.status).toBe(200)
        const result = (
          JSON.parse(call.text) as {
            result: { isError?: boolean; structuredContent: { data: { items: unknown[] } } }
          }
        ).result
        expect(result.isError, call.text.slice(0, 300)).toBeFalsy()
        expect(result.structuredContent.data.items.length, d.id).toBeGreaterThan(0)
        expect(strip(JSON.stringify(result.structuredContent))).toBe(strip(rest.body))
      }
    }
  })

  it('an SDK client over Streamable HTTP through HAProxy answers every domain as the REST API does', async () => {
    const secret = (
      await cp.createKey({ teamId: dims.teams[0]!.id, scopeTeamIds: dims.teams.map((t) => t.id) })
    ).key
    const transport = new StreamableHTTPClientTransport(new URL(`${bench.routerUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    })
    await expectToolsAsRest(transport, true)
  })
  it('visibility mcp --api ROUTER answers every domain as the REST API does', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--api', bench.routerUrl],
      env: { ...(process.env as Record<string, string>), VA_API_KEY: mcpKey },
      stderr: 'pipe',
    })
    await expectToolsAsRest(transport, false)
  })
})
