/**
 * Webhooks in cluster mode, for real: PostgreSQL (harness.ts) and two shards started in this
 * process (`startShard`, so a test detector can stand in for the signals). The subscriptions
 * and the delivery log live in the control plane (any shard answers the same); each shard
 * detects and delivers its own domains' events; a moved domain's pending events move with it
 * and each is delivered exactly once; a deleted team's subscriptions go with it; every shard
 * gets the one cursor secret of the cluster.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WEBHOOK_ROUTES, webhookPath } from '../../src/api/index.js'
import { ControlPlane, ingestRecords, moveDomain, startShard } from '../../src/cluster/index.js'
import type { RunningServer } from '../../src/http/index.js'
import type { SignalDetector } from '../../src/index.js'
import { receiver, signal, until, type Receiver } from '../webhooks/support.js'
import { dimRecords, makeAnalyses, makeDims, type Dims } from '../support/generate.js'
import { ADMIN_TOKEN, Bench } from './harness.js'

const bench = new Bench()
let cp: ControlPlane
let dims: Dims
const shards = new Map<string, RunningServer>()
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` }

/** The signals the test detector gives each domain (the same on every shard). */
const SIGNALS = new Map<string, string[]>()
const detect: SignalDetector = async (domainId) => (SIGNALS.get(domainId) ?? []).map((id) => signal(id))

