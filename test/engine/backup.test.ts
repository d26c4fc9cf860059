/**
 * Backups and restore (engine.backup, restoreBackup): the directory's contents and manifest, a
 * restore that gives every payload and every key back, the checks that refuse a damaged backup or
 * an existing target, and a target that cannot be written (clear error, nothing left behind).
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs'
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openEngine, restoreBackup, ValidationError, type Engine } from '../../src/index.js'
import { dimRecords, makeAnalyses, makeDims } from '../support/generate.js'
import { NOW } from '../support/records.js'
import { SCHEMA_VERSION } from '../../src/db/migrate.js'

const dims = makeDims(7, { teams: 2, domainsPerTeam: 2 })
const records = () => [...dimRecords(dims), ...makeAnalyses(7, dims, 1, 120)]

/** Every payload of every domain for a few windows and filters. */
export async function everyPayload(e: Engine, domainIds: string[]) {
  const out: unknown[] = []
  for (const domainId of domainIds) {
    for (const days of [1, 7, 30, 365]) {
      const p = { domainId, days, now: NOW }
      out.push(
        await e.computePromptSeries(p).catch((x: Error) => x.name),
        await e.computeCompetitorSeries(p).catch((x: Error) => x.name),
        await e.computeCompetitorSeries({ ...p, model: 'chatgpt' }).catch((x: Error) => x.name),
        await e.computeSentimentOverview(p).catch((x: Error) => x.name),
        await e.computeSentimentThemes({ ...p, model: 'perplexity' }).catch((x: Error) => x.name),
      )
    }
  }
  return out
}

const tmp = () => mkdtempSync(join(tmpdir(), 'va-backup-'))

/** What another process gets when it opens the database file: 'opened', or DuckDB's error. */
async function openFromAnotherProcess(path: string): Promise<string> {
  const script =
    "import('@duckdb/node-api').then((m) => m.DuckDBInstance.create(process.argv[1]))" +
    ".then(() => console.log('opened'), (e) => console.log(e.message))"
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script, path], {
    cwd: new URL('../..', import.meta.url).pathname,
  })
  return stdout.trim()
}
const domainIds = dims.domains.map((d) => d.id)

let engine: Engine
let keys: { active: string; revoked: string; scoped: string }
beforeEach(async () => {
  engine = await openEngine()
  await engine.ingest(records())
  const team = dims.teams[0]!.id
  const active = await engine.createApiKey({ teamId: team, name: 'active' })
  const revoked = await engine.createApiKey({ teamId: team, name: 'revoked' })
  await engine.revokeApiKey(revoked.info.id)
  const scoped = await engine.createApiKey({
    teamId: team,
    scopeTeamIds: [team, dims.teams[1]!.id],
    allowedDomains: [domainIds[0]!, domainIds[3]!],
  })
  keys = { active: active.key, revoked: revoked.key, scoped: scoped.key }
})
afterEach(() => engine.close())

