/**
 * The demo's API key, kept beside the demo database (`<db>.demo-key`, mode 0600) so that it
 * survives restarts: saved curl lines and MCP client configurations keep working. `rotate`
 * revokes it and writes a new one.
 */
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import type { Engine } from '../types.js'

/** The name the demo key is created with (what `keys list` shows). */
export const DEMO_KEY_NAME = 'demo'

/**
 * The file the demo key of the database at `dbPath` is kept in.
 * @example
 * demoKeyFile('data/demo.duckdb') // 'data/demo.duckdb.demo-key'
 */
export const demoKeyFile = (dbPath: string): string => `${dbPath}.demo-key`

export interface DemoKey {
  /** The secret. */
  key: string
  /** Where it is kept. */
  file: string
  /** True when it was created now (first start, a lost or revoked key, or `rotate`). */
  created: boolean
}

function readKept(file: string): string | null {
  if (!existsSync(file)) return null
  const secret = readFileSync(file, 'utf8').trim()
  return secret === '' ? null : secret
}

/** Writes the secret whole (a temp file renamed into place), readable by its owner only. */
function keep(file: string, secret: string): void {
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(tmp, `${secret}\n`, { mode: 0o600 })
  chmodSync(tmp, 0o600)
  renameSync(tmp, file)
}

/**
 * The demo key of the database at `dbPath`: the kept one while the store still accepts it, else a
 * new key for `teamIds[0]` scoped to every demo team (and the earlier demo keys revoked). `rotate`
 * always makes a new one.
 * @example
 * const { key, created } = await demoKey(engine, 'data/demo.duckdb', seed.teamIds, { rotate: false })
 */
export async function demoKey(
  engine: Pick<Engine, 'verifyApiKey' | 'listApiKeys' | 'revokeApiKey' | 'createApiKey'>,
  dbPath: string,
  teamIds: readonly string[],
  options: { rotate: boolean },
): Promise<DemoKey> {
  const file = demoKeyFile(dbPath)
  const kept = options.rotate ? null : readKept(file)
  const info = kept === null ? null : await engine.verifyApiKey(kept)
  const valid =
    info !== null && info.name === DEMO_KEY_NAME && teamIds.every((id) => info.scope_team_ids.includes(id))
  for (const old of await engine.listApiKeys()) {
    const current = valid && old.id === info.id
    if (old.name === DEMO_KEY_NAME && old.revoked_at === null && !current) await engine.revokeApiKey(old.id)
  }
  if (valid) {
    chmodSync(file, 0o600)
    return { key: kept!, file, created: false }
  }
  const { key } = await engine.createApiKey({
    teamId: teamIds[0]!,
    scopeTeamIds: [...teamIds],
    name: DEMO_KEY_NAME,
  })
  keep(file, key)
  return { key, file, created: true }
}
