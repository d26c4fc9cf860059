/**
 * @module What runs across shards: ingest (directory records to the control plane, each domain's
 * records to its shard), moves of a domain between shards, rebalancing and the fleet-wide export.
 *
 * Ingest guarantee: each shard stores its part in one transaction (all or nothing per shard). The
 * call holds the control plane's row locks on its domains until every shard answered, so no move
 * of those domains starts in between. When a shard fails, the others keep what they stored and
 * the call fails with a report of both; records are upserts by id, so sending the same call again
 * completes it.
 */
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { DIRECTORY_CHANNEL, type ControlPlane, type ShardInfo } from './control-plane.js'
import { backendOf, setRoute, writeMapFile, type HaproxyFiles } from './haproxy.js'
import type { Engine } from '../index.js'
import { SHARD_PATHS, type ReportMethod } from './shard.js'

/** Thrown when a call touches a domain being moved (HTTP: 503 with Retry-After). */
export class DomainMovingError extends Error {
  readonly retryAfterSeconds = 5
  constructor(readonly domainIds: string[]) {
    super(`domain ${domainIds.join(', ')} is being moved to another shard; retry in a few seconds`)
    this.name = 'DomainMovingError'
  }
}

/** What one cluster ingest stored where. */
export interface ClusterIngestReport {
  /** Per shard: the shard's ingest result, or its error. */
  shards: Record<string, { stored: Record<string, number> } | { error: string }>
  /** New domains and the shard each was assigned to. */
  assigned: Record<string, string>
}

export class ClusterIngestError extends Error {
  constructor(readonly report: ClusterIngestReport) {
    const failed = Object.entries(report.shards).filter(([, r]) => 'error' in r)
    super(
      `ingest failed on ${failed.map(([s, r]) => `${s} (${'error' in r ? r.error : ''})`).join(', ')}; ` +
        `stored on ${
          Object.keys(report.shards)
            .filter((s) => !failed.some(([f]) => f === s))
            .join(', ') || 'none'
        }`,
    )
    this.name = 'ClusterIngestError'
  }
}

/**
 * JSON over HTTP to a shard's internal endpoints with the admin token.
 * @example
 * await shardCall(shard, token, 'POST', SHARD_PATHS.digest, { domain_id, now })
 */
