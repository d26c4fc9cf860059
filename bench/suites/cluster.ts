/**
 * Suite "cluster" (opt-in: `npm run bench -- --only=cluster [--seconds=N] [--move-analyses=N]
 * [--part=throughput|move]`): the figures of docs/SCALING.md, measured on 127.0.0.1 with the test
 * bench (test/cluster/harness.ts: PostgreSQL by pg_ctl, shards as `visibility serve --cluster`
 * processes, HAProxy). Needs PostgreSQL and HAProxy installed, so the default and quick runs skip it.
 *
 *   throughput   the same dataset (9 domains, --analyses per domain) behind HAProxy on 1, 2 and 3
 *                shards, and a plain `visibility serve` node and one shard called directly:
 *                autocannon, 20 connections, --seconds each, random domain x report endpoint
 *   control      the control plane's per-request round trip (the rate-limit count), sequential
 *   move         one domain of --move-analyses analyses (128 000: about 25 MB a year) moved
 *                between two shards while other domains are read: seconds, rows, read failures
 *                and the slowest read meanwhile (source_mb: the source's file and WAL growth)
 *
 * Prints one JSON object; writes bench/out/suite-cluster-local.json. Run it alone on the machine:
 * the figures are CPU-bound.
 */
import { spawn } from 'node:child_process'
import { existsSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type autocannonType from 'autocannon'
import { ENDPOINTS } from '../../src/api/index.js'
import { ControlPlane } from '../../src/cluster/index.js'
import { Bench, CLI, freePort, waitFor } from '../../test/cluster/harness.js'
import { dimRecords, makeAnalyses, makeDims, type Dims } from '../../test/support/generate.js'
import { startSuite, writeJson } from '../lib/suite.js'

const autocannon = ((await import('autocannon' as string)) as { default: typeof autocannonType }).default

const suite = startSuite('cluster', { defaultDataset: 'local' as never })
const option = (name: string, fallback: string): string => {
  const v = suite.args[name]
  return typeof v === 'string' ? v : fallback
}
const SECONDS = Number(option('seconds', '10'))
/** `throughput` or `move`: one part only. */
const ONLY = typeof suite.args.part === 'string' ? suite.args.part : undefined
const PER_DOMAIN = Number(option('analyses', '2000'))
const MOVE_ANALYSES = Number(option('move-analyses', '128000'))
const SHARD_ENV = { VA_RATE_LIMIT: '1000000', VA_LOG_LEVEL: 'error', VA_CLUSTER_STALE_S: '30' }
const DOMAIN_ENDPOINTS = ENDPOINTS.filter((e) => 'domain_id' in e.params)

const dims: Dims = makeDims(5, { teams: 3, domainsPerTeam: 3, promptsPerDomain: 20, competitorsPerDomain: 6 })
/** The dataset: PER_DOMAIN analyses a domain, in batches of at most 20 000 records. */
function datasetFiles(dir: string): string[] {
  const files = [join(dir, 'dims.ndjson')]
  writeFileSync(
    files[0]!,
    dimRecords(dims)
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  )
  const total = PER_DOMAIN * dims.domains.length
  for (let b = 0; b * 20_000 < total; b++) {
    const n = Math.min(20_000, total - b * 20_000)
    const file = join(dir, `analyses-${b}.ndjson`)
    writeFileSync(
      file,
      makeAnalyses(5, dims, b + 1, n)
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    )
    files.push(file)
  }
  return files
}

/** Every domain x report endpoint, each request a random one of them. */
function requests(key: string): autocannonType.Request[] {
  const paths = dims.domains.flatMap((d) => DOMAIN_ENDPOINTS.map((e) => `${e.path}?domain_id=${d.id}`))
  let i = 0
  return [
    {
      method: 'GET',
      setupRequest: (req) => ({
        ...req,
        path: paths[(i = (i * 7 + 13) % paths.length)]!,
        headers: { authorization: `Bearer ${key}` },
      }),
    },
  ]
}

async function load(url: string, key: string): Promise<Record<string, number>> {
  // Warm: every URL once (the shards' response caches then hold them, as in steady traffic).
  for (const d of dims.domains)
    for (const e of DOMAIN_ENDPOINTS)
      await (
        await fetch(`${url}${e.path}?domain_id=${d.id}`, { headers: { authorization: `Bearer ${key}` } })
      ).text()
  const r = await autocannon({ url, connections: 20, duration: SECONDS, requests: requests(key) })
  return {
    requests_per_s: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    non_2xx: r.non2xx,
    errors: r.errors,
  }
}

async function cli(bench: Bench, args: string[]): Promise<string> {
  const r = await bench.cli(args)
  if (r.status !== 0) throw new Error(`visibility ${args.join(' ')}: ${r.stderr}`)
  return r.stdout
}

/** A cluster of `n` shards holding the dataset, with HAProxy and a key. */
async function cluster(n: number): Promise<{ bench: Bench; cp: ControlPlane; key: string }> {
  const bench = new Bench({ shardEnv: SHARD_ENV })
  await bench.startPostgres()
  for (let i = 1; i <= n; i++) await bench.addShard(`s${i}`)
  await cli(bench, ['cluster', 'ingest', ...datasetFiles(bench.dir)])
  await bench.startHaproxy()
  const cp = await ControlPlane.connect(bench.url, { max: 2 })
  const key = (await cp.createKey({ teamId: dims.teams[0]!.id, scopeTeamIds: dims.teams.map((t) => t.id) }))
    .key
  return { bench, cp, key }
}

const out: Record<string, unknown> = { seconds_per_run: SECONDS, analyses_per_domain: PER_DOMAIN }

// A plain node (no control plane, no router), same dataset.
if (ONLY === undefined || ONLY === 'throughput') {
  const bench = new Bench()
  const db = join(bench.dir, 'plain.duckdb')
  await cli(bench, ['ingest', ...datasetFiles(bench.dir), '--db', db])
  const port = await freePort()
  const child = spawn(process.execPath, [CLI, 'serve', '--db', db, '--port', String(port)], {
    env: { ...process.env, ...SHARD_ENV, VA_ADMIN_TOKEN: 'bench-admin-token-0123456789abcdef' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  await waitFor('the plain node', async () => (await fetch(`${url}/healthz`)).ok, 60_000)
  const created = await fetch(`${url}/internal/v1/keys`, {
    method: 'POST',
    headers: {
      authorization: 'Bearer bench-admin-token-0123456789abcdef',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ team_id: dims.teams[0]!.id, scope_team_ids: dims.teams.map((t) => t.id) }),
  })
  const { key } = (await created.json()) as { key: string }
  out.plain_node_direct = await load(url, key)
  child.kill('SIGTERM')
  bench.stopSync()
}

for (const n of ONLY === undefined || ONLY === 'throughput' ? [1, 2, 3] : []) {
  const { bench, cp, key } = await cluster(n)
  if (n === 1) {
    out.one_shard_direct = await load(bench.shards[0]!.url, key)
    // The control plane's round trip per request: the rate-limit count (keys are cached).
    const start = Math.floor(Date.now() / 60_000) * 60
    const keyId = (await cp.listKeys())[0]!.id
    const times: number[] = []
    for (let i = 0; i < 2000; i++) {
      const t = performance.now()
      await cp.count(keyId, start, 1)
      times.push(performance.now() - t)
    }
    times.sort((a, b) => a - b)
    out.control_plane_count_ms = {
      mean: Number((times.reduce((a, b) => a + b, 0) / times.length).toFixed(3)),
      p99: Number(times[Math.floor(times.length * 0.99)]!.toFixed(3)),
    }
  }
  out[`haproxy_${n}_shards`] = await load(bench.routerUrl, key)
  await cp.close()
  await bench.stop()
}

// Moving a large domain while the other domains are read.
if (ONLY === undefined || ONLY === 'move') {
  const { bench, cp, key } = await cluster(2)
  const big = dims.domains[0]!
  const from = (await cp.assignment(big.id))!.shard
  const to = from === 's1' ? 's2' : 's1'
  const src = bench.shards.find((s) => s.name === from)!
  const size = (f: string) => statSync(f).size + (existsSync(`${f}.wal`) ? statSync(`${f}.wal`).size : 0)
  const before = size(src.db)
  for (let b = 0; b * 20_000 < MOVE_ANALYSES; b++) {
    const n = Math.min(20_000, MOVE_ANALYSES - b * 20_000)
    const file = join(bench.dir, `big-${b}.ndjson`)
    const records = makeAnalyses(9, { ...dims, domains: [big] }, 100 + b, n)
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n')
    await cli(bench, ['cluster', 'ingest', file])
  }
  const grown = size(src.db) - before
  // Reads of every other domain (both shards) during the move.
  const others = dims.domains.slice(1)
  let running = true
  let failures = 0
  let reads = 0
  let slowest = 0
  const failed: Record<string, number> = {}
  const reader = (async () => {
    let i = 0
    while (running) {
      const d = others[i++ % others.length]!
      const e = DOMAIN_ENDPOINTS[i % DOMAIN_ENDPOINTS.length]!
      const t = performance.now()
      const res = await fetch(`${bench.routerUrl}${e.path}?domain_id=${d.id}&days=${1 + (i % 90)}`, {
        headers: { authorization: `Bearer ${key}` },
      }).catch(() => null)
      await res?.text()
      slowest = Math.max(slowest, performance.now() - t)
      reads += 1
      if (res?.status !== 200) {
        failures += 1
        const what = `${res?.status ?? 'no answer'}`
        failed[what] = (failed[what] ?? 0) + 1
      }
    }
  })()
  const t = performance.now()
  const moved = JSON.parse(
    await cli(bench, ['cluster', 'move', big.id, '--to', to, '--haproxy', bench.haproxyDir]),
  ) as { rows: Record<string, number>; seconds: number }
  const wall = (performance.now() - t) / 1000
  running = false
  await reader
  out.move = {
    from,
    to,
    analyses: moved.rows.analyses,
    rows: moved.rows,
    source_mb: Number((grown / 1e6).toFixed(1)),
    seconds: Number(moved.seconds.toFixed(1)),
    wall_seconds_with_cli: Number(wall.toFixed(1)),
    other_domain_reads: reads,
    other_domain_read_failures: failures,
    failures_by_status: failed,
    slowest_other_read_ms: Math.round(slowest),
  }
  await cp.close()
  await bench.stop()
}

process.stdout.write(`${JSON.stringify(out, null, 2)}\n`)
suite.out.sizes = { analyses_per_domain: PER_DOMAIN, domains: dims.domains.length, seconds_per_run: SECONDS }
for (const [name, value] of Object.entries(out)) {
  const r = value as Record<string, number>
  if (typeof r !== 'object' || r === null || !('p50_ms' in r)) continue
  suite.out.timings.push({
    case: `${name}: ${r.requests_per_s} requests/s, ${r.non_2xx} non-2xx`,
    fn: 'autocannon',
    days: 0,
    impl: name,
    median: r.p50_ms!,
    p95: r.p99_ms!,
    mean: NaN,
    min: NaN,
    max: NaN,
    samples: NaN,
  })
}
suite.out.notes.push('p95 column: autocannon p99')
suite.out.extra = out
writeJson('suite-cluster-local.json', suite.out)
