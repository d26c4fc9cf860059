/** Filling the engine's stores the way the suites share: a dataset with a crowd arrives interleaved. */
import { datasetDays, datasetRecords, type DatasetSpec } from '../data/generator.js'
import type { Engine } from '../../src/types.js'

/**
 * Ingests a dataset with its crowd as a multi-tenant store receives it: in 12 batches of days,
 * every domain interleaved within a batch (the entity records with the first batch).
 */
export async function ingestInterleaved(
  engine: Engine,
  spec: DatasetSpec,
  log: (...a: unknown[]) => void,
): Promise<{ analyses: number; mentions: number; batchDays: number }> {
  const days = datasetDays(spec)
  const batchDays = Math.ceil(days / 12)
  let analyses = 0
  let mentions = 0
  for (let from = 0; from < days; from += batchDays) {
    const r = await engine.ingest(
      datasetRecords(spec, { fromDay: from, toDay: from + batchDays, entities: from === 0 }),
    )
    analyses += r.analyses
    mentions += r.mentions
    log(`crowd batch from day ${from}: ${r.analyses} analyses (${analyses} in all)`)
  }
  return { analyses, mentions, batchDays }
}
