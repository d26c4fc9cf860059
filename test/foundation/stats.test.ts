import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { erfc, twoProportionPValue, wilson, Z95 } from '../../src/foundation/stats.js'

/** Values of erfc from Abramowitz & Stegun table 7.1 and Mathematica (N[Erfc[x], 20]). */
const ERFC: ReadonlyArray<[number, string]> = [
  [0, '1'],
  [0.5, '0.4795001221869534623'],
  [1, '0.15729920705028513066'],
  [1.959963984540054 / Math.SQRT2, '0.05'],
  [2, '0.0046777349810472658379'],
  [3, '0.000022090496998585441373'],
  [5, '1.5374597944280348502e-12'],
  [10, '2.088487583762544757e-45'],
  [-1, '1.8427007929497148693'],
]

describe('erfc', () => {
  it.each(ERFC)('erfc(%s) matches the table to a relative 1e-12', (x, digits) => {
    // The table's 20 digits, rounded to the nearest double once here.
    const expected = Number(digits)
    expect(Math.abs(erfc(x) - expected) / expected).toBeLessThan(1e-12)
  })
})

describe('wilson', () => {
  it('is null without trials', () => {
    expect(wilson(0, 0)).toBeNull()
  })

  it('matches the hand-worked interval of 5 in 10', () => {
    // z^2 = 3.841459, center = (0.5 + 0.192073) / 1.384146 = 0.5, half = 0.262928... / ... (docs/API.md)
    const [low, high] = wilson(5, 10)!
    expect(low).toBeCloseTo(23.659309, 5)
    expect(high).toBeCloseTo(76.340691, 5)
  })

  it('at k = 0 starts at 0 and at k = n ends at 100', () => {
    expect(wilson(0, 7)![0]).toBe(0)
    expect(wilson(7, 7)![1]).toBe(100)
  })

  it('at n = 1 is the widest interval', () => {
    const z2 = Z95 * Z95
    expect(wilson(0, 1)![1]).toBeCloseTo((z2 / (1 + z2)) * 100, 9)
    expect(wilson(1, 1)![0]).toBeCloseTo((1 / (1 + z2)) * 100, 9)
  })

  it('always holds the observed proportion inside [0, 100]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (n, f) => {
          const k = Math.floor(f * n)
          const [low, high] = wilson(k, n)!
          const p = (k / n) * 100
          return low >= 0 && high <= 100 && low <= p + 1e-9 && p <= high + 1e-9
        },
      ),
    )
  })
})

describe('twoProportionPValue', () => {
  it('matches the hand-worked test of 10/100 against 30/100', () => {
    // P = 0.2, z = 0.2 / sqrt(0.16 * 0.02) = 3.5355339, p = erfc(2.5) = 0.000406952...
    expect(twoProportionPValue(10, 100, 30, 100)).toBeCloseTo(Number('0.00040695201744495894'), 15)
  })

  it('is symmetric in the direction of the change', () => {
    expect(twoProportionPValue(30, 100, 10, 100)).toBe(twoProportionPValue(10, 100, 30, 100))
  })

  it('is null when a period is empty or the pooled proportion is 0 or 1', () => {
    expect(twoProportionPValue(0, 0, 3, 10)).toBeNull()
    expect(twoProportionPValue(3, 10, 0, 0)).toBeNull()
    expect(twoProportionPValue(0, 10, 0, 20)).toBeNull()
    expect(twoProportionPValue(10, 10, 20, 20)).toBeNull()
  })

  it('is 1 when nothing changed', () => {
    expect(twoProportionPValue(5, 10, 10, 20)).toBe(1)
  })
})
