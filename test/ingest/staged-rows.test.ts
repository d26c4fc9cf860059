/**
 * The staged rows are committed to the write connection's temp tables before the ingest steps
 * run (src/ingest/call.ts, IngestCall.begin): DuckDB plans a statement by its tables' committed
 * row counts, and rows still local to the call's transaction count as none, so the steps' joins
 * were planned as if the staging tables were empty. What the planner sees is `estimated_size` in
 * duckdb_tables(), read here on the write connection at the moment the steps start.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { describe, expect, it, vi } from 'vitest'

const seen: Record<string, number>[] = []

vi.mock('../../src/ingest/pipeline.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/ingest/pipeline.js')>()
  return {
    ...original,
    runIngestSteps: async (conn: DuckDBConnection, call: Parameters<typeof original.runIngestSteps>[1]) => {
      const r = await conn.runAndReadAll(
        "SELECT table_name, estimated_size::INTEGER FROM duckdb_tables() WHERE table_name LIKE 'stg\\_%' ESCAPE '\\'",
      )
      seen.push(Object.fromEntries(r.getRows().map(([t, n]) => [t as string, n as number])))
      return original.runIngestSteps(conn, call)
    },
  }
})

const { openEngine } = await import('../../src/index.js')
const { analysis, base } = await import('../support/records.js')

describe('ingest: staged rows', () => {
  it('are committed, so the planner counts them, when the steps start; a refused call stores nothing', async () => {
    const engine = await openEngine()
    const citations = [
      { url: 'https://www.acme.com/a' },
      { url: 'https://globex.com/' },
      { url: 'https://x.org/' },
    ]
    const result = await engine.ingest([...base(), analysis({ citations }), analysis({ citations })])
    expect(result).toMatchObject({ analyses: 2, citations: 6 })
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ stg_analyses: 2, stg_citations: 6, stg_citation_dict: 3 })
    expect(seen[0]!.stg_mentions).toBeGreaterThan(0)

    // A call refused after its rows were staged (an unknown prompt) leaves the store as it was,
    // and the next call is staged afresh (its own rows only).
    const before = await engine.stats()
    await expect(
      engine.ingest([
        analysis({ citations }),
        analysis({ prompt_id: '00000000-0000-4000-8000-000000000000' }),
      ]),
    ).rejects.toThrow()
    expect(await engine.stats()).toEqual(before)
    await engine.ingest([analysis({ citations: citations.slice(0, 1) })])
    expect(seen).toHaveLength(2)
    expect(seen[1]).toMatchObject({ stg_analyses: 1, stg_citations: 1, stg_citation_dict: 1 })
    await engine.close()
  })
})
