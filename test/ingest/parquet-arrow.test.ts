/** Parquet export and import, openEngine({ parquet }), and Arrow ingest (issue 5's engine part). */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tableFromArrays, tableFromJSON } from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { IngestError, openEngine, SCHEMA_VERSION, type Engine } from '../../src/index.js'
import { analysis, base, DOMAIN, domain, OTHER_DOMAIN, NOW, prompt, team, THEME } from '../support/records.js'

const example = new URL('../../fixtures/spec-example/data.ndjson', import.meta.url).pathname
const EXAMPLE_DOMAIN = '5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c'
const tmp = () => mkdtempSync(join(tmpdir(), 'va-parquet-'))

async function payloads(engine: Engine, domainId: string) {
  const out: unknown[] = []
  for (const days of [1, 7, 30, 60]) {
    out.push(await engine.computePromptSeries({ domainId, days, now: NOW }))
    for (const model of ['all', 'chatgpt'])
      out.push(await engine.computeCompetitorSeries({ domainId, days, now: NOW, model }))
    for (const model of ['all', 'gpt-5']) {
      out.push(await engine.computeSentimentOverview({ domainId, days, now: NOW, model }))
      out.push(await engine.computeSentimentThemes({ domainId, days, now: NOW, model }))
    }
  }
  return out
}

describe('Parquet', () => {
  it('round trip: export, re-import, compute: every payload and row count equal', async () => {
    const source = await openEngine()
    await source.ingestFile(example)
    const dir = join(tmp(), 'export')
    const result = await source.exportParquet(dir)
    expect(result.tables).toMatchObject({
      teams: 1,
      domains: 1,
      prompts: 2,
      analyses: 6,
      mentions: 9,
      citations: 4,
    })
    expect(existsSync(join(dir, 'analyses', `domain_id=${EXAMPLE_DOMAIN}`))).toBe(true)
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))).toMatchObject({
      schema_version: SCHEMA_VERSION,
      tables: result.tables,
    })

    const copy = await openEngine()
    await copy.ingestFile(dir)
    expect(await copy.stats()).toEqual(await source.stats())
    expect(await payloads(copy, EXAMPLE_DOMAIN)).toEqual(await payloads(source, EXAMPLE_DOMAIN))

    const overParquet = await openEngine({ parquet: dir })
    expect(await payloads(overParquet, EXAMPLE_DOMAIN)).toEqual(await payloads(source, EXAMPLE_DOMAIN))
    await expect(overParquet.ingest([])).rejects.toThrow(/read-only/)
    for (const e of [source, copy, overParquet]) await e.close()
  })

  it('exports only the domains asked for, and replaces an earlier export', async () => {
    const engine = await openEngine()
    await engine.ingest([...base(), analysis(), domain({ id: OTHER_DOMAIN, brand_name: 'Other' })])
    const dir = join(tmp(), 'one')
    await engine.exportParquet(dir)
    const r = await engine.exportParquet(dir, { domainIds: [OTHER_DOMAIN.toUpperCase()] })
    expect(r.tables).toMatchObject({ teams: 1, domains: 1, prompts: 0, analyses: 0 })
    expect(existsSync(join(dir, 'analyses', `domain_id=${DOMAIN}`))).toBe(false)
    await expect(
      engine.exportParquet(dir, { domainIds: ['deadbeef-0000-4000-8000-000000000000'] }),
    ).rejects.toThrow(/not found/)
    const notEmpty = tmp()
    writeFileSync(join(notEmpty, 'notes.txt'), 'mine')
    await expect(engine.exportParquet(notEmpty)).rejects.toThrow(/neither empty nor an earlier export/)
    await engine.close()
  })
})

describe('Arrow', () => {
  it('ingests the flat tables and computes what the records give', async () => {
    const viaRecords = await openEngine()
    const a = analysis({
      mentions: [
        { entity_id: 'brand', position: 2, sentiment: 70 },
        { entity_id: 'c0000000-0000-4000-8000-00000000000a', position: 1, sentiment: null },
      ],
    })
    await viaRecords.ingest([...base(), a])

    const viaArrow = await openEngine()
    const [t, d, p, c, th] = base() as unknown as Record<string, unknown>[]
    const strip = ({ type: _type, ...rest }: Record<string, unknown>) => rest
    const r = await viaArrow.ingestArrow({
      teams: tableFromJSON([strip(t!)]),
      domains: tableFromJSON([strip(d!)]),
      prompts: tableFromJSON([strip(p!)]),
      competitors: tableFromJSON([strip(c!)]),
      themes: tableFromJSON([strip(th!)]),
      analyses: tableFromArrays({
        id: [a.id],
        domain_id: [a.domain_id],
        prompt_id: [a.prompt_id],
        channel: [a.channel],
        model: [a.model],
        answered_at: [a.answered_at],
      }),
      mentions: tableFromJSON(a.mentions.map((m) => ({ analysis_id: a.id, ...m }))),
      citations: tableFromJSON(a.citations.map((x) => ({ analysis_id: a.id, ...x }))),
      theme_occurrences: tableFromJSON([{ analysis_id: a.id, theme_id: THEME, occurrences: 2 }]),
    })
    expect(r).toMatchObject({ analyses: 1, mentions: 2, citations: 1, theme_occurrences: 1 })
    expect(await payloads(viaArrow, DOMAIN)).toEqual(await payloads(viaRecords, DOMAIN))
    for (const e of [viaRecords, viaArrow]) await e.close()
  })

  it('validates Arrow rows like any input, naming table, row and field, and stores nothing', async () => {
    const engine = await openEngine()
    const error = await engine
      .ingestArrow({
        teams: tableFromJSON([{ ...team(), type: undefined, plan: 'gold' }].map(({ type: _t, ...r }) => r)),
        prompts: tableFromJSON([
          { id: prompt().id, domain_id: DOMAIN, text: 'x', estimated_search_volume: 1 },
        ]),
        mentions: tableFromJSON([
          {
            analysis_id: 'a0000000-0000-4000-8000-00000000ffff',
            entity_id: 'brand',
            position: 1,
            sentiment: 1,
          },
        ]),
      })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IngestError)
    expect((error as IngestError).issues).toEqual([
      { index: 0, field: 'teams.plan', message: expect.stringMatching(/one of free/) },
      { index: 0, field: 'analysis_id', message: expect.stringMatching(/no analyses row/) },
      { index: 0, field: 'prompts.domain_id', message: expect.stringMatching(/exists neither/) },
    ])
    expect(await engine.stats()).toMatchObject({ teams: 0, prompts: 0 })
    await engine.close()
  })
})
