/**
 * The read connection's copy of a result into JavaScript (src/db/read-pool.ts): chunk by chunk in
 * order, letting the event loop turn whenever the copy has held it for a slice (a large result no
 * longer holds the loop in one go), and the loaded columns equal to the query's rows across many
 * chunks.
 */
import { DuckDBInstance } from '@duckdb/node-api'
import { describe, expect, it } from 'vitest'
import { ReadConnection, eachChunk } from '../../src/db/read-pool.js'
import { TimeSlice } from '../../src/foundation/slice.js'

/** A result of `n` chunks whose getChunk logs its index and takes 1 ms of `clock` (synchronous, as the client's). */
function fakeResult(n: number, log: string[], clock: { t: number }) {
  return {
    chunkCount: n,
    getChunk(i: number) {
      log.push(`chunk ${i}`)
      clock.t += 1
      return i
    },
  }
}

describe('eachChunk', () => {
  it('visits every chunk in order and lets the event loop run once a slice is spent', async () => {
    const log: string[] = []
    const seen: number[] = []
    const clock = { t: 0 }
    setImmediate(() => log.push('loop'))
    await eachChunk(fakeResult(20, log, clock), (c) => seen.push(c), new TimeSlice(5, () => clock.t))
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i))
    // Five chunks of 1 ms spend the slice: the loop turned before the sixth was read.
    expect(log.indexOf('loop')).toBe(5)
  })

  it('never yields on a result copied within one slice', async () => {
    const log: string[] = []
    const clock = { t: 0 }
    setImmediate(() => log.push('loop'))
    await eachChunk(fakeResult(4, log, clock), () => undefined, new TimeSlice(5, () => clock.t))
    log.push('done')
    await new Promise((r) => setImmediate(r))
    expect(log.slice(-2)).toEqual(['done', 'loop'])
  })
})

describe('ReadConnection over many chunks', () => {
  it('loads columns and strings equal to the rows, across the yields', async () => {
    const instance = await DuckDBInstance.create(':memory:')
    const conn = await instance.connect()
    const reader = new ReadConnection(conn)
    try {
      // 2,048 rows a chunk: 68 chunks, copied across turns of the loop when a slice is spent.
      const n = 2048 * 67 + 17
      await conn.run(
        `CREATE TABLE texts AS SELECT 7 AS domain_key, 1 AS kind, (i * 7919 % ${n})::INTEGER AS idx,
           'u' || lpad(i::VARCHAR, 8, '0') AS text FROM range(${n}) t(i)`,
      )
      const values = { domain_key: 7, kind: 1 }
      const [idx] = await reader.loadColumns('queries/load_texts', values, ['idx'], ['i32'])
      const [text] = await reader.loadStrings('queries/load_texts_text', values, ['text'])
      expect(idx!.length).toBe(n)
      expect(Array.from(idx!)).toEqual(Array.from({ length: n }, (_, i) => (i * 7919) % n))
      expect(text).toEqual(Array.from({ length: n }, (_, i) => `u${String(i).padStart(8, '0')}`))
    } finally {
      reader.close()
      instance.closeSync()
    }
  })
})
