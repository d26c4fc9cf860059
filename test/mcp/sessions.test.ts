/**
 * The session store's bounds: per key, in all, idle time; busy sessions are never evicted (but
 * expire when stuck), and whatever leaves the store is closed.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/mcp/index.js'

class FakeSession {
  closed = false
  async close(): Promise<void> {
    this.closed = true
  }
}

const stores: Array<SessionStore<FakeSession>> = []
afterEach(async () => {
  for (const s of stores.splice(0)) await s.closeAll()
})

function makeStore(options: ConstructorParameters<typeof SessionStore>[0], clock: () => number = () => 0) {
  const store = new SessionStore<FakeSession>(options, clock)
  stores.push(store)
  return store
}

function open(store: SessionStore<FakeSession>, id: string, owner: string): FakeSession | null {
  if (!store.makeRoom(owner)) return null
  const session = new FakeSession()
  store.add(id, owner, session)
  return session
}

describe('SessionStore', () => {
  it('a key at its bound loses its least recently used session, not anyone else’s', () => {
    const store = makeStore({ maxSessions: 100, maxSessionsPerKey: 2 })
    const a1 = open(store, 'a1', 'A')!
    open(store, 'b1', 'B')
    const a2 = open(store, 'a2', 'A')!
    store.acquire('a1', 'A') // a1 is now the more recent of A's two
    store.release('a1')
    open(store, 'a3', 'A')
    expect([a1.closed, a2.closed]).toEqual([false, true])
    expect(store.acquire('a2', 'A')).toBeNull()
    expect([store.countOf('A'), store.countOf('B'), store.size]).toEqual([2, 1, 3])
  })

  it('a full store evicts the least recently used idle session; busy ones are never evicted', () => {
    const store = makeStore({ maxSessions: 3, maxSessionsPerKey: 10 })
    const sessions = ['s1', 's2', 's3'].map((id, i) => open(store, id, `K${i}`)!)
    store.acquire('s1', 'K0') // busy
    open(store, 's4', 'K3')
    expect(sessions.map((s) => s.closed)).toEqual([false, true, false])
    store.acquire('s3', 'K2')
    store.acquire('s4', 'K3')
    expect(store.makeRoom('K9')).toBe(false)
    expect(store.size).toBe(3)
    store.release('s4')
    expect(store.makeRoom('K9')).toBe(true)
    expect(store.size).toBe(2)
  })

  it('opening sessions in a loop never holds more than the bound', () => {
    const store = makeStore({ maxSessions: 50, maxSessionsPerKey: 50 })
    const all: FakeSession[] = []
    for (let i = 0; i < 10_000; i += 1) all.push(open(store, `s${i}`, `K${i % 7}`)!)
    expect(store.size).toBe(50)
    expect(all.filter((s) => !s.closed)).toHaveLength(50)
  })

  it('idle sessions close after idleSeconds; asking for one then finds nothing', async () => {
    let now = 0
    const store = makeStore({ idleSeconds: 60 }, () => now)
    const s1 = open(store, 's1', 'A')!
    const s2 = open(store, 's2', 'A')!
    now = 59_000
    store.acquire('s2', 'A')
    store.release('s2')
    now = 60_000
    expect(store.acquire('s1', 'A')).toBeNull()
    expect(s1.closed).toBe(true)
    now = 118_999
    expect(await store.sweep()).toBe(0)
    now = 119_000
    expect(await store.sweep()).toBe(1)
    expect([s2.closed, store.size]).toEqual([true, 0])
  })

  it('a busy session with no request starting or ending for twice the request deadline expires', async () => {
    let now = 0
    const store = makeStore({ idleSeconds: 900, requestTimeoutMs: 10_000 }, () => now)
    const stuck = open(store, 'stuck', 'A')!
    const working = open(store, 'working', 'A')!
    store.acquire('stuck', 'A')
    store.acquire('working', 'A')
    expect(store.busy).toBe(2)
    now = 15_000
    store.release('working')
    store.acquire('working', 'A') // a request ended, another began: alive
    now = 19_999
    expect(await store.sweep()).toBe(0)
    now = 20_000
    expect(await store.sweep()).toBe(1)
    expect([stuck.closed, working.closed, store.busy]).toEqual([true, false, 1])
    expect(store.acquire('stuck', 'A')).toBeNull()
  })

  it('another key cannot use or end a session; closeAll closes every session', async () => {
    const store = makeStore({})
    const s = open(store, 's', 'A')!
    expect(store.acquire('s', 'B')).toBeNull()
    expect(store.acquire('nope', 'A')).toBeNull()
    expect(store.acquire('s', 'A')).toBe(s)
    await store.closeAll()
    expect(s.closed).toBe(true)
    expect(store.size).toBe(0)
  })

  it('refuses bounds that are not positive integers', () => {
    expect(() => new SessionStore({ maxSessions: 0 })).toThrow('maxSessions must be a positive integer')
    expect(() => new SessionStore({ idleSeconds: 1.5 })).toThrow('idleSeconds must be a positive integer')
    expect(() => new SessionStore({ requestTimeoutMs: 0 })).toThrow(
      'requestTimeoutMs must be a positive integer',
    )
  })
})
