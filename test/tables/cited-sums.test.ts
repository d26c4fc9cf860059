/**
 * The window's sums by key behind citations, cited domains and fan-out queries
 * (src/tables/cited-index.ts `sumByDay`, src/queries/citation-lists.ts `topByValue`): the keys come
 * back each once, ascending, with their sum and the OR of their rows' bits, equal to a brute-force
 * scan of the rows for any rows, window, mask, key bound and bits; on the sparse path (few rows per
 * key) and on the dense one; and a call never sees what an earlier one summed (the dense scratch
 * columns are shared between calls and must be all zero again when a call returns). The top `k` of
 * compact values by value then rank equals a full sort.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sumByDay, type ByDay } from '../../src/tables/cited-index.js'
import { topByValue } from '../../src/queries/citation-lists.js'

interface Row {
  day: number
  key: number
  combo: number
  count: number
}

/** The rows as a by-day copy (rows of a day in the order given). */
function byDayOf(rows: Row[]): ByDay {
  const sorted = [...rows].sort((a, b) => a.day - b.day)
  const firstDay = sorted.length === 0 ? 0 : sorted[0]!.day
  const lastDay = sorted.length === 0 ? -1 : sorted[sorted.length - 1]!.day
  const dayStart = new Int32Array(lastDay - firstDay + 2)
  for (const r of sorted) dayStart[r.day - firstDay + 1]!++
  for (let d = 1; d < dayStart.length; d++) dayStart[d]! += dayStart[d - 1]!
  return {
    firstDay,
    dayStart,
    key: Int32Array.from(sorted, (r) => r.key),
    combo: Uint8Array.from(sorted, (r) => r.combo),
    count: Int32Array.from(sorted, (r) => r.count),
  }
}

const COMBOS = 4
const callArb = fc.record({
  rows: fc.array(
    fc.record({
      day: fc.integer({ min: -20, max: 40 }),
      key: fc.integer({ min: 0, max: 300 }),
      combo: fc.integer({ min: 0, max: COMBOS - 1 }),
      count: fc.integer({ min: 0, max: 5 }),
    }),
    { maxLength: 150 },
  ),
  startDay: fc.integer({ min: -30, max: 45 }),
  length: fc.integer({ min: 1, max: 40 }),
  // Key bounds from far below the keys met (dense path) to far above them (sparse path).
  n: fc.oneof(fc.integer({ min: 1, max: 320 }), fc.integer({ min: 1, max: 5000 })),
  mask: fc.option(fc.array(fc.integer({ min: 0, max: 1 }), { minLength: COMBOS, maxLength: COMBOS })),
  bits: fc.boolean(),
})

describe('sums of the window by key', () => {
  it('equal a brute-force scan, call after call (nothing left over from an earlier call)', () => {
    fc.assert(
      fc.property(fc.array(callArb, { minLength: 1, maxLength: 6 }), (calls) => {
        for (const c of calls) {
          const w = { startDay: c.startDay, endDay: c.startDay + c.length - 1 }
          const mask = c.mask === null ? null : Uint8Array.from(c.mask)
          const bitOf = c.bits ? Int32Array.from({ length: COMBOS }, (_, i) => 1 << i) : undefined
          const want = new Map<number, { sum: number; bits: number }>()
          for (const r of c.rows) {
            if (r.day < w.startDay || r.day > w.endDay || r.key >= c.n || r.count === 0) continue
            if (mask !== null && mask[r.combo] === 0) continue
            const e = want.get(r.key) ?? { sum: 0, bits: 0 }
            e.sum += r.count
            e.bits |= 1 << r.combo
            want.set(r.key, e)
          }
          const keys = [...want.keys()].sort((a, b) => a - b)
          const got = sumByDay(byDayOf(c.rows), w, mask, c.n, bitOf)
          expect([...got.key]).toEqual(keys)
          expect([...got.sum]).toEqual(keys.map((k) => want.get(k)!.sum))
          expect([...got.bits]).toEqual(c.bits ? keys.map((k) => want.get(k)!.bits) : [])
        }
      }),
      { numRuns: 400 },
    )
  })

  it('take both paths: the keys met as met (few rows) and a pass over the keys (many rows)', () => {
    const rows: Row[] = Array.from({ length: 64 }, (_, i) => ({
      day: i % 8,
      key: i % 16,
      combo: 0,
      count: 1,
    }))
    const w = { startDay: 0, endDay: 7 }
    for (const n of [16, 10_000]) {
      const got = sumByDay(byDayOf(rows), w, null, n)
      expect([...got.key]).toEqual(Array.from({ length: 16 }, (_, k) => k))
      expect([...got.sum]).toEqual(new Array<number>(16).fill(4))
    }
  })

  it('leave nothing of the keys at or above the bound for a later call with a larger bound', () => {
    const w = { startDay: 0, endDay: 0 }
    const row = (key: number): Row => ({ day: 0, key, combo: 0, count: 1 })
    sumByDay(byDayOf([]), w, null, 10_000) // the scratch grows
    // Many rows for a bound of 8 (the pass over the keys), keys 8-63 above it.
    sumByDay(byDayOf(Array.from({ length: 64 }, (_, i) => row(i))), w, null, 8)
    // Then 40 rows of key 0 under a bound of 100: the pass over the keys again.
    const got = sumByDay(byDayOf(Array.from({ length: 40 }, () => row(0))), w, null, 100)
    expect([...got.key]).toEqual([0])
    expect([...got.sum]).toEqual([40])
  })
})

describe('top k of compact values', () => {
  it('equals a full sort by value descending then rank, over the positive values', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 199 }), { maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 60, maxLength: 60 }),
        fc.integer({ min: 1, max: 20 }),
        fc.boolean(),
        (ids, values, k, compact) => {
          // Ranks: a permutation of the 200 ids.
          const rank = Int32Array.from({ length: 200 }, (_, i) => (i * 77) % 200)
          const id = Int32Array.from(ids)
          const value = compact
            ? Float64Array.from(ids, (_, j) => values[j]!)
            : Float64Array.from({ length: 200 }, (_, i) => (ids.includes(i) ? values[ids.indexOf(i)]! : 0))
          const idOf = (j: number) => (compact ? id[j]! : j)
          const want = [...value.keys()]
            .filter((j) => value[j]! > 0)
            .sort((a, b) => value[b]! - value[a]! || rank[idOf(a)]! - rank[idOf(b)]!)
          const got = compact ? topByValue(value, rank, k, id) : topByValue(value, rank, k)
          expect(got.total).toBe(want.length)
          expect(got.top).toEqual(want.slice(0, k))
        },
      ),
      { numRuns: 300 },
    )
  })
})
