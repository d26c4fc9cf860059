/**
 * Child process of spill.test.ts: opens a file store with a small DuckDB memory limit (so a large
 * call spills to the temp directory) and ingests one NDJSON file; prints `ingested` when done.
 *   node --import tsx test/reliability/spill-child.ts '{"db":"...","file":"...","memoryLimitMB":32}'
 */
import { openEngine } from '../../src/index.js'

const { db, file, memoryLimitMB } = JSON.parse(process.argv[2] ?? '{}') as {
  db: string
  file: string
  memoryLimitMB: number
}
const engine = await openEngine({ path: db, memoryLimitMB })
process.stdout.write('opened\n')
await engine.ingestFile(file)
await engine.close()
process.stdout.write('ingested\n')
