/**
 * @module The exact detail messages of the service's refusals (docs/API.md, "Status codes and
 * details"), shared by every transport: HTTP bodies `{"detail": ...}` and, later, MCP tool errors.
 */
import { DOMAIN_ID_REQUIRED } from '../schemas/params.js'

/**
 * Detail messages by refusal.
 * @example
 * reply.code(401).send({ detail: DETAIL.unauthorized })
 */
export const DETAIL = {
  domainRequired: DOMAIN_ID_REQUIRED,
  unauthorized: 'Invalid or revoked API key.',
  forbidden: 'API access is not enabled for this team. Contact support.',
  planForbidden: 'Sentiment analysis requires a Pro, Business or Enterprise plan.',
  domainNotFound: 'Domain not found.',
  tooManyRequests: 'Too many requests. Please try again later.',
  notFound: 'Not found.',
  methodNotAllowed: 'Method not allowed.',
  internal: 'Internal server error.',
  busy: 'The service is busy. Please try again shortly.',
  unavailable: 'The service is shutting down. Please try again shortly.',
  adminUnauthorized: 'Invalid admin token.',
  /** `domainRequired` as an MCP tool error says it: tools and arguments, no paths or query strings. */
  toolDomainRequired:
    'domain_id is required. List the domains you can read with the list_domains tool, then pass one of their ids as domain_id.',
} as const

/** The REST details that an MCP tool error words differently (tools, not paths). */
const TOOL_WORDING: ReadonlyMap<string, string> = new Map([
  [DETAIL.domainRequired, DETAIL.toolDomainRequired],
])

/**
 * A refusal's detail as an MCP tool error gives it (local, over HTTP, or relayed from the REST API):
 * the REST detail, except where that names a path.
 * @example
 * toolDetail(DETAIL.domainRequired) // 'domain_id is required. List the domains you can read with the list_domains tool, ...'
 */
export function toolDetail(detail: string): string {
  return TOOL_WORDING.get(detail) ?? detail
}
