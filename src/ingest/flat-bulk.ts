/**
 * The empty-target bulk write of a checked flat import (a Parquet export, Arrow tables: the SQL
 * path of src/ingest/flat-sql.ts): when the store holds none of the import's domains and none of
 * its analysis ids (a fresh store, a restore, a cluster move's target), the facts go from the
 * flat_* temp tables straight into the stored tables, one INSERT per table (sql/bulk/*.sql: keys
 * numbered in SQL, child rows joined to their analysis by its row number, the texts' indexes
 * numbered in text order as a new domain's dictionary gets them), with no staging table between.
 * The aggregates are then built from the stored rows by the ingest pipeline's own aggregate steps,
 * over every day of the import at once. The dimension records still take the record path (small).
 * The write's temp tables are made before the call's transaction, with the ingest's early steps
 * (src/ingest/pipeline.ts, EARLY_COMMIT: then DuckDB reads them on every thread); everything it
 * stores is written inside the call's transaction: a refusal stores nothing. The stored rows equal
 * the staged path's (test/ingest/flat-bulk.test.ts compares every table and report payload).
 */
import { BIGINT, LIST, VARCHAR, listValue, type DuckDBConnection } from '@duckdb/node-api'
import { sqlScript, sqlText } from '../db/sql.js'
import { CHANNELS } from '../foundation/vocabulary.js'
import type { IngestCall } from './call.js'
import { mark, noFacts, profiled, trace, type BulkFacts, type FactCount } from './pipeline.js'

/**
 * The write's temp tables after bulk/keys (made before the call's transaction, with the early
 * steps: src/ingest/pipeline.ts, EARLY_COMMIT), in order.
 */
export const BULK_PREPARE = ['bulk/citations_keyed', 'bulk/fanout_keyed', 'bulk/texts_index'] as const

/** The facts' inserts, in order, with the count each one's changed rows are. */
const INSERTS: readonly { sql: string; counts?: FactCount }[] = [
  { sql: 'bulk/analyses', counts: 'analyses' },
  { sql: 'bulk/responses' },
  { sql: 'bulk/place_responses' },
  { sql: 'bulk/mentions', counts: 'mentions' },
  { sql: 'bulk/theme_occurrences', counts: 'theme_occurrences' },
  { sql: 'bulk/texts' },
  { sql: 'bulk/citations', counts: 'citations' },
  { sql: 'bulk/fanout_queries', counts: 'fanout_queries' },
  { sql: 'bulk/affected' },
]

/** The bulk write's temp tables, dropped after it. */
const DROP_BULK = ['analyses', 'citations', 'fanout', 'texts'].map((t) => `bulk/drop_${t}`)

/** Whether the last flat call took the bulk write (tests read it). */
export let lastBulk = false

/**
 * Whether a checked flat call may take the bulk write: no deletions, none of its analyses' domains
 * in the catalog before the call, and none of its analysis ids stored (under any domain).
 * VA_FLAT_PATH=staged keeps the staged path (tests compare the two).
 */
export async function bulkApplies(call: IngestCall, conn: DuckDBConnection): Promise<boolean> {
  lastBulk = false
  if (process.env.VA_FLAT_PATH === 'staged') return false
  const c = call.collector
  if (c.deletes.size > 0) return false
  if (c.domainH.ids.some((id) => call.catalog.domains.has(id))) return false
  const stored = await conn.runAndReadAll(sqlText('bulk/stored'))
  return stored.getRows()[0]![0] === 0
}

/** The bulk write of a call's facts, run by the ingest steps (then the flat temp tables are dropped). */
export function bulkFacts(drop: readonly string[]): BulkFacts {
  lastBulk = true
  return {
    async prepare(conn, base) {
      let t0 = mark()
      await profiled(conn, 'bulk/keys', () =>
        conn.run(
          sqlText('bulk/keys'),
          { base, channels: listValue([...CHANNELS]) },
          { base: BIGINT, channels: LIST(VARCHAR) },
        ),
      )
      trace('bulk/keys', t0)
      for (const sql of BULK_PREPARE) {
        t0 = mark()
        await profiled(conn, sql, () => conn.run(sqlText(sql)))
        trace(sql, t0)
      }
    },
    async write(conn) {
      const counts = noFacts()
      for (const step of INSERTS) {
        const t0 = mark()
        const r = await profiled(conn, step.sql, () => conn.run(sqlText(step.sql)))
        if (step.counts) counts[step.counts] = r.rowsChanged
        trace(step.sql, t0)
      }
      await conn.run(sqlScript([...DROP_BULK, ...drop]))
      return counts
    },
  }
}
