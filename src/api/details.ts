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
} as const
