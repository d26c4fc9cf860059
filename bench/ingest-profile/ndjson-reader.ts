/**
 * Whether DuckDB's JSON reader could take the bulk of an NDJSON ingest (bench/NOTES.md, "NDJSON
 * through DuckDB's reader"). Two parts, on one file, one after the other in this process:
 * 1. What DuckDB's reader accepts that the record path must refuse, on a few lines written here:
 *    a trailing comma, a NaN literal, an explicit null read like an absent key, an unknown key
 *    dropped without a trace (the record schemas are strict: each is an error naming the field).
 * 2. Rates on FILE: the worker's reader alone (read, UTF-8 check, JSON.parse), the worker's whole
 *    work (the same plus the RecordCollector: validation, handles, column batches, dropped), a typed
 *    `read_ndjson` reading every column (DuckDB's threads), and `read_ndjson_objects` with one
 *    `json_keys` per line (the least a strict key check through DuckDB costs).
 * Usage: node dist/bench/ingest-profile/ndjson-reader.js FILE
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { DEFAULT_MEMORY_LIMIT_MB } from '../../src/db/database.js'
import { RecordCollector } from '../../src/ingest/collector.js'
import { BatchBuilder } from '../../src/ingest/columns.js'
import { readNdjsonFile } from '../../src/ingest/ndjson.js'

const file = process.argv[2]
if (file === undefined) throw new Error('usage: ndjson-reader.js FILE')
const dir = mkdtempSync(join(tmpdir(), 'va-ndjson-reader-'))

/** The columns of an analysis line, typed as the flat import's checks read them. */
const COLUMNS = `{type: 'VARCHAR', id: 'VARCHAR', domain_id: 'VARCHAR', prompt_id: 'VARCHAR', channel: 'VARCHAR',
  model: 'VARCHAR', answered_at: 'VARCHAR',
  mentions: 'STRUCT(entity_id VARCHAR, position DOUBLE, sentiment DOUBLE)[]',
  citations: 'STRUCT(url VARCHAR, title VARCHAR, page_type VARCHAR)[]',
  themes: 'STRUCT(theme_id VARCHAR, occurrences DOUBLE)[]', fanout_queries: 'VARCHAR[]',
  country: 'VARCHAR', response: 'VARCHAR'}`

async function leniency(conn: DuckDBConnection): Promise<void> {
  const probe = join(dir, 'probe.ndjson')
  const lines = [
    '{"id":"trailing comma","country":"DE",}',
    '{"id":"NaN literal","sentiment":NaN}',
    '{"id":"explicit null","fanout_queries":null}',
    '{"id":"absent key"}',
    '{"id":"unknown key","colour":"red"}',
  ]
  writeFileSync(probe, `${lines.join('\n')}\n`)
  for (const l of lines) {
    try {
      JSON.parse(l)
      console.log(`JSON.parse accepts ${l}`)
    } catch (e) {
      console.log(`JSON.parse refuses ${l}: ${(e as Error).message}`)
    }
  }
  const r = await conn.runAndReadAll(
    `SELECT id, country, sentiment, fanout_queries IS NULL AS fanout_null
     FROM read_ndjson('${probe}', columns = {id: 'VARCHAR', country: 'VARCHAR', sentiment: 'DOUBLE',
       fanout_queries: 'JSON'}, format = 'newline_delimited')`,
  )
  console.log('read_ndjson reads every probe line without an error:', JSON.stringify(r.getRowObjectsJson()))
}

async function timed(name: string, f: () => Promise<string>): Promise<void> {
  const t0 = performance.now()
  const what = await f()
  console.log(`${name}: ${((performance.now() - t0) / 1000).toFixed(2)} s (${what})`)
}

const instance = await DuckDBInstance.create(join(dir, 'scratch.duckdb'), {
  memory_limit: `${DEFAULT_MEMORY_LIMIT_MB}MB`,
  temp_directory: join(dir, 'tmp'),
})
const conn = await instance.connect()
try {
  await leniency(conn)
  await timed('worker reader alone (read, UTF-8, JSON.parse), 1 thread', async () => {
    let n = 0
    for await (const item of readNdjsonFile(file)) if ('value' in item) n++
    return `${n} lines`
  })
  await timed('worker work (reader + RecordCollector), 1 thread', async () => {
    const c = new RecordCollector(new BatchBuilder(2048, () => {}))
    for await (const item of readNdjsonFile(file)) {
      if ('error' in item) c.issue({ line: item.line }, 'record', item.error)
      else c.add(item.value, { line: item.line })
    }
    return `${c.seq} analyses, ${c.failed ? 'refused' : 'valid'}`
  })
  await timed("typed read_ndjson, every column read (DuckDB's threads)", async () => {
    const r = await conn.runAndReadAll(
      `SELECT count(*), sum(len(mentions)), sum(len(citations)), count(id) + count(domain_id)
         + count(prompt_id) + count(channel) + count(model) + count(answered_at) + count(country)
         + count(response) + sum(len(themes)) + sum(len(fanout_queries))
       FROM read_ndjson('${file}', columns = ${COLUMNS}, format = 'newline_delimited')`,
    )
    const [lines, mentions] = r.getRows()[0]!
    return `${String(lines)} lines, ${String(mentions)} mentions`
  })
  await timed('read_ndjson_objects + json_keys per line (a strict key check alone)', async () => {
    const r = await conn.runAndReadAll(
      `SELECT count(*) FILTER (WHERE len(json_keys(json)) > 13) FROM read_ndjson_objects('${file}')`,
    )
    return `${String(r.getRows()[0]![0])} lines with too many keys`
  })
} finally {
  conn.closeSync()
  instance.closeSync()
  rmSync(dir, { recursive: true, force: true })
}
