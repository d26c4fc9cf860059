/**
 * The cases of the authorization matrix, shared by the REST suite (test/http/access-matrix.test.ts)
 * and the MCP suite (test/mcp/access-matrix.test.ts): keys, domains, the expected answer of every
 * (key, domain, domain-scoped endpoint) cell, and the detail of each refusal.
 */
import { ENDPOINTS as TABLE, type Endpoint } from '../../src/api/index.js'
import { DETAIL } from '../../src/http/index.js'
import type { ApiKeyInfo, Engine } from '../../src/index.js'
import { D, T, UNKNOWN_DOMAIN } from './helpers.js'

/** Every endpoint that takes a domain, with its access class. */
export const SCOPED = (TABLE as readonly Endpoint[]).filter((e) => e.access !== 'none')

export type Cell = 200 | 400 | 401 | 403 | '403plan' | 404
/** [prompt and competitor endpoints, sentiment endpoints] */
type Row = Record<DomainName, [Cell, Cell]>
export type DomainName = keyof typeof D | 'unknown' | 'malformed'

export const DOMAIN_IDS: Record<DomainName, string> = {
  ...D,
  unknown: UNKNOWN_DOMAIN,
  malformed: 'not-a-uuid',
}
export const DOMAIN_TEAMS: Record<string, string> = {
  [D.acme1]: T.acme,
  [D.acme2]: T.acme,
  [D.globex]: T.globex,
  [D.free]: T.free,
  [D.off]: T.off,
  [D.starter]: T.starter,
}

/** Everything refused the way a foreign or unknown domain is. */
const hidden = (overrides: Partial<Row>): Row => ({
  acme1: [403, 404],
  acme2: [403, 404],
  globex: [403, 404],
  free: [403, 404],
  off: [403, 404],
  starter: [403, 404],
  unknown: [403, 404],
  malformed: [400, 404],
  ...overrides,
})
const all = (cell: Cell): Row =>
  hidden(Object.fromEntries(Object.keys(DOMAIN_IDS).map((d) => [d, [cell, cell]])))

export const KEYS: Record<
  string,
  {
    params: { teamId: string; scopeTeamIds?: string[]; allowedDomains?: string[] }
    revoke?: boolean
    expect: Row
  }
> = {
  own: { params: { teamId: T.acme }, expect: hidden({ acme1: [200, 200], acme2: [200, 200] }) },
  allowlisted: {
    params: { teamId: T.acme, allowedDomains: [D.acme1] },
    expect: hidden({ acme1: [200, 200], acme2: [403, 403] }),
  },
  multiTeam: {
    params: { teamId: T.acme, scopeTeamIds: [T.acme, T.free, T.off] },
    expect: hidden({ acme1: [200, 200], acme2: [200, 200], free: [200, '403plan'], off: [403, 403] }),
  },
  crossTenantAllowlist: {
    params: { teamId: T.acme, scopeTeamIds: [T.acme, T.globex], allowedDomains: [D.globex] },
    expect: hidden({ acme1: [403, 403], acme2: [403, 403], globex: [200, 200] }),
  },
  revoked: { params: { teamId: T.acme }, revoke: true, expect: all(401) },
  developerAccessOff: { params: { teamId: T.off }, expect: all(403) },
  freePlan: { params: { teamId: T.free }, expect: hidden({ free: [200, '403plan'] }) },
  otherTenant: { params: { teamId: T.globex }, expect: hidden({ globex: [200, 200] }) },
  starterPlan: { params: { teamId: T.starter }, expect: hidden({ starter: [200, '403plan'] }) },
}

export const DETAILS: Record<string, string> = {
  400: 'domain_id must be a UUID.',
  401: DETAIL.unauthorized,
  403: DETAIL.forbidden,
  '403plan': DETAIL.planForbidden,
  404: DETAIL.domainNotFound,
}

/** One cell of the matrix: a key, a domain, an endpoint and the expected answer. */
export interface MatrixCell {
  keyName: string
  domainName: DomainName
  endpoint: Endpoint
  cell: Cell
}

/** Every cell, authorized ones first (so each refused cell is asked while a cached 200 exists). */
export const CELLS: MatrixCell[] = (() => {
  const cells = Object.entries(KEYS).flatMap(([keyName, spec]) =>
    (Object.keys(DOMAIN_IDS) as DomainName[]).flatMap((domainName) =>
      SCOPED.map((endpoint) => {
        const [series, sentiment] = spec.expect[domainName]
        const cell = endpoint.access === 'sentiment' ? sentiment : series
        return { keyName, domainName, endpoint, cell }
      }),
    ),
  )
  return [...cells.filter((c) => c.cell === 200), ...cells.filter((c) => c.cell !== 200)]
})()

/** Creates the matrix's keys (revoking the revoked one) on an engine holding `tenantRecords()`. */
export async function createMatrixKeys(
  engine: Engine,
): Promise<Map<string, { key: string; info: ApiKeyInfo }>> {
  const secrets = new Map<string, { key: string; info: ApiKeyInfo }>()
  for (const [name, spec] of Object.entries(KEYS)) {
    const created = await engine.createApiKey(spec.params)
    if (spec.revoke) await engine.revokeApiKey(created.info.id)
    secrets.set(name, created)
  }
  return secrets
}

/** Checks a 200 independently of the table: only for a domain of a scoped team, in the allowlist. */
export function expectReadable(
  info: ApiKeyInfo,
  domainId: string,
  check: (ok: boolean, why: string) => void,
): void {
  check(info.scope_team_ids.includes(DOMAIN_TEAMS[domainId]!), 'domain team in the key scope')
  check(info.allowed_domains === null || info.allowed_domains.includes(domainId), 'domain in the allowlist')
}
