/**
 * Writes the "2 GB" NDJSON file of issue 26's peak-RSS target, reproducibly: the bench's L file
 * (every record), then copies of L's analyses with other ids (copy k flips the id's first hex digit
 * by k, so a copy never repeats an id of L or of another copy), cut at the last whole line within
 * `--bytes` (default 2 GiB: L plus ~2.7 copies, ~1.87M analyses).
 * Usage: node dist/bench/ingest-profile/big-ndjson.js OUT [--bytes=N]
 */
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { DATASETS, datasetRecords } from '../data/generator.js'
import type { AnalysisInputRecord } from '../../src/types.js'

const [out, ...rest] = process.argv.slice(2)
if (out === undefined || out.startsWith('-')) throw new Error('usage: big-ndjson.js OUT [--bytes=N]')
const bytesArg = rest.find((a) => a.startsWith('--bytes='))
const limit = bytesArg ? Number(bytesArg.slice('--bytes='.length)) : 2 ** 31

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

const stream = createWriteStream(out, { highWaterMark: 1 << 20 })
let bytes = 0
let lines = 0
let analyses = 0
let buf = ''
for (const r of records()) {
  const line = JSON.stringify(r) + '\n'
  const n = Buffer.byteLength(line)
  if (bytes + n > limit) break
  bytes += n
  lines++
  if (r.type === 'analysis') analyses++
  buf += line
  if (buf.length > 1 << 20) {
    if (!stream.write(buf)) await once(stream, 'drain')
    buf = ''
  }
}
stream.end(buf)
await once(stream, 'finish')
console.log(JSON.stringify({ out, lines, analyses, bytes }))
