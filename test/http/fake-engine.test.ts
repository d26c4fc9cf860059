/**
 * The fake engine answers every row of the endpoint table (its methods are derived from the
 * table): a payload the row's schema accepts, each call counted, `failWith` thrown.
 */
import { describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/endpoints.js'
import type { ParamValues } from '../../src/schemas/params.js'
import { D, T, tenantRecords } from './helpers.js'
import { FakeEngine } from './fake-engine.js'

const ROWS = ENDPOINTS as readonly Endpoint[]
const NOW = new Date('2026-11-20T12:00:00Z')

async function callRow(fake: FakeEngine, row: Endpoint): Promise<unknown> {
  const { info } = await fake.createApiKey({ teamId: T.acme })
  const given = Object.fromEntries(
    Object.keys(row.params).map((name) => [name, name === 'domain_id' ? D.acme1 : undefined]),
  ) as ParamValues<Endpoint['params']>
  return row.compute(fake, row.normalize(given), {
    now: NOW,
    caller: info,
    rateLimit: { limit: 60, remaining: 59, reset: NOW.getTime() / 1000 + 60 },
  })
}

async function tenants(): Promise<FakeEngine> {
  const fake = new FakeEngine()
  await fake.ingest(tenantRecords())
  return fake
}

describe('FakeEngine: derived from the endpoint table', () => {
  it.each(ROWS.map((row) => [row.id, row] as const))('%s: a payload valid for the row', async (_id, row) => {
    const fake = await tenants()
    const payload = await callRow(fake, row)
    const checked = row.payload.safeParse(payload)
    expect(checked.error).toBeUndefined()
    expect(fake.computeCalls).toBe(1)
  })

  it.each(ROWS.map((row) => [row.id, row] as const))('%s: throws failWith', async (_id, row) => {
    const fake = await tenants()
    fake.failWith = new Error('boom')
    await expect(callRow(fake, row)).rejects.toThrow('boom')
  })

  it('a domain the fake does not hold is not found', async () => {
    const fake = await tenants()
    fake.domains.delete(D.acme1)
    const rows = ROWS.filter((row) => 'domain_id' in row.params)
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) await expect(callRow(fake, row)).rejects.toThrow(/not found/i)
  })
})
