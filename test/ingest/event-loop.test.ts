/**
 * An ingest call lets the event loop turn while it validates and stages its records
 * (docs/ARCHITECTURE.md, "Inside the engine": reads never wait behind ingest): whatever arrives
 * during a call (a request, a timer) runs before the call ends, not after. Counted in turns of the
 * event loop, never timed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { ChunkWriter } from '../../src/db/chunk-writer.js'
import { IngestCall } from '../../src/ingest/call.js'
import { SLICE_MS } from '../../src/foundation/slice.js'
import { openEngine, type Engine } from '../../src/index.js'
import { dimRecords, makeAnalyses, makeDims, toNdjson } from '../support/generate.js'

const dir = mkdtempSync(join(tmpdir(), 'va-ingest-loop-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

/** Counts turns of the event loop (one setImmediate callback each) until stopped. */
function loopTurns() {
  let n = 0
  let on = true
  const tick = () => {
    if (!on) return
    n++
    setImmediate(tick)
  }
  setImmediate(tick)
  return {
    get n() {
      return n
    },
    stop: () => void (on = false),
  }
}

const dims = makeDims(7, { teams: 1, domainsPerTeam: 2 })
// Enough records that validating them takes far longer than one slice on any machine.
const records = [...dimRecords(dims), ...makeAnalyses(7, dims, 1, 3_000)]

/** The loop's turn count at each call of `method` during `run`. */
async function turnsAt<T extends object>(
  proto: T,
  method: keyof T & string,
  run: (engine: Engine) => Promise<unknown>,
  busyMs = 0,
): Promise<number[]> {
  const engine = await openEngine({})
  const seen: number[] = []
  const turns = loopTurns()
  const original = proto[method] as (...a: unknown[]) => unknown
  vi.spyOn(proto, method as never).mockImplementation(function (this: unknown, ...a: unknown[]) {
    seen.push(turns.n)
    const until = performance.now() + busyMs
    while (performance.now() < until); // a slow step: the call must let the loop turn after it
    return original.apply(this, a)
  } as never)
  try {
    const result = (await run(engine)) as { analyses: number }
    expect(result.analyses).toBe(3_000)
  } finally {
    turns.stop()
    await engine.close()
  }
  return seen
}

describe('an ingest call lets the event loop turn', () => {
  it('while it validates JS records', async () => {
    const seen = await turnsAt(IngestCall.prototype, 'add', (e) => e.ingest(records))
    expect(seen).toHaveLength(records.length)
    // Synchronous validation of the whole call would see one turn count from first to last.
    expect(seen.at(-1)! - seen[0]!).toBeGreaterThan(1)
  })

  it('while it validates an NDJSON file read in this thread', async () => {
    vi.stubEnv('VA_INGEST_WORKER', 'never')
    const file = join(dir, 'records.ndjson')
    writeFileSync(file, toNdjson(records))
    const seen = await turnsAt(IngestCall.prototype, 'add', (e) => e.ingestFile(file))
    expect(seen).toHaveLength(records.length)
    expect(seen.at(-1)! - seen[0]!).toBeGreaterThan(1)
  })

  it('between the staging tables’ synchronous flushes', async () => {
    // Each flush made slower than a slice: the loop must turn after every one of them.
    const seen = await turnsAt(ChunkWriter.prototype, 'close', (e) => e.ingest(records), SLICE_MS + 1)
    expect(seen.length).toBeGreaterThanOrEqual(6)
    for (let i = 1; i < seen.length; i++) expect(seen[i]!, `flush ${i}`).toBeGreaterThan(seen[i - 1]!)
  })
})
