/**
 * Rows grouped by a small integer key (0 to n - 1) without comparisons: the offsets of each key's
 * rows (a prefix sum of the counts), and the stable order that puts them together (a counting sort).
 */

/**
 * The `n + 1` offsets of the keys' rows: key k has start[k + 1] - start[k] rows, and when `key` is
 * sorted ascending they are rows start[k] to start[k + 1] - 1.
 * @example groupStarts(Int32Array.of(0, 0, 2), 3) // Int32Array [0, 2, 2, 3]
 */
export function groupStarts(key: ArrayLike<number>, n: number): Int32Array {
  const start = new Int32Array(n + 1)
  for (let r = 0; r < key.length; r++) start[key[r]! + 1]!++
  for (let k = 0; k < n; k++) start[k + 1]! += start[k]!
  return start
}

/**
 * The rows of each key together, in their first order (stable): the rows of key k are
 * order[start[k]] to order[start[k + 1] - 1].
 * @example countingOrder(Int32Array.of(1, 0, 1), 2) // { order: [1, 0, 2], start: [0, 1, 3] }
 */
export function countingOrder(key: ArrayLike<number>, n: number): { order: Int32Array; start: Int32Array } {
  const start = groupStarts(key, n)
  const next = start.slice(0, n)
  const order = new Int32Array(key.length)
  for (let r = 0; r < key.length; r++) order[next[key[r]!]!++] = r
  return { order, start }
}
