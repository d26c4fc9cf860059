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
