/**
 * @module The HTTP edge: everything between the socket and the routes that keeps an
 * unauthenticated client from exhausting the service, and keeps the response contract on every
 * path. `buildServer` spreads `edgeServerOptions` into the Fastify options and calls
 * `installContract` on the new instance before any route.
 */
import type { FastifyServerOptions } from 'fastify'
import { edgeServerFactory } from './connections.js'
import { handleClientError, handleFrameworkError, requestIdOf } from './contract.js'
import type { EdgeOptions } from './options.js'

/**
 * The Fastify options of the edge: the server (limits and timeouts), the client-error handler,
 * the framework-error handler and the request id.
 * @example
 * const app = Fastify({ ...otherOptions, ...edgeServerOptions(resolveEdgeOptions(options.edge)) })
 */
export function edgeServerOptions(
  options: EdgeOptions,
): Pick<FastifyServerOptions, 'serverFactory' | 'clientErrorHandler' | 'frameworkErrors' | 'genReqId'> {
  return {
    serverFactory: edgeServerFactory(options),
    genReqId: requestIdOf,
    clientErrorHandler: handleClientError,
    frameworkErrors: handleFrameworkError,
  }
}

export { installContract, CONTRACT_HEADERS, JSON_TYPE, SANE_REQUEST_ID } from './contract.js'
export { EDGE_DEFAULTS, edgeOptionsFromEnv, resolveEdgeOptions, type EdgeOptions } from './options.js'
export {
  NDJSON_MEDIA_TYPES,
  SPOOL_PREFIX,
  ingestGate,
  makeSpoolDir,
  spoolIngestBody,
  sweepSpoolDirs,
} from './ingest.js'
export { serializeRequest } from './logging.js'
export { staticJson } from './static.js'
