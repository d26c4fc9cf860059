/**
 * The "2 GB" NDJSON file of issue 26's peak-RSS target, reproducibly: the bench's L file (every
 * record), then copies of L's analyses with other ids (copy k flips the id's first hex digit by k,
 * so a copy never repeats an id of L or of another copy), cut at the last whole line within the
 * byte limit (default 2 GiB: L plus ~2.7 copies, ~1.87M analyses). Written by the ingest suite
 * (bench/suites/ingest.ts) and by bench/ingest-profile/big-ndjson.ts.
 */
import { DATASETS, datasetRecords } from './generator.js'
import { writeNdjson } from './ndjson.js'
import type { AnalysisInputRecord } from '../../src/types.js'

/** The default size: 2 GiB. */
export const BIG_FILE_BYTES = 2 ** 31

/** The id of copy `k` (1-15) of an analysis: its first hex digit xor k. */
function copyId(id: string, k: number): string {
  return (Number.parseInt(id[0]!, 16) ^ k).toString(16) + id.slice(1)
}

function* records(): Generator<AnalysisInputRecord> {
  yield* datasetRecords(DATASETS.L)
  for (let k = 1; k < 16; k++) {
    for (const r of datasetRecords(DATASETS.L, { entities: false })) {
      if (r.type === 'analysis') yield { ...r, id: copyId(r.id, k) }
    }
  }
}

/** Writes the file to `path`; returns its lines, analyses (each id once) and bytes. */
export async function writeBigNdjson(
  path: string,
  limit = BIG_FILE_BYTES,
): Promise<{ lines: number; analyses: number; bytes: number }> {
  let analyses = 0
  const written = await writeNdjson(path, records(), {
    maxBytes: limit,
    onWrite: (r) => {
      if (r.type === 'analysis') analyses++
    },
  })
  return { ...written, analyses }
}
