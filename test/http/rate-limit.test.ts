import { describe, expect, it } from 'vitest'
import { FixedWindowRateLimiter } from '../../src/http/rate-limit.js'

/** A settable clock starting at 2026-11-20T15:00:00Z (an epoch minute boundary). */
function clockAt(startMs: number) {
  let now = startMs
  return { now: () => now, set: (ms: number) => (now = ms), advance: (ms: number) => (now += ms) }
}
const T0 = Date.parse('2026-11-20T15:00:00Z')
const T0S = T0 / 1000

describe('FixedWindowRateLimiter', () => {
  it('allows exactly the limit per key and window, counting refused requests', () => {
    const clock = clockAt(T0 + 10_000)
    const limiter = new FixedWindowRateLimiter({ limit: 3, windowSeconds: 60 }, clock.now)
    const seen = [1, 2, 3, 4, 5].map(() => limiter.hit('k'))
    expect(seen.map((d) => d.allowed)).toEqual([true, true, true, false, false])
    expect(seen.map((d) => d.remaining)).toEqual([2, 1, 0, 0, 0])
    expect(seen.every((d) => d.limit === 3 && d.reset === T0S + 60)).toBe(true)
    // Another key has its own count.
    expect(limiter.hit('other')).toMatchObject({ allowed: true, remaining: 2 })
  })

  it('reports the reset as the epoch second the window ends and Retry-After as whole seconds until then', () => {
    const clock = clockAt(T0)
    const limiter = new FixedWindowRateLimiter({ limit: 1, windowSeconds: 60 }, clock.now)
    expect(limiter.hit('k')).toMatchObject({ allowed: true, reset: T0S + 60, retryAfter: 60 })
    clock.set(T0 + 500)
    expect(limiter.hit('k')).toMatchObject({ allowed: false, reset: T0S + 60, retryAfter: 60 })
    clock.set(T0 + 1_000)
    expect(limiter.hit('k')).toMatchObject({ allowed: false, retryAfter: 59 })
    clock.set(T0 + 58_999)
    expect(limiter.hit('k')).toMatchObject({ allowed: false, retryAfter: 2 })
    clock.set(T0 + 59_000)
    expect(limiter.hit('k')).toMatchObject({ allowed: false, retryAfter: 1 })
    clock.set(T0 + 59_999)
    expect(limiter.hit('k')).toMatchObject({ allowed: false, retryAfter: 1, reset: T0S + 60 })
    // The first millisecond of the next window starts a fresh count.
    clock.set(T0 + 60_000)
    expect(limiter.hit('k')).toMatchObject({ allowed: true, remaining: 0, reset: T0S + 120, retryAfter: 60 })
  })

  it('aligns windows to multiples of the window length since the epoch', () => {
    const clock = clockAt(T0 + 25_000)
    const limiter = new FixedWindowRateLimiter({ limit: 5, windowSeconds: 10 }, clock.now)
    expect(limiter.hit('k')).toMatchObject({ windowStart: T0S + 20, reset: T0S + 30, retryAfter: 5 })
  })

  it('refunds a request of the current window only', () => {
    const clock = clockAt(T0 + 1_000)
    const limiter = new FixedWindowRateLimiter({ limit: 2, windowSeconds: 60 }, clock.now)
    const first = limiter.hit('k')
    limiter.hit('k')
    expect(limiter.refund('k', first.windowStart)).toMatchObject({ remaining: 1 })
    expect(limiter.hit('k')).toMatchObject({ allowed: true, remaining: 0 })
    clock.advance(60_000)
    const stale = limiter.refund('k', first.windowStart)
    expect(stale).toMatchObject({ remaining: 2, reset: T0S + 120 })
  })

  it('a late refund of the previous window does not free a slot of the current one', () => {
    // A request of window 1 answered 5xx only after window 2 began: its refund must not un-count a
    // request of window 2, or a limit of 2 lets 3 requests through in window 2.
    const clock = clockAt(T0 + 59_000)
    const limiter = new FixedWindowRateLimiter({ limit: 2, windowSeconds: 60 }, clock.now)
    const slow = limiter.hit('k')
    expect(slow).toMatchObject({ allowed: true, windowStart: T0S })
    clock.set(T0 + 60_500)
    const now = [limiter.hit('k'), limiter.hit('k')]
    expect(now.map((d) => d.allowed)).toEqual([true, true])
    expect(limiter.refund('k', slow.windowStart)).toMatchObject({ remaining: 0, windowStart: T0S + 60 })
    expect(limiter.hit('k')).toMatchObject({ allowed: false, remaining: 0 })
  })

  it('forgets the counts of past windows', () => {
    const clock = clockAt(T0)
    const limiter = new FixedWindowRateLimiter({ limit: 1, windowSeconds: 60 }, clock.now)
    for (let i = 0; i < 100; i += 1) limiter.hit(`key-${i}`)
    expect(limiter.size).toBe(100)
    clock.advance(60_000)
    limiter.hit('key-0')
    expect(limiter.size).toBe(1)
  })

  it('rejects nonsensical options', () => {
    expect(() => new FixedWindowRateLimiter({ limit: 0, windowSeconds: 60 })).toThrow(RangeError)
    expect(() => new FixedWindowRateLimiter({ limit: 1, windowSeconds: 0.5 })).toThrow(RangeError)
  })
})
