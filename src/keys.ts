/**
 * @module API keys: secrets are generated here, DuckDB stores only their SHA-256, and verification
 * is a lookup of the presented secret's full SHA-256 in an in-memory index of the active keys.
 *
 * Every refusal costs the same: one hash and one missed map lookup, whatever the secret looks like
 * (an unknown prefix, a known prefix with a wrong secret, a revoked key, no prefix at all). The
 * index is loaded once at open and updated synchronously after each create or revoke is written,
 * so a new key works and a revoked one is refused from the very next call, with no cache window.
 */
import * as crypto from 'node:crypto'
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { DuckDBConnection } from '@duckdb/node-api'
import { sqlText } from './db/sql.js'
import { ValidationError } from './errors.js'
import { UUID_RE } from './schemas/records.js'
import type { ApiKeyInfo, CreateApiKeyParams, CreatedApiKey } from './types.js'

/** The start of every secret this release creates. */
export const KEY_PREFIX = 'va_live_'
/** Longer presented secrets are refused without hashing (ours are 40 characters). */
const MAX_SECRET_LENGTH = 1024

/** Runs `fn` on a connection: the engine's write connection under its write lock, or a reader. */
export type UseConnection = <T>(fn: (conn: DuckDBConnection) => Promise<T>) => Promise<T>

/** An active key as loaded from the store: its public fields and the SHA-256 (hex) of its secret. */
export interface StoredApiKey {
  info: ApiKeyInfo
  hash: string
}

/** One-shot SHA-256 (Node >= 20.12: no Hash object per call, about half the time), else a Hash. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash

function hashKey(secret: string): string {
  return oneShot !== undefined
    ? oneShot('sha256', secret, 'hex')
    : createHash('sha256').update(secret, 'utf8').digest('hex')
}

/**
 * The SHA-256 (hex) under which a presented secret would be stored, or null for a value no key
 * can have; the same work for every string of acceptable length.
 * @example
 * const hash = apiKeyHash(token) // look it up in any store of key hashes
 */
export function apiKeyHash(secret: unknown): string | null {
  if (typeof secret !== 'string' || secret.length > MAX_SECRET_LENGTH) return null
  return hashKey(secret)
}

/**
 * A new key: its checked fields, its secret (to hand out once) and the hash to store.
 * @example
 * const { secret, hash, info } = newApiKey({ teamId })
 */
export function newApiKey(params: CreateApiKeyParams): { secret: string; hash: string; info: ApiKeyInfo } {
  const uuid = (v: unknown, path: string): string => {
    if (typeof v !== 'string' || !UUID_RE.test(v))
      throw new ValidationError([{ path, message: `${path} must be a UUID.` }])
    return v.toLowerCase()
  }
  const teamId = uuid(params.teamId, 'team_id')
  const scope = (params.scopeTeamIds ?? [teamId]).map((t) => uuid(t, 'scope_team_id'))
  const allowed =
    params.allowedDomains == null ? null : params.allowedDomains.map((d) => uuid(d, 'allowed_domain'))
  const secret = KEY_PREFIX + randomBytes(24).toString('base64url')
  const info: ApiKeyInfo = {
    id: randomUUID(),
    prefix: secret.slice(0, KEY_PREFIX.length + 4),
    team_id: teamId,
    scope_team_ids: [...new Set(scope.length ? scope : [teamId])],
    allowed_domains: allowed === null ? null : [...new Set(allowed)],
    name: params.name ?? null,
    created_at: new Date().toISOString(),
    revoked_at: null,
  }
  return { secret, hash: hashKey(secret), info }
}

function frozen(info: ApiKeyInfo): ApiKeyInfo {
  return Object.freeze({
    ...info,
    scope_team_ids: Object.freeze([...info.scope_team_ids]) as string[],
    allowed_domains:
      info.allowed_domains === null ? null : (Object.freeze([...info.allowed_domains]) as string[]),
  })
}

/** An API key row (DuckDB's or the cluster control plane's) as the key it describes. */
export function rowToKeyInfo(row: Record<string, unknown>): ApiKeyInfo {
  return {
    id: String(row.id),
    prefix: String(row.prefix),
    team_id: String(row.team_id),
    scope_team_ids: (row.scope_team_ids as string[]).map(String),
    allowed_domains: row.allowed_domains == null ? null : (row.allowed_domains as string[]).map(String),
    name: row.name == null ? null : String(row.name),
    created_at: String(row.created_at),
    revoked_at: row.revoked_at == null ? null : String(row.revoked_at),
  }
}

