/**
 * @module The transport-neutral description of the API (subpath export `visibility-analytics/api`):
 * the endpoint table, the parameter rules, the payload schemas, the access rules and the detail
 * messages. The HTTP service, the CLI and an MCP server read the API from here and nowhere else.
 * @example
 * import { ENDPOINTS } from 'visibility-analytics/api'
 * for (const e of ENDPOINTS) console.log(e.operationId, e.path)
 */
export {
  ENDPOINTS,
  type CacheGroup,
  type ComputeMethod,
  type ComputeContext,
  type Endpoint,
  type EndpointDefinition,
  type EndpointId,
  type RateLimitState,
} from './endpoints.js'
export {
  authorizeDomain,
  checkKeyTeam,
  keyCanRead,
  listReadableDomains,
  type AccessClass,
  type Refusal,
} from './access.js'
export { DETAIL, toolDetail } from './details.js'
export {
  channelModelParam,
  citationLimitParam,
  daysParam,
  domainIdParam,
  limitParam,
  modelParam,
  nowParam,
  pageParam,
  sizeParam,
  sentimentDomainIdParam,
  DOMAIN_ID_REQUIRED,
  type Param,
  type ParamSet,
  type ParamValues,
} from '../schemas/params.js'
export { formatGeneratedAt } from '../schemas/payloads.js'
export {
  competitorSeriesPayloadSchema,
  domainsPayloadSchema,
  promptSeriesPayloadSchema,
  sentimentOverviewPayloadSchema,
  sentimentThemesPayloadSchema,
  citationsPayloadSchema,
  citedDomainsPayloadSchema,
  fanoutQueriesPayloadSchema,
  sentimentSeriesPayloadSchema,
  type DomainsPayload,
} from '../reports/index.js'
export { domainRefusalStatuses } from './access.js'

// Date ranges and buckets (docs/API.md, "Date ranges and buckets").
export {
  endDateParam,
  granularityParam,
  countryParam,
  topicParam,
  tagParam,
  normalizeWindowParams,
  startDateParam,
  GRANULARITY_NOT_SERIES,
} from '../schemas/params.js'
export {
  brandRankingsPayloadSchema,
  brandSeriesPayloadSchema,
  modelLeaderboardPayloadSchema,
  promptListPayloadSchema,
  validatePayloadSchema,
} from '../reports/index.js'

// Operations (docs/API.md, "Operations endpoints"): API keys on a running server, retention and backups.
export { createKeyChecked, OPERATION_DETAIL } from './operations.js'
export {
  apiKeySchema,
  backupResultSchema,
  createdKeySchema,
  createKeyBodySchema,
  MAX_RETAIN_DAYS,
  olderThanDays,
  pruneBodySchema,
  pruneResultSchema,
  type CreateKeyBody,
} from '../schemas/operations.js'
export {
  WEBHOOK_DETAIL,
  WEBHOOK_ROUTES,
  createWebhookBodySchema,
  createWebhookChecked,
  createdWebhookSchema,
  pingResultSchema,
  webhookDeliverySchema,
  webhookIdChecked,
  webhookPath,
  webhookSubscriptionSchema,
  webhooksOfChecked,
} from './webhooks.js'
