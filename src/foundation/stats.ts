/**
 * The statistics of docs/API.md "Confidence intervals and tests": the Wilson score interval of a
 * visibility and the pooled two-proportion z-test of a change. One home for both: the query
 * endpoint, the signals endpoint and the HTML report all use these.
 *
 * `erfc` comes from stdlib-js (a port of FreeBSD's msun `erfc`, accurate to about 1 ulp): the
 * p-value of a large z lives in erfc's far tail, where `1 - erf(x)` loses every digit.
 */
import erfc from '@stdlib/math-base-special-erfc'

/** The two-sided 95% quantile of the standard normal distribution. */
export const Z95 = 1.959963984540054

/**
 * The Wilson score interval at 95% of k successes in n trials, in percent: `[low, high]`, or null
 * when n is 0.
 *
 * @example
 * wilson(0, 1) // [0, 79.34...]
 * wilson(5, 10) // [23.65..., 76.34...]
 */
export function wilson(k: number, n: number): [number, number] | null {
  if (n === 0) return null
  const p = k / n
  const z2 = Z95 * Z95
  const denominator = 1 + z2 / n
  const center = (p + z2 / (2 * n)) / denominator
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator
  // At k = 0 (k = n) the formula's low (high) is exactly 0 (100); floating point leaves ~1e-15.
  const low = k === 0 ? 0 : Math.max(0, center - half) * 100
  const high = k === n ? 100 : Math.min(1, center + half) * 100
  return [low, high]
}

/**
 * The two-sided p-value of the pooled two-proportion z-test of k2/n2 (current) against k1/n1
 * (baseline), or null when either n is 0 or the pooled proportion is 0 or 1 (no variance to test).
 *
 * @example
 * twoProportionPValue(10, 100, 30, 100) // 0.00035...
 */
export function twoProportionPValue(k1: number, n1: number, k2: number, n2: number): number | null {
  if (n1 === 0 || n2 === 0) return null
  const pooled = (k1 + k2) / (n1 + n2)
  if (pooled === 0 || pooled === 1) return null
  const z = (k2 / n2 - k1 / n1) / Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
  return erfc(Math.abs(z) / Math.SQRT2)
}

export { erfc }