/**
 * Reads the active keys of a store (called once when an engine opens).
 * @example
 * const keys = new ApiKeys(await loadActiveApiKeys(conn), { write, read })
 */
export async function loadActiveApiKeys(conn: DuckDBConnection): Promise<StoredApiKey[]> {
  const rows = (await conn.runAndReadAll(sqlText('keys/load_active_api_keys'))).getRowObjectsJson()
  return rows.map((row) => ({ info: rowToKeyInfo(row), hash: String(row.key_hash) }))
}

/**
 * The keys of one open engine.
 * @example
 * const keys = new ApiKeys(await loadActiveApiKeys(conn), { write, read })
 * const { key } = await keys.create({ teamId })
 * keys.verify(key) // ApiKeyInfo
 */
export class ApiKeys {
  /** Active keys by the SHA-256 (hex) of their secret. */
  readonly #byHash = new Map<string, ApiKeyInfo>()
  readonly #hashById = new Map<string, string>()
  readonly #write: UseConnection
  readonly #read: UseConnection

  constructor(active: StoredApiKey[], access: { write: UseConnection; read: UseConnection }) {
    for (const { info, hash } of active) this.#index(hash, info)
    this.#write = access.write
    this.#read = access.read
  }

  #index(hash: string, info: ApiKeyInfo): void {
    this.#byHash.set(hash, frozen(info))
    this.#hashById.set(info.id, hash)
  }

  /** The active key whose secret this is, or null; the same work for every refusal. */
  verify(secret: unknown): ApiKeyInfo | null {
    const hash = apiKeyHash(secret)
    return hash === null ? null : (this.#byHash.get(hash) ?? null)
  }

  /** Creates a key (the secret is returned once); it verifies as soon as this resolves. */
  async create(params: CreateApiKeyParams): Promise<CreatedApiKey> {
    const { secret, hash, info } = newApiKey(params)
    await this.#write((conn) =>
      conn.run(sqlText('keys/insert_api_key'), {
        id: info.id,
        prefix: info.prefix,
        key_hash: hash,
        team_id: info.team_id,
        scope: JSON.stringify(info.scope_team_ids),
        allowed: info.allowed_domains === null ? null : JSON.stringify(info.allowed_domains),
        name: info.name,
        created_at: info.created_at,
      }),
    )
    this.#index(hash, info)
    return { key: secret, info }
  }

  /** Every key, revoked ones included, oldest first (never a secret or hash). */
  async list(): Promise<ApiKeyInfo[]> {
    const rows = await this.#read(async (conn) =>
      (await conn.runAndReadAll(sqlText('keys/list_api_keys'))).getRowObjectsJson(),
    )
    return rows.map(rowToKeyInfo)
  }

  /** Drops the keys of deleted teams from the index (their rows went in the same transaction). */
  forgetTeams(teamIds: readonly string[]): void {
    if (teamIds.length === 0) return
    const teams = new Set(teamIds)
    for (const [hash, info] of this.#byHash) {
      if (!teams.has(info.team_id)) continue
      this.#byHash.delete(hash)
      this.#hashById.delete(info.id)
    }
  }

  /** Revokes a key; it is refused as soon as this resolves. False when unknown or already revoked. */
  async revoke(id: string): Promise<boolean> {
    if (typeof id !== 'string' || !UUID_RE.test(id)) return false
    const keyId = id.toLowerCase()
    // Refused from now on, even by requests verified while the update is being written.
    const hash = this.#hashById.get(keyId)
    const info = hash === undefined ? undefined : this.#byHash.get(hash)
    if (hash !== undefined) {
      this.#byHash.delete(hash)
      this.#hashById.delete(keyId)
    }
    try {
      const r = await this.#write((conn) =>
        conn.run(sqlText('keys/revoke_api_key'), { id: keyId, revoked_at: new Date().toISOString() }),
      )
      return r.rowsChanged > 0
    } catch (e) {
      if (hash !== undefined && info !== undefined) this.#index(hash, info)
      throw e
    }
  }
}
