/**
 * The HTTP service of visibility-analytics (subpath export `visibility-analytics/http`).
 * @example
 * import { openEngine } from 'visibility-analytics'
 * import { startServer } from 'visibility-analytics/http'
 * const engine = await openEngine({ path: 'data/demo.duckdb', hardened: true })
 * const { url } = await startServer({ engine, port: 8787 })
 */
export {
  buildServer,
  API_PATHS,
  type BuildServerOptions,
  type CacheTtlOptions,
  type LoggerOption,
} from './server.js'
export { startServer, type StartServerOptions, type RunningServer } from './start.js'
export { loadConfig, serverOptions, type ServiceConfig } from './config.js'
export { EDGE_DEFAULTS, type EdgeOptions } from './edge/index.js'
export { type RateLimiter, type RateLimitDecision, type RateLimitOptions } from './rate-limit.js'
export { OverloadedError } from './concurrency.js'
export { DETAIL } from '../api/index.js'
