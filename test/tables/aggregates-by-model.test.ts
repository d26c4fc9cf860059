/**
 * The slower path of a raw model id (src/tables/aggregates.ts MODEL_TABLES): each table's rows
 * computed from the raw tables for one model (sql/queries/load_<table>_by_model.sql) must add up,
 * over every stored model, to the table's rows kept by the ingest pipeline: the same cells, counts
 * and sums added, prompt bitmasks OR-ed. So the two definitions of each aggregate cannot drift.
 */
import { describe, expect, it } from 'vitest'
import type { Catalog } from '../../src/catalog.js'
import { openEngine } from '../../src/index.js'
import { AGGREGATE_TABLES, MODEL_TABLES, type ModelTable } from '../../src/tables/aggregates.js'
import type { AggregateSource } from '../../src/tables/aggregates.js'
import { dimRecords, makeAnalyses, makeDims } from '../support/generate.js'
import { datasetPath } from '../support/golden.js'
import { readNdjson } from '../support/ndjson.js'

/**
 * How a value column combines across models: counts and sums add, bitmask halves OR, and the
 * halves of a fixed-point sum (hi + lo) add exactly as one integer (`fixed`, on the `hi` column).
 */
const VALUES: Record<ModelTable, Record<string, 'sum' | 'or' | 'fixed' | 'lo'>> = {
  agg_channel_day: { analyses: 'sum' },
  agg_entity_day: {
    mentions: 'sum',
    pos_sum: 'sum',
    pos_cnt: 'sum',
    sent_hi: 'fixed',
    sent_lo: 'lo',
    sent_cnt: 'sum',
  },
  agg_entity_prompts: { lo: 'or', hi: 'or' },
  agg_channel_prompts: { lo: 'or', hi: 'or' },
  agg_entity_prompt_day: { mentions: 'sum', pos_sum: 'sum', pos_cnt: 'sum' },
  agg_citation_day: { citations: 'sum', brand_citations: 'sum' },
}

/** Rows as a map from the key columns to the value columns. */
function cells(table: ModelTable, rows: Record<string, Float64Array>, into = new Map<string, bigint[]>()) {
  const columns = AGGREGATE_TABLES[table] as readonly string[]
  const values = Object.keys(VALUES[table])
  const keys = columns.filter((c) => !values.includes(c))
  for (let i = 0; i < rows.day!.length; i++) {
    const key = keys.map((c) => rows[c]![i]).join(',')
    const old = into.get(key) ?? values.map(() => 0n)
    into.set(
      key,
      values.map((c, v) => {
        const x = BigInt(rows[c]![i]!)
        switch (VALUES[table][c]) {
          case 'or':
            return old[v]! | x
          case 'fixed': // hi + lo: the exact fixed-point sum
            return old[v]! + x + BigInt(rows[values[v + 1]!]![i]!)
          case 'lo':
            return 0n
          default:
            return old[v]! + x
        }
      }),
    )
  }
  return into
}

const sorted = (m: Map<string, bigint[]>) => new Map([...m].sort())

describe('aggregates computed for one model add up to the stored aggregates', () => {
  const dims = makeDims(7, { teams: 1, domainsPerTeam: 2, promptsPerDomain: 70, competitorsPerDomain: 4 })
  const datasets: Array<[string, unknown[]]> = [
    ['rankings.ndjson', readNdjson(datasetPath('rankings'))],
    [
      'a generated dataset (70 prompts: two bitmask chunks)',
      [...dimRecords(dims), ...makeAnalyses(7, dims, 1, 600)],
    ],
  ]
  for (const [name, records] of datasets) {
    it(name, async () => {
      const engine = await openEngine()
      await engine.ingest(records)
      const { catalog, aggregates } = engine as unknown as { catalog: Catalog; aggregates: AggregateSource }
      expect(catalog.models.size).toBeGreaterThan(2)
      const tablesSeen = new Set<string>()
      for (const domain of catalog.domains.values()) {
        for (const table of MODEL_TABLES) {
          const stored = cells(table, await aggregates.rows(table, domain.key))
          const summed = new Map<string, bigint[]>()
          for (const modelKey of catalog.models.values())
            cells(table, await aggregates.modelRows(table, domain.key, modelKey), summed)
          expect(sorted(summed), `${table} of ${domain.id}`).toEqual(sorted(stored))
          tablesSeen.add(`${table}:${stored.size > 0}`)
        }
      }
      // Every table had rows to compare somewhere.
      for (const table of MODEL_TABLES) expect(tablesSeen, table).toContain(`${table}:true`)
      await engine.close()
    })
  }
})
