/**
 * Schema versions: a `meta` table holds the version a file was written with; opening an older file
 * writable runs the sql/schema/NNN_*.sql files newer than it, each followed by its step in code
 * when it has one (filling the aggregates a version adds from the file's raw tables, or what data
 * SQL alone cannot compute), in one transaction.
 */
import { VARCHAR, type DuckDBConnection } from '@duckdb/node-api'
import { ValidationError } from '../errors.js'
import { citedUrl } from '../schemas/records.js'
import { ChunkWriter } from './chunk-writer.js'
import { sqlIds, sqlText } from './sql.js'

/** The schema version this release writes; older files are migrated on open. */
export const SCHEMA_VERSION = 9

/** The aggregate tables schema version 2 adds: an older file gets them filled from its raw tables. */
const AGGREGATES_OF_V2 = ['agg_channel_prompts', 'agg_entity_prompt_day', 'agg_citation_day'] as const

/** Version 2: the listings' and rankings' aggregates of every stored day (none in a new file). */
async function rankingAggregates(conn: DuckDBConnection): Promise<void> {
  await conn.run(sqlText('schema/staging'))
  await conn.run(sqlText('migrate/all_days'))
  for (const table of AGGREGATES_OF_V2) await conn.run(sqlText(`ingest/fill_${table}`))
}

/**
 * Version 3: citations stored by an older version get their position, the texts of their URL
 * identity (WHATWG, computed here) and host, and the aggregates of the citations, cited-domains and
 * fan-out reports are filled for every stored day (through the ingest pipeline's own staging tables
 * and steps). A new file has no citations: nothing to do.
 */
async function citationTexts(conn: DuckDBConnection): Promise<void> {
  const urls = await conn.runAndReadAll('SELECT DISTINCT url FROM citations WHERE url_idx IS NULL')
  if (urls.currentRowCount === 0) return
  await conn.run(sqlText('schema/staging'))
  // The ingest steps borrowed below look texts up by their key: version 7's column and macros
  // first (idempotent when version 7 then runs).
  await conn.run(sqlText('schema/007_text_keys'))
  await conn.run('CREATE OR REPLACE TEMP TABLE mig_cited_urls (url VARCHAR, cited VARCHAR)')
  const writer = await ChunkWriter.open(conn, 'mig_cited_urls', [VARCHAR, VARCHAR])
  try {
    for (const [url] of urls.getRows()) writer.push(url as string, citedUrl(url as string))
    writer.close()
  } catch (e) {
    writer.abandon()
    throw e
  }
  for (const id of [
    'migrate/v3_citation_dict',
    'migrate/v3_stage_citations',
    'migrate/v3_domain_map',
    'ingest/call_domains',
    'ingest/call_texts',
    'ingest/insert_texts',
    'migrate/v3_update_citations',
    'migrate/all_days',
    'ingest/fill_agg_cited_url',
    'ingest/fill_agg_cited_host',
    'ingest/fill_agg_fanout',
  ]) {
    await conn.run(sqlText(id))
  }
}

/** Version 4: agg_entity_day's sentiment sums recomputed as exact fixed point for every stored day. */
async function exactSentimentSums(conn: DuckDBConnection): Promise<void> {
  await conn.run(sqlText('schema/staging'))
  await conn.run(sqlText('migrate/all_days'))
  await conn.run(sqlText('ingest/clear_agg_entity_day'))
  await conn.run(sqlText('ingest/fill_agg_entity_day'))
}

/** Version 7: the key of every stored text (sql/schema/007_text_keys.sql). */
async function textKeys(conn: DuckDBConnection): Promise<void> {
  await conn.run('UPDATE texts SET h = text_key(text) WHERE h IS NULL')
}

/** What a version needs beyond its SQL file, run right after it. */
const CODE_STEPS: Readonly<Record<number, (conn: DuckDBConnection) => Promise<void>>> = {
  2: rankingAggregates,
  3: citationTexts,
  4: exactSentimentSums,
  7: textKeys,
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
    for (const s of steps) {
      await conn.run(sqlText(s.id))
      await CODE_STEPS[s.version]?.(conn)
    }
    await conn.run("INSERT OR REPLACE INTO meta VALUES ('schema_version', $v)", { v: String(SCHEMA_VERSION) })
    await conn.run('COMMIT')
  } catch (e) {
    await conn.run('ROLLBACK').catch(() => undefined)
    throw e
  }
}
