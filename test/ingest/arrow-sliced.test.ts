/**
 * An Arrow table's columns decoded ahead in slices of time (src/ingest/from-arrow.ts,
 * FlatColumns.prepare, used by the flat import's SQL path) give the values Arrow's own accessors
 * give, as the one-go decoding does: strings (ASCII and not), 32-bit integers, doubles and
 * timestamps, with nulls read from the validity bitmaps, over several chunks and a sliced chunk
 * (whose validity bits start at an offset). With every slice spent, the decoding lets the event
 * loop turn many times; with none, never.
 */
import { Float64, Int32, TimestampMillisecond, Utf8, vectorFromArray, type Vector } from 'apache-arrow'
import { describe, expect, it, vi } from 'vitest'
import { slices } from '../support/fake-slice.js'
import type { FlatColumns } from '../../src/ingest/flat.js'

vi.mock('../../src/foundation/slice.js', async (original) =>
  (await import('../support/fake-slice.js')).fakeSlices(original as never),
)

const { arrowFlatColumns, columnValues } = await import('../../src/ingest/from-arrow.js')

const N = 20_000
/** Value i of each column, null at every 7th row (and more for the texts). */
const ascii = (i: number) => (i % 7 === 3 || i % 11 === 0 ? null : `https://x.example/${i % 97}`)
const wide = (i: number) => (i % 7 === 3 ? null : `entité ${i % 13} — ${'€'.repeat(i % 3)}`)
const int = (i: number) => (i % 7 === 3 ? null : (i * 7919) % 100_003)
const dbl = (i: number) => (i % 7 === 3 ? null : i / 8)
const ms = (i: number) => (i % 7 === 3 ? null : Date.UTC(2026, 10, 1) + i * 61_001)

/** A column of N values in three chunks, the middle one a slice of a longer vector (offset 5). */
function column(value: (i: number) => unknown, type: Utf8 | Int32 | Float64 | TimestampMillisecond): Vector {
  const make = (from: number, to: number) =>
    vectorFromArray(Array.from({ length: to - from }, (_, k) => value(from + k)) as never, type as never)
  const cut = Math.floor(N / 3)
  // Five more rows before the middle chunk's, sliced off: its validity bits start at offset 5.
  const middle = make(cut - 5, 2 * cut).slice(5)
  return make(0, cut).concat(middle as never, make(2 * cut, N) as never)
}

const COLUMNS = {
  ascii: column(ascii, new Utf8()),
  wide: column(wide, new Utf8()),
  int: column(int, new Int32()),
  dbl: column(dbl, new Float64()),
  at: column(ms, new TimestampMillisecond()),
}
const table = {
  numRows: N,
  schema: { fields: Object.keys(COLUMNS).map((name) => ({ name })) },
  getChild: (name: string) => COLUMNS[name as keyof typeof COLUMNS] ?? null,
}

/** Each column's values by row as Arrow's accessors give them. */
const arrowValues = (v: Vector) => Array.from({ length: v.length }, (_, i) => v.get(i) as unknown)

describe('Arrow columns decoded in slices of time', () => {
  it('the columns are as built: three chunks, one sliced at an offset, nulls in each', () => {
    for (const v of Object.values(COLUMNS)) {
      expect(v.length).toBe(N)
      expect(v.data.map((d) => d.offset)).toContain(5)
      expect(v.data.every((d) => d.nullCount > 0)).toBe(true)
    }
  })

  it.each([true, false])(
    'give the values Arrow gives and the one-go decoding gives (every slice spent: %s)',
    async (spent) => {
      slices.spent = spent
      slices.turns = 0
      const cols = arrowFlatColumns(table as never) as FlatColumns
      await cols.prepare!(Object.keys(COLUMNS))
      if (spent) expect(slices.turns).toBeGreaterThan(10)
      else expect(slices.turns).toBe(0)
      for (const [name, v] of Object.entries(COLUMNS)) {
        const expected = arrowValues(v).map((x) => (x === undefined ? null : x))
        expect(Array.from(cols.column(name)!), name).toEqual(expected)
        expect(Array.from(columnValues(v as never)), name).toEqual(expected)
      }
      expect(cols.column('ascii')![3]).toBeNull()
      expect(cols.column('at')![1]).toBe(Date.UTC(2026, 10, 1) + 61_001)
    },
  )
})
