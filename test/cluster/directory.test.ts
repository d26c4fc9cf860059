/**
 * A shard's cached view of the control plane (src/cluster/directory.ts) and the forwarding of
 * other shards' domain reads (src/cluster/forward.ts), against a control plane in memory.
 */
import { EventEmitter } from 'node:events'
import { createServer, type Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import {
  ControlPlaneUnavailableError,
  DOMAIN_READ_METHODS,
  forwardingEngine,
  KeyDirectory,
  REPORT_METHODS,
  SHARD_PATHS,
  type Assignment,
  type ControlPlane,
} from '../../src/cluster/index.js'
import { ENDPOINTS } from '../../src/api/index.js'
import type { ApiKeyInfo, Engine } from '../../src/index.js'
import { newApiKey } from '../../src/internal.js'

/** The LISTEN connection: notifications are emitted by the test. */
class FakeListener extends EventEmitter {
  async query(): Promise<void> {}
  async end(): Promise<void> {}
}

class FakeControlPlane {
  keys = new Map<string, ApiKeyInfo>()
  places = new Map<string, Assignment>()
  shards = new Map<string, { name: string; url: string }>()
  lookups = 0
  down = false
  listenerClient = new FakeListener()
  async listener() {
    if (this.down) throw new Error('ECONNREFUSED')
    return this.listenerClient
  }
  async assignments() {
    return new Map(this.places)
  }
  async assignment(id: string) {
    if (this.down) throw new Error('ECONNREFUSED')
    return this.places.get(id) ?? null
  }
  async keyByHash(hash: string) {
    this.lookups += 1
    if (this.down) throw new Error('ECONNREFUSED')
    return this.keys.get(hash) ?? null
  }
  async shard(name: string) {
    return this.shards.get(name)!
  }
  notify(payload: string) {
    this.listenerClient.emit('notification', { payload })
  }
}

const dirs: KeyDirectory[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await d.close()
})

async function open(cp: FakeControlPlane, clock: () => number = Date.now): Promise<KeyDirectory> {
  const d = await KeyDirectory.open(cp as unknown as ControlPlane, { staleMs: 1000, probeMs: 60_000, clock })
  dirs.push(d)
  return d
}

const TEAM = '11111111-1111-4111-8111-111111111111'

describe('KeyDirectory', () => {
  it('caches keys found and not found; a key notification drops the key', async () => {
    const cp = new FakeControlPlane()
    const { secret, hash, info } = newApiKey({ teamId: TEAM })
    cp.keys.set(hash, info)
    const d = await open(cp)
    expect((await d.verify(secret))?.id).toBe(info.id)
    expect((await d.verify(secret))?.id).toBe(info.id)
    expect(cp.lookups).toBe(1)
    const unknown = newApiKey({ teamId: TEAM })
    expect(await d.verify(unknown.secret)).toBeNull()
    expect(await d.verify(unknown.secret)).toBeNull()
    expect(cp.lookups).toBe(2)
    cp.keys.delete(hash)
    cp.notify(`key:${hash}`)
    expect(await d.verify(secret)).toBeNull()
    expect(cp.lookups).toBe(3)
    expect(await d.verify('not a key')).toBeNull()
  })

  it('serves the cache for staleMs without the control plane, then refuses with ControlPlaneUnavailableError', async () => {
    const cp = new FakeControlPlane()
    const { secret, hash, info } = newApiKey({ teamId: TEAM })
    cp.keys.set(hash, info)
    let now = 1_000_000
    const d = await open(cp, () => now)
    await d.verify(secret)
    cp.down = true
    now += 900
    expect(d.usable()).toBe(true)
    expect((await d.verify(secret))?.id).toBe(info.id)
    await expect(d.verify(newApiKey({ teamId: TEAM }).secret)).rejects.toBeInstanceOf(
      ControlPlaneUnavailableError,
    )
    now += 200
    expect(d.usable()).toBe(false)
    await expect(d.verify(secret)).rejects.toBeInstanceOf(ControlPlaneUnavailableError)
  })

  it('keeps assignments, refreshes one on its notification, and tells listeners of data changes only', async () => {
    const cp = new FakeControlPlane()
    cp.places.set('d1', { shard: 's1', previous: null, state: 'active' })
    const d = await open(cp)
    expect(d.assignment('d1')?.shard).toBe('s1')
    let changes = 0
    const off = d.onChange(() => (changes += 1))
    cp.places.set('d1', { shard: 's2', previous: 's1', state: 'moving' })
    cp.notify('domain:d1')
    await new Promise((r) => setTimeout(r, 10))
    expect(d.assignment('d1')).toEqual({ shard: 's2', previous: 's1', state: 'moving' })
    cp.notify('all')
    cp.notify('key:abc')
    expect(changes).toBe(2)
    off()
    cp.notify('all')
    expect(changes).toBe(2)
  })
})

