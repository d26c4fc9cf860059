/**
 * Service configuration from environment variables (documented in docs/HTTP.md).
 */
import { availableParallelism } from 'node:os'
import { adminTokenProblem } from './plugins/auth.js'
import { corsOriginsFrom } from './plugins/conventions.js'
import { edgeOptionsFromEnv, type EdgeOptions } from './edge/index.js'
import { MAX_RETAIN_DAYS } from '../api/index.js'
import { MAX_DUCKDB_THREADS, webhookOptionsFromEnv, type WebhookOptions } from '../index.js'
import { parseOrigin } from '../mcp/index.js'

/**
 * DuckDB's threads in a server: one fewer than the cores (at least one), so that an ingest's
 * statements leave a core to the event loop that answers the reports. On the 2-core bench machine
 * (one DuckDB thread against two), the serving probe with a 500-analysis POST every second served
 * 1.2x the requests at 0.8x the CPU per request (bench/NOTES.md, "lead 12").
 */
export function servingThreads(cores = availableParallelism()): number {
  return Math.max(1, cores - 1)
}

export interface ServiceConfig {
  port: number
  host: string
  dbPath: string
  /** Unset: the ingest endpoint does not exist. */
  adminToken: string | undefined
  rateLimit: { limit: number; windowSeconds: number }
  cacheTtl: { sentimentSeconds: number; seriesSeconds: number }
  maxConcurrentQueries: number
  logLevel: string
  /** Largest ingest body in bytes. */
  maxIngestBytes: number
  /** Connection and request limits of the HTTP edge. */
  edge: EdgeOptions
  /** MCP at /mcp: session bounds, request deadline, allowed Origins and Hosts ('*': any). */
  mcp: {
    maxSessions: number
    maxSessionsPerKey: number
    idleSeconds: number
    requestTimeoutMs: number
    /** Unset: the loopback origins only. */
    allowedOrigins: readonly string[] | '*' | undefined
    allowedHosts: readonly string[] | '*'
  }
  // Operations (docs/API.md, "Operations endpoints")
  /** VA_RETAIN_DAYS: prune analyses older than today - N daily; undefined: never. */
  retainDays: number | undefined
  /** VA_DUCKDB_THREADS: DuckDB's worker threads; unset: {@link servingThreads}. */
  duckdbThreads: number
  /** VA_BACKUP_DIR: where POST /internal/v1/backup writes; undefined: backups off. */
  backupDir: string | undefined
  /** VA_CORS_ORIGINS: origins allowed to call the API from a browser; empty: CORS off. */
  corsOrigins: string[]
  /** VA_SIGNALS_INTERVAL_S and the VA_WEBHOOK_RETRY_BASE_S family (docs/WEBHOOKS.md): detection and delivery while serving. */
  webhooks: WebhookOptions
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  if (!/^\d+$/.test(raw.trim())) throw new Error(`${name} must be an integer from ${min} to ${max}.`)
  const value = Number(raw.trim())
  if (value < min || value > max) throw new Error(`${name} must be an integer from ${min} to ${max}.`)
  return value
}

/**
 * A comma-separated list (or `*`), each item normalized by `parse` (null: invalid); undefined when
 * the variable is unset or blank.
 */
function list(
  env: NodeJS.ProcessEnv,
  name: string,
  what: string,
  parse: (item: string) => string | null,
): readonly string[] | '*' | undefined {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return undefined
  if (raw === '*') return '*'
  return raw.split(',').map((item) => {
    const parsed = parse(item.trim())
    if (parsed === null)
      throw new Error(`${name} must be * or a comma-separated list of ${what}; "${item.trim()}" is not one.`)
    return parsed
  })
}

