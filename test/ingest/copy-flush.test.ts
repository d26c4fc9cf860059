/**
 * The rows a Parquet import's copy appends between two appender flushes (src/parquet.ts,
 * nextFlushRows): each flush runs on the event loop's thread, so the next batch is sized from how
 * long the last one took, within fixed bounds.
 */
import { describe, expect, it } from 'vitest'
import { nextFlushRows } from '../../src/parquet.js'

describe('nextFlushRows', () => {
  it('aims at a flush of about 15 ms from the last one', () => {
    expect(nextFlushRows(8192, 30)).toBe(4096) // twice too slow: half the rows
    expect(nextFlushRows(8192, 15)).toBe(8192)
    expect(nextFlushRows(8192, 10)).toBe(12_288)
  })

  it('grows at most twofold per flush, and never past 65,536 rows', () => {
    expect(nextFlushRows(4096, 0.1)).toBe(8192)
    expect(nextFlushRows(4096, 0)).toBe(8192)
    expect(nextFlushRows(65_536, 1)).toBe(65_536)
  })

  it('never drops under one data chunk (2,048 rows), however slow the flush', () => {
    expect(nextFlushRows(2048, 500)).toBe(2048)
    expect(nextFlushRows(65_536, 10_000)).toBe(2048)
  })
})
