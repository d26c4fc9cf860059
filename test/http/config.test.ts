import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/http/index.js'
import { servingThreads } from '../../src/http/config.js'

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 8787,
      host: '127.0.0.1',
      dbPath: 'data/demo.duckdb',
      adminToken: undefined,
      rateLimit: { limit: 60, windowSeconds: 60 },
      cacheTtl: { sentimentSeconds: 3600, seriesSeconds: 300 },
      maxConcurrentQueries: 4,
      logLevel: 'info',
      maxIngestBytes: 256 * 1024 * 1024,
      edge: {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 60_000,
        idleTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        maxConnections: 512,
        maxRequestsPerSocket: 1_000,
        maxPipelined: 16,
        maxHeaderBytes: 16_384,
      },
      mcp: {
        maxSessions: 1000,
        maxSessionsPerKey: 20,
        idleSeconds: 900,
        requestTimeoutMs: 60_000,
        allowedOrigins: undefined,
        allowedHosts: '*',
      },
      retainDays: undefined,
      duckdbThreads: servingThreads(),
      backupDir: undefined,
      corsOrigins: [],
      webhooks: { allowPrivate: false },
    })
  })

  it('VA_RETAIN_DAYS and VA_BACKUP_DIR (operations)', () => {
    expect(loadConfig({ VA_RETAIN_DAYS: '400', VA_BACKUP_DIR: '/srv/backups' })).toMatchObject({
      retainDays: 400,
      backupDir: '/srv/backups',
    })
    expect(loadConfig({ VA_RETAIN_DAYS: '0' }).retainDays).toBe(0)
    for (const bad of ['-1', '1.5', 'ten', '36501'])
      expect(() => loadConfig({ VA_RETAIN_DAYS: bad })).toThrow(
        'VA_RETAIN_DAYS must be an integer from 0 to 36500.',
      )
  })

  it('VA_DUCKDB_THREADS: an integer from 1 to 256; unset: one fewer than the cores, at least one', () => {
    expect(loadConfig({}).duckdbThreads).toBe(servingThreads())
    expect([1, 2, 8].map((cores) => servingThreads(cores))).toEqual([1, 1, 7])
    expect(loadConfig({ VA_DUCKDB_THREADS: '1' }).duckdbThreads).toBe(1)
    for (const bad of ['0', '1.5', 'two', '257'])
      expect(() => loadConfig({ VA_DUCKDB_THREADS: bad })).toThrow(
        'VA_DUCKDB_THREADS must be an integer from 1 to 256.',
      )
  })

  it('reads every variable', () => {
    const config = loadConfig({
      VA_PORT: '9000',
      VA_HOST: '0.0.0.0',
      VA_DB: '/srv/va.duckdb',
      VA_ADMIN_TOKEN: 'a-long-admin-token-123',
      VA_RATE_LIMIT: '120',
      VA_CACHE_TTL_SENTIMENT_S: '0',
      VA_CACHE_TTL_SERIES_S: '60',
      VA_MAX_CONCURRENT_QUERIES: '8',
      VA_LOG_LEVEL: 'warn',
      VA_MAX_INGEST_BYTES: '1048576',
      VA_HEADERS_TIMEOUT_MS: '2000',
      VA_REQUEST_TIMEOUT_MS: '4000',
      VA_IDLE_TIMEOUT_MS: '3000',
      VA_KEEP_ALIVE_TIMEOUT_MS: '1000',
      VA_MAX_CONNECTIONS: '100',
      VA_MAX_REQUESTS_PER_SOCKET: '0',
      VA_MAX_PIPELINED: '4',
      VA_MAX_HEADER_BYTES: '8192',
      VA_MCP_MAX_SESSIONS: '50',
      VA_MCP_MAX_SESSIONS_PER_KEY: '5',
      VA_MCP_SESSION_IDLE_S: '120',
    })
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dbPath: '/srv/va.duckdb',
      adminToken: 'a-long-admin-token-123',
      rateLimit: { limit: 120, windowSeconds: 60 },
      cacheTtl: { sentimentSeconds: 0, seriesSeconds: 60 },
      maxConcurrentQueries: 8,
      logLevel: 'warn',
      maxIngestBytes: 1_048_576,
      edge: {
        headersTimeoutMs: 2_000,
        requestTimeoutMs: 4_000,
        idleTimeoutMs: 3_000,
        keepAliveTimeoutMs: 1_000,
        maxConnections: 100,
        maxRequestsPerSocket: 0,
        maxPipelined: 4,
        maxHeaderBytes: 8_192,
      },
      mcp: { maxSessions: 50, maxSessionsPerKey: 5, idleSeconds: 120 },
    })
  })

  it('refuses invalid values with a sentence naming the variable', () => {
    expect(() => loadConfig({ VA_PORT: 'http' })).toThrow('VA_PORT must be an integer from 0 to 65535.')
    expect(() => loadConfig({ VA_RATE_LIMIT: '0' })).toThrow(
      'VA_RATE_LIMIT must be an integer from 1 to 1000000.',
    )
    expect(() => loadConfig({ VA_MAX_CONCURRENT_QUERIES: '-1' })).toThrow(/VA_MAX_CONCURRENT_QUERIES/)
    expect(() => loadConfig({ VA_ADMIN_TOKEN: 'short' })).toThrow(
      'VA_ADMIN_TOKEN must be at least 16 characters.',
    )
    expect(() => loadConfig({ VA_LOG_LEVEL: 'loud' })).toThrow(/VA_LOG_LEVEL/)
    expect(() => loadConfig({ VA_MCP_MAX_SESSIONS: '0' })).toThrow(/VA_MCP_MAX_SESSIONS must be/)
    expect(() => loadConfig({ VA_MCP_SESSION_IDLE_S: '1d' })).toThrow(/VA_MCP_SESSION_IDLE_S must be/)
    expect(loadConfig({ VA_ADMIN_TOKEN: '' }).adminToken).toBeUndefined()
    expect(() => loadConfig({ VA_MAX_CONNECTIONS: '0' })).toThrow(
      'VA_MAX_CONNECTIONS must be an integer from 1 to 1000000.',
    )
    expect(() => loadConfig({ VA_HEADERS_TIMEOUT_MS: '20000', VA_REQUEST_TIMEOUT_MS: '10000' })).toThrow(
      'VA_HEADERS_TIMEOUT_MS must not be larger than VA_REQUEST_TIMEOUT_MS.',
    )
    expect(() => loadConfig({ VA_MAX_HEADER_BYTES: '16kb' })).toThrow(/VA_MAX_HEADER_BYTES/)
  })

  it('refuses an admin token that could never be presented as a bearer token', () => {
    for (const token of [
      'a token with spaces 123',
      'tab\tseparated-admin-token',
      'naïve-admin-token-0123',
      'x'.repeat(513),
    ])
      expect(() => loadConfig({ VA_ADMIN_TOKEN: token }), token).toThrow(
        'VA_ADMIN_TOKEN must be at most 512 visible ASCII characters without spaces (it is sent as a bearer token).',
      )
    expect(
      loadConfig({ VA_ADMIN_TOKEN: '!"#$%&()*+,-./0123456789:;<=>?@[]^_`{|}~' }).adminToken,
    ).toHaveLength(40)
  })
})
