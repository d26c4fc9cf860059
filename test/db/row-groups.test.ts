/**
 * The store's row group size (src/db/database.ts, ROW_GROUP_ROWS): an option of the file's ATTACH,
 * not stored in the file, so it holds for every open (new file, reopened file, a file an older
 * release wrote with DuckDB's default of 122,880 rows) and for every connection the engine writes
 * through.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase, ROW_GROUP_ROWS, type Database } from '../../src/db/database.js'

const tmp = mkdtempSync(join(tmpdir(), 'va-row-groups-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** DuckDB's own row group size, that of a file opened without the option. */
const DUCKDB_ROWS = 122_880

const open = (path: string): Promise<Database> =>
  openDatabase({ path, readOnly: false, hardened: false, readConnections: 1, memoryLimitMB: 160 })

/** The row count of each of `table`'s row groups, in order (after a checkpoint). */
async function rowGroups(conn: DuckDBConnection, table: string): Promise<number[]> {
  await conn.run('CHECKPOINT')
  const r = await conn.runAndReadAll(
    `SELECT row_group_id, max(count)::INTEGER FROM pragma_storage_info('${table}')
     WHERE column_id = 0 GROUP BY row_group_id ORDER BY row_group_id`,
  )
  return r.getRows().map((row) => row[1] as number)
}

/** `n` rows appended to `table` (created when missing) in one transaction. */
async function append(conn: DuckDBConnection, table: string, n: number): Promise<void> {
  await conn.run(`CREATE TABLE IF NOT EXISTS ${table} (i BIGINT, s VARCHAR)`)
  await conn.run(`INSERT INTO ${table} SELECT i, repeat('x', 20) FROM range(${n}) t(i)`)
}

describe('row groups', () => {
  it('a new file store writes row groups of ROW_GROUP_ROWS, and again once reopened', async () => {
    expect(ROW_GROUP_ROWS).toBeLessThan(DUCKDB_ROWS)
    const path = join(tmp, 'new.duckdb')
    let db = await open(path)
    await append(db.write, 'scratch', 2 * ROW_GROUP_ROWS + 5)
    expect(await rowGroups(db.write, 'scratch')).toEqual([ROW_GROUP_ROWS, ROW_GROUP_ROWS, 5])
    db.close()
    db = await open(path)
    await append(db.write, 'scratch2', ROW_GROUP_ROWS + 1)
    expect(await rowGroups(db.write, 'scratch2')).toEqual([ROW_GROUP_ROWS, 1])
    // A connection the engine opens later (the webhooks' store) writes the same.
    const later = await db.connect()
    await append(later, 'scratch3', ROW_GROUP_ROWS + 2)
    expect(await rowGroups(later, 'scratch3')).toEqual([ROW_GROUP_ROWS, 2])
    later.closeSync()
    db.close()
  })

  it("a file an older release wrote keeps its row groups; rows added to it get ROW_GROUP_ROWS'", async () => {
    const path = join(tmp, 'old.duckdb')
    const old = await DuckDBInstance.create(path)
    const conn = await old.connect()
    await append(conn, 'scratch', DUCKDB_ROWS + 10)
    expect(await rowGroups(conn, 'scratch')).toEqual([DUCKDB_ROWS, 10])
    conn.closeSync()
    old.closeSync()
    const db = await open(path)
    await append(db.write, 'scratch', ROW_GROUP_ROWS * 2)
    const groups = await rowGroups(db.write, 'scratch')
    expect(groups[0]).toBe(DUCKDB_ROWS)
    expect(groups.slice(1).every((n) => n <= ROW_GROUP_ROWS)).toBe(true)
    expect(groups.reduce((a, b) => a + b, 0)).toBe(DUCKDB_ROWS + 10 + ROW_GROUP_ROWS * 2)
    db.close()
  })
})
