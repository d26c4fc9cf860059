/**
 * DuckDB's allocator purges freed pages from a background thread on every instance the engine
 * opens (src/db/database.ts, ALLOCATOR_CONFIG): without it a bulk ingest's freed pages stayed
 * resident (the 2 GB file's peak RSS, bench/NOTES.md "s13").
 */
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, openFileReader, type Database } from '../../src/db/database.js'
import type { DuckDBConnection } from '@duckdb/node-api'

const opened: { close(): void }[] = []
afterEach(() => {
  for (const db of opened.splice(0)) db.close()
})

async function backgroundThreads(conn: DuckDBConnection): Promise<boolean> {
  const r = await conn.runAndReadAll("SELECT current_setting('allocator_background_threads')::BOOLEAN")
  return r.getRows()[0]![0] as boolean
}

async function database(hardened: boolean): Promise<Database> {
  const db = await openDatabase({
    path: ':memory:',
    readOnly: false,
    hardened,
    readConnections: 1,
    memoryLimitMB: 160,
  })
  opened.push(db)
  return db
}

describe("DuckDB's allocator", () => {
  it('purges in the background on a store, hardened or not', async () => {
    expect(await backgroundThreads((await database(false)).write)).toBe(true)
    expect(await backgroundThreads((await database(true)).write)).toBe(true)
  })

  it('purges in the background on a file reader', async () => {
    const reader = await openFileReader()
    opened.push(reader)
    expect(await backgroundThreads(reader.conn)).toBe(true)
  })
})
