/**
 * @module Ingest across shards: directory records (teams, domains) and deletions go to every shard
 * and to the control plane, each domain's other records to the shard that owns it; new domains are
 * assigned to the shard holding the fewest analyses.
 *
 * Guarantee: each shard stores its part in one transaction (all or nothing per shard). The call
 * holds the control plane's row locks on its domains until every shard answered, so no move of
 * those domains starts in between. When a shard fails, the others keep what they stored and the
 * call fails with a report of both; records are upserts by id, so sending the same call again
 * completes it.
 */
import { readNdjsonFile } from '../internal.js'
import { DIRECTORY_CHANNEL, type ControlPlane } from './control-plane.js'
import { ClusterIngestError, DomainMovingError, type ClusterIngestReport } from './errors.js'
import { shardCall } from './shard-call.js'

type Rec = Record<string, unknown> & { type?: unknown }

/**
 * Reads NDJSON files into records with the engine's reader (src/ingest/ndjson.ts): a line that is
 * not valid JSON or not an object fails the call, naming the file and line.
 */
async function readRecords(files: string[]): Promise<Rec[]> {
  const out: Rec[] = []
  for (const file of files) {
    for await (const item of readNdjsonFile(file)) {
      if ('error' in item) throw new Error(`${file} line ${item.line}: ${item.error}`)
      const value = item.value
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        throw new Error(`${file} line ${item.line}: not a JSON object`)
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
