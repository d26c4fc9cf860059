/**
 * Feeds an NDJSON file to an ingest call. Files of a megabyte or more are parsed and validated in a
 * worker thread while this thread appends the staged columns to DuckDB (two cores at work); small
 * files are read in this thread, where a worker's start-up would cost more than it saves. Both
 * paths run the same RecordCollector, so they give the same issues and the same rows.
 * VA_INGEST_WORKER=never|always overrides the choice (tests compare the two paths).
 */
import { statSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import type { IngestCall, RecordLocation } from './call.js'
import type { CollectorState } from './collector.js'
import type { AnalysisBatch } from './columns.js'
import { readNdjsonFile } from './ndjson.js'

/** Below this size a file is read in the ingest thread. */
export const WORKER_MIN_BYTES = 1 << 20
const BATCH_ROWS = 2048
/** Batches the worker may run ahead of the appends. */
const WINDOW = 4

export interface WorkerData {
  path: string
  batchRows: number
  window: number
}
export type WorkerMessage =
  | { kind: 'batch'; batch: AnalysisBatch }
  | { kind: 'done'; state: CollectorState }
  | { kind: 'error'; message: string; code?: string }

/** Reads `path` into `call`; file errors are thrown with their `code` (ENOENT, EISDIR, ...). */
export async function feedNdjsonFile(call: IngestCall, path: string): Promise<void> {
  if (useWorker(path)) await feedInWorker(call, path)
  else await feedInThread(call, path)
}

function useWorker(path: string): boolean {
  const mode = process.env.VA_INGEST_WORKER
  if (mode === 'never') return false
  if (mode === 'always') return true
  try {
    const st = statSync(path)
    return st.isFile() && st.size >= WORKER_MIN_BYTES
  } catch {
    return false // the in-thread reader reports the error
  }
}

async function feedInThread(call: IngestCall, path: string): Promise<void> {
  for await (const item of readNdjsonFile(path)) {
    const loc: RecordLocation = { line: item.line }
    if ('error' in item) call.issue(loc, 'record', item.error)
    else call.add(item.value, loc)
    await call.breathe()
  }
}

function feedInWorker(call: IngestCall, path: string): Promise<void> {
  const workerData: WorkerData = { path, batchRows: BATCH_ROWS, window: WINDOW }
  // From the TypeScript sources (tests, tsx) the worker loads its .ts module through tsx.
  const worker = import.meta.url.endsWith('.ts')
    ? new Worker(
        `import('tsx/esm/api').then((t) => t.tsImport(${JSON.stringify(new URL('./ndjson-worker.ts', import.meta.url).href)}, ${JSON.stringify(import.meta.url)}))`,
        { eval: true, workerData },
      )
    : new Worker(new URL('./ndjson-worker.js', import.meta.url), { workerData })
  return new Promise<void>((resolve, reject) => {
    let settled = false
    const fail = (e: unknown) => {
      if (settled) return
      settled = true
      void worker.terminate()
      reject(e)
    }
    worker.on('message', (m: WorkerMessage) => {
      if (settled) return
      try {
        if (m.kind === 'batch') {
          call.addBatch(m.batch)
          worker.postMessage(0)
        } else if (m.kind === 'done') {
          call.adopt(m.state)
          settled = true
          void worker.terminate()
          resolve()
        } else {
          fail(Object.assign(new Error(m.message), m.code === undefined ? {} : { code: m.code }))
        }
      } catch (e) {
        fail(e)
      }
    })
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`the NDJSON worker stopped (exit code ${code})`)))
  })
}
