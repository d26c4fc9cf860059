/**
 * Shared setup of the HTTP reliability suites: tenants with every plan and developer-access state,
 * data in every domain, a model of the order of checks (docs/API.md) that says which status a
 * key must get for a domain on a route, and the routes themselves, taken from the endpoint table
 * (src/api/endpoints.ts) with parameter values derived from each row's own parameter rules: every
 * route of the table is fuzzed, access-checked and edge-tested, and so is every route added later.
 */
import { ENDPOINTS as TABLE, type Endpoint, type EndpointId } from '../../src/api/index.js'
import { CHANNELS, GRANULARITIES } from '../../src/foundation/vocabulary.js'
import { openEngine, type ApiKeyInfo, type Engine, type Plan } from '../../src/index.js'
import { dimRecords, makeAnalyses, makeDims, type Dims } from '../support/generate.js'

export type { Endpoint }
/** Every route of the endpoint table, in its order. */
export const ROUTES = TABLE as readonly Endpoint[]
/** The ids of the table's routes (what each suite must cover). */
export const ROUTE_IDS: readonly EndpointId[] = ROUTES.map((e) => e.id as EndpointId)
/** The routes that take a domain (every access class but `none`). */
export const SCOPED = ROUTES.filter((e) => e.access !== 'none')
/** The directory every route of the table lives under (`/api/v1`). */
export const API_PREFIX = ROUTES.map((e) => e.path).reduce((prefix, path) => {
  while (!path.startsWith(`${prefix}/`)) prefix = prefix.slice(0, prefix.lastIndexOf('/'))
  return prefix
}, ROUTES[0]!.path)
/** A route of the table by id. */
export const route = (id: EndpointId): Endpoint => ROUTES.find((e) => e.id === id)!

const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10)
/**
 * Candidate texts a parameter might accept; each parameter's valid values are the candidates its
 * own rule (`param.text`) accepts, so a new parameter kind with no valid candidate fails the
 * coverage test (add candidates here).
 */
const CANDIDATES = [
  '1',
  '7',
  '2',
  '30',
  '50',
  '365',
  ...GRANULARITIES,
  'all',
  ...CHANNELS,
  'gpt-4o-2024-08-06',
  day(20),
  day(2),
]

/** The valid texts of each parameter of a route (domain_id excluded: the suites pick domains). */
export function validValues(e: Endpoint): Record<string, string[]> {
  return Object.fromEntries(
    Object.values(e.params)
      .filter((p) => p.name !== 'domain_id')
      .map((p) => [p.name, CANDIDATES.filter((v) => p.text.safeParse(v).success)]),
  )
}

/**
 * A valid query of a route: `domain_id` when the route takes one, then each other parameter with
 * the `pick`-th of its valid values when the whole query still validates (rules between
 * parameters, such as the window's, decide), else without it.
 */
export function validQuery(e: Endpoint, domainId: string | undefined, pick = 0): Record<string, string> {
  const scoped = 'domain_id' in e.params
  const query: Record<string, string> = scoped ? { domain_id: PROBE_DOMAIN } : {}
  for (const [name, values] of Object.entries(validValues(e))) {
    if (values.length === 0) continue
    const next = { ...query, [name]: values[pick % values.length]! }
    if (e.query.safeParse(next).success) Object.assign(query, next)
  }
  if (scoped && domainId !== undefined) query.domain_id = domainId
  else delete query.domain_id
  return query
}
const PROBE_DOMAIN = '00000000-0000-4000-8000-000000000000'

/** The URL of a route with these query parameters (encoded). */
export function routeUrl(e: Pick<Endpoint, 'path'>, query: Record<string, string> = {}): string {
  const qs = new URLSearchParams(query).toString()
  return qs === '' ? e.path : `${e.path}?${qs}`
}

/** Fails naming the routes of the table a suite did not cover. */
export function missingRoutes(covered: Iterable<string>): string[] {
  const seen = new Set(covered)
  return ROUTE_IDS.filter((id) => !seen.has(id))
}

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

/**
 * The status (and detail) the order of checks requires of a route; `domainParam` undefined =
 * omitted (a route that takes no domain ignores it).
 */
export function expectedAccess(
  t: Pick<Tenants, 'teams' | 'domains'>,
  key: Pick<ApiKeyInfo, 'team_id' | 'scope_team_ids' | 'allowed_domains'> | null,
  endpoint: Pick<Endpoint, 'access'>,
  domainParam: string | undefined,
): { status: number; detail?: string } {
  if (key === null) return { status: 401, detail: DETAIL.unauthorized }
  if (!t.teams.get(key.team_id)?.dev) return { status: 403, detail: DETAIL.forbidden }
  if (endpoint.access === 'none') return { status: 200 }
  if (domainParam === undefined || domainParam === '') return { status: 400 }
  const sentiment = endpoint.access === 'sentiment'
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
