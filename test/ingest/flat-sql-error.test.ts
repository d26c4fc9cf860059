/**
 * A flat import that fails inside DuckDB (out of memory, say) reports that failure, not the
 * "transaction is aborted" of the clean-up that runs after it (src/ingest/flat-sql.ts).
 */
import { DuckDBInstance } from '@duckdb/node-api'
import { expect, it } from 'vitest'
import { feedFlatBulk, type FlatSource } from '../../src/ingest/flat-sql.js'
import type { IngestCall } from '../../src/ingest/call.js'

it('the first error of a failed flat import is the one thrown', async () => {
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  try {
    await conn.run('BEGIN TRANSACTION')
    const source: FlatSource = {
      async loadFacts(c) {
        await c.run('CREATE TEMP TABLE flat_analyses (rn INTEGER)')
        await c.run("SELECT error('planted failure')")
        return true
      },
      dimensions: () => Promise.resolve({}),
      all: () => Promise.resolve({}),
    }
    await expect(feedFlatBulk({ connection: conn } as unknown as IngestCall, source)).rejects.toThrow(
      /planted failure/,
    )
    await conn.run('ROLLBACK')
  } finally {
    conn.closeSync()
    instance.closeSync()
  }
})
