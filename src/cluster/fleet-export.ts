/**
 * @module The fleet export: every shard's export merged into one hive-partitioned tree. Each shard
 * writes its part inside its work directory (work-dir.ts); the parts are then moved into place.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { ControlPlane } from './control-plane.js'
import { SHARD_PATHS, shardCall } from './shard-call.js'

/** Every shard holds these whole: one copy goes into the tree. */
const DIRECTORY_TABLES = new Set(['teams', 'domains'])

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
    // A shard stores data only for its domains, and the whole directory (teams, domains). It
    // writes its part inside its work directory and says where (this process reads it there).
    const name = `fleet-${s.name}-${Date.now()}`
    const r = await shardCall<{ tables: Record<string, number>; path: string }>(
      s,
      adminToken,
      SHARD_PATHS.export,
      { dir: name },
    )
    try {
      moveInto(r.path, root, !heads)
    } finally {
      await shardCall(s, adminToken, SHARD_PATHS.discard, { dir: name }).catch(() => undefined)
    }
    heads = true
    for (const [t, n] of Object.entries(r.tables))
      totals[t] = DIRECTORY_TABLES.has(t) ? n : (totals[t] ?? 0) + n
  }
  return totals
}

/** Renames, or copies when `from` is on another file system. */
function place(from: string, to: string): void {
  try {
    renameSync(from, to)
  } catch (e) {
    if ((e as { code?: unknown }).code !== 'EXDEV') throw e
    cpSync(from, to, { recursive: true })
  }
}

/** Moves one shard's part into the tree; the directory files (teams, domains) only when `heads`. */
function moveInto(part: string, root: string, heads: boolean): void {
  for (const entry of readdirSync(part, { withFileTypes: true })) {
    const from = join(part, entry.name)
    if (!entry.isDirectory()) {
      // teams.parquet and domains.parquet: every shard holds the whole directory; keep one.
      if (heads && entry.name.endsWith('.parquet')) place(from, join(root, entry.name))
      continue
    }
    mkdirSync(join(root, entry.name), { recursive: true })
    for (const p of readdirSync(from)) {
      const dest = join(root, entry.name, p)
      if (existsSync(dest)) rmSync(dest, { recursive: true })
      place(join(from, p), dest)
    }
  }
}
