import { describe, expect, it } from 'vitest'
import { ResponseCache } from '../../src/http/cache.js'
import { QueryLimiter, OverloadedError, TURN_BUDGET_MS } from '../../src/http/concurrency.js'

describe('ResponseCache', () => {
  it('answers MISS, then HIT until the lifetime ends on the injected clock', async () => {
    let now = 1_000_000
    const cache = new ResponseCache({ clock: () => now })
    let computed = 0
    const compute = async () => ({ body: `{"n":${++computed}}` })
    expect(await cache.getOrCompute('k', 5_000, compute)).toEqual({
      value: { body: '{"n":1}' },
      status: 'MISS',
    })
    now += 4_999
    expect(await cache.getOrCompute('k', 5_000, compute)).toEqual({
      value: { body: '{"n":1}' },
      status: 'HIT',
    })
    now += 2
    expect(await cache.getOrCompute('k', 5_000, compute)).toEqual({
      value: { body: '{"n":2}' },
      status: 'MISS',
    })
  })

  it('runs one computation for concurrent identical misses', async () => {
    const cache = new ResponseCache()
    let computed = 0
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const compute = async () => {
      computed += 1
      await gate
      return { body: 'x' }
    }
    const all = Promise.all(Array.from({ length: 20 }, () => cache.getOrCompute('k', 60_000, compute)))
    release()
    const results = await all
    expect(computed).toBe(1)
    expect(results.every((r) => r.value.body === 'x' && r.status === 'MISS')).toBe(true)
    expect((await cache.getOrCompute('k', 60_000, compute)).status).toBe('HIT')
  })

  it('stores nothing with a lifetime of 0 and nothing that failed', async () => {
    const cache = new ResponseCache()
    let computed = 0
    await cache.getOrCompute('k', 0, async () => ({ body: String(++computed) }))
    expect((await cache.getOrCompute('k', 0, async () => ({ body: String(++computed) }))).status).toBe('MISS')
    expect(computed).toBe(2)
    await expect(
      cache.getOrCompute('f', 60_000, async () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom')
    expect((await cache.getOrCompute('f', 60_000, async () => ({ body: 'ok' }))).status).toBe('MISS')
    expect(cache.size).toBe(1)
  })
})

/** Resolves after `n` turns of the event loop. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve))
}

describe('QueryLimiter', () => {
  /** Starts 12 tasks of `ms` each at once (4 slots, 8 queued); each task's turn, in start order. */
  async function startTurns(ms: number): Promise<number[]> {
    const limiter = new QueryLimiter({ maxConcurrent: 4, maxQueued: 16 })
    // A turn counter: an immediate that sets itself again runs once per turn.
    let turn = 0
    let ticking = true
    const tick = () => {
      turn += 1
      if (ticking) setImmediate(tick)
    }
    setImmediate(tick)
    const started: Array<[number, number]> = []
    // Synchronous tasks (a report computed from memory).
    const all = Array.from({ length: 12 }, (_, i) =>
      limiter.run(async () => {
        started.push([i, turn])
        const until = performance.now() + ms
        while (performance.now() < until);
      }),
    )
    await Promise.all(all)
    ticking = false
    expect(started.map(([i]) => i)).toEqual([...Array(12).keys()])
    expect(limiter.active).toBe(0)
    return started.map(([, t]) => t)
  }

  it('starts tasks back to back only within the budget of a turn, so the sockets are read between', async () => {
    // Each task outlasts the budget: one task a turn.
    const long = await startTurns(TURN_BUDGET_MS + 1)
    expect(new Set(long).size, `turns: ${long.join(' ')}`).toBe(12)
    // Short tasks share turns (the budget keeps the throughput of a busy server).
    const short = await startTurns(0)
    expect(new Set(short).size, `turns: ${short.join(' ')}`).toBeLessThanOrEqual(3)
  })

  it('runs at most maxConcurrent tasks, queues maxQueued, refuses the rest', async () => {
    const limiter = new QueryLimiter({ maxConcurrent: 2, maxQueued: 1 })
    let running = 0
    let peak = 0
    const releases: Array<() => void> = []
    const task = () =>
      limiter.run(async () => {
        running += 1
        peak = Math.max(peak, running)
        await new Promise<void>((resolve) => releases.push(resolve))
        running -= 1
      })
    const a = task()
    const b = task()
    const c = task()
    await expect(task()).rejects.toBeInstanceOf(OverloadedError)
    expect(limiter.active).toBe(2)
    expect(limiter.queued).toBe(1)
    // a and b start on the next two turns of the event loop.
    await turns(2)
    expect(releases).toHaveLength(2)
    releases.shift()!()
    await a
    await new Promise((resolve) => setImmediate(resolve))
    while (releases.length > 0) releases.shift()!()
    await new Promise((resolve) => setImmediate(resolve))
    while (releases.length > 0) releases.shift()!()
    await Promise.all([b, c])
    expect(peak).toBe(2)
    expect(limiter.active).toBe(0)
  })
})
