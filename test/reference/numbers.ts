/**
 * Arithmetic of the reference model: plain means, exact rationals for the means of reported
 * doubles, and the binary string order of the spec.
 */

export function mean(values: number[]): number {
  let sum = 0
  for (const v of values) sum += v
  return sum / values.length
}

/** An exact non-negative rational. */
export interface Ratio {
  num: bigint
  den: bigint
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b]
  return a
}

function addRatio(a: Ratio, b: Ratio): Ratio {
  const num = a.num * b.den + b.num * a.den
  const den = a.den * b.den
  const g = gcd(num, den)
  return g === 0n ? { num: 0n, den: 1n } : { num: num / g, den: den / g }
}

/** The double nearest to num/den (ties to even) for results in the normal range (not subnormals). */
export function ratioToNumber({ num, den }: Ratio): number {
  if (num === 0n) return 0
  // Scale so the quotient has at least 66 bits, then append a sticky bit for the remainder:
  // Number() then rounds the 54th bit correctly, and the power-of-two scaling back is exact.
  let shift = 66 - (num.toString(2).length - den.toString(2).length)
  if (shift < 0) shift = 0
  const scaled = num << BigInt(shift)
  const q = scaled / den
  const sticky = scaled % den === 0n ? 0n : 1n
  let value = Number((q << 1n) | sticky)
  // 2 ** 1024 overflows: scale down in steps (each exact while the value stays normal).
  for (let e = shift + 1; e > 0; e -= 1000) value /= 2 ** Math.min(e, 1000)
  return value
}

/** The exact value of a finite non-negative double as a ratio of integers. */
export function doubleToRatio(x: number): Ratio {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, x)
  const bits = view.getBigUint64(0)
  const exponent = Number((bits >> 52n) & 0x7ffn)
  const fraction = bits & ((1n << 52n) - 1n)
  const mantissa = exponent === 0 ? fraction : fraction | (1n << 52n)
  const power = (exponent === 0 ? 1 : exponent) - 1075
  return power >= 0
    ? { num: mantissa << BigInt(power), den: 1n }
    : { num: mantissa, den: 1n << BigInt(-power) }
}

/**
 * Mean of values as reported (doubles), computed exactly and rounded once: the exact sum of the
 * doubles divided by their count, to the nearest double (what Python's statistics.mean gives). A
 * plain double sum rounds at every step; the spec example's avg_sov 44.44444444444444 needs the
 * exact one (a left-to-right sum and DuckDB's avg() give ...45).
 */
export function exactMean(values: number[]): number {
  let sum: Ratio = { num: 0n, den: 1n }
  for (const v of values) sum = addRatio(sum, doubleToRatio(v))
  return ratioToNumber({ num: sum.num, den: sum.den * BigInt(values.length) })
}

/** `part` in percent of `whole` as `part * 100 / whole` (one rounding), 0 when `whole` is 0. */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : (part * 100) / whole
}

/** Binary (UTF-16 code unit) string comparison, ascending. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * The sentiment percentages of semantics.md section 6: round(1000 * x / T) / 10 with halves up,
 * in exact integer arithmetic; 0 when T = 0.
 */
export function sentimentPercent(x: number, T: number): number {
  return T === 0 ? 0 : Math.floor((2000 * x + T) / (2 * T)) / 10
}
