/**
 * Writes seeded NDJSON batch files: batch 1 holds the dimension records and its analyses, every
 * later batch only analyses (ids carry the batch number, see test/support/generate.ts).
 *
 *   npx tsx scripts/gen-ndjson.ts OUT_DIR [--batches 8] [--per-batch 5000] [--seed 1]
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { dimRecords, makeAnalyses, makeDims, toNdjson } from '../test/support/generate.js'

export interface GeneratedBatch {
  file: string
  batch: number
  analyses: number
}

/** Writes the batch files and returns their paths, in ingest order. */
export function writeBatches(dir: string, batches: number, perBatch: number, seed = 1): GeneratedBatch[] {
  mkdirSync(dir, { recursive: true })
  const dims = makeDims(seed, {
    teams: 3,
    domainsPerTeam: 3,
    promptsPerDomain: 20,
    competitorsPerDomain: 6,
    themesPerDomain: 8,
  })
  const out: GeneratedBatch[] = []
  for (let b = 1; b <= batches; b++) {
    const file = join(dir, `batch-${String(b).padStart(3, '0')}.ndjson`)
    const records = [...(b === 1 ? dimRecords(dims) : []), ...makeAnalyses(seed, dims, b, perBatch)]
    writeFileSync(file, toNdjson(records))
    out.push({ file, batch: b, analyses: perBatch })
  }
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { batches: { type: 'string' }, 'per-batch': { type: 'string' }, seed: { type: 'string' } },
  })
  const dir = positionals[0]
  if (dir === undefined) {
    console.error('usage: gen-ndjson.ts OUT_DIR [--batches N] [--per-batch N] [--seed N]')
    process.exit(2)
  }
  const files = writeBatches(
    dir,
    Number(values.batches ?? 8),
    Number(values['per-batch'] ?? 5000),
    Number(values.seed ?? 1),
  )
  for (const f of files) console.log(f.file)
}