async function call(shard: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${shards.get(shard)!.url}${path}`, {
    method,
    headers: body === undefined ? admin : { ...admin, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> }
}

/** The shard's pending webhook events (its /metrics gauge). */
async function pending(shard: string): Promise<number> {
  const res = await fetch(`${shards.get(shard)!.url}/metrics`, { headers: admin })
  const m = /^va_webhook_queue_depth (\d+)/m.exec(await res.text())
  return Number(m?.[1] ?? NaN)
}

async function start(name: string): Promise<void> {
  const server = await startShard({
    controlPlane: bench.url,
    shard: name,
    dbPath: join(bench.dir, `${name}.duckdb`),
    port: 0,
    adminToken: ADMIN_TOKEN,
    logger: false,
    signals: [],
    staleMs: 30_000,
    webhooks: { allowPrivate: true, signalsIntervalS: 0, retryBaseMs: 100, pollMs: 50, detect },
  })
  shards.set(name, server)
}

beforeAll(async () => {
  await bench.startPostgres()
  await start('w1')
  await start('w2')
  cp = await ControlPlane.connect(bench.url, { max: 4 })
  dims = makeDims(21, { teams: 2, domainsPerTeam: 3 })
  await ingestRecords(cp, [...dimRecords(dims), ...makeAnalyses(21, dims, 1, 60)] as never, ADMIN_TOKEN)
}, 180_000)

afterAll(async () => {
  for (const s of shards.values()) await s.close()
  await cp?.close().catch(() => undefined)
  await bench.stop()
}, 60_000)

const team = () => dims.teams[0]!.id

describe('subscriptions in the control plane', () => {
  it('one created through a shard is listed, pinged and deleted through the other, with the same errors', async () => {
    const created = await call('w1', 'POST', WEBHOOK_ROUTES.create.path, {
      team_id: team(),
      url: 'http://127.0.0.1:9/hook',
      events: ['signal.created'],
      domain_ids: null,
    })
    expect(created.status).toBe(201)
    const id = String(created.body.id)
    expect(created.body.secret).toMatch(/^whsec_/)
    const listed = await call('w2', 'GET', `${WEBHOOK_ROUTES.list.path}?team_id=${team()}`)
    expect(listed.status).toBe(200)
    const { secret: _secret, ...shown } = created.body
    expect(listed.body.items).toEqual([shown])
    expect((await call('w2', 'POST', webhookPath('test', id))).status).toBe(202)
    // The store's refusals are the single node's (src/webhooks/service.ts), on every shard.
    const unknownTeam = '99999999-0000-4000-8000-000000000009'
    for (const s of ['w1', 'w2']) {
      const bad = await call(s, 'POST', WEBHOOK_ROUTES.create.path, {
        team_id: unknownTeam,
        url: 'http://127.0.0.1:9/hook',
        events: ['signal.created'],
        domain_ids: null,
      })
      expect(bad).toEqual({ status: 400, body: { detail: `team_id: team ${unknownTeam} not found.` } })
    }
    expect((await call('w2', 'DELETE', webhookPath('delete', id))).status).toBe(200)
    expect((await call('w1', 'GET', webhookPath('deliveries', id))).status).toBe(404)
    expect((await call('w1', 'DELETE', webhookPath('delete', id))).status).toBe(404)
    expect((await call('w1', 'GET', WEBHOOK_ROUTES.list.path)).body.items).toEqual([])
  })
})

describe('a moved domain carries its pending events', () => {
  it('events pending for a receiver that is down move with the domain; each is delivered exactly once, by id', async () => {
    let up = false
    const delivered: { event: string; signal: string }[] = []
    const rx: Receiver = await receiver((req) => {
      if (!up) return 503
      const body = JSON.parse(req.body) as { id: string; data: { id: string } }
      delivered.push({ event: body.id, signal: body.data.id })
      return 200
    })
    try {
      const domain = dims.domains.find((d) => d.team_id === team())!.id
      const from = (await cp.assignment(domain))!.shard
      const to = from === 'w1' ? 'w2' : 'w1'
      const sub = await call(to, 'POST', WEBHOOK_ROUTES.create.path, {
        team_id: team(),
        url: rx.url,
        events: ['signal.created'],
        domain_ids: [domain],
      })
      expect(sub.status).toBe(201)
      const subId = String(sub.body.id)
      // A commit on the domain's shard: its detection writes three events, which fail (503).
      SIGNALS.set(domain, ['sig-a', 'sig-b', 'sig-c'])
      await ingestRecords(
        cp,
        makeAnalyses(21, { ...dims, domains: [dims.domains.find((d) => d.id === domain)!] }, 2, 5) as never,
        ADMIN_TOKEN,
      )
      const failedEvents = async () => {
        const log = await call(to, 'GET', `${webhookPath('deliveries', subId)}?limit=1000`)
        return new Set((log.body.items as { event_id: string }[]).map((r) => r.event_id))
      }
      // The delivery log is in the control plane: the other shard answers it.
      expect(await until(async () => (await failedEvents()).size === 3, 20_000)).toBe(true)
      expect(await pending(from)).toBe(3)
      const events = await failedEvents()

      // The receiver comes back while the move is under way, before the switch: neither shard may
      // deliver until the target holds the domain alone.
      await moveDomain(cp, domain, to, {
        adminToken: ADMIN_TOKEN,
        drainMs: 2000,
        log: (line) => {
          if (line.includes('copied and verified')) up = true
        },
      })
      expect(up).toBe(true)
      expect(await until(() => delivered.length >= 3, 30_000)).toBe(true)
      // Long enough for any second copy (retries every 0.1-0.4 s here) to arrive.
      await new Promise((r) => setTimeout(r, 3000))
      expect(delivered.map((d) => d.event).sort()).toEqual([...events].sort())
      expect(delivered.map((d) => d.signal).sort()).toEqual(['sig-a', 'sig-b', 'sig-c'])
      expect(await pending(from)).toBe(0)
      expect(await pending(to)).toBe(0)

      // The target's own detection after the move sends nothing again (the sent record moved too).
      await ingestRecords(
        cp,
        makeAnalyses(21, { ...dims, domains: [dims.domains.find((d) => d.id === domain)!] }, 3, 5) as never,
        ADMIN_TOKEN,
      )
      SIGNALS.set(domain, ['sig-a', 'sig-b', 'sig-c', 'sig-d'])
      await ingestRecords(
        cp,
        makeAnalyses(21, { ...dims, domains: [dims.domains.find((d) => d.id === domain)!] }, 4, 5) as never,
        ADMIN_TOKEN,
      )
      expect(await until(() => delivered.length >= 4, 20_000)).toBe(true)
      await new Promise((r) => setTimeout(r, 1000))
      expect(delivered.map((d) => d.signal).sort()).toEqual(['sig-a', 'sig-b', 'sig-c', 'sig-d'])
      expect(new Set(delivered.map((d) => d.event)).size).toBe(4)
      await call(to, 'DELETE', webhookPath('delete', subId))
    } finally {
      await rx.close()
    }
  })
})

describe('teams and settings', () => {
  it("a deleted team's subscriptions go with it, on every shard", async () => {
    const other = dims.teams[1]!.id
    const body = { url: 'http://127.0.0.1:9/hook', events: ['signal.created'], domain_ids: null }
    expect((await call('w1', 'POST', WEBHOOK_ROUTES.create.path, { ...body, team_id: other })).status).toBe(
      201,
    )
    const kept = await call('w2', 'POST', WEBHOOK_ROUTES.create.path, { ...body, team_id: team() })
    await ingestRecords(cp, [{ type: 'delete', entity: 'team', id: other }] as never, ADMIN_TOKEN)
    for (const s of ['w1', 'w2']) {
      const items = (await call(s, 'GET', WEBHOOK_ROUTES.list.path)).body.items as { id: string }[]
      expect(items.map((i) => i.id)).toEqual([kept.body.id])
    }
  })

  it('every shard reads the one cursor secret, created once', async () => {
    const r = await cp.pool.query("SELECT value FROM va_cluster_settings WHERE name = 'cursor_secret'")
    expect(r.rows).toHaveLength(1)
    const secret = String(r.rows[0].value)
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(await cp.setting('cursor_secret', () => 'another')).toBe(secret)
  })
})