export async function shardCall<T>(
  shard: ShardInfo,
  token: string,
  path: string,
  body: unknown,
  contentType = 'application/json',
): Promise<T> {
  const res = await fetch(new URL(path, shard.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) {
    let detail = text.slice(0, 300)
    try {
      detail = (JSON.parse(text) as { detail?: string }).detail ?? detail
    } catch {
      // not JSON: keep the text
    }
    throw new Error(`shard ${shard.name} answered ${res.status}: ${detail}`)
  }
  return JSON.parse(text) as T
}

type Rec = Record<string, unknown> & { type?: unknown }

/** Reads NDJSON files into records (a line that is not a JSON object fails the call). */
async function readRecords(files: string[]): Promise<Rec[]> {
  const out: Rec[] = []
  for (const file of files) {
    let n = 0
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      n += 1
      if (line.trim() === '') continue
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch {
        throw new Error(`${file} line ${n}: not JSON`)
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        throw new Error(`${file} line ${n}: not a JSON object`)
      out.push(value as Rec)
    }
  }
  return out
}

const lower = (v: unknown): string => String(v).toLowerCase()

/**
 * Ingests NDJSON files into the cluster.
 * @example
 * const report = await clusterIngest(cp, ['day.ndjson'], process.env.VA_ADMIN_TOKEN!)
 */
export async function clusterIngest(
  cp: ControlPlane,
  files: string[],
  adminToken: string,
): Promise<ClusterIngestReport> {
  return ingestRecords(cp, await readRecords(files), adminToken)
}

/** The records of one call, routed: directory records and deletions to every shard, the rest by domain. */
export async function ingestRecords(
  cp: ControlPlane,
  records: Rec[],
  adminToken: string,
): Promise<ClusterIngestReport> {
  const shards = await cp.shards()
  if (shards.length === 0) throw new Error('no shard is registered in the control plane')
  const teams = records.filter((r) => r.type === 'team')
  const domains = records.filter((r) => r.type === 'domain')
  const deletes = records.filter((r) => r.type === 'delete')
  const data = records.filter((r) => r.type !== 'team' && r.type !== 'domain' && r.type !== 'delete')
  const everywhere = [...deletes, ...teams, ...domains]
  const touched = [
    ...new Set([...domains.map((d) => lower(d.id)), ...data.map((r) => lower(r.domain_id))]),
  ].sort()

  return cp.transaction(async (c) => {
    // Lock the call's domains (sorted: no deadlock between calls); a move waits for this call.
    const locked = await c.query(
      'SELECT id, shard, state FROM va_domains WHERE id = ANY($1) ORDER BY id FOR SHARE',
      [touched],
    )
    const place = new Map<string, string>(locked.rows.map((r) => [String(r.id), String(r.shard)]))
    const moving = locked.rows.filter((r) => r.state === 'moving').map((r) => String(r.id))
    if (moving.length > 0) throw new DomainMovingError(moving)

    for (const t of teams) {
      await c.query(
        'INSERT INTO va_teams (id, record) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET record = EXCLUDED.record',
        [lower(t.id), JSON.stringify(t)],
      )
    }
    // New domains go to the shard holding the fewest analyses, counting this call's new ones.
    const load = new Map(shards.map((s) => [s.name, 0]))
    for (const r of (await c.query('SELECT shard, sum(analyses)::bigint AS n FROM va_domains GROUP BY shard'))
      .rows)
      load.set(String(r.shard), Number(r.n))
    const perDomain = new Map<string, number>()
    for (const r of data)
      if (r.type === 'analysis')
        perDomain.set(lower(r.domain_id), (perDomain.get(lower(r.domain_id)) ?? 0) + 1)
    const assigned: Record<string, string> = {}
    for (const d of domains) {
      const id = lower(d.id)
      if (!place.has(id)) {
        const shard = [...load.entries()].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))[0]![0]
        place.set(id, shard)
        assigned[id] = shard
        load.set(shard, load.get(shard)! + (perDomain.get(id) ?? 0) + 1)
      }
      await c.query(
        `INSERT INTO va_domains (id, team_id, record, shard) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET team_id = EXCLUDED.team_id, record = EXCLUDED.record`,
        [id, lower(d.team_id), JSON.stringify(d), place.get(id)],
      )
    }
    const unknown = [...new Set(data.map((r) => lower(r.domain_id)))].filter((id) => !place.has(id))
    if (unknown.length > 0)
      throw new Error(`domain ${unknown[0]} is not in the cluster's directory: send its domain record first`)

    // Deletions of teams and domains leave the directory too.
    for (const d of deletes) {
      if (d.entity === 'domain') await c.query('DELETE FROM va_domains WHERE id = $1', [lower(d.id)])
      if (d.entity === 'team') {
        await c.query('DELETE FROM va_domains WHERE team_id = $1', [lower(d.id)])
        await c.query('DELETE FROM va_api_keys WHERE team_id = $1', [lower(d.id)])
        await c.query('DELETE FROM va_teams WHERE id = $1', [lower(d.id)])
      }
    }

    const parts = new Map<string, Rec[]>(shards.map((s) => [s.name, [...everywhere]]))
    for (const r of data) parts.get(place.get(lower(r.domain_id))!)!.push(r)
    const report: ClusterIngestReport = { shards: {}, assigned }
    await Promise.all(
      shards.map(async (s) => {
        const body = parts.get(s.name)!
        if (body.length === 0) return
        try {
          const stored = await shardCall<Record<string, number>>(
            s,
            adminToken,
            '/internal/v1/ingest',
            body.map((r) => JSON.stringify(r)).join('\n') + '\n',
            'application/x-ndjson',
          )
          report.shards[s.name] = { stored }
        } catch (e) {
          report.shards[s.name] = { error: (e as Error).message }
        }
      }),
    )
    for (const [id, n] of perDomain) {
      if (report.shards[place.get(id)!] && 'stored' in report.shards[place.get(id)!]!)
        await c.query('UPDATE va_domains SET analyses = analyses + $2 WHERE id = $1', [id, n])
    }
    await c.query('SELECT pg_notify($1, $2)', [DIRECTORY_CHANNEL, 'all'])
    if (Object.values(report.shards).some((r) => 'error' in r)) {
      // The directory keeps what the shards that succeeded now hold.
      await c.query('COMMIT')
      await c.query('BEGIN')
      throw new ClusterIngestError(report)
    }
    return report
  })
}

