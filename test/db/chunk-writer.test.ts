/**
 * ChunkWriter's UTF-8 columns (src/db/chunk-writer.ts): a VARCHAR column handed over as bytes back
 * to back with their end offsets is stored value for value, across several data chunks of 2048
 * rows and beside typed columns.
 */
import { BIGINT, DuckDBInstance, VARCHAR } from '@duckdb/node-api'
import { describe, expect, it } from 'vitest'
import { ChunkWriter } from '../../src/db/chunk-writer.js'

describe('ChunkWriter, a VARCHAR column as UTF-8 bytes', () => {
  it('stores every value across data chunks, empty and multi-byte values included', async () => {
    const n = 5000
    const values = Array.from({ length: n }, (_, i) =>
      i % 11 === 0 ? '' : `${i}: ${'é✓𝄞 '.repeat(i % 7)}${'x'.repeat(i % 300)}`,
    )
    const parts = values.map((v) => new TextEncoder().encode(v))
    const utf8 = new Uint8Array(parts.reduce((s, p) => s + p.length, 0))
    const ends = new Int32Array(n)
    let at = 0
    parts.forEach((p, i) => {
      utf8.set(p, at)
      at += p.length
      ends[i] = at
    })
    const instance = await DuckDBInstance.create(':memory:')
    const conn = await instance.connect()
    try {
      await conn.run('CREATE TABLE t (k BIGINT NOT NULL, s VARCHAR NOT NULL)')
      const w = await ChunkWriter.open(conn, 't', [BIGINT, VARCHAR], { stored: true })
      const keys = BigInt64Array.from({ length: n }, (_, i) => BigInt(i))
      w.appendColumns([keys, { utf8, ends }], n, ['none', 'none'])
      w.close()
      const rows = (await conn.runAndReadAll('SELECT k, s FROM t ORDER BY k')).getRows()
      expect(rows.length).toBe(n)
      expect(rows.map(([, s]) => s)).toEqual(values)
      expect(rows.map(([k]) => Number(k))).toEqual(values.map((_, i) => i))
    } finally {
      conn.closeSync()
      instance.closeSync()
    }
  })
})
