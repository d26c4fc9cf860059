/**
 * TimeSlice (src/foundation/slice.ts): work lets the event loop turn once it has held the thread
 * for its slice, and not before; the clock is injected so the test does not depend on speed.
 */
import { describe, expect, it } from 'vitest'
import { TimeSlice } from '../../src/foundation/slice.js'

describe('TimeSlice', () => {
  it('is spent once its time has passed, and next() lets the loop turn and starts a new slice', async () => {
    let t = 100
    const slice = new TimeSlice(4, () => t)
    expect(slice.spent).toBe(false)
    t = 103.9
    expect(slice.spent).toBe(false)
    t = 104
    expect(slice.spent).toBe(true)
    const log: string[] = []
    setImmediate(() => log.push('loop'))
    await slice.next()
    log.push('after')
    expect(log).toEqual(['loop', 'after'])
    expect(slice.spent).toBe(false)
    t = 108
    expect(slice.spent).toBe(true)
  })

  it('breathe() yields only when the slice is spent', async () => {
    let t = 0
    const slice = new TimeSlice(4, () => t)
    const log: string[] = []
    setImmediate(() => log.push('loop'))
    await slice.breathe()
    log.push('not spent')
    t = 5
    await slice.breathe()
    log.push('spent')
    expect(log).toEqual(['not spent', 'loop', 'spent'])
  })
})
