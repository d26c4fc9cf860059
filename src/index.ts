/**
 * visibility-analytics: an embedded analytics engine on DuckDB for AI search visibility.
 * @example
 * import { openEngine } from 'visibility-analytics'
 * const engine = await openEngine()
 * await engine.ingestFile('analyses.ndjson')
 * const payload = await engine.computeCompetitorSeries({ domainId, days: 30, model: 'chatgpt' })
 * await engine.close()
 */
export { openEngine, SCHEMA_VERSION } from './engine.js'
export { MAX_DUCKDB_THREADS } from './db/database.js'
export * from './errors.js'
export * from './types.js'
// Each report's parameter and payload types (src/reports/<id>/contract.ts).
export type * from './reports/index.js'
export * from './foundation/vocabulary.js'

// Operations (docs/API.md, "Operations endpoints"): building a database from a backup.
export { restoreBackup } from './engine.js'
export { webhooksOf } from './engine/webhooks.js'
// The service starts the NDJSON worker with its ingest endpoint (docs/API.md, "Ingest").
export { warmNdjsonWorker } from './ingest/ndjson-feed.js'
export {
  WEBHOOK_EVENTS,
  webhookOptionsFromEnv,
  type WebhookService,
  type WebhookOptions,
  type WebhookSubscription,
  type WebhookDelivery,
  type WebhookQueue,
  type SignalDetector,
} from './webhooks/service.js'