describe('backup', () => {
  it('writes the export, the keys as hashes and a manifest with row counts and a SHA-256 per file', async () => {
    const dir = join(tmp(), 'b1')
    const { manifest } = await engine.backup(dir)
    expect(manifest).toMatchObject({
      format: 'visibility-analytics/backup',
      schema_version: SCHEMA_VERSION,
      domain_ids: null,
      tables: { teams: 2, domains: 4, analyses: 120, api_keys: 3 },
    })
    const onDisk = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
      .filter((f) => f !== 'manifest.json')
      .sort()
    expect(Object.keys(manifest.files).sort()).toEqual(onDisk)
    expect(onDisk).toContain('api_keys.parquet')
    for (const [file, { bytes, sha256 }] of Object.entries(manifest.files)) {
      const content = readFileSync(join(dir, file))
      expect(content.length).toBe(bytes)
      expect(createHash('sha256').update(content).digest('hex')).toBe(sha256)
    }
    const keyFile = readFileSync(join(dir, 'api_keys.parquet'))
    for (const secret of Object.values(keys)) expect(keyFile.includes(secret)).toBe(false)
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))).toEqual(manifest)
  })

  it('restore builds a new database with every payload, every key and its access, revocations kept', async () => {
    const dir = join(tmp(), 'b2')
    await engine.backup(dir)
    const path = join(tmp(), 'restored.duckdb')
    const r = await restoreBackup({ from: dir, path })
    expect(r.tables).toMatchObject({ teams: 2, domains: 4, analyses: 120, api_keys: 3 })
    const restored = await openEngine({ path, readOnly: true })
    try {
      expect(await everyPayload(restored, domainIds)).toEqual(await everyPayload(engine, domainIds))
      expect(await restored.listApiKeys()).toEqual(await engine.listApiKeys())
      for (const secret of Object.values(keys))
        expect(await restored.verifyApiKey(secret)).toEqual(await engine.verifyApiKey(secret))
      expect(await restored.verifyApiKey(keys.revoked)).toBeNull()
      expect((await restored.computeDomainList()).data).toEqual((await engine.computeDomainList()).data)
    } finally {
      await restored.close()
    }
  })

  it('a served (hardened) file engine is backed up from a copy of its file', async () => {
    const path = join(tmp(), 'served.duckdb')
    const writer = await openEngine({ path })
    await writer.ingest(records())
    await writer.close()
    const served = await openEngine({ path, hardened: true })
    try {
      const dir = join(tmp(), 'b3')
      const { manifest } = await served.backup(dir)
      expect(manifest.tables).toMatchObject({ analyses: 120, api_keys: 0 })
      expect(readdirSync(join(dir, '..'))).toEqual(['b3']) // the copy is gone
      // The copy must not cost the served file its lock (closing a descriptor of it in this
      // process would): another process still cannot open it.
      expect(await openFromAnotherProcess(path)).toMatch(/Could not set lock on file/)
      const back = join(tmp(), 'back.duckdb')
      await restoreBackup({ from: dir, path: back })
      const restored = await openEngine({ path: back, readOnly: true })
      expect(await everyPayload(restored, domainIds)).toEqual(await everyPayload(served, domainIds))
      await restored.close()
    } finally {
      await served.close()
    }
  })
})

describe('refusals: clear errors, nothing changed', () => {
  const refused = async (run: () => Promise<unknown>, message: RegExp) => {
    const error = await run().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as Error).message).toMatch(message)
  }

  it('a backup into a directory that is not empty, or under a file', async () => {
    const root = tmp()
    mkdirSync(join(root, 'full'))
    writeFileSync(join(root, 'full', 'x'), 'x')
    await refused(() => engine.backup(join(root, 'full')), /the directory is not empty/)
    writeFileSync(join(root, 'file'), 'x')
    await refused(
      () => engine.backup(join(root, 'file', 'b')),
      /cannot write the backup to .*: a parent is not a directory/,
    )
    expect(readdirSync(root).sort()).toEqual(['file', 'full'])
  })

  it('a backup into a directory that cannot be written', async () => {
    // Root writes through file modes: use a file system that refuses it (sysfs) when running as root.
    const root = tmp()
    const target = process.getuid?.() === 0 ? '/sys/va-backup-test/b' : join(root, 'locked', 'b')
    if (process.getuid?.() !== 0) {
      mkdirSync(join(root, 'locked'))
      chmodSync(join(root, 'locked'), 0o555)
    }
    await refused(() => engine.backup(target), /cannot write the backup to .*: (permission denied|read-only)/)
    expect(existsSync(target)).toBe(false)
  })

  it('a restore from a damaged backup, or onto an existing file', async () => {
    const dir = join(tmp(), 'b')
    const { manifest } = await engine.backup(dir)
    const path = join(tmp(), 'r.duckdb')
    const analysesFile = Object.keys(manifest.files).find((f) => f.startsWith('analyses/'))!
    const original = readFileSync(join(dir, analysesFile))
    writeFileSync(join(dir, analysesFile), Buffer.concat([original, Buffer.from('x')]))
    await refused(() => restoreBackup({ from: dir, path }), /analyses\/.* does not match its checksum/)
    writeFileSync(join(dir, analysesFile), original)
    writeFileSync(join(dir, 'extra.parquet'), 'x')
    await refused(() => restoreBackup({ from: dir, path }), /extra.parquet is not listed in manifest.json/)
    expect(existsSync(path)).toBe(false)
    await refused(() => restoreBackup({ from: tmp(), path }), /manifest.json is missing or not JSON/)
    writeFileSync(path, 'x')
    await refused(() => restoreBackup({ from: join(tmp(), 'nope'), path }), /no such directory/)
  })

  it('a restore onto an existing database', async () => {
    const dir = join(tmp(), 'b')
    await engine.backup(dir)
    const path = join(tmp(), 'exists.duckdb')
    writeFileSync(path, 'x')
    await refused(() => restoreBackup({ from: dir, path }), /exists: restore builds a new database/)
    expect(readFileSync(path, 'utf8')).toBe('x')
  })
})