/** The directory tables: every shard holds them whole, so a move does not compare them. */
const DIRECTORY_TABLES = new Set(['teams', 'domains'])

export interface MoveOptions {
  adminToken: string
  /** Where the export is written: a directory both shards can read (same machine or a shared volume). */
  workDir: string
  /** The router to update (map file and admin socket); none: only the control plane changes. */
  haproxy?: Pick<HaproxyFiles, 'map' | 'socket'>
  /** Milliseconds between the route switch and the source's deletion (requests in flight finish). */
  drainMs?: number
  /** Progress lines. */
  log?: (line: string) => void
}

export interface MoveReport {
  domain: string
  from: string
  to: string
  rows: Record<string, number>
  seconds: number
}

async function setAssignment(cp: ControlPlane, id: string, sql: string, params: unknown[]): Promise<void> {
  await cp.transaction(async (c) => {
    await c.query(sql, [id, ...params])
    await c.query('SELECT pg_notify($1, $2)', [DIRECTORY_CHANNEL, `domain:${id}`])
  })
}

/**
 * Moves a domain to another shard: moving (ingest refused), export, import, verify row counts and
 * every payload digest, switch the control plane and the router, then delete it from the source.
 * @example
 * await moveDomain(cp, domainId, 's2', { adminToken, workDir: '/tmp/moves', haproxy: files })
 */
