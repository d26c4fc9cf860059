/**
 * Writes the "2 GB" NDJSON file of issue 26's peak-RSS target (bench/data/big.ts: L, then copies of
 * its analyses with other ids, cut at the last whole line within `--bytes`, default 2 GiB). The
 * ingest suite writes and ingests the same file in a full run.
 * Usage: node dist/bench/ingest-profile/big-ndjson.js OUT [--bytes=N]
 */
import { BIG_FILE_BYTES, writeBigNdjson } from '../data/big.js'

const [out, ...rest] = process.argv.slice(2)
if (out === undefined || out.startsWith('-')) throw new Error('usage: big-ndjson.js OUT [--bytes=N]')
const bytesArg = rest.find((a) => a.startsWith('--bytes='))
const limit = bytesArg ? Number(bytesArg.slice('--bytes='.length)) : BIG_FILE_BYTES

console.log(JSON.stringify({ out, ...(await writeBigNdjson(out, limit)) }))
