/**
 * CommitGate (src/db/lock.ts): reads never wait for a commit in flight, and a read whose result may
 * mix two committed states (a commit applied while it ran, or a load of it overlapping a COMMIT)
 * runs again; after too many reruns it runs under the lock commits wait for; close waits for all.
 */
import { describe, expect, it } from 'vitest'
import { CommitGate } from '../../src/db/lock.js'

/** A promise and its resolver. */
function deferred<T = void>() {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}
const tick = () => new Promise((r) => setTimeout(r, 0))

/** A pool whose loads resolve when told to (each load: one deferred). */
function manualPool() {
  const pending: Array<() => void> = []
  const load = () => {
    const d = deferred()
    pending.push(() => d.resolve())
    return d.promise.then(() => 'rows')
  }
  return { pool: { loadColumns: load, loadStrings: load }, pending }
}

describe('CommitGate', () => {
  it('a read finishes while a COMMIT is still in flight (it does not wait for it)', async () => {
    const gate = new CommitGate()
    const commit = deferred()
    let state = 'before'
    const committing = gate.commit(
      () => commit.promise,
      () => (state = 'after'),
    )
    await tick()
    // The COMMIT has not returned: the read runs on the state memory shows.
    await expect(gate.read(async () => state)).resolves.toBe('before')
    commit.resolve()
    await committing
    await expect(gate.read(async () => state)).resolves.toBe('after')
  })

  it('a read during which a commit applied its changes runs again, on the new state alone', async () => {
    const gate = new CommitGate()
    let state = { a: 'old', b: 'old' }
    let runs = 0
    const reading = gate.read(async () => {
      runs++
      const a = state.a
      await tick()
      await tick()
      return `${a}/${state.b}`
    })
    await gate.commit(
      async () => undefined,
      () => (state = { a: 'new', b: 'new' }),
    )
    await expect(reading).resolves.toBe('new/new')
    expect(runs).toBe(2)
    expect(gate.reruns).toBe(1)
  })

  it('a read with a load in flight while a COMMIT was runs again, even if the commit applied before it started', async () => {
    const gate = new CommitGate()
    const { pool, pending } = manualPool()
    const loads = gate.loads(pool)
    const commit = deferred()
    let runs = 0
    const committing = gate.commit(
      () => commit.promise,
      () => undefined,
    )
    await tick()
    // The load starts while the COMMIT is in flight: it may read the committed rows.
    const reading = gate.read(async () => {
      runs++
      return loads.loadColumns()
    })
    await tick()
    commit.resolve()
    await committing
    pending.shift()!()
    await tick()
    pending.shift()!()
    await expect(reading).resolves.toBe('rows')
    expect(runs).toBe(2)
  })

  it('a load that starts before a COMMIT and ends after it makes its read run again', async () => {
    const gate = new CommitGate()
    const { pool, pending } = manualPool()
    const loads = gate.loads(pool)
    let runs = 0
    let settled = false
    const reading = gate.read(async () => {
      runs++
      return loads.loadStrings()
    })
    void reading.then(() => (settled = true))
    await tick()
    const commit = deferred()
    const committing = gate.commit(
      () => commit.promise,
      () => undefined,
    )
    await tick()
    pending.shift()!() // the first load returns while the COMMIT is in flight
    await tick()
    expect(runs).toBe(2) // and its read runs again (its second load is in flight during the COMMIT too)
    commit.resolve()
    await committing
    for (let i = 0; i < 10 && !settled; i++) {
      pending.shift()?.()
      await tick()
    }
    await expect(reading).resolves.toBe('rows')
    expect(runs).toBe(3)
  })

  it('loads with no COMMIT beside them run once', async () => {
    const gate = new CommitGate()
    const { pool, pending } = manualPool()
    const loads = gate.loads(pool)
    let runs = 0
    const reading = gate.read(async () => {
      runs++
      return loads.loadColumns()
    })
    await tick()
    pending.shift()!()
    await expect(reading).resolves.toBe('rows')
    expect(runs).toBe(1)
    expect(gate.reruns).toBe(0)
  })

  it('an error of a read that a commit mixed is not reported: the read runs again', async () => {
    const gate = new CommitGate()
    let state = 1
    let runs = 0
    const reading = gate.read(async () => {
      runs++
      const seen = state
      await tick()
      if (seen !== state) throw new Error('mixed state')
      return seen
    })
    await gate.commit(
      async () => undefined,
      () => (state = 2),
    )
    await expect(reading).resolves.toBe(2)
    expect(runs).toBe(2)
    // An error without a commit beside it is the read's own.
    await expect(
      gate.read(async () => {
        throw new Error('own')
      }),
    ).rejects.toThrow('own')
  })

  it('after `attempts` lost runs the read runs under the lock, and the next commit waits for it', async () => {
    const gate = new CommitGate(2)
    let state = 0
    const gates = [deferred(), deferred(), deferred()]
    const order: string[] = []
    let runs = 0
    const reading = gate.read(async () => {
      const run = runs++
      await gates[run]!.promise
      order.push(`run ${run} returns ${state}`)
      return state
    })
    const bump = () =>
      gate.commit(
        async () => void order.push('commit sent'),
        () => void order.push(`applied ${++state}`),
      )
    await tick()
    await bump() // lands during the first run
    gates[0]!.resolve()
    await tick()
    await bump() // and during the second
    gates[1]!.resolve()
    await tick()
    expect(runs).toBe(3)
    // The third run holds the lock: this commit waits until it returns.
    const third = bump()
    await tick()
    await tick()
    gates[2]!.resolve()
    await expect(reading).resolves.toBe(2)
    await third
    expect(order).toEqual([
      'commit sent',
      'applied 1',
      'run 0 returns 1',
      'commit sent',
      'applied 2',
      'run 1 returns 2',
      'run 2 returns 2',
      'commit sent',
      'applied 3',
    ])
  })

  it('close waits for the reads and commits running, and no new one starts meanwhile', async () => {
    const gate = new CommitGate()
    const read = deferred<string>()
    const order: string[] = []
    const reading = gate.read(async () => {
      const v = await read.promise
      order.push(`read ${v}`)
    })
    const closing = gate.close(async () => void order.push('closed'))
    const late = gate.read(async () => 'late').then(() => order.push('late read'))
    await tick()
    expect(order).toEqual([])
    read.resolve('done')
    await Promise.all([reading, closing, late])
    expect(order).toEqual(['read done', 'closed', 'late read'])
  })
})
