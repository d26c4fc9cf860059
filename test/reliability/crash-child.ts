/**
 * Child process of crash.test.ts: ingests NDJSON files into a file store one call per file, as the
 * CLI does, and kills itself with SIGKILL inside the COMMIT of call `killAt` (1-based). Every
 * COMMIT of an ingest call writes `start N` before it is handed to DuckDB and `end N` once DuckDB
 * acknowledged it, synchronously to stdout, so the parent knows whether the kill interrupted one.
 * `delayMs` < 0 kills right after the COMMIT was handed over; otherwise a timer of that many ms.
 *   node --import tsx test/reliability/crash-child.ts '{"db":"...","files":["..."],"killAt":2,"delayMs":-1}'
 */
import { writeSync } from 'node:fs'
import { DuckDBConnection } from '@duckdb/node-api'
import { openEngine } from '../../src/index.js'

const { db, files, killAt, delayMs } = JSON.parse(process.argv[2] ?? '{}') as {
  db: string
  files: string[]
  killAt: number
  delayMs: number
}
const engine = await openEngine({ path: db })
// Installed after the open: only the ingest calls' COMMITs are counted (not a migration's).
const run = DuckDBConnection.prototype.run
let commits = 0
DuckDBConnection.prototype.run = function (this: DuckDBConnection, sql: string, ...rest: never[]) {
  if (sql !== 'COMMIT') return run.call(this, sql, ...rest)
  const n = ++commits
  writeSync(1, `start ${n}\n`)
  const done = run.call(this, sql, ...rest)
  if (n === killAt) {
    if (delayMs < 0) process.kill(process.pid, 'SIGKILL')
    else setTimeout(() => process.kill(process.pid, 'SIGKILL'), delayMs)
  }
  return done.then((r) => (writeSync(1, `end ${n}\n`), r))
} as typeof run
for (const file of files) await engine.ingestFile(file)
await engine.close()
writeSync(1, 'finished\n')
