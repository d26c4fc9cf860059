/**
 * The NDJSON worker: reads a file, parses and validates every line with a RecordCollector, and
 * posts the analyses to the ingest thread as column batches (their buffers transferred), at most
 * `window` batches ahead of the acknowledgements so memory stays bounded. Ends with the
 * collector's state, or with the error that stopped the reading.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { BatchBuilder, transferList } from './columns.js'
import { RecordCollector } from './collector.js'
import type { RecordLocation } from './handles.js'
import type { WorkerData, WorkerMessage } from './ndjson-feed.js'
import { readNdjsonFile } from './ndjson.js'

const port = parentPort!
const { path, batchRows, window } = workerData as WorkerData
let inFlight = 0
let wake: (() => void) | null = null
port.on('message', () => {
  inFlight--
  const w = wake
  wake = null
  w?.()
})
const post = (m: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer)
const builder = new BatchBuilder(batchRows, (batch) => {
  inFlight++
  post({ kind: 'batch', batch }, transferList(batch))
})
const collector = new RecordCollector(builder)
try {
  for await (const item of readNdjsonFile(path)) {
    const loc: RecordLocation = { line: item.line }
    if ('error' in item) collector.issue(loc, 'record', item.error)
    else collector.add(item.value, loc)
    if (inFlight >= window) await new Promise<void>((r) => (wake = r))
  }
  builder.end()
  post({ kind: 'done', state: collector.state() })
} catch (e) {
  const err = e as NodeJS.ErrnoException
  post({ kind: 'error', message: String(err?.message ?? e), ...(err?.code ? { code: err.code } : {}) })
}