describe("forwarding of other shards' domain reads", () => {
  let server: Server | undefined
  afterEach(async () => {
    await new Promise((r) => (server ? server.close(r) : r(undefined)))
    server = undefined
  })

  it("the forwarded methods are derived from the endpoint table: every domain endpoint's engine call", () => {
    for (const m of REPORT_METHODS.filter((x) => x !== 'getDomain' && x !== 'computeDomainList'))
      expect(DOMAIN_READ_METHODS.has(m), m).toBe(true)
    expect(DOMAIN_READ_METHODS.has('computeDomainList')).toBe(false)
    expect(DOMAIN_READ_METHODS.has('listDomains')).toBe(false)
    expect(DOMAIN_READ_METHODS.has('ingest')).toBe(false)
    const domainRows = ENDPOINTS.filter((e) => 'domain_id' in e.params).length
    expect(DOMAIN_READ_METHODS.size).toBeGreaterThanOrEqual(domainRows - 3) // rows may share a method
  })

  it("answers its own and unassigned domains locally, another shard's through the owner's compute endpoint", async () => {
    const seen: unknown[] = []
    server = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        seen.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(body) as unknown })
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ result: { from: 'owner' } }))
      })
    })
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
    const port = (server.address() as { port: number }).port
    const cp = new FakeControlPlane()
    cp.shards.set('s2', { name: 's2', url: `http://127.0.0.1:${port}` })
    cp.places.set('mine', { shard: 's1', previous: null, state: 'active' })
    cp.places.set('leaving', { shard: 's2', previous: 's1', state: 'active' })
    cp.places.set('theirs', { shard: 's2', previous: null, state: 'active' })
    const d = await open(cp)
    const method = [...DOMAIN_READ_METHODS][0]!
    const local = {
      [method]: async (p: { domainId: string }) => ({ from: 'local', id: p.domainId }),
    } as unknown as Engine
    let forwards = 0
    const engine = forwardingEngine(local, cp as unknown as ControlPlane, d, {
      shard: 's1',
      adminToken: 'admin-token-0123456789',
      onForward: () => (forwards += 1),
    })
    const call = (domainId: string) =>
      (engine[method as keyof Engine] as (p: unknown) => Promise<unknown>)({ domainId, days: 7 })
    expect(await call('mine')).toEqual({ from: 'local', id: 'mine' })
    expect(await call('leaving')).toEqual({ from: 'local', id: 'leaving' })
    expect(await call('nowhere')).toEqual({ from: 'local', id: 'nowhere' })
    expect(forwards).toBe(0)
    expect(await call('THEIRS')).toEqual({ from: 'owner' })
    expect(forwards).toBe(1)
    expect(seen).toEqual([
      {
        url: SHARD_PATHS.compute,
        auth: 'Bearer admin-token-0123456789',
        body: { method, args: [{ domainId: 'THEIRS', days: 7 }] },
      },
    ])
  })
})
