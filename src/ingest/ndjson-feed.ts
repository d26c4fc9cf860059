/**
 * Feeds an NDJSON file to an ingest call. The file is parsed and validated in a worker thread while
 * this thread appends the staged columns to DuckDB: one worker, started at the first file (or by
 * `warmNdjsonWorker`) and kept for the next ones, so that a small file (an ingest request's body)
 * costs this thread a few messages and none of the parsing, whose slices would each wait behind
 * the requests being served (docs/ARCHITECTURE.md, "Inside the engine"). Both paths run the same
 * RecordCollector, so they give the same issues and the same rows.
 * VA_INGEST_WORKER=never reads in this thread (tests compare the two paths); `always` is the default.
 */
import { Worker } from 'node:worker_threads'
import type { IngestCall, RecordLocation } from './call.js'
import type { CollectorState } from './collector.js'
import type { AnalysisBatch } from './columns.js'
import { readNdjsonFile } from './ndjson.js'

const BATCH_ROWS = 2048
/** Batches the worker may run ahead of the appends. */
const WINDOW = 4

/** One file for the worker to read. */
export interface WorkerJob {
  path: string
  batchRows: number
  window: number
}
export type WorkerMessage =
  | { kind: 'batch'; batch: AnalysisBatch }
  | { kind: 'done'; state: CollectorState; batch?: AnalysisBatch }
  | { kind: 'error'; message: string; code?: string }

/** Reads `path` into `call`; file errors are thrown with their `code` (ENOENT, EISDIR, ...). */
export async function feedNdjsonFile(call: IngestCall, path: string): Promise<void> {
  if (process.env.VA_INGEST_WORKER === 'never') await feedInThread(call, path)
  else await feedInWorker(call, path)
}

async function feedInThread(call: IngestCall, path: string): Promise<void> {
  for await (const item of readNdjsonFile(path)) {
    const loc: RecordLocation = { line: item.line }
    if ('error' in item) call.issue(loc, 'record', item.error)
    else call.add(item.value, loc)
    await call.breathe()
  }
}

/**
 * Batches after which the worker is not kept for the next file but stopped once its file is read
 * (VA_NDJSON_RETIRE_BATCHES, tests): a large file leaves its heap (the parse's garbage, the call's
 * citation dictionary) resident for the whole of the call's SQL steps, where the process's peak RSS
 * is.
 */
const retireBatches = () => Number(process.env.VA_NDJSON_RETIRE_BATCHES) || 64

/** The NDJSON worker kept between files (null: none running). */
let shared: Worker | null = null
/** The file being read by it: the next one waits for this one. */
let queue: Promise<unknown> = Promise.resolve()

/**
 * The worker's V8 heap bounds. Its live data is small (the collector's state and the cited URLs
 * seen: ~22 MB after a full GC, L's first 150k lines), but with V8's defaults its heap reached
 * 110 MB in a large file's feed: a 48 MB young generation, and an old space let grow to 3-4x the
 * live data (the batches' strings, promoted before their batch is posted, then dead) before V8
 * collected it; V8 grows a heap more slowly under a lower bound (bench/NOTES.md, "n11"). The young
 * generation's bound trades the feed's RSS for its garbage collection, 30 % of the worker's time
 * at 12 MB: at 32 MB the 2 GB file's feed took 32-41 s against 48-52 s, its peak RSS 435-444 MB
 * against 410-411, the call's (in the SQL steps) 445-470 MB against 455-467 (bench/NOTES.md,
 * "s18"). A worker whose live data passed 1 GB would stop with an out-of-memory error, refusing
 * its call.
 */
export const NDJSON_WORKER_LIMITS = { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 32 }
function startWorker(): Worker {
  // From the TypeScript sources (tests, tsx) the worker loads its .ts module through tsx.
  const worker = import.meta.url.endsWith('.ts')
    ? new Worker(
        `import('tsx/esm/api').then((t) => t.tsImport(${JSON.stringify(new URL('./ndjson-worker.ts', import.meta.url).href)}, ${JSON.stringify(import.meta.url)}))`,
        { eval: true, resourceLimits: NDJSON_WORKER_LIMITS },
      )
    : new Worker(new URL('./ndjson-worker.js', import.meta.url), { resourceLimits: NDJSON_WORKER_LIMITS })
  // Idle, it keeps no process alive; a failed or stopped worker is replaced at the next file.
  worker.unref()
  const forget = () => {
    if (shared === worker) shared = null
  }
  worker.once('error', forget)
  worker.once('exit', forget)
  return worker
}

/**
 * Starts the NDJSON worker ahead of the first file (a service that takes ingest requests), so
 * that the first request does not wait for its start-up.
 */
export function warmNdjsonWorker(): void {
  if (process.env.VA_INGEST_WORKER !== 'never') shared ??= startWorker()
}

/** The worker's thread id (tests: the same worker reads the next file), or null when none runs. */
export function ndjsonWorkerId(): number | null {
  return shared?.threadId ?? null
}

/** The running worker's heap bounds, MB, as V8 applied them (tests), or null when none runs. */
export function ndjsonWorkerHeapLimits(): Worker['resourceLimits'] | null {
  return shared?.resourceLimits ?? null
}

function feedInWorker(call: IngestCall, path: string): Promise<void> {
  const run = queue.then(() => readInWorker(call, path))
  queue = run.catch(() => undefined)
  return run
}

function readInWorker(call: IngestCall, path: string): Promise<void> {
  const worker = (shared ??= startWorker())
  const job: WorkerJob = { path, batchRows: BATCH_ROWS, window: WINDOW }
  worker.ref()
  let batches = 0
  return new Promise<void>((resolve, reject) => {
    let settled = false
    const detach = () => {
      settled = true
      worker.off('message', onMessage)
      worker.off('error', fail)
      worker.off('exit', onExit)
      worker.unref()
    }
    function fail(e: unknown) {
      if (settled) return
      detach()
      // A file left half read: this worker is not reused.
      if (shared === worker) shared = null
      void worker.terminate()
      reject(e)
    }
    const onExit = (code: number) => fail(new Error(`the NDJSON worker stopped (exit code ${code})`))
    function onMessage(m: WorkerMessage) {
      if (settled) return
      try {
        if (m.kind === 'batch') {
          call.addBatch(m.batch)
          batches++
          worker.postMessage(0)
        } else if (m.kind === 'done') {
          if (m.batch) call.addBatch(m.batch)
          call.adopt(m.state)
          detach()
          if (batches >= retireBatches()) {
            if (shared === worker) shared = null
            void worker.terminate()
          }
          resolve()
        } else {
          // The file could not be read (missing, a directory, ...): the worker itself is fine.
          detach()
          reject(Object.assign(new Error(m.message), m.code === undefined ? {} : { code: m.code }))
        }
      } catch (e) {
        fail(e)
      }
    }
    worker.on('message', onMessage)
    worker.on('error', fail)
    worker.on('exit', onExit)
    worker.postMessage(job)
  })
}
