/**
 * The webhook admin endpoints through inject(): create (201, the secret once), list (never a
 * secret, by team), delete, ping, deliveries; the admin token; every refusal a `{"detail"}` naming
 * the field (shape, team, domains of another team, URLs the guard refuses).
 */
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WEBHOOK_ROUTES, webhookPath } from '../../src/api/index.js'
import { buildServer } from '../../src/http/index.js'
import { webhooksOf, type Engine } from '../../src/index.js'
import { ADMIN_TOKEN, makeEngine, tenantRecords } from '../http/helpers.js'
import { D, T } from './support.js'

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` }
const PUBLIC_URL = 'https://93.184.216.34/hooks'

let engine: Engine
let app: FastifyInstance

beforeEach(async () => {
  engine = await makeEngine()
  await engine.ingest(tenantRecords())
  app = await buildServer({ engine, adminToken: ADMIN_TOKEN, logger: false })
})
afterEach(async () => {
  await app.close()
  await engine.close()
})

const create = (payload: unknown, headers: Record<string, string> = admin) =>
  app.inject({ method: 'POST', url: WEBHOOK_ROUTES.create.path, headers, payload: payload as object })

describe('webhook subscriptions', () => {
  it('creates one with its secret shown once, lists it without, deletes it', async () => {
    const res = await create({
      team_id: T.acme,
      url: PUBLIC_URL,
      events: ['signal.created'],
      domain_ids: [D.acme1],
    })
    expect(res.statusCode).toBe(201)
    const created = res.json()
    expect(Object.keys(created)).toEqual([
      'id',
      'team_id',
      'url',
      'events',
      'domain_ids',
      'created_at',
      'disabled_at',
      'disabled_reason',
      'secret',
    ])
    expect(created).toMatchObject({
      team_id: T.acme,
      url: PUBLIC_URL,
      events: ['signal.created'],
      domain_ids: [D.acme1],
    })
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/)

    const other = await create({
      team_id: T.globex,
      url: PUBLIC_URL,
      events: ['signal.created'],
      domain_ids: null,
    })
    expect(other.statusCode).toBe(201)
    const all = await app.inject({ url: WEBHOOK_ROUTES.list.path, headers: admin })
    expect(all.statusCode).toBe(200)
    expect(all.body).not.toContain('whsec_')
    expect(
      all
        .json()
        .items.map((s: { id: string }) => s.id)
        .sort(),
    ).toEqual([created.id, other.json().id].sort())
    const mine = await app.inject({ url: `${WEBHOOK_ROUTES.list.path}?team_id=${T.acme}`, headers: admin })
    expect(mine.json().items.map((s: { id: string }) => s.id)).toEqual([created.id])

    const del = await app.inject({ method: 'DELETE', url: webhookPath('delete', created.id), headers: admin })
    expect(del.statusCode).toBe(200)
    expect(del.json().id).toBe(created.id)
    const again = await app.inject({
      method: 'DELETE',
      url: webhookPath('delete', created.id),
      headers: admin,
    })
    expect(again.statusCode).toBe(404)
    expect(again.json()).toEqual({ detail: 'No webhook subscription with this id.' })
  })

  it('pings and lists deliveries; unknown ids are 404, malformed ones 400', async () => {
    const { id } = (
      await create({ team_id: T.acme, url: PUBLIC_URL, events: ['signal.created'], domain_ids: null })
    ).json()
    const ping = await app.inject({ method: 'POST', url: webhookPath('test', id), headers: admin })
    expect(ping.statusCode).toBe(202)
    expect(ping.json()).toMatchObject({ type: 'ping', subscription_id: id })
    const log = await app.inject({ url: webhookPath('deliveries', id), headers: admin })
    expect(log.statusCode).toBe(200)
    expect(log.json()).toEqual({ items: [] })
    const unknown = '99999999-0000-4000-8000-000000000000'
    for (const [method, url] of [
      ['POST', webhookPath('test', unknown)],
      ['GET', webhookPath('deliveries', unknown)],
    ] as const)
      expect((await app.inject({ method, url, headers: admin })).statusCode).toBe(404)
    const bad = await app.inject({ method: 'POST', url: webhookPath('test', 'nope'), headers: admin })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().detail).toContain('id must be a UUID.')
    const badLimit = await app.inject({ url: `${webhookPath('deliveries', id)}?limit=0`, headers: admin })
    expect(badLimit.statusCode).toBe(400)
    expect(badLimit.json().detail).toContain('limit')
  })

  it("a deleted team's subscriptions go with it, with their pending events; another team's stay", async () => {
    const acme = (
      await create({ team_id: T.acme, url: PUBLIC_URL, events: ['signal.created'], domain_ids: null })
    ).json()
    const globex = (
      await create({ team_id: T.globex, url: PUBLIC_URL, events: ['signal.created'], domain_ids: null })
    ).json()
    const hooks = webhooksOf(engine)!
    await hooks.ping(acme.id)
    await hooks.ping(globex.id)
    expect((await hooks.queue()).pending).toBe(2)
    await engine.ingest([{ type: 'delete', entity: 'team', id: T.acme }])
    const list = await app.inject({ url: WEBHOOK_ROUTES.list.path, headers: admin })
    expect(list.json().items.map((s: { id: string }) => s.id)).toEqual([globex.id])
    expect(
      (await app.inject({ method: 'POST', url: webhookPath('test', acme.id), headers: admin })).statusCode,
    ).toBe(404)
    // The deleted team's ping is gone from the outbox; the other team's is still pending.
    expect((await hooks.queue()).pending).toBe(1)
  })

  it('refuses without the admin token', async () => {
    const res = await create(
      { team_id: T.acme, url: PUBLIC_URL, events: ['signal.created'], domain_ids: null },
      {},
    )
    expect(res.statusCode).toBe(401)
    expect((await app.inject({ url: WEBHOOK_ROUTES.list.path })).statusCode).toBe(401)
    expect(
      (
        await app.inject({
          url: WEBHOOK_ROUTES.list.path,
          headers: { authorization: 'Bearer wrong-token-0123456789abcdef' },
        })
      ).statusCode,
    ).toBe(401)
  })

  it.each([
    [{ url: PUBLIC_URL, events: ['signal.created'], domain_ids: null }, 'team_id'],
    [
      { team_id: 'x', url: PUBLIC_URL, events: ['signal.created'], domain_ids: null },
      'team_id must be a UUID.',
    ],
    [{ team_id: T.acme, events: ['signal.created'], domain_ids: null }, 'url'],
    [{ team_id: T.acme, url: PUBLIC_URL, events: ['signal.deleted'], domain_ids: null }, 'events'],
    [{ team_id: T.acme, url: PUBLIC_URL, events: [], domain_ids: null }, 'events'],
    [{ team_id: T.acme, url: PUBLIC_URL, events: ['signal.created'] }, 'domain_ids'],
    [{ team_id: T.acme, url: PUBLIC_URL, events: ['signal.created'], domain_ids: ['x'] }, 'domain_ids'],
    [
      { team_id: T.acme, url: PUBLIC_URL, events: ['signal.created'], domain_ids: null, extra: 1 },
      'unknown field extra',
    ],
    [
      {
        team_id: '10000000-0000-4000-8000-0000000000ff',
        url: PUBLIC_URL,
        events: ['signal.created'],
        domain_ids: null,
      },
      'team_id: team 10000000-0000-4000-8000-0000000000ff not found.',
    ],
    [
      { team_id: T.acme, url: PUBLIC_URL, events: ['signal.created'], domain_ids: [D.globex] },
      `domain_ids: domain ${D.globex} does not belong to team ${T.acme}.`,
    ],
    [
      {
        team_id: T.acme,
        url: PUBLIC_URL,
        events: ['signal.created'],
        domain_ids: ['20000000-0000-4000-8000-0000000000ff'],
      },
      'not found',
    ],
    [
      { team_id: T.acme, url: 'http://127.0.0.1:8080/x', events: ['signal.created'], domain_ids: null },
      'url: the host is a loopback address (127.0.0.1).',
    ],
    [
      { team_id: T.acme, url: 'http://2130706433/', events: ['signal.created'], domain_ids: null },
      'loopback',
    ],
    [
      { team_id: T.acme, url: 'http://169.254.169.254/', events: ['signal.created'], domain_ids: null },
      'metadata',
    ],
    [
      { team_id: T.acme, url: 'ftp://93.184.216.34/', events: ['signal.created'], domain_ids: null },
      'url must use http or https',
    ],
    ['not json', 'The body must be a JSON object'],
  ])('refuses %j naming the field', async (payload, detail) => {
    const res =
      typeof payload === 'string'
        ? await app.inject({
            method: 'POST',
            url: WEBHOOK_ROUTES.create.path,
            headers: { ...admin, 'content-type': 'text/plain' },
            payload,
          })
        : await create(payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().detail).toContain(detail)
    expect(res.body).not.toMatch(/at .*\.ts:|SELECT|Error:/)
    expect(await webhooksOf(engine)!.list()).toEqual([])
  })
})
