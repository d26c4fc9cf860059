/**
 * Child process of the ingest suite: the naive native load, DuckDB alone on the same NDJSON file
 * (the ingest suite's peer). A typed `read_ndjson` of the analyses into a file-backed store with
 * the engine's memory limit (DEFAULT_MEMORY_LIMIT_MB), the mentions and citations UNNESTed into
 * their own tables, and one GROUP BY per day and entity (mentions, mean position, mean sentiment).
 * No validation, no ids resolved, no upsert: the floor a bulk load through DuckDB's own reader
 * costs on this machine. Reports wall time, row counts and this process's peak RSS.
 * Usage: node ingest-native-child.js --file=F --store=S --out=O
 */
import { rmSync, writeFileSync } from 'node:fs'
import { DuckDBInstance } from '@duckdb/node-api'
import { DEFAULT_MEMORY_LIMIT_MB } from '../../src/db/database.js'
import { parseArgs } from '../lib/suite.js'

const args = parseArgs()
const file = String(args.file)
const store = String(args.store)
const outFile = String(args.out)

/** The columns of an analysis line, typed (other record types read as null and are dropped). */
const COLUMNS = `{
  type: 'VARCHAR', id: 'UUID', domain_id: 'UUID', prompt_id: 'UUID', channel: 'VARCHAR', model: 'VARCHAR',
  answered_at: 'TIMESTAMPTZ',
  mentions: 'STRUCT(entity_id VARCHAR, position INTEGER, sentiment DOUBLE)[]',
  citations: 'STRUCT(url VARCHAR, title VARCHAR, page_type VARCHAR)[]'
}`

/** The load, one statement per step, timed each. `$file` is bound. */
const STEPS: [string, string][] = [
  [
    'read_ndjson -> analyses_raw',
    `CREATE TABLE analyses_raw AS
     SELECT id, domain_id, prompt_id, channel, model, answered_at, mentions, citations
     FROM read_ndjson($file, columns = ${COLUMNS}, format = 'newline_delimited')
     WHERE type = 'analysis'`,
  ],
  [
    'analyses',
    `CREATE TABLE analyses AS
     SELECT id, domain_id, prompt_id, channel, model, answered_at, answered_at::DATE AS day FROM analyses_raw`,
  ],
  [
    'UNNEST mentions',
    `CREATE TABLE mentions AS
     SELECT id AS analysis_id, domain_id, answered_at::DATE AS day, m.entity_id, m.position, m.sentiment
     FROM (SELECT id, domain_id, answered_at, UNNEST(mentions) AS m FROM analyses_raw)`,
  ],
  [
    'UNNEST citations',
    `CREATE TABLE citations AS
     SELECT id AS analysis_id, domain_id, answered_at::DATE AS day, c.url, c.title, c.page_type
     FROM (SELECT id, domain_id, answered_at, UNNEST(citations) AS c FROM analyses_raw)`,
  ],
  [
    'GROUP BY day, entity',
    `CREATE TABLE agg_entity_day AS
     SELECT domain_id, day, entity_id, count(*) AS mentions, avg(position) AS mean_position,
            avg(sentiment) AS mean_sentiment
     FROM mentions GROUP BY ALL`,
  ],
  ['drop analyses_raw', 'DROP TABLE analyses_raw'],
]

async function main(): Promise<void> {
  const t0 = performance.now()
  const instance = await DuckDBInstance.create(store, {
    memory_limit: `${DEFAULT_MEMORY_LIMIT_MB}MB`,
    temp_directory: `${store}.tmp`,
  })
  const conn = await instance.connect()
  const steps: Record<string, number> = {}
  await conn.run('BEGIN TRANSACTION')
  for (const [name, sql] of STEPS) {
    const s = performance.now()
    await conn.run(sql, sql.includes('$file') ? { file } : undefined)
    steps[name] = performance.now() - s
  }
  await conn.run('COMMIT')
  const count = async (table: string) =>
    Number((await conn.runAndReadAll(`SELECT count(*)::INTEGER FROM ${table}`)).getRows()[0]![0])
  const ms = performance.now() - t0
  const maxRssKB = process.resourceUsage().maxRSS
  const rows = {
    analyses: await count('analyses'),
    mentions: await count('mentions'),
    citations: await count('citations'),
    aggEntityDay: await count('agg_entity_day'),
  }
  conn.closeSync()
  instance.closeSync()
  rmSync(`${store}.tmp`, { recursive: true, force: true })
  writeFileSync(outFile, JSON.stringify({ ms, steps, rows, maxRssKB }))
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
