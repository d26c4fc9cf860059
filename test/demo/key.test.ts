/**
 * The demo key survives restarts: kept beside the database in a 0600 file, accepted again after the
 * engine is reopened; `rotate` (serve --demo --new-key) revokes it; a lost file or a revoked key
 * gives a new one and leaves one active demo key.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DEMO_KEY_NAME, demoKey, demoKeyFile, demoTeamId } from '../../src/demo/index.js'
import { openEngine, type Engine } from '../../src/index.js'

const dir = mkdtempSync(join(tmpdir(), 'va-demo-key-'))
const db = join(dir, 'demo.duckdb')
const teams = [demoTeamId(0), demoTeamId(1)]
const mode = (file: string) => statSync(file).mode & 0o777
const activeDemoKeys = async (engine: Engine) =>
  (await engine.listApiKeys()).filter((k) => k.name === DEMO_KEY_NAME && k.revoked_at === null)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('demo key', () => {
  it('is kept in <db>.demo-key (0600), valid after a restart, rotated on request', async () => {
    let engine = await openEngine({ path: db })
    const first = await demoKey(engine, db, teams, { rotate: false })
    expect(first).toMatchObject({ created: true, file: demoKeyFile(db) })
    expect(first.file).toBe(`${db}.demo-key`)
    expect(mode(first.file)).toBe(0o600)
    expect(readFileSync(first.file, 'utf8').trim()).toBe(first.key)
    expect((await engine.verifyApiKey(first.key))?.scope_team_ids).toEqual(teams)
    await engine.close()

    // A restart: the same key, still accepted, no second demo key.
    engine = await openEngine({ path: db })
    const again = await demoKey(engine, db, teams, { rotate: false })
    expect(again).toEqual({ key: first.key, file: first.file, created: false })
    expect(await engine.verifyApiKey(first.key)).not.toBeNull()
    expect(await activeDemoKeys(engine)).toHaveLength(1)

    // --new-key: a new key, the old one revoked.
    const rotated = await demoKey(engine, db, teams, { rotate: true })
    expect(rotated.created).toBe(true)
    expect(rotated.key).not.toBe(first.key)
    expect(await engine.verifyApiKey(first.key)).toBeNull()
    expect(await engine.verifyApiKey(rotated.key)).not.toBeNull()
    expect(readFileSync(rotated.file, 'utf8').trim()).toBe(rotated.key)
    expect(mode(rotated.file)).toBe(0o600)
    expect(await activeDemoKeys(engine)).toHaveLength(1)
    await engine.close()
  })

  it('a lost file or a key revoked elsewhere gives a new key; loose permissions are tightened', async () => {
    const engine = await openEngine({ path: db })
    try {
      const kept = await demoKey(engine, db, teams, { rotate: false })
      chmodSync(kept.file, 0o644)
      expect((await demoKey(engine, db, teams, { rotate: false })).created).toBe(false)
      expect(mode(kept.file)).toBe(0o600)

      rmSync(kept.file)
      const fresh = await demoKey(engine, db, teams, { rotate: false })
      expect(fresh.created).toBe(true)
      expect(await engine.verifyApiKey(kept.key)).toBeNull()

      await engine.revokeApiKey((await engine.verifyApiKey(fresh.key))!.id)
      const replaced = await demoKey(engine, db, teams, { rotate: false })
      expect(replaced.created).toBe(true)
      expect(await engine.verifyApiKey(replaced.key)).not.toBeNull()

      writeFileSync(replaced.file, 'va_live_not-a-key\n', { mode: 0o600 })
      const afterJunk = await demoKey(engine, db, teams, { rotate: false })
      expect(afterJunk.created).toBe(true)
      expect(await engine.verifyApiKey(replaced.key)).toBeNull()
      expect(await activeDemoKeys(engine)).toHaveLength(1)
    } finally {
      await engine.close()
    }
  })
})
