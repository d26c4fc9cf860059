/**
 * Scratch profile of Parquet and Arrow ingest: where one call's time goes, phase by
 * phase, on a bench dataset. Makes the NDJSON file, ingests it, exports the store as Parquet and
 * reads the export back as Arrow tables (untimed), then for each path into a fresh file store:
 * reading the export into flat rows (Parquet only), turning flat rows into records alone, the whole
 * call, and its `stage` (references, keys, the SQL steps: VA_TRACE_INGEST=1 prints each one).
 * Usage: node dist/bench/ingest-profile/columnar.js [DATASET=Lq] [parquet,arrow]; add
 * `node --cpu-prof` for the JS side.
 */
import { rmSync } from 'node:fs'
import { DuckDBInstance } from '@duckdb/node-api'
import { openEngine } from '../../src/index.js'
import { IngestCall } from '../../src/ingest/call.js'
import { flatToRecords } from '../../src/ingest/flat.js'
import { arrowToFlatRows } from '../../src/ingest/sources.js'
import { readExport } from '../../src/parquet.js'
import { DATASETS, datasetRecords, type DatasetName } from '../data/generator.js'
import { writeNdjson } from '../data/ndjson.js'
import { arrowTablesOf } from '../lib/arrow-tables.js'
import { outPath, removeStore } from '../lib/suite.js'
import type { FlatRows } from '../../src/ingest/flat.js'

const ds = (process.argv[2] ?? 'Lq') as DatasetName
const paths = (process.argv[3] ?? 'parquet,arrow').split(',')
const spec = DATASETS[ds]
const file = outPath(`${ds}.ndjson`)
const store = outPath(`store-profile-${ds}.duckdb`)
const dir = outPath(`export-profile-${ds}`)
const ms = (t0: number) => Math.round(performance.now() - t0)

// The time spent in IngestCall.stage (checks, keys, dimension rows, the SQL steps).
let stageMs = 0
const stage = IngestCall.prototype.stage
IngestCall.prototype.stage = async function (this: IngestCall, next: number) {
  const t0 = performance.now()
  try {
    return await stage.call(this, next)
  } finally {
    stageMs += performance.now() - t0
  }
}

await writeNdjson(file, datasetRecords(spec))
removeStore(store)
let engine = await openEngine({ path: store })
let t0 = performance.now()
const ref = await engine.ingestFile(file)
console.log(`ndjson: ${ms(t0)} ms (stage ${Math.round(stageMs)} ms)`, ref)
await engine.close()
// The export is setup, not measured: from the store reopened with the defaults.
engine = await openEngine({ path: store })
rmSync(dir, { recursive: true, force: true })
await engine.exportParquet(dir)
await engine.close()
const tables = await arrowTablesOf(dir)

const inst = await DuckDBInstance.create(':memory:')
const conn = await inst.connect()
for (const path of paths) {
  // Reading alone (Parquet) and conversion alone: flat rows to records, nothing validated.
  t0 = performance.now()
  const rows: FlatRows = path === 'parquet' ? await readExport(conn, dir) : arrowToFlatRows(tables)
  const readMs = ms(t0)
  t0 = performance.now()
  let n = 0
  for (const r of flatToRecords(rows)) if (r.record !== undefined) n++
  const convertMs = ms(t0)

  removeStore(store)
  engine = await openEngine({ path: store })
  stageMs = 0
  t0 = performance.now()
  const r = await (path === 'parquet' ? engine.ingestFile(dir) : engine.ingestArrow(tables))
  const total = ms(t0)
  await engine.close()
  console.log(
    JSON.stringify({
      path,
      records: n,
      mentions: r.mentions,
      readMs,
      flatToRecordsMs: convertMs,
      callMs: total,
      stageMs: Math.round(stageMs),
      callMinusStageMs: total - Math.round(stageMs),
      mentionRowsPerSec: Math.round(r.mentions / (total / 1000)),
    }),
  )
}
conn.closeSync()
inst.closeSync()
removeStore(store)
rmSync(dir, { recursive: true, force: true })
