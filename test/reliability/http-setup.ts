/**
 * Shared setup of the HTTP reliability suites: tenants with every plan and developer-access state,
 * data in every domain, and a model of the order of checks (docs/API.md) that says which status a
 * key must get for a domain on an endpoint.
 */
import { openEngine, type ApiKeyInfo, type Engine, type Plan } from '../../src/index.js'
import { ENDPOINTS as REPORT_PATHS } from '../http/helpers.js'
import { dimRecords, makeAnalyses, makeDims, type Dims } from '../support/generate.js'

export const ENDPOINTS = { ...REPORT_PATHS, domains: '/api/v1/domains' } as const
export type Endpoint = keyof typeof ENDPOINTS
export const REPORTS = Object.keys(REPORT_PATHS) as Array<keyof typeof REPORT_PATHS>
export type Report = (typeof REPORTS)[number]

export const DETAIL = {
  forbidden: 'API access is not enabled for this team. Contact support.',
  plan: 'Sentiment analysis requires a Pro, Business or Enterprise plan.',
  notFound: 'Domain not found.',
  unauthorized: 'Invalid or revoked API key.',
}

export interface Tenants {
  engine: Engine
  dims: Dims
  /** team id -> plan and developer access */
  teams: Map<string, { plan: string; dev: boolean }>
  /** domain id -> team id */
  domains: Map<string, string>
  /** A key per team (scope: its own team), plus one revoked key. */
  keys: Map<string, { secret: string; info: ApiKeyInfo }>
  revoked: string
}

/** Five teams (pro, business, free, pro without developer access, starter), two domains each. */
export async function makeTenants(path?: string): Promise<Tenants> {
  const dims = makeDims(31, {
    teams: 5,
    domainsPerTeam: 2,
    promptsPerDomain: 6,
    competitorsPerDomain: 3,
    themesPerDomain: 4,
  })
  const setup: Array<[Plan, boolean]> = [
    ['pro', true],
    ['business', true],
    ['free', true],
    ['pro', false],
    ['starter', true],
  ]
  dims.teams.forEach((t, i) => {
    t.plan = setup[i]![0]
    t.developer_access = setup[i]![1]
  })
  const engine = await openEngine(path === undefined ? {} : { path })
  await engine.ingest([...dimRecords(dims), ...makeAnalyses(31, dims, 1, 1500)])
  const teams = new Map(
    dims.teams.map((t) => [t.id as string, { plan: t.plan as string, dev: t.developer_access as boolean }]),
  )
  const domains = new Map(dims.domains.map((d) => [d.id as string, d.team_id as string]))
  const keys = new Map<string, { secret: string; info: ApiKeyInfo }>()
  for (const t of teams.keys()) {
    const k = await engine.createApiKey({ teamId: t, name: `key of ${t}` })
    keys.set(t, { secret: k.key, info: k.info })
  }
  const r = await engine.createApiKey({ teamId: dims.teams[0]!.id as string, name: 'revoked' })
  await engine.revokeApiKey(r.info.id)
  return { engine, dims, teams, domains, keys, revoked: r.key }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The status (and detail) the order of checks requires; `domainParam` undefined = omitted. */
export function expectedAccess(
  t: Pick<Tenants, 'teams' | 'domains'>,
  key: Pick<ApiKeyInfo, 'team_id' | 'scope_team_ids' | 'allowed_domains'> | null,
  endpoint: Report,
  domainParam: string | undefined,
): { status: number; detail?: string } {
  if (key === null) return { status: 401, detail: DETAIL.unauthorized }
  if (!t.teams.get(key.team_id)?.dev) return { status: 403, detail: DETAIL.forbidden }
  if (domainParam === undefined || domainParam === '') return { status: 400 }
  const sentiment = endpoint === 'overview' || endpoint === 'themes'
  const wellFormed = UUID.test(domainParam)
  if (!wellFormed) return sentiment ? { status: 404, detail: DETAIL.notFound } : { status: 400 }
  const id = domainParam.toLowerCase()
  const team = t.domains.get(id)
  const inScope = team !== undefined && key.scope_team_ids.includes(team)
  const hidden = sentiment
    ? { status: 404, detail: DETAIL.notFound }
    : { status: 403, detail: DETAIL.forbidden }
  if (!inScope) return hidden
  if (key.allowed_domains !== null && !key.allowed_domains.includes(id))
    return { status: 403, detail: DETAIL.forbidden }
  const info = t.teams.get(team)!
  if (!info.dev) return { status: 403, detail: DETAIL.forbidden }
  if (sentiment && !['pro', 'business', 'enterprise'].includes(info.plan))
    return { status: 403, detail: DETAIL.plan }
  return { status: 200 }
}

/** Text that must never reach a client: DuckDB errors, SQL, stack traces, file paths of the code. */
export const LEAK =
  /duckdb|binder error|parser error|catalog error|conversion error|constraint error|syntax error|invalid input error|\bselect\b[\s\S]*\bfrom\b|node_modules|\.[tj]s:\d|\n\s+at |TypeError|RangeError|ReferenceError/i
