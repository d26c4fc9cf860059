/**
 * Shared setup of the HTTP suites: engines, tenants and keys, request helpers.
 */
import { ENDPOINTS as TABLE, type Endpoint, type EndpointId } from '../../src/api/index.js'
import { buildServer } from '../../src/http/index.js'
import { openEngine, type AnalysisInputRecord, type Engine, type Plan } from '../../src/index.js'
import { domain, team } from '../support/records.js'

export const ADMIN_TOKEN = 'admin-token-for-tests-0123456789'

/** A real engine, in memory. */
export const makeEngine = (): Promise<Engine> => openEngine()

/** Tenants of the authorization matrix. */
export const T = {
  acme: '10000000-0000-4000-8000-000000000001', // pro, developer access
  globex: '10000000-0000-4000-8000-000000000002', // business, another tenant
  free: '10000000-0000-4000-8000-000000000003', // free plan
  off: '10000000-0000-4000-8000-000000000004', // pro, developer access off
  starter: '10000000-0000-4000-8000-000000000005', // starter plan
} as const

export const D = {
  acme1: '20000000-0000-4000-8000-0000000000a1',
  acme2: '20000000-0000-4000-8000-0000000000a2',
  globex: '20000000-0000-4000-8000-0000000000b1',
  free: '20000000-0000-4000-8000-0000000000c1',
  off: '20000000-0000-4000-8000-0000000000d1',
  starter: '20000000-0000-4000-8000-0000000000e1',
} as const

export const UNKNOWN_DOMAIN = '20000000-0000-4000-8000-0000000000ff'

export function tenantRecords(): AnalysisInputRecord[] {
  const tenant = (id: string, plan: Plan, developer_access: boolean) =>
    team({ id, name: `team ${id.slice(-1)}`, plan, developer_access })
  const site = (id: string, team_id: string, brand_name: string) =>
    domain({ id, team_id, brand_name, website: `${brand_name.toLowerCase()}.example` })
  return [
    tenant(T.acme, 'pro', true),
    tenant(T.globex, 'business', true),
    tenant(T.free, 'free', true),
    tenant(T.off, 'pro', false),
    tenant(T.starter, 'starter', true),
    site(D.acme1, T.acme, 'Acme'),
    site(D.acme2.toUpperCase(), T.acme, 'AcmeTwo'),
    site(D.globex, T.globex, 'Globex'),
    site(D.free, T.free, 'Freebie'),
    site(D.off, T.off, 'Offline'),
    site(D.starter, T.starter, 'Starter'),
  ]
}

/** The four published reports' endpoint ids, by short name (their paths come from the endpoint table). */
const REPORT_IDS = {
  prompts: 'prompt-series',
  competitors: 'competitor-series',
  overview: 'sentiment-overview',
  themes: 'sentiment-themes',
} as const satisfies Record<string, EndpointId>
/** Paths of the four published reports, by short name, read from the endpoint table. */
export const ENDPOINTS = Object.fromEntries(
  Object.entries(REPORT_IDS).map(([name, id]) => [
    name,
    (TABLE as readonly Endpoint[]).find((e) => e.id === id)!.path,
  ]),
) as Record<keyof typeof REPORT_IDS, string>
export type EndpointName = keyof typeof ENDPOINTS
export const ENDPOINT_NAMES = Object.keys(REPORT_IDS) as EndpointName[]

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

/**
 * The tenants' engine with `records` added, an Acme key and a server on a fixed clock whose rate
 * limit never answers 429 (the rule suites send hundreds of requests); `close` ends both.
 */
export async function acmeServer(records: AnalysisInputRecord[], now: number) {
  const engine = await makeEngine()
  await engine.ingest([...tenantRecords(), ...records])
  const key = (await engine.createApiKey({ teamId: T.acme, scopeTeamIds: [T.acme] })).key
  const app = await buildServer({
    engine,
    logger: false,
    clock: () => now,
    rateLimit: { limit: 100_000, windowSeconds: 60 },
  })
  const close = async (): Promise<void> => {
    await app.close()
    await engine.close()
  }
  return { engine, app, key, close }
}
