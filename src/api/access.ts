/**
 * @module Who may read what (docs/API.md, "Order of checks"): plain functions over what the engine
 * knows about keys, teams and domains. The transports call them in the documented order; nothing
 * here knows about HTTP.
 */
import { inAllowlist, inScope, keyReadsDomain, keyScopeOf } from '../key-scope.js'
import { UUID_RE } from '../schemas/records.js'
import { type ApiKeyInfo, type Clock, type DomainInfo, type Engine, type TeamInfo } from '../types.js'
import { type ListDomainsPayload } from '../reports/index.js'
import { SENTIMENT_PLANS } from '../foundation/vocabulary.js'
import { DETAIL } from './details.js'

/**
 * How an endpoint checks the domain it is asked about (check 5 and 6):
 * - `series`: unknown, foreign or not allowed domains are 403 (the access detail);
 * - `sentiment`: malformed, unknown or foreign domains are 404, not allowed ones 403, and the
 *   domain's team needs a plan with sentiment;
 * - `none`: the endpoint takes no domain.
 */
export type AccessClass = 'series' | 'sentiment' | 'none'

/** A refusal: status and detail message. */
export interface Refusal {
  status: 403 | 404
  detail: string
}

/**
 * Check 3: the key's own team must exist and have developer access.
 * @example
 * const refusal = checkKeyTeam(await engine.getTeam(key.team_id)) // null: go on
 */
export function checkKeyTeam(team: TeamInfo | null): Refusal | null {
  if (team === null || !team.developer_access) return { status: 403, detail: DETAIL.forbidden }
  return null
}

/**
 * Whether the key may read the domain (scope, allowlist and the domain team's developer access).
 * @example
 * keyCanRead(key, domain, await engine.getTeam(domain.team_id))
 */
export function keyCanRead(key: ApiKeyInfo, domain: DomainInfo, domainTeam: TeamInfo | null): boolean {
  return keyReadsDomain(keyScopeOf(key), domain, domainTeam)
}

/**
 * The statuses the domain checks of an access class can refuse with (besides those of checks 1-4):
 * what the endpoint documents, and nothing more.
 * @example
 * domainRefusalStatuses('series') // [403]
 */
export function domainRefusalStatuses(access: AccessClass): readonly Refusal['status'][] {
  return access === 'sentiment' ? [403, 404] : access === 'series' ? [403] : []
}

/**
 * Checks 5 and 6 for one request about a domain. `series` endpoints answer every refusal with
 * the 403 access detail; `sentiment` endpoints answer a malformed, unknown or out-of-scope domain
 * with the one 404 body, then 403 for the allowlist and developer access, then 403 for the plan.
 * @example
 * const access = await authorizeDomain(engine, key, 'sentiment', domainId)
 * if ('status' in access) return reply.code(access.status).send({ detail: access.detail })
 */
export async function authorizeDomain(
  engine: Pick<Engine, 'getDomain' | 'getTeam'>,
  key: ApiKeyInfo,
  access: Exclude<AccessClass, 'none'>,
  domainId: string,
): Promise<{ domain: DomainInfo } | Refusal> {
  const sentiment = access === 'sentiment'
  const hidden: Refusal = sentiment
    ? { status: 404, detail: DETAIL.domainNotFound }
    : { status: 403, detail: DETAIL.forbidden }
  const forbidden: Refusal = { status: 403, detail: DETAIL.forbidden }

  if (!UUID_RE.test(domainId)) return hidden
  const domain = await engine.getDomain(domainId)
  const scope = keyScopeOf(key)
  if (domain === null || !inScope(scope, domain.team_id)) return hidden
  if (!inAllowlist(scope, domain.id)) return forbidden
  const team = await engine.getTeam(domain.team_id)
  if (team === null || !team.developer_access) return forbidden
  if (sentiment && !SENTIMENT_PLANS.includes(team.plan)) return { status: 403, detail: DETAIL.planForbidden }
  return { domain }
}

/**
 * The domains listing: every domain `caller` may read, by name then id (null caller: a local,
 * trusted reader such as the CLI, which reads them all).
 * @example
 * const payload = await listReadableDomains(engine, key, new Date())
 */
export function listReadableDomains(
  engine: Pick<Engine, 'computeDomainList'>,
  caller: ApiKeyInfo | null,
  now: Clock,
): Promise<ListDomainsPayload> {
  return engine.computeDomainList({ key: caller === null ? null : keyScopeOf(caller), now })
}
