/**
 * Schema versions: a `meta` table holds the version a file was written with; opening an older file
 * writable runs the sql/schema/NNN_*.sql files newer than it, in one transaction. A version that
 * adds aggregate tables fills them, in the same transaction, from the file's raw tables by running
 * their ingest fill steps (sql/ingest/fill_<table>.sql) over every stored day.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { ValidationError } from '../errors.js'
import { sqlIds, sqlText } from './sql.js'

/** The schema version this release writes; older files are migrated on open. */
export const SCHEMA_VERSION = 2

/** The aggregate tables schema version 2 adds: a version-1 file gets them filled from its raw tables. */
const AGGREGATES_OF_V2 = ['agg_channel_prompts', 'agg_entity_prompt_day', 'agg_citation_day'] as const

/** Marks every (domain, day) with analyses as affected, for the ingest fill steps that follow. */
async function affectEveryDay(conn: DuckDBConnection): Promise<void> {
  await conn.run(sqlText('schema/staging'))
  await conn.run('INSERT INTO stg_affected SELECT DISTINCT domain_key, day FROM analyses')
}

async function schemaVersion(conn: DuckDBConnection): Promise<number> {
  const has = await conn.runAndReadAll(
    "SELECT count(*)::INTEGER FROM information_schema.tables WHERE table_schema = 'main' AND table_name = 'meta'",
  )
  if (has.getRows()[0]![0] === 0) return 0
  const r = await conn.runAndReadAll("SELECT value FROM meta WHERE key = 'schema_version'")
  const v = r.getRows()[0]?.[0]
  return v === undefined ? 0 : Number(v)
}

/** Brings the database to SCHEMA_VERSION; a newer file, or an older one opened read-only, is refused. */
export async function migrate(conn: DuckDBConnection, readOnly: boolean): Promise<void> {
  const current = await schemaVersion(conn)
  const refuse = (message: string) => new ValidationError([{ path: 'path', message }])
  if (current > SCHEMA_VERSION) {
    throw refuse(
      `the database has schema version ${current}; this release reads up to ${SCHEMA_VERSION}: upgrade visibility-analytics`,
    )
  }
  if (current === SCHEMA_VERSION) return
  if (readOnly) {
    throw refuse(
      `the database has schema version ${current}, not ${SCHEMA_VERSION}: open it writable once to migrate it`,
    )
  }
  const steps = sqlIds('schema')
    .map((id) => ({ id, version: Number(/\/(\d+)_/.exec(id)?.[1]) }))
    .filter((s) => Number.isFinite(s.version) && s.version > current && s.version <= SCHEMA_VERSION)
  await conn.run('BEGIN TRANSACTION')
  try {
    for (const s of steps) await conn.run(sqlText(s.id))
    if (current === 1) {
      await affectEveryDay(conn)
      for (const table of AGGREGATES_OF_V2) await conn.run(sqlText(`ingest/fill_${table}`))
    }
    await conn.run("INSERT OR REPLACE INTO meta VALUES ('schema_version', $v)", { v: String(SCHEMA_VERSION) })
    await conn.run('COMMIT')
  } catch (e) {
    await conn.run('ROLLBACK').catch(() => undefined)
    throw e
  }
}
