/** Serving mode: queries work, nothing reaches the file system through DuckDB, keys are hashed. */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { EngineClosedError, openEngine } from '../../src/index.js'

const example = new URL('../../fixtures/spec-example/data.ndjson', import.meta.url).pathname
const DOMAIN = '5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c'
const TEAM = '0a9c2f4e-1b7d-4c3a-9e8f-5d6b7a8c9d01'

// Its own DuckDB cannot touch files (every escape: test/reliability/sql-safety.test.ts); an export
// of a served file is written by a separate reader over a copy of it (what a cluster move needs).
it('a hardened engine ingests NDJSON and computes; its export is read from a copy of its file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'va-hard-'))
  const engine = await openEngine({ path: join(dir, 'store.duckdb'), hardened: true })
  await engine.ingestFile(example)
  const overview = await engine.computeSentimentOverview({
    domainId: DOMAIN,
    days: 7,
    now: '2026-11-20T15:00:00Z',
  })
  expect(overview.data).toEqual({ positive_percent: 50, negative_percent: 50, total_mentions: 7 })
  await expect(engine.exportParquet(join(dir, 'out'))).resolves.toMatchObject({
    tables: { analyses: 6, mentions: 9, citations: 4 },
  })
  expect(overview).toEqual(
    await engine.computeSentimentOverview({ domainId: DOMAIN, days: 7, now: '2026-11-20T15:00:00Z' }),
  )
  await engine.close()
})

it('API keys: shown once, stored as a SHA-256 hash, verified, revoked', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'va-keys-'))
  const path = join(dir, 'store.duckdb')
  const engine = await openEngine({ path, hardened: true })
  await engine.ingestFile(example)
  const { key, info } = await engine.createApiKey({ teamId: TEAM.toUpperCase(), allowedDomains: [DOMAIN] })
  expect(key).toMatch(/^va_live_[A-Za-z0-9_-]{32}$/)
  expect(info).toMatchObject({
    team_id: TEAM,
    scope_team_ids: [TEAM],
    allowed_domains: [DOMAIN],
    revoked_at: null,
  })
  expect(await engine.verifyApiKey(key)).toEqual(info)
  expect(await engine.verifyApiKey(`${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`)).toBeNull()
  expect(await engine.verifyApiKey('Bearer nonsense')).toBeNull()
  expect(await engine.listApiKeys()).toEqual([info])
  expect(await engine.revokeApiKey(info.id)).toBe(true)
  expect(await engine.verifyApiKey(key)).toBeNull()
  expect(await engine.revokeApiKey(info.id)).toBe(false)
  await engine.close()
  const bytes =
    readFileSync(path).toString('latin1') + readFileSync(`${path}.wal`, { flag: 'a+' }).toString('latin1')
  expect(bytes.includes(key)).toBe(false)
  await expect(engine.computeDomainList()).rejects.toBeInstanceOf(EngineClosedError)
})
