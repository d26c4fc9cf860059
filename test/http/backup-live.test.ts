/**
 * Backups taken back to back while the server serves and ingests (POST /internal/v1/backup over a
 * hardened file engine, ingest calls running one after another the whole time): each holds whole
 * calls, those finished before it started and at most those finished when it ended (every table
 * at the same call); one during which a call finished is restored, and the restored
 * database gives every payload of every domain, and every key the same access, as a database
 * built from those calls alone.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { authorizeDomain } from '../../src/api/index.js'
import { buildServer } from '../../src/http/index.js'
import { openEngine, restoreBackup, type AnalysisInputRecord, type Engine } from '../../src/index.js'
import { dimRecords, makeAnalyses, makeDims, toNdjson, uuid } from '../support/generate.js'
import { analysis, domain, prompt } from '../support/records.js'
import { ADMIN_TOKEN } from './helpers.js'

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` }
const dims = makeDims(11, { teams: 3, domainsPerTeam: 2 })
const BASE_ANALYSES = 300
const PER_CALL = 40
const CALLS = 14

/** Call `i` (from 1): a new domain of team i % 3 with a prompt and two analyses, and 40 analyses of the others. */
function call(i: number): AnalysisInputRecord[] {
  const domainId = uuid(0xd1, i)
  const promptId = uuid(0x9b, i)
  const team = dims.teams[i % dims.teams.length]!.id
  const own = [0, 1].map((n) =>
    analysis({
      id: uuid(0xa1, i * 10 + n),
      domain_id: domainId,
      prompt_id: promptId,
      answered_at: `2026-03-${10 + n}T12:00:00Z`,
      mentions: [{ entity_id: 'brand', position: 1 + n, sentiment: 40 }],
      citations: [{ url: `https://new${i}.example/a` }],
      themes: [],
    }),
  )
  return [
    domain({ id: domainId, team_id: team, brand_name: `New ${i}`, website: `new${i}.example` }),
    prompt({ id: promptId, domain_id: domainId, text: `prompt ${i}` }),
    ...own,
    ...makeAnalyses(11, dims, i + 1, PER_CALL - own.length),
  ]
}
const base = () => [...dimRecords(dims), ...makeAnalyses(11, dims, 0, BASE_ANALYSES)]
const allDomains = [
  ...dims.domains.map((d) => d.id),
  ...Array.from({ length: CALLS }, (_, i) => uuid(0xd1, i + 1)),
]

async function everyPayload(e: Engine) {
  const out: unknown[] = []
  for (const domainId of allDomains) {
    for (const days of [7, 30, 90]) {
      const p = { domainId, days, now: '2026-04-01T00:00:00Z' }
      out.push(
        await e.computePromptSeries(p).catch((x: Error) => x.name),
        await e.computeCompetitorSeries(p).catch((x: Error) => x.name),
        await e.computeSentimentOverview(p).catch((x: Error) => x.name),
        await e.computeSentimentThemes({ ...p, model: 'chatgpt' }).catch((x: Error) => x.name),
      )
    }
  }
  return out
}

