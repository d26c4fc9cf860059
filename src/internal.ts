/**
 * @module The package's internals that its own clients (src/cluster, src/cli) need beyond the
 * public entry points: API-key construction, the NDJSON reader, the rate limiter's parts, the
 * admin guard and the cluster's HTTP details. Not in package.json "exports": nothing outside this
 * repository may rely on it (eslint.config.js lets only the client folders import it).
 */
export { apiKeyHash, newApiKey, rowToKeyInfo, KEY_PREFIX } from './keys.js'
export { readNdjsonFile, type NdjsonItem } from './ingest/ndjson.js'
export {
  FixedWindowRateLimiter,
  windowDecision,
  windowStartOf,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitOptions,
} from './http/rate-limit.js'
export { adminGuard } from './http/plugins/admin.js'
export { CLUSTER_DETAIL } from './http/errors.js'
export { type ServiceContext } from './http/context.js'
export {
  methodOf,
  REPORT_METHODS,
  REPORT_EXTRA_ROWS,
  REPORT_ROWS,
  type ReportMethod,
  type ReportSection,
} from './api/report-rows.js'
export { shareWebhooks } from './engine/webhooks.js'
export {
  DISABLED_410,
  type AttemptOutcome,
  type DomainEvents,
  type SubscriptionStore,
} from './webhooks/store.js'
