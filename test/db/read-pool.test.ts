/**
 * The read connection's copy of a result into JavaScript (src/db/read-pool.ts): chunk by chunk in
 * order, yielding to the event loop every CHUNKS_PER_YIELD chunks (a large result no longer holds
 * the loop in one go), and the loaded columns equal to the query's rows across many chunks.
 */
import { DuckDBInstance } from '@duckdb/node-api'
import { describe, expect, it } from 'vitest'
import { CHUNKS_PER_YIELD, ReadConnection, eachChunk } from '../../src/db/read-pool.js'

/** A result of `n` chunks whose getChunk logs its index (synchronous, as the client's). */
function fakeResult(n: number, log: string[]) {
  return {
    chunkCount: n,
    getChunk(i: number) {
      log.push(`chunk ${i}`)
      return i
    },
  }
}

describe('eachChunk', () => {
  it('visits every chunk in order and lets the event loop run between slices', async () => {
    const log: string[] = []
    const seen: number[] = []
    const n = 3 * CHUNKS_PER_YIELD + 5
    setImmediate(() => log.push('loop'))
    await eachChunk(fakeResult(n, log), (c) => seen.push(c))
    expect(seen).toEqual(Array.from({ length: n }, (_, i) => i))
    // The loop turned after the first slice, before the next chunk was read.
    expect(log.indexOf('loop')).toBe(CHUNKS_PER_YIELD)
  })

  it('never yields on a result of one slice', async () => {
    const log: string[] = []
    setImmediate(() => log.push('loop'))
    await eachChunk(fakeResult(CHUNKS_PER_YIELD, log), () => undefined)
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
      // 2,048 rows a chunk: well over two slices.
      const n = 2048 * (2 * CHUNKS_PER_YIELD + 3) + 17
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
