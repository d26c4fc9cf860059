import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/http/index.js'

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
      mcp: { maxSessions: 1000, maxSessionsPerKey: 20, idleSeconds: 900 },
    })
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
  })
})
