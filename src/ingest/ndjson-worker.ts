/**
 * The NDJSON worker: reads a file, parses and validates every line with a RecordCollector, and
 * posts the analyses to the ingest thread as column batches (their buffers transferred), at most
 * `window` batches ahead of the acknowledgements so memory stays bounded. Ends each file with the
 * collector's state, or with the error that stopped the reading. It stays up between files: the
 * ingest thread sends it one job (a file) at a time, each read with a new collector.
 */
import { getHeapSpaceStatistics } from 'node:v8'
import { parentPort } from 'node:worker_threads'
import { BatchBuilder, transferList, type AnalysisBatch } from './columns.js'
import { RecordCollector } from './collector.js'
import type { RecordLocation } from './handles.js'
import type { WorkerJob, WorkerMessage } from './ndjson-feed.js'
import { readNdjsonFile } from './ndjson.js'

const port = parentPort!
let inFlight = 0
let wake: (() => void) | null = null
/** The files sent while one is read (the ingest thread sends one at a time; kept in order anyway). */
const jobs: WorkerJob[] = []
let reading = false
const post = (m: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer)

port.on('message', (m: number | WorkerJob) => {
  if (typeof m !== 'number') {
    jobs.push(m)
    if (!reading) void readJobs()
    return
  }
  inFlight--
  const w = wake
  wake = null
  w?.()
})

async function readJobs(): Promise<void> {
  reading = true
  for (let job = jobs.shift(); job !== undefined; job = jobs.shift()) await read(job)
  reading = false
}

/** VA_TRACE_MEMORY: this thread's heap, after `sent` batches. */
function traceHeap(sent: number): void {
  const m = process.memoryUsage()
  const mb = (n: number) => Math.round(n / 2 ** 20)
  const spaces = getHeapSpaceStatistics()
    .filter((s) => s.space_size > 2 ** 20)
    .map((s) => `${s.space_name} ${mb(s.space_used_size)}/${mb(s.space_size)}`)
  process.stderr.write(
    `ndjson worker: ${sent} batches, heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} MB (${spaces.join(', ')}), ` +
      `external ${mb(m.external)} MB\n`,
  )
}

async function read({ path, batchRows, window }: WorkerJob): Promise<void> {
  inFlight = 0
  // Each batch is held until the next one is built, so that the last one goes with the file's
  // end: a small file (an ingest request's body) is one message, one turn of the ingest thread.
  let held: AnalysisBatch | null = null
  let sent = 0
  const builder = new BatchBuilder(batchRows, (batch) => {
    if (held !== null) {
      inFlight++
      post({ kind: 'batch', batch: held }, transferList(held))
      if (++sent % 16 === 0 && process.env.VA_TRACE_MEMORY) traceHeap(sent)
    }
    held = batch
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
    const last: AnalysisBatch | null = held
    post(
      { kind: 'done', state: collector.state(), ...(last === null ? {} : { batch: last }) },
      last === null ? [] : transferList(last),
    )
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    post({ kind: 'error', message: String(err?.message ?? e), ...(err?.code ? { code: err.code } : {}) })
  }
}