/** A Host name as the Host header carries it, without port (IPv6 in brackets), lower-case. */
function hostname(item: string): string | null {
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i.test(item)) return null
  return item.toLowerCase()
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/**
 * Reads VA_PORT, VA_HOST, VA_DB, VA_ADMIN_TOKEN, VA_RATE_LIMIT, VA_CACHE_TTL_SENTIMENT_S,
 * VA_CACHE_TTL_SERIES_S, VA_MAX_CONCURRENT_QUERIES, VA_LOG_LEVEL, VA_MAX_INGEST_BYTES, the edge limits
 * (VA_HEADERS_TIMEOUT_MS ... VA_MAX_HEADER_BYTES, see EdgeOptions), the MCP session bounds
 * (VA_MCP_MAX_SESSIONS, VA_MCP_MAX_SESSIONS_PER_KEY, VA_MCP_SESSION_IDLE_S), its request deadline
 * (VA_MCP_REQUEST_TIMEOUT_MS), Origin and Host lists (VA_MCP_ALLOWED_ORIGINS, VA_MCP_ALLOWED_HOSTS), VA_RETAIN_DAYS,
 * VA_BACKUP_DIR and VA_CORS_ORIGINS; throws on an invalid value.
 * @example
 * const config = loadConfig(process.env)
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const adminToken = env.VA_ADMIN_TOKEN
  const tokenProblem = adminToken === undefined || adminToken === '' ? null : adminTokenProblem(adminToken)
  if (tokenProblem !== null) throw new Error(tokenProblem)
  const logLevel = env.VA_LOG_LEVEL?.trim() || 'info'
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`VA_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}.`)
  return {
    port: integer(env, 'VA_PORT', 8787, 0, 65535),
    host: env.VA_HOST?.trim() || '127.0.0.1',
    dbPath: env.VA_DB?.trim() || 'data/demo.duckdb',
    adminToken: adminToken === '' ? undefined : adminToken,
    rateLimit: { limit: integer(env, 'VA_RATE_LIMIT', 60, 1, 1_000_000), windowSeconds: 60 },
    cacheTtl: {
      sentimentSeconds: integer(env, 'VA_CACHE_TTL_SENTIMENT_S', 3600, 0, 86_400 * 7),
      seriesSeconds: integer(env, 'VA_CACHE_TTL_SERIES_S', 300, 0, 86_400 * 7),
    },
    maxConcurrentQueries: integer(env, 'VA_MAX_CONCURRENT_QUERIES', 4, 1, 256),
    logLevel,
    maxIngestBytes: integer(env, 'VA_MAX_INGEST_BYTES', 256 * 1024 * 1024, 1, 2 ** 40),
    edge: edgeOptionsFromEnv((name, fallback, min, max) => integer(env, name, fallback, min, max)),
    mcp: {
      maxSessions: integer(env, 'VA_MCP_MAX_SESSIONS', 1000, 1, 1_000_000),
      maxSessionsPerKey: integer(env, 'VA_MCP_MAX_SESSIONS_PER_KEY', 20, 1, 1_000_000),
      idleSeconds: integer(env, 'VA_MCP_SESSION_IDLE_S', 900, 1, 86_400),
      requestTimeoutMs: integer(env, 'VA_MCP_REQUEST_TIMEOUT_MS', 60_000, 100, 3_600_000),
      allowedOrigins: list(
        env,
        'VA_MCP_ALLOWED_ORIGINS',
        'origins like https://app.example.com',
        parseOrigin,
      ),
      allowedHosts: list(env, 'VA_MCP_ALLOWED_HOSTS', 'host names like api.example.com', hostname) ?? '*',
    },
    retainDays: env.VA_RETAIN_DAYS?.trim()
      ? integer(env, 'VA_RETAIN_DAYS', 0, 0, MAX_RETAIN_DAYS)
      : undefined,
    duckdbThreads: env.VA_DUCKDB_THREADS?.trim()
      ? integer(env, 'VA_DUCKDB_THREADS', 0, 1, MAX_DUCKDB_THREADS)
      : servingThreads(),
    backupDir: env.VA_BACKUP_DIR?.trim() || undefined,
    corsOrigins: corsOriginsFrom(env.VA_CORS_ORIGINS),
    webhooks: webhookOptionsFromEnv(env),
  }
}

/**
 * The service options a configuration sets, as `startServer` (and a cluster shard) take them: what
 * `visibility serve` and `visibility serve --cluster` share.
 * @example
 * await startServer({ engine, ...serverOptions(loadConfig()) })
 */
export function serverOptions(config: ServiceConfig) {
  return {
    port: config.port,
    host: config.host,
    adminToken: config.adminToken,
    rateLimit: config.rateLimit,
    cacheTtl: config.cacheTtl,
    maxConcurrentQueries: config.maxConcurrentQueries,
    maxIngestBytes: config.maxIngestBytes,
    edge: config.edge,
    logger: { level: config.logLevel },
    mcp: config.mcp,
    corsOrigins: config.corsOrigins,
    webhooks: config.webhooks,
  }
}