describe('backup under concurrent ingest', () => {
  it('each holds the calls committed before it; one written while a call was stored, restored, gives every payload and key access', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'va-live-'))
    const path = join(dir, 'served.duckdb')
    const writer = await openEngine({ path })
    await writer.ingest(base())
    const [t0, t1, t2] = dims.teams.map((t) => t.id) as [string, string, string]
    const secrets = [
      (await writer.createApiKey({ teamId: t0 })).key,
      (await writer.createApiKey({ teamId: t1, name: 'other team' })).key,
      (
        await writer.createApiKey({
          teamId: t0,
          scopeTeamIds: [t0, t2],
          allowedDomains: [dims.domains[0]!.id, uuid(0xd1, 2)],
        })
      ).key,
      (await writer.createApiKey({ teamId: t2, scopeTeamIds: [t2, t1] })).key,
    ]
    const revoked = await writer.createApiKey({ teamId: t1 })
    await writer.revokeApiKey(revoked.info.id)
    secrets.push(revoked.key)
    await writer.close()

    const served = await openEngine({ path, hardened: true })
    const app = await buildServer({
      engine: served,
      adminToken: ADMIN_TOKEN,
      backupDir: join(dir, 'backups'),
      logger: false,
      rateLimit: { limit: 100_000, windowSeconds: 60 },
    })
    const ingest = (i: number) =>
      app.inject({
        method: 'POST',
        url: '/internal/v1/ingest',
        payload: toNdjson(call(i)),
        headers: { ...admin, 'content-type': 'application/x-ndjson' },
      })
    // Backups are taken back to back while the calls go in, each noting how many calls had
    // finished when it started and when it ended: an ingest call finishing while a backup is being
    // written is then a matter of order, not of timing (one backup alone may fit between two calls).
    const during = { backup: true, reports: 0 }
    let stored = 0
    let ingestDone = false
    const ingesting = (async () => {
      try {
        for (let i = 1; i <= CALLS; i++) {
          expect((await ingest(i)).statusCode).toBe(200)
          stored = i
        }
      } finally {
        ingestDone = true
      }
    })()
    while (stored < 3 && !ingestDone) await new Promise((r) => setTimeout(r, 5))
    const reading = (async () => {
      while (during.backup) {
        const res = await app.inject({
          url: `/api/v1/competitor-time-series?domain_id=${dims.domains[1]!.id}&days=${1 + (during.reports % 30)}`,
          headers: { authorization: `Bearer ${secrets[0]}` },
        })
        expect(res.statusCode).toBe(200)
        during.reports++
        await new Promise((r) => setTimeout(r, 10))
      }
    })()
    type Taken = { dir: string; tables: Record<string, number>; before: number; after: number }
    const backups: Taken[] = []
    while (!ingestDone) {
      const before = stored
      const res = await app.inject({ method: 'POST', url: '/internal/v1/backup', headers: admin })
      expect(res.statusCode).toBe(201)
      const { manifest, dir } = res.json() as { dir: string; manifest: { tables: Record<string, number> } }
      backups.push({ dir, tables: manifest.tables, before, after: stored })
    }
    during.backup = false
    await Promise.all([ingesting, reading])
    // The server served while backups were written.
    expect(during.reports).toBeGreaterThan(0)
    // Each backup holds whole calls: at least those finished when it started, at most those finished
    // when it ended.
    const callsOf = (b: Taken) => (b.tables.analyses! - BASE_ANALYSES) / PER_CALL
    for (const b of backups) {
      expect(Number.isInteger(callsOf(b))).toBe(true)
      expect(callsOf(b)).toBeGreaterThanOrEqual(b.before)
      expect(callsOf(b)).toBeLessThanOrEqual(b.after)
    }
    // The server stored while a backup was written: an ingest call finished during one of them.
    // (The one restored below holds some calls but not all of them.)
    const overlapped = backups.find((b) => b.after > b.before && callsOf(b) < CALLS)
    expect(
      overlapped,
      `${backups.length} backups, none with an ingest call finishing during it`,
    ).toBeDefined()
    const { dir: backupDir, tables } = overlapped!
    const calls = callsOf(overlapped!)
    expect(calls).toBeGreaterThanOrEqual(3)
    expect(calls).toBeLessThan(CALLS)
    expect(tables).toMatchObject({
      domains: dims.domains.length + calls,
      prompts: dims.prompts.length + calls,
      api_keys: 5,
    })

    const restoredPath = join(dir, 'restored.duckdb')
    await restoreBackup({ from: backupDir, path: restoredPath })
    const restored = await openEngine({ path: restoredPath, readOnly: true })
    const expected = await openEngine()
    await expected.ingest(base())
    for (let i = 1; i <= calls; i++) await expected.ingest(call(i))
    try {
      expect(await everyPayload(restored)).toEqual(await everyPayload(expected))

      const restoredApp = await buildServer({
        engine: restored,
        logger: false,
        rateLimit: { limit: 100_000, windowSeconds: 60 },
      })
      for (const secret of secrets) {
        const info = await restored.verifyApiKey(secret)
        expect(info).toEqual(await served.verifyApiKey(secret))
        for (const domainId of allDomains) {
          const res = await restoredApp.inject({
            url: `/api/v1/sentiment/overview?domain_id=${domainId}&days=30`,
            headers: { authorization: `Bearer ${secret}` },
          })
          const access =
            info === null ? { status: 401 } : await authorizeDomain(expected, info, 'sentiment', domainId)
          expect(res.statusCode, `${secret.slice(0, 12)} ${domainId}`).toBe(
            'status' in access ? access.status : 200,
          )
        }
      }
      await restoredApp.close()
    } finally {
      await app.close()
      for (const e of [served, restored, expected]) await e.close()
    }
  }, 120_000)
})
