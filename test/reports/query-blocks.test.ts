/**
 * GET /api/v1/query's facts in blocks of days (src/reports/query/facts.ts): the analyses are sorted
 * by (block, prompt and channel, day); a window's analyses of the cells it cuts are read from the
 * blocks it overlaps or cell by cell, and both ways find exactly the analyses of those cells in the
 * window, for any days (negative ones too), cells, window and cut cells. Analyses not sorted by
 * block (the SQL's order and BLOCK_DAYS disagreeing) are refused.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countingOrder } from '../../src/foundation/counting.js'
import { BLOCK_DAYS, blockOf, blockRange, blockStarts, cutVisits } from '../../src/reports/query/facts.js'

/** Analyses of cells (the prompt and channel's stand-in) sorted as the SQL sorts them. */
function factsOf(rows: { day: number; cell: number }[], cells: number) {
  const sorted = [...rows].sort((a, b) => blockOf(a.day) - blockOf(b.day) || a.cell - b.cell || a.day - b.day)
  const day = Int32Array.from(sorted, (r) => r.day)
  const cell = Int32Array.from(sorted, (r) => r.cell)
  const byCell = countingOrder(cell, cells)
  return { day, cell, cellStart: byCell.start, cellOrder: byCell.order, ...blockStarts(day) }
}

const CELLS = 6
const caseArb = fc.record({
  rows: fc.array(
    fc.record({ day: fc.integer({ min: -40, max: 90 }), cell: fc.integer({ min: 0, max: CELLS - 1 }) }),
    { maxLength: 120 },
  ),
  from: fc.integer({ min: -60, max: 100 }),
  length: fc.integer({ min: 1, max: 70 }),
  state: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: CELLS, maxLength: CELLS }),
})

describe('query facts in blocks of days', () => {
  it('each block holds the analyses of its days', () => {
    fc.assert(
      fc.property(caseArb, ({ rows }) => {
        const f = factsOf(rows, CELLS)
        for (let b = 0; b + 1 < f.blockStart.length; b++)
          for (let i = f.blockStart[b]!; i < f.blockStart[b + 1]!; i++)
            expect(blockOf(f.day[i]!)).toBe(f.firstBlock + b)
        expect(f.blockStart[f.blockStart.length - 1]).toBe(rows.length)
      }),
      { numRuns: 300 },
    )
  })

  it('reads exactly the cut cells’ analyses in the window, from the blocks or cell by cell', () => {
    fc.assert(
      fc.property(caseArb, ({ rows, from, length, state }) => {
        const f = factsOf(rows, CELLS)
        const to = from + length
        const cut = Uint8Array.from(state)
        const want: number[] = []
        for (let i = 0; i < f.day.length; i++)
          if (f.day[i]! >= from && f.day[i]! < to && cut[f.cell[i]!] === 2) want.push(i)
        const blocks = blockRange(f, from, to)
        const fromBlocks = [...cutVisits(f, { state: cut, from, to, blocks, inBlocks: true })].sort(
          (a, b) => a - b,
        )
        const byCell = [...cutVisits(f, { state: cut, from, to, blocks, inBlocks: false })].sort(
          (a, b) => a - b,
        )
        expect(fromBlocks).toEqual(want)
        expect(byCell).toEqual(want)
      }),
      { numRuns: 500 },
    )
  })

  it('refuses analyses not sorted by block', () => {
    expect(() => blockStarts(Int32Array.of(0, BLOCK_DAYS, 1))).toThrow(/not sorted by block/)
    expect(() => blockStarts(Int32Array.of(-1, 0, BLOCK_DAYS - 1, BLOCK_DAYS))).not.toThrow()
  })
})
