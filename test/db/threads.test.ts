/** openEngine's `threads` (VA_DUCKDB_THREADS): DuckDB runs with that many worker threads. */
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../src/db/database.js'

const opened: Database[] = []
afterEach(() => {
  for (const db of opened.splice(0)) db.close()
})

async function threadsOf(threads: number | undefined): Promise<number> {
  const db = await openDatabase({
    path: ':memory:',
    readOnly: false,
    hardened: true,
    readConnections: 1,
    memoryLimitMB: 160,
    ...(threads === undefined ? {} : { threads }),
  })
  opened.push(db)
  const r = await db.write.runAndReadAll("SELECT current_setting('threads')::INTEGER")
  return r.getRows()[0]![0] as number
}

describe('DuckDB worker threads', () => {
  it('the option sets them, on a hardened (locked) database too', async () => {
    expect(await threadsOf(1)).toBe(1)
    expect(await threadsOf(3)).toBe(3)
  })

  it('a bad count is refused, naming the option', async () => {
    for (const bad of [0, 1.5, -1, 257, Number.NaN])
      await expect(threadsOf(bad)).rejects.toThrow('threads must be an integer from 1 to 256.')
  })
})
