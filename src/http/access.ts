/**
 * Access decisions of semantics.md section 8, as plain functions over what the engine knows about
 * keys, teams and domains. The routes call them in the documented order; nothing here touches HTTP.
 */
import type { ApiKeyInfo, DomainInfo, Engine, TeamInfo } from '../types.js'
import { SENTIMENT_PLANS } from '../types.js'
import { DETAIL, UUID_PATTERN } from './schemas.js'

/** The four report endpoints. */
export type ReportEndpoint = 'prompts' | 'competitors' | 'overview' | 'themes'

export const isSentimentEndpoint = (endpoint: ReportEndpoint): boolean =>
  endpoint === 'overview' || endpoint === 'themes'

/** A refusal: status and detail message. */
export interface Refusal {
  status: 401 | 403 | 404
  detail: string
}

/** A token as `bearerToken` accepts it: 1-512 visible ASCII characters, no spaces. */
const TOKEN = '[\\x21-\\x7e]{1,512}'
const BEARER = new RegExp(`^Bearer +(${TOKEN}) *$`, 'i')

/** The secret of an `Authorization: Bearer <key>` header, or null when absent or malformed. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null
  const match = BEARER.exec(header)
  return match?.[1] ?? null
}

/**
 * Why an admin token could never be presented as `Authorization: Bearer <token>` (or is too
 * short to be safe), or null when it is fine.
 * @example
 * adminTokenProblem('has spaces in it, sadly') // 'VA_ADMIN_TOKEN must be ... no spaces ...'
 */
export function adminTokenProblem(token: string): string | null {
  if (token.length < 16) return 'VA_ADMIN_TOKEN must be at least 16 characters.'
  if (!new RegExp(`^${TOKEN}$`).test(token))
    return 'VA_ADMIN_TOKEN must be at most 512 visible ASCII characters without spaces (it is sent as a bearer token).'
  return null
}

/** Step 3: the key's own team must exist and have developer access. */
export function checkKeyTeam(team: TeamInfo | null): Refusal | null {
  if (team === null || !team.developer_access) return { status: 403, detail: DETAIL.forbidden }
  return null
}

/** Whether the key may read the domain (scope, allowlist and the domain team's developer access). */
export function keyCanRead(key: ApiKeyInfo, domain: DomainInfo, domainTeam: TeamInfo | null): boolean {
  return (
    inScope(key, domain) && inAllowlist(key, domain) && domainTeam !== null && domainTeam.developer_access
  )
}

function inScope(key: ApiKeyInfo, domain: DomainInfo): boolean {
  const team = domain.team_id.toLowerCase()
  return key.scope_team_ids.some((id) => id.toLowerCase() === team)
}

function inAllowlist(key: ApiKeyInfo, domain: DomainInfo): boolean {
  if (key.allowed_domains === null) return true
  const id = domain.id.toLowerCase()
  return key.allowed_domains.some((allowed) => allowed.toLowerCase() === id)
}

/**
 * Steps 5 and 6 for one report request: resolves the domain and decides. Prompt and competitor
 * endpoints answer every refusal with the 403 access detail; the sentiment endpoints answer a
 * malformed, unknown or out-of-scope domain with the one 404 body, then 403 for the allowlist and
 * developer access, then 403 for the plan.
 */
export async function authorizeDomain(
  engine: Pick<Engine, 'getDomain' | 'getTeam'>,
  key: ApiKeyInfo,
  endpoint: ReportEndpoint,
  domainId: string,
): Promise<{ domain: DomainInfo } | Refusal> {
  const sentiment = isSentimentEndpoint(endpoint)
  const hidden: Refusal = sentiment
    ? { status: 404, detail: DETAIL.domainNotFound }
    : { status: 403, detail: DETAIL.forbidden }
  const forbidden: Refusal = { status: 403, detail: DETAIL.forbidden }

  if (!UUID_PATTERN.test(domainId)) return hidden
  const domain = await engine.getDomain(domainId)
  if (domain === null || !inScope(key, domain)) return hidden
  if (!inAllowlist(key, domain)) return forbidden
  const team = await engine.getTeam(domain.team_id)
  if (team === null || !team.developer_access) return forbidden
  if (sentiment && !SENTIMENT_PLANS.includes(team.plan)) return { status: 403, detail: DETAIL.planForbidden }
  return { domain }
}
