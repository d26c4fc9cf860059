/**
 * The mean of doubles as the correctly rounded value of their exact sum divided by n (what
 * Python's statistics.mean returns, and what the spec's worked example shows), rather than the
 * left-to-right floating-point sum divided by n, which can differ in the last digit.
 *
 * The sum is carried as a double-double (error-free TwoSum), and the division is corrected by the
 * exact remainder (Dekker's TwoProduct), so the result is the nearest double to sum/n except
 * within ~1e-30 of a rounding tie.
 */

const SPLITTER = 134217729 // 2^27 + 1

function productError(a: number, b: number, p: number): number {
  let t = SPLITTER * a
  const aHi = t - (t - a)
  const aLo = a - aHi
  t = SPLITTER * b
  const bHi = t - (t - b)
  const bLo = b - bHi
  return aHi * bHi - p + aHi * bLo + aLo * bHi + aLo * bLo
}

/** Accumulates an exact-enough sum of doubles; `mean()` divides it correctly rounded. */
export class ExactSum {
  #s = 0
  #c = 0
  #n = 0

  add(x: number): void {
    const s = this.#s
    const t = s + x
    const bp = t - s
    this.#c += s - (t - bp) + (x - bp)
    this.#s = t
    this.#n++
  }

  /** sum / divisor, correctly rounded; divisor defaults to the number of values added. */
  mean(divisor: number = this.#n): number {
    if (divisor === 0) return 0
    const hi = this.#s + this.#c
    const lo = this.#c - (hi - this.#s)
    const q = hi / divisor
    const p = q * divisor
    const r = hi - p - productError(q, divisor, p) + lo
    return q + r / divisor
  }
}

/**
 * The scale of the stored sentiment sums: each sentiment is summed as round(x * 2^70), an integer
 * (the SQL macro `sentiment_fixed`, sql/schema/004_exact_sentiment.sql; exact for every double of
 * at least 2^-18), so a sum is the same whatever the order of its rows.
 */
export const SENTIMENT_SCALE = 2 ** 70

/**
 * Adds fixed-point sums given as (hi, lo) pairs of doubles into per-cell double-doubles: `hi[at]`,
 * `lo[at]` (error-free TwoSum on the high parts). Rows are added in a fixed order (by day, channel),
 * so the result depends only on the stored sums.
 */
export function addFixed(hi: Float64Array, lo: Float64Array, at: number, xHi: number, xLo: number): void {
  const s = hi[at]!
  const t = s + xHi
  const bp = t - s
  lo[at] = lo[at]! + (s - (t - bp) + (xHi - bp)) + xLo
  hi[at] = t
}

/** A fixed-point sentiment sum (hi + lo, scaled by SENTIMENT_SCALE) over `n` values, as their mean. */
export function fixedMean(hi: number, lo: number, n: number): number {
  if (n === 0) return 0
  const sum = new ExactSum()
  sum.add(hi)
  sum.add(lo)
  return sum.mean(n) / SENTIMENT_SCALE
}
