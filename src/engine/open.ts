/**
 * @module What an engine is built from: the database opened with the engine's options (file or
 * memory, serving mode, connections, memory limit), its catalog, the next analysis key and the
 * active API keys. The facade (src/engine.ts) builds itself from these parts.
 */
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, statSync } from 'node:fs'
import type { DuckDBConnection } from '@duckdb/node-api'
import { Catalog } from '../catalog.js'
import { DEFAULT_MEMORY_LIMIT_MB, openDatabase, type Database } from '../db/database.js'
import { ValidationError } from '../errors.js'
import { loadActiveApiKeys, type StoredApiKey } from '../keys.js'
import type { OpenEngineOptions } from '../types.js'

/** An opened database and the state an engine starts from. */
export interface EngineParts {
  db: Database
  catalog: Catalog
  nextAnalysisKey: number
  readOnly: boolean
  hardened: boolean
  aggregates: { retain: boolean; maxRows: number }
  activeKeys: StoredApiKey[]
  /** Signs the answers listing's cursors. */
  cursorKey: Uint8Array
}

/**
 * Opens the database of `options` and reads its state; the database is closed again on failure.
 * @example
 * const parts = await openEngineParts({ path: 'data/visibility.duckdb' })
 */
export async function openEngineParts(options: OpenEngineOptions): Promise<EngineParts> {
  const readOnly = options.readOnly ?? false
  const hardened = options.hardened ?? false
  const db = await openDatabase({
    path: options.path ?? ':memory:',
    readOnly,
    hardened,
    readConnections: options.readConnections ?? 2,
    memoryLimitMB: options.memoryLimitMB ?? DEFAULT_MEMORY_LIMIT_MB,
    ...(options.tempDirectory === undefined ? {} : { tempDirectory: options.tempDirectory }),
    ...(options.threads === undefined ? {} : { threads: options.threads }),
  })
  try {
    const catalog = await Catalog.load(db.write)
    const next = await db.write.runAndReadAll(
      'SELECT coalesce(max(analysis_key) + 1, 0)::DOUBLE FROM analyses',
    )
    return {
      db,
      catalog,
      nextAnalysisKey: next.getRows()[0]![0] as number,
      readOnly,
      hardened,
      aggregates: {
        retain: options.aggregateCache !== false,
        maxRows: options.aggregateCacheRows ?? 5_000_000,
      },
      activeKeys: await loadActiveApiKeys(db.write),
      cursorKey: await cursorKey(db.write, options.cursorSecret, readOnly),
    }
  } catch (e) {
    db.close()
    throw e
  }
}

/**
 * Refuses a `parquet` option that is not a directory (an export written by `exportParquet`).
 * @example
 * checkParquetDir('exports/2026-11-20') // throws a ValidationError naming `parquet` when missing
 */
export function checkParquetDir(parquet: string): void {
  if (!existsSync(parquet) || !statSync(parquet).isDirectory()) {
    throw new ValidationError([
      { path: 'parquet', message: `parquet must be a directory written by exportParquet: ${parquet}` },
    ])
  }
}

/**
 * The key of the answers listing's cursors (docs/API.md, "GET /api/v1/answers"): derived from
 * `secret` when given (engines sharing it accept each other's cursors: every shard of a cluster);
 * otherwise a random key stored once in the database's `meta` table, so that it survives restarts
 * (a read-only database without one gets a key of its own for the time it is open).
 */
async function cursorKey(
  conn: DuckDBConnection,
  secret: string | undefined,
  readOnly: boolean,
): Promise<Uint8Array> {
  if (secret !== undefined) {
    if (secret.length < 16) {
      throw new ValidationError([
        { path: 'cursor_secret', message: 'cursor_secret must be at least 16 characters long.' },
      ])
    }
    return createHash('sha256').update('visibility-analytics answers cursor\n').update(secret).digest()
  }
  const read = async () =>
    (await conn.runAndReadAll("SELECT value FROM meta WHERE key = 'cursor_key'")).getRows()[0]?.[0] as
      string | undefined
  let stored = await read()
  if (stored === undefined && !readOnly) {
    await conn.run("INSERT INTO meta VALUES ('cursor_key', $v) ON CONFLICT DO NOTHING", {
      v: randomBytes(32).toString('hex'),
    })
    stored = await read()
  }
  return stored === undefined ? randomBytes(32) : Buffer.from(stored, 'hex')
}