export async function moveDomain(
  cp: ControlPlane,
  domainIdIn: string,
  to: string,
  options: MoveOptions,
): Promise<MoveReport> {
  const started = performance.now()
  const log = options.log ?? (() => undefined)
  const id = domainIdIn.toLowerCase()
  const target = await cp.shard(to)
  const { from, record } = await cp.transaction(async (c) => {
    const r = await c.query('SELECT shard, state, record FROM va_domains WHERE id = $1 FOR UPDATE', [id])
    if (r.rows.length === 0) throw new Error(`domain ${id} is not in the cluster's directory`)
    const row = r.rows[0]!
    if (row.state === 'moving') throw new DomainMovingError([id])
    if (row.shard === to) throw new Error(`domain ${id} is already on shard ${to}`)
    await c.query("UPDATE va_domains SET state = 'moving', previous_shard = shard WHERE id = $1", [id])
    await c.query('SELECT pg_notify($1, $2)', [DIRECTORY_CHANNEL, `domain:${id}`])
    return { from: String(row.shard), record: row.record as Record<string, unknown> }
  })
  const source = await cp.shard(from)
  mkdirSync(resolve(options.workDir), { recursive: true })
  const dir = join(resolve(options.workDir), `move-${id}-${Date.now()}`)
  const token = options.adminToken
  let switched = false
  try {
    log(`${id}: moving from ${from} to ${to}; ingest for it answers 503 until done`)
    const exported = await shardCall<{ tables: Record<string, number> }>(source, token, SHARD_PATHS.export, {
      domain_id: id,
      dir,
    })
    const imported = await shardCall<Record<string, number>>(target, token, SHARD_PATHS.import, { dir })
    // Every table of the domain's partition, whatever the export holds (fan-out queries included).
    for (const t of Object.keys(exported.tables).filter((name) => !DIRECTORY_TABLES.has(name))) {
      if ((exported.tables[t] ?? 0) !== (imported[t] ?? 0))
        throw new Error(
          `verification failed: ${t} exported ${exported.tables[t] ?? 0}, imported ${imported[t] ?? 0}`,
        )
    }
    const now = new Date().toISOString()
    const [a, b] = await Promise.all(
      [source, target].map((s) =>
        shardCall<{ digests: Record<string, string> }>(s, token, SHARD_PATHS.digest, { domain_id: id, now }),
      ),
    )
    const differ = Object.keys(a!.digests).filter((k) => a!.digests[k] !== b!.digests[k])
    if (differ.length > 0) throw new Error(`verification failed: payloads differ for ${differ.join(', ')}`)
    log(
      `${id}: ${exported.tables.analyses ?? 0} analyses copied and verified (${Object.keys(a!.digests).length} payloads)`,
    )

    // Both shards serve it now (the source as `previous`); then the router switches.
    await setAssignment(cp, id, 'UPDATE va_domains SET shard = $2 WHERE id = $1', [to])
    switched = true
    if (options.haproxy !== undefined) {
      await setRoute(options.haproxy, id, to)
      writeMapFile(options.haproxy.map, await cp.assignments())
    }
    await new Promise((r) => setTimeout(r, options.drainMs ?? 1000))
    await setAssignment(
      cp,
      id,
      "UPDATE va_domains SET previous_shard = NULL, state = 'active', analyses = $2 WHERE id = $1",
      [exported.tables.analyses ?? 0],
    )
    await shardCall(source, token, SHARD_PATHS.drop, { record })
    log(`${id}: now on ${to} (${backendOf(to)}); deleted from ${from}`)
    return { domain: id, from, to, rows: exported.tables, seconds: (performance.now() - started) / 1000 }
  } catch (e) {
    if (!switched) {
      // Back to the source; whatever reached the target is deleted there.
      await shardCall(target, token, SHARD_PATHS.drop, { record }).catch(() => undefined)
      await setAssignment(
        cp,
        id,
        "UPDATE va_domains SET previous_shard = NULL, state = 'active' WHERE id = $1",
        [],
      )
    }
    throw e
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Moves domains from the fullest shard to the emptiest while that narrows the gap between them.
 * @example
 * const moves = await rebalance(cp, { adminToken, workDir })
 */
export async function rebalance(
  cp: ControlPlane,
  options: MoveOptions & { maxMoves?: number },
): Promise<MoveReport[]> {
  const done: MoveReport[] = []
  for (let i = 0; i < (options.maxMoves ?? 100); i++) {
    const shards = await cp.shards()
    const domains = await cp.domainLoads()
    const load = new Map(shards.map((s) => [s.name, 0]))
    for (const d of domains) load.set(d.shard, (load.get(d.shard) ?? 0) + d.analyses)
    const sorted = [...load.entries()].sort((a, b) => b[1] - a[1])
    const [full, empty] = [sorted[0]!, sorted[sorted.length - 1]!]
    const gap = full[1] - empty[1]
    // The largest domain of the fullest shard that still narrows the gap.
    const candidate = domains
      .filter((d) => d.shard === full[0] && d.analyses > 0 && 2 * d.analyses < gap)
      .sort((a, b) => b.analyses - a.analyses)[0]
    if (candidate === undefined) break
    done.push(await moveDomain(cp, candidate.id, empty[0], options))
  }
  return done
}

/**
 * Every shard's export in one hive-partitioned tree: `teams.parquet`, `domains.parquet` and
 * `<table>/domain_id=<uuid>/*.parquet` (each domain from the shard that owns it).
 * @example
 * await fleetExport(cp, 'export/', token) // then: SELECT ... FROM read_parquet('export/analyses/** /*.parquet', hive_partitioning = true)
 */
export async function fleetExport(
  cp: ControlPlane,
  out: string,
  adminToken: string,
): Promise<Record<string, number>> {
  const root = resolve(out)
  mkdirSync(root, { recursive: true })
  const shards = await cp.shards()
  const totals: Record<string, number> = {}
  let heads = false
  for (const s of shards) {
    // A shard stores data only for its domains, and the whole directory (teams, domains).
    const part = join(root, `.part-${s.name}`)
    const r = await shardCall<{ tables: Record<string, number> }>(s, adminToken, SHARD_PATHS.export, {
      dir: part,
    })
    for (const entry of readdirSync(part, { withFileTypes: true })) {
      const from = join(part, entry.name)
      if (!entry.isDirectory()) {
        // teams.parquet and domains.parquet: every shard holds the whole directory; keep one.
        if (!heads && entry.name.endsWith('.parquet')) renameSync(from, join(root, entry.name))
        if (entry.name.endsWith('.parquet'))
          totals[entry.name.replace('.parquet', '')] = r.tables[entry.name.replace('.parquet', '')] ?? 0
        continue
      }
      mkdirSync(join(root, entry.name), { recursive: true })
      for (const p of readdirSync(from)) {
        const dest = join(root, entry.name, p)
        if (existsSync(dest)) rmSync(dest, { recursive: true })
        renameSync(join(from, p), dest)
      }
    }
    heads = true
    rmSync(part, { recursive: true, force: true })
    for (const [t, n] of Object.entries(r.tables))
      if (t !== 'teams' && t !== 'domains') totals[t] = (totals[t] ?? 0) + n
  }
  return totals
}

/** The engine methods of the batch report, each answered by a shard (see `clusterReportSource`). */
export type ClusterReportSource = Pick<Engine, ReportMethod>

/**
 * What `visibility report --cluster` reads: each domain's reports computed on the shard that owns
 * it (as a trusted local caller, through the admin token); the directory (domains) from any shard,
 * since every shard stores all of it.
 * @example
 * const source = await clusterReportSource(cp, token)
 * const payload = await source.computePromptSeries({ domainId, days: 30 })
 */
export async function clusterReportSource(
  cp: ControlPlane,
  adminToken: string,
): Promise<ClusterReportSource> {
  const shards = await cp.shards()
  if (shards.length === 0) throw new Error('no shard is registered in the control plane')
  const byName = new Map(shards.map((s) => [s.name, s]))
  const call = async (shard: ShardInfo, method: ReportMethod, args: unknown[]): Promise<never> =>
    (await shardCall<{ result: never }>(shard, adminToken, SHARD_PATHS.compute, { method, args })).result
  const ownerOf = async (domainId: string): Promise<ShardInfo> => {
    const a = await cp.assignment(String(domainId).toLowerCase())
    if (a === null) throw new Error(`domain ${domainId} is not in the cluster's directory`)
    return byName.get(a.shard) ?? (await cp.shard(a.shard))
  }
  const byDomain =
    (method: ReportMethod) =>
    async (params: { domainId: string }): Promise<never> =>
      call(await ownerOf(params.domainId), method, [params])
  const anyShard = shards[0]!
  return {
    computePromptSeries: byDomain('computePromptSeries'),
    computeCompetitorSeries: byDomain('computeCompetitorSeries'),
    sentimentOverview: byDomain('sentimentOverview'),
    sentimentThemes: byDomain('sentimentThemes'),
    modelLeaderboard: byDomain('modelLeaderboard'),
    sentimentSeries: byDomain('sentimentSeries'),
    citedDomains: byDomain('citedDomains'),
    citations: byDomain('citations'),
    getDomain: (id) => call(anyShard, 'getDomain', [id]),
    listDomains: (params) => call(anyShard, 'listDomains', params === undefined ? [] : [params]),
  }
}
