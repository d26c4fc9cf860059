import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countingOrder, groupStarts } from '../../src/foundation/counting.js'

describe('counting sort', () => {
  it('groupStarts: the offsets of each key, empty keys included', () => {
    expect([...groupStarts(Int32Array.of(0, 0, 2), 3)]).toEqual([0, 2, 2, 3])
    expect([...groupStarts(new Int32Array(0), 2)]).toEqual([0, 0, 0])
  })

  it('countingOrder equals a stable sort by key', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 6 }), { maxLength: 60 }), (keys) => {
        const { order, start } = countingOrder(Int32Array.from(keys), 7)
        const want = keys.map((k, i) => [k, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1])
        expect([...order]).toEqual(want.map(([, i]) => i))
        for (let k = 0; k < 7; k++) expect(start[k + 1]! - start[k]!).toBe(keys.filter((x) => x === k).length)
      }),
    )
  })
})
