/**
 * @module Moving a domain between shards: mark it moving (ingest refused, reads continue from the
 * source), export its partition on the source, import it on the target, verify row counts and
 * every payload digest, switch the control plane and the router, then delete it from the source.
 * Before the switch any failure puts everything back. The export is written inside the shards'
 * work directory (a shared volume when they run on different machines; see work-dir.ts).
 */
import { DIRECTORY_CHANNEL, type ControlPlane } from './control-plane.js'
import { DomainMovingError } from './errors.js'
import { backendOf, setRoute, writeMapFile, type HaproxyFiles } from './haproxy.js'
import { SHARD_PATHS, shardCall } from './shard-call.js'

/**
 * Tables a move does not compare by count: the directory tables (every shard holds them whole),
 * and prompt_tags, which an import stores inside the prompts rows (the import's result counts
 * prompts, not tags; the prompts count is compared).
 */
const DIRECTORY_TABLES = new Set(['teams', 'domains', 'prompt_tags'])

export interface MoveOptions {
  adminToken: string
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
 * await moveDomain(cp, domainId, 's2', { adminToken, haproxy: files })
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
  // A name inside the shards' work directory: the source writes it, the target reads it.
  const dir = `move-${id}-${Date.now()}`
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
    await shardCall(source, token, SHARD_PATHS.discard, { dir }).catch(() => undefined)
  }
}
