/**
 * Times of an Arrow table (src/ingest/from-arrow.ts, flat.ts): a Timestamp column of seconds or
 * milliseconds is read from its 64-bit values exactly as Arrow's accessor gives it (nulls, several
 * chunks, before 1970, a value beyond 2^53 refused as the accessor refuses it), and an instant
 * column is turned into ISO strings in slices of time (the event loop turns between them), the same
 * strings as the one-go conversion (milliseconds, time-zone-free: UTC, run under TZ=America/Sao_Paulo).
 */
import {
  TimestampMicrosecond,
  TimestampMillisecond,
  TimestampSecond,
  makeData,
  makeVector,
  vectorFromArray,
} from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { SLICE_MASK, TimeSlice } from '../../src/foundation/slice.js'
import { FlatColumns, columnsOf, normalizeColumnAsync } from '../../src/ingest/flat.js'
import { columnValues } from '../../src/ingest/from-arrow.js'

/** Instants at the edges: milliseconds 0 and 999, before 1970, a São Paulo DST change, leap day, year 9999. */
const EDGES = [
  Date.parse('2026-11-20T12:34:56.000Z'),
  Date.parse('2026-11-20T12:34:56.999Z'),
  Date.parse('2026-11-20T12:34:56.001Z'),
  Date.parse('1969-12-31T23:59:59.999Z'),
  -1,
  0,
  Date.parse('2018-11-04T02:59:59.999Z'), // São Paulo's clocks jumped at 03:00Z that day
  Date.parse('2018-11-04T03:00:00.000Z'),
  Date.parse('2024-02-29T23:59:59.999Z'),
  Date.parse('9999-12-31T23:59:59.999Z'),
]

describe('an Arrow Timestamp column', () => {
  it('gives what Arrow gives, in seconds and milliseconds, with nulls and across chunks', () => {
    const ms = vectorFromArray([...EDGES, null, ...EDGES.slice(0, 3)], new TimestampMillisecond())
    const twoChunks = ms.concat(vectorFromArray([null, EDGES[1]!, EDGES[3]!], new TimestampMillisecond()))
    const seconds = vectorFromArray(
      EDGES.map((e) => Math.floor(e / 1000) * 1000),
      new TimestampSecond(),
    )
    const micro = vectorFromArray(EDGES, new TimestampMicrosecond())
    for (const v of [ms, twoChunks, seconds, micro]) {
      expect(Array.from(columnValues(v as never))).toEqual(Array.from(v))
    }
    expect(twoChunks.data.length).toBe(2)
    expect(columnValues(ms as never)[0]).toBe(EDGES[0])
    expect(columnValues(ms as never)[EDGES.length]).toBeNull()
    expect(columnValues(seconds as never)[1]).toBe(Date.parse('2026-11-20T12:34:56Z'))
  })

  it('refuses a value beyond 2^53 as Arrow does', () => {
    const type = new TimestampMillisecond()
    const data = makeData({ type, length: 1, nullCount: 0, data: BigInt64Array.of(2n ** 60n) })
    const v = makeVector(data)
    expect(() => Array.from(v)).toThrow(TypeError)
    expect(() => columnValues(v as never)).toThrow(TypeError)
  })
})

describe('an instant column turned into ISO strings', () => {
  it('gives the same strings in slices as in one go, millisecond for millisecond', async () => {
    const n = 2 * (SLICE_MASK + 1) + 7
    const col = Array.from({ length: n }, (_, i) =>
      i % 13 === 5 ? null : EDGES[i % EDGES.length]! + (i % 7),
    )
    const once = columnsOf(FlatColumns.of({ answered_at: col }, n), 'analyses').cols[5]!
    let t = 0
    const sliced = await normalizeColumnAsync(
      col,
      n,
      'analyses',
      'answered_at',
      new TimeSlice(4, () => (t += 5)),
    )
    expect(Array.from(sliced)).toEqual(Array.from(once))
    expect(sliced[0]).toBe('2026-11-20T12:34:56.000Z')
    expect(sliced[1]).toBe('2026-11-20T12:34:57.000Z')
    expect(sliced[3]).toBe('1970-01-01T00:00:00.002Z')
    expect(sliced[63]).toBe('1969-12-31T23:59:59.999Z')
    expect(sliced[4]).toBe('1970-01-01T00:00:00.003Z')
    expect(sliced[5]).toBeNull()
    expect(sliced[6]).toBe('2018-11-04T03:00:00.005Z')
    expect(sliced[9]).toBe('+010000-01-01T00:00:00.001Z')
  })

  it('lets the event loop turn when its slice of time is spent, and not before', async () => {
    const n = 3 * (SLICE_MASK + 1)
    const run = async (clock: () => number) => {
      const log: string[] = []
      setImmediate(() => log.push('loop'))
      const col = new Float64Array(n).fill(EDGES[0]!)
      await normalizeColumnAsync(col, n, 'analyses', 'answered_at', new TimeSlice(4, clock))
      log.push('done')
      await new Promise((r) => setImmediate(r))
      return log
    }
    let t = 0
    expect(await run(() => (t += 5))).toEqual(['loop', 'done'])
    expect(await run(() => 0)).toEqual(['done', 'loop'])
  })
})
