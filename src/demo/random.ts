/**
 * Seeded pseudo-random numbers and ids for every data generator (the demo dataset, tests, bench,
 * scripts): mulberry32 streams keyed by integers, so any part of a dataset (a domain, a day) can be
 * regenerated on its own, in any order, byte for byte.
 */

/** 32-bit integer hash of a list of integers (a murmur3-style finalizer over a running mix). */
export function hashInts(...xs: number[]): number {
  let h = 0x9e3779b9 | 0
  for (const x of xs) {
    h = Math.imul(h ^ (x | 0), 0x85ebca6b)
    h ^= h >>> 13
    h = Math.imul(h, 0xc2b2ae35)
    h ^= h >>> 16
  }
  return h >>> 0
}

/** A mulberry32 stream. */
export class Rng {
  private state: number
  constructor(seed: number) {
    this.state = seed >>> 0
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  /** Integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1))
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)] as T
  }
  /** Roughly normal (sum of three uniforms), mean 0, sd ~1. */
  gauss(): number {
    return (this.next() + this.next() + this.next() - 1.5) * 2
  }
}

/**
 * A mulberry32 stream as a function: each call is the next number in [0, 1).
 * @example
 * const r = rng(42); const coin = r() < 0.5
 */
export function rng(seed: number): () => number {
  const r = new Rng(seed)
  return () => r.next()
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0')

/**
 * A readable, sortable UUID-shaped id: a kind tag and a counter, `uuid(0xd0, 3)` is
 * `000000d0-0000-4000-8000-000000000003`.
 */
export function uuid(kind: number, n: number): string {
  return `${hex(kind, 8)}-0000-4000-8000-${hex(n, 12)}`
}

const HEX = '0123456789abcdef'

/** A bijection on 32-bit integers (odd multiplies and xor-shifts are invertible), so distinct in, distinct out. */
function scramble32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d) >>> 0
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b) >>> 0
  return (x ^ (x >>> 16)) >>> 0
}

function hex8(x: number): string {
  return (x >>> 0).toString(16).padStart(8, '0')
}

/**
 * A deterministic version-4-shaped UUID (lower case) from up to four integer keys, unique for distinct
 * keys within these ranges: keys[0] < 2^12, keys[1] < 2^22, keys[2] < 2^10, keys[3] < 2^20. The keys
 * are packed into two 32-bit words, each scrambled by a bijection (so ids look random but never
 * collide); the other bits are pseudo-random. (A hash of the keys into a 32-bit seed would collide:
 * 5.5 million ids give thousands of birthday collisions.)
 */
export function uuidFrom(...keys: number[]): string {
  const [a = 0, b = 0, c = 0, d = 0] = keys
  if (a >= 2 ** 12 || b >= 2 ** 22 || c >= 2 ** 10 || d >= 2 ** 20 || keys.length > 4) {
    throw new RangeError(`uuidFrom: keys out of range: ${keys.join(',')}`)
  }
  const w1 = scramble32(b * 1024 + c)
  const w2 = scramble32(a * 2 ** 20 + d)
  const r = new Rng(hashInts(a, b, c, d, keys.length))
  const rnd = () => hex8(Math.floor(r.next() * 2 ** 32))
  const x = hex8(w1) + rnd() + rnd() + hex8(w2) // 32 hex digits; w1 in 0-7, w2 in 24-31
  const v = HEX[8 + (parseInt(x[16] as string, 16) & 3)] as string
  const s = x.slice(0, 12) + '4' + x.slice(13, 16) + v + x.slice(17)
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`
}
