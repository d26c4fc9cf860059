/**
 * Seeded pseudo-random numbers for the data generator: mulberry32 streams keyed by integers, so any
 * part of a dataset (a domain, a day) can be regenerated on its own, in any order, byte for byte.
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

const HEX = '0123456789abcdef'

/** A deterministic version-4-shaped UUID (lower case) from integer keys. */
export function uuidFrom(...keys: number[]): string {
  const r = new Rng(hashInts(...keys))
  let s = ''
  for (let i = 0; i < 32; i++) {
    let v = Math.floor(r.next() * 16)
    if (i === 12) v = 4
    if (i === 16) v = 8 + (v & 3)
    s += HEX[v]
    if (i === 7 || i === 11 || i === 15 || i === 19) s += '-'
  }
  return s
}
