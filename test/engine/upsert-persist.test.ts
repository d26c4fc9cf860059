/** Upserts (semantics.md 1.3), idempotent re-ingest, and file-backed stores that reopen. */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { describe, expect, it } from 'vitest'
import { openEngine, SCHEMA_VERSION } from '../../src/index.js'
import { analysis, base, COMPETITOR, DOMAIN, domain, NOW, prompt, team } from '../support/records.js'

const example = new URL('../../fixtures/spec-example/data.ndjson', import.meta.url).pathname
const all = async (engine: Awaited<ReturnType<typeof openEngine>>, domainId = DOMAIN) => ({
  prompts: await engine.computePromptSeries({ domainId, days: 30, now: NOW }),
  competitors: await engine.computeCompetitorSeries({ domainId, days: 30, now: NOW }),
  overview: await engine.computeSentimentOverview({ domainId, days: 30, now: NOW }),
  themes: await engine.computeSentimentThemes({ domainId, days: 30, now: NOW }),
})

describe('upserts', () => {
  it('ingesting the same file twice changes nothing', async () => {
    const engine = await openEngine()
    await engine.ingestFile(example)
    const stats = await engine.stats()
    const payloads = await all(engine)
    await engine.ingestFile(example)
    expect(await engine.stats()).toEqual(stats)
    expect(await all(engine)).toEqual(payloads)
    await engine.close()
  })

  it('re-ingesting an analysis replaces its mentions, citations and theme occurrences, and moves its day', async () => {
    const engine = await openEngine()
    const a = analysis({ answered_at: '2026-11-18T10:00:00Z' })
    await engine.ingest([...base(), a])
    const replaced = analysis({
      id: a.id.toUpperCase(),
      answered_at: '2026-11-19T10:00:00Z',
      mentions: [{ entity_id: COMPETITOR, position: 3, sentiment: 10 }],
      citations: [],
      themes: [],
    })
    await engine.ingest([replaced])
    const stats = await engine.stats()
    expect(stats).toMatchObject({ analyses: 1, mentions: 1, citations: 0, theme_occurrences: 0 })
    const { competitors, prompts, overview } = await all(engine)
    expect(competitors.data.items.map((i) => [i.name, i.series.map((d) => [d.date, d.mentions])])).toEqual([
      ['Acme', [['2026-11-19', 0]]],
      ['Globex', [['2026-11-19', 1]]],
    ])
    expect(prompts.data.items).toEqual([]) // no brand mention left
    expect(overview.data.total_mentions).toBe(0)
    await engine.close()
  })

  it('within one call the last record with an id wins', async () => {
    const engine = await openEngine()
    const a = analysis()
    await engine.ingest([
      ...base(),
      domain({ brand_name: 'First' }),
      a,
      { ...a, mentions: [] },
      domain({ id: DOMAIN.toUpperCase(), brand_name: 'Last' }),
    ])
    expect(await engine.stats()).toMatchObject({ domains: 1, analyses: 1, mentions: 0 })
    const { competitors } = await all(engine)
    expect(competitors.data.items[0]).toMatchObject({ name: 'Last', avg_mentions: 0 })
    await engine.close()
  })

  it('a changed website re-counts the citations of every stored day', async () => {
    const engine = await openEngine()
    await engine.ingest([
      ...base(),
      analysis({ citations: [{ url: 'https://globex.com/a' }, { url: 'https://acme.com/' }] }),
    ])
    const before = (await all(engine)).prompts.data.items[0]!.series[0]!.citations
    await engine.ingest([domain({ website: 'https://www.globex.com/' })])
    const after = (await all(engine)).prompts.data.items[0]!.series[0]!.citations
    expect([before, after]).toEqual([1, 1])
    await engine.ingest([domain({ website: null })])
    expect((await all(engine)).prompts.data.items[0]!.series[0]!.citations).toBe(0)
    await engine.close()
  })

  it('ids are stored and returned in lower case, and looked up in any case', async () => {
    const engine = await openEngine()
    await engine.ingest([
      team({ id: team().id.toUpperCase() }),
      domain({ id: DOMAIN.toUpperCase() }),
      prompt({ domain_id: DOMAIN.toUpperCase() }),
    ])
    const payload = await engine.computePromptSeries({ domainId: DOMAIN.toUpperCase(), now: NOW })
    expect(payload.domain_id).toBe(DOMAIN)
    expect(await engine.getDomain(DOMAIN.toUpperCase())).toMatchObject({ id: DOMAIN, team_id: team().id })
    await engine.close()
  })
})

describe('file-backed stores', () => {
  it('reopen with all their data and a schema version', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'va-persist-')), 'store.duckdb')
    const first = await openEngine({ path })
    await first.ingestFile(example)
    const payloads = await all(first, '5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c')
    const stats = await first.stats()
    await first.close()

    const second = await openEngine({ path, readOnly: true })
    expect(await second.stats()).toEqual(stats)
    expect(await all(second, '5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c')).toEqual(payloads)
    await expect(second.ingest([])).rejects.toThrow(/read-only/)
    await second.close()

    const db = await DuckDBInstance.create(path)
    const conn = await db.connect()
    const version = (
      await conn.runAndReadAll("SELECT value FROM meta WHERE key = 'schema_version'")
    ).getRows()
    expect(version).toEqual([[String(SCHEMA_VERSION)]])
    await conn.run("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    conn.closeSync()
    db.closeSync()
    await expect(openEngine({ path })).rejects.toThrow(
      `schema version 999; this release reads up to ${SCHEMA_VERSION}`,
    )
  })

  it('refuses a second open of the same file in one process', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'va-persist-')), 'store.duckdb')
    const engine = await openEngine({ path })
    await expect(openEngine({ path })).rejects.toThrow(/already open in this process/)
    await engine.close()
    const again = await openEngine({ path })
    await again.close()
  })
})
