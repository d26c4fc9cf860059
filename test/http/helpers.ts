/**
 * Shared setup of the HTTP suites: engines, tenants and keys, request helpers.
 */
import type { Engine } from '../../src/types.js'
import { FakeEngine } from './fake-engine.js'

export const ADMIN_TOKEN = 'admin-token-for-tests-0123456789'

/** The real engine (in memory) once src/index.ts exports openEngine; the fake before that. */
export async function makeEngine(): Promise<Engine> {
  try {
    const mod = (await import('../../src/index.js' as string)) as {
      openEngine?: (o: object) => Promise<Engine>
    }
    if (typeof mod.openEngine === 'function') return await mod.openEngine({})
  } catch {
    // src/index.ts is not there yet: fall back to the fake.
  }
  return new FakeEngine()
}

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

export function tenantRecords(): object[] {
  const team = (id: string, plan: string, developer_access: boolean) => ({
    type: 'team',
    id,
    name: `team ${id.slice(-1)}`,
    plan,
    developer_access,
  })
  const domain = (id: string, team_id: string, brand_name: string) => ({
    type: 'domain',
    id,
    team_id,
    brand_name,
    website: `${brand_name.toLowerCase()}.example`,
  })
  return [
    team(T.acme, 'pro', true),
    team(T.globex, 'business', true),
    team(T.free, 'free', true),
    team(T.off, 'pro', false),
    team(T.starter, 'starter', true),
    domain(D.acme1, T.acme, 'Acme'),
    domain(D.acme2.toUpperCase(), T.acme, 'AcmeTwo'),
    domain(D.globex, T.globex, 'Globex'),
    domain(D.free, T.free, 'Freebie'),
    domain(D.off, T.off, 'Offline'),
    domain(D.starter, T.starter, 'Starter'),
  ]
}

export const ENDPOINTS = {
  prompts: '/api/v1/prompt-statistics-time-series',
  competitors: '/api/v1/competitor-time-series',
  overview: '/api/v1/sentiment/overview',
  themes: '/api/v1/sentiment/themes',
} as const
export type EndpointName = keyof typeof ENDPOINTS
export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as EndpointName[]

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
