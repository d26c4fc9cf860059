/**
 * @module The cluster's control plane: one PostgreSQL database holding what the shards share (the
 * teams and domains as directory records, the API keys as hashes, the shard registry, each
 * domain's shard and state, and the fixed-window rate-limit counters). Every change a shard must
 * see at once is announced on the `va_directory` channel (LISTEN/NOTIFY).
 *
 * `pg` is imported here only, lazily: a single-node service never loads it.
 */
import type { Pool, PoolClient, QueryResultRow } from 'pg'
import type { ApiKeyInfo, CreateApiKeyParams, CreatedApiKey } from '../index.js'
import { newApiKey, rowToKeyInfo } from '../internal.js'

/** The NOTIFY channel of directory changes; payloads `key:<hash>`, `domain:<id>`, `all`. */
export const DIRECTORY_CHANNEL = 'va_directory'

/** A domain's place in the cluster. */
export interface Assignment {
  shard: string
  /** The shard a move copies from, until the source's copy is deleted; else null. */
  previous: string | null
  state: 'active' | 'moving'
}

export interface ShardInfo {
  name: string
  url: string
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS va_shards (
  name text PRIMARY KEY,
  url text NOT NULL,
  registered_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS va_teams (
  id text PRIMARY KEY,
  record jsonb NOT NULL
);
CREATE TABLE IF NOT EXISTS va_domains (
  id text PRIMARY KEY,
  team_id text NOT NULL,
  record jsonb NOT NULL,
  shard text NOT NULL REFERENCES va_shards (name),
  previous_shard text REFERENCES va_shards (name),
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'moving')),
  analyses bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS va_api_keys (
  id text PRIMARY KEY,
  key_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  team_id text NOT NULL,
  scope_team_ids jsonb NOT NULL,
  allowed_domains jsonb,
  name text,
  created_at text NOT NULL,
  revoked_at text
);
CREATE TABLE IF NOT EXISTS va_rate_windows (
  key_id text NOT NULL,
  window_start bigint NOT NULL,
  used integer NOT NULL,
  PRIMARY KEY (key_id, window_start)
);
CREATE TABLE IF NOT EXISTS va_cluster_settings (
  name text PRIMARY KEY,
  value text NOT NULL
);
CREATE TABLE IF NOT EXISTS va_webhook_subscriptions (
  id text PRIMARY KEY,
  team_id text NOT NULL,
  url text NOT NULL,
  events jsonb NOT NULL,
  domain_ids jsonb,
  secret text NOT NULL,
  created_at bigint NOT NULL,
  disabled_at bigint,
  disabled_reason text
);
CREATE INDEX IF NOT EXISTS va_webhook_subscriptions_team ON va_webhook_subscriptions (team_id);
CREATE TABLE IF NOT EXISTS va_webhook_deliveries (
  n bigserial PRIMARY KEY,
  subscription_id text NOT NULL,
  event_id text NOT NULL,
  attempt integer NOT NULL,
  status_code integer,
  error text,
  outcome text NOT NULL,
  attempted_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS va_webhook_deliveries_sub ON va_webhook_deliveries (subscription_id, attempted_at);
`

/** pg's module, loaded on first use. */
async function loadPg(): Promise<typeof import('pg')> {
  const mod = (await import('pg')) as unknown as { default?: typeof import('pg') } & typeof import('pg')
  return mod.default ?? mod
}

/**
 * A pooled connection to the control plane.
 * @example
 * const cp = await ControlPlane.connect('postgres://va@127.0.0.1:5433/va')
 * await cp.registerShard('s1', 'http://127.0.0.1:9001')
 */
export class ControlPlane {
  readonly url: string
  readonly pool: Pool

  private constructor(url: string, pool: Pool) {
    this.url = url
    this.pool = pool
  }

  /** Connects (pool of `max` connections) and creates the tables when missing. */
  static async connect(url: string, options: { max?: number } = {}): Promise<ControlPlane> {
    const pg = await loadPg()
    const pool = new pg.Pool({
      connectionString: url,
      max: options.max ?? 8,
      connectionTimeoutMillis: 2000,
      query_timeout: 5000,
      idleTimeoutMillis: 30_000,
    })
    // An idle client losing its server must not crash the process.
    pool.on('error', () => undefined)
    const cp = new ControlPlane(url, pool)
    await cp.transaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock(727274)')
      await c.query(SCHEMA)
    })
    return cp
  }

  /** A dedicated client (LISTEN needs one connection of its own). */
  async listener(): Promise<import('pg').Client> {
    const pg = await loadPg()
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: 2000,
      query_timeout: 2000,
    })
    client.on('error', () => undefined)
    await client.connect()
    return client
  }

  async close(): Promise<void> {
    await this.pool.end()
  }

  /** Runs `fn` in one transaction (rolled back when it throws). */
  async transaction<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect()
    try {
      await client.query('BEGIN')
      const out = await fn(client)
      await client.query('COMMIT')
      return out
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined)
      throw e
    } finally {
      client.release()
    }
  }

  // Shards ------------------------------------------------------------------------------------

  async registerShard(name: string, url: string): Promise<void> {
    await this.pool.query(
      'INSERT INTO va_shards (name, url) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET url = EXCLUDED.url',
      [name, url],
    )
  }

  async shards(): Promise<ShardInfo[]> {
    const r = await this.pool.query('SELECT name, url FROM va_shards ORDER BY name')
    return r.rows.map((row) => ({ name: String(row.name), url: String(row.url) }))
  }

  async shard(name: string): Promise<ShardInfo> {
    const found = (await this.shards()).find((s) => s.name === name)
    if (found === undefined) throw new Error(`no shard named ${JSON.stringify(name)} is registered`)
    return found
  }

  // Domains -----------------------------------------------------------------------------------

  /** Every assigned domain. */
  async assignments(): Promise<Map<string, Assignment>> {
    const r = await this.pool.query('SELECT id, shard, previous_shard, state FROM va_domains')
    return new Map(r.rows.map((row) => [String(row.id), toAssignment(row)]))
  }

  /** One domain's assignment, or null when unassigned. */
  async assignment(domainId: string): Promise<Assignment | null> {
    const r = await this.pool.query('SELECT shard, previous_shard, state FROM va_domains WHERE id = $1', [
      domainId,
    ])
    return r.rows.length === 0 ? null : toAssignment(r.rows[0]!)
  }

  /** Analyses recorded per domain and shard (what rebalancing weighs). */
  async domainLoads(): Promise<Array<{ id: string; shard: string; analyses: number }>> {
    const r = await this.pool.query('SELECT id, shard, analyses FROM va_domains ORDER BY id')
    return r.rows.map((row) => ({
      id: String(row.id),
      shard: String(row.shard),
      analyses: Number(row.analyses),
    }))
  }

  // Keys --------------------------------------------------------------------------------------

  /** The active key stored under this hash, or null. */
  async keyByHash(hash: string): Promise<ApiKeyInfo | null> {
    const r = await this.pool.query('SELECT * FROM va_api_keys WHERE key_hash = $1 AND revoked_at IS NULL', [
      hash,
    ])
    return r.rows.length === 0 ? null : rowToKeyInfo(r.rows[0]!)
  }

  /** Creates a key for a team of the directory; the secret is returned once. */
  async createKey(params: CreateApiKeyParams): Promise<CreatedApiKey> {
    const { secret, hash, info } = newApiKey(params)
    const teams = [info.team_id, ...info.scope_team_ids]
    const known = await this.pool.query('SELECT id FROM va_teams WHERE id = ANY($1)', [teams])
    const missing = teams.filter((t) => !known.rows.some((row) => row.id === t))
    if (missing.length > 0) throw new Error(`unknown team ${missing[0]}`)
    await this.transaction(async (c) => {
      await c.query(
        `INSERT INTO va_api_keys (id, key_hash, prefix, team_id, scope_team_ids, allowed_domains, name, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          info.id,
          hash,
          info.prefix,
          info.team_id,
          JSON.stringify(info.scope_team_ids),
          info.allowed_domains === null ? null : JSON.stringify(info.allowed_domains),
          info.name,
          info.created_at,
        ],
      )
      await c.query('SELECT pg_notify($1, $2)', [DIRECTORY_CHANNEL, `key:${hash}`])
    })
    return { key: secret, info }
  }

  async listKeys(): Promise<ApiKeyInfo[]> {
    const r = await this.pool.query('SELECT * FROM va_api_keys ORDER BY created_at, id')
    return r.rows.map((row) => rowToKeyInfo(row))
  }

  /** Revokes a key and tells every shard (in the same transaction); false when unknown or revoked. */
  async revokeKey(id: string): Promise<{ revoked: boolean; hash: string | null }> {
    return this.transaction(async (c) => {
      const r = await c.query(
        'UPDATE va_api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING key_hash',
        [String(id).toLowerCase(), new Date().toISOString()],
      )
      if (r.rows.length === 0) return { revoked: false, hash: null }
      const hash = String(r.rows[0]!.key_hash)
      await c.query('SELECT pg_notify($1, $2)', [DIRECTORY_CHANNEL, `key:${hash}`])
      return { revoked: true, hash }
    })
  }

  // Settings ----------------------------------------------------------------------------------

  /**
   * A cluster-wide setting: its stored value, or `initial()` stored by whichever shard asks first
   * (every shard gets the same value, e.g. the cursor secret of docs/API.md "Answers").
   */
  async setting(name: string, initial: () => string): Promise<string> {
    await this.pool.query(
      'INSERT INTO va_cluster_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
      [name, initial()],
    )
    const r = await this.pool.query('SELECT value FROM va_cluster_settings WHERE name = $1', [name])
    return String(r.rows[0]!.value)
  }

  // Rate limit --------------------------------------------------------------------------------

  /**
   * Adds `delta` to a key's count in a window and returns the new count, or null when the key is
   * revoked or gone (one round trip, which also makes a revocation exact on every shard: a shard
   * whose cache has not yet heard the notification still refuses the key's next request).
   */
  async count(keyId: string, windowStart: number, delta: 1 | -1): Promise<number | null> {
    const r = await this.pool.query(
      `INSERT INTO va_rate_windows (key_id, window_start, used)
       SELECT $1, $2, greatest($3, 0) FROM va_api_keys WHERE id = $1 AND revoked_at IS NULL
       ON CONFLICT (key_id, window_start) DO UPDATE SET used = greatest(va_rate_windows.used + $3, 0)
       RETURNING used`,
      [keyId, windowStart, delta],
    )
    return r.rows.length === 0 ? null : Number(r.rows[0]!.used)
  }

  /** Drops the counters of windows that ended. */
  async pruneWindows(before: number): Promise<void> {
    await this.pool.query('DELETE FROM va_rate_windows WHERE window_start < $1', [before])
  }
}

function toAssignment(row: QueryResultRow): Assignment {
  return {
    shard: String(row.shard),
    previous: row.previous_shard == null ? null : String(row.previous_shard),
    state: row.state === 'moving' ? 'moving' : 'active',
  }
}
