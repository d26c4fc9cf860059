/**
 * The record additions of extensions section 1 for citations (title, page_type) and analyses
 * (fanout_queries): refused like any bad field (record, field, reason; nothing stored), and carried
 * through every other way in and out: Arrow tables, the Parquet export and its import, an export
 * and a database file written by schema version 1 (fixtures/legacy).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { DuckDBInstance } from '@duckdb/node-api'
import { tableFromJSON } from 'apache-arrow'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IngestError, openEngine, SCHEMA_VERSION, type Engine } from '../../src/index.js'
import { analysis, base, DOMAIN, NOW } from '../support/records.js'

const fixture = (path: string) => new URL(`../../fixtures/${path}`, import.meta.url).pathname
const tmp = () => mkdtempSync(join(tmpdir(), 'va-additions-'))

/** Every payload of the reports that read the additions, plus the four published ones. */
async function payloads(engine: Engine, domainId: string, now = NOW) {
  const out: unknown[] = []
  for (const days of [1, 7, 30, 365]) {
    for (const model of ['all', 'chatgpt', 'gpt-5']) {
      const p = { domainId, days, model, now }
      out.push(
        await engine.computeCitations(p),
        await engine.computeCitedDomains(p),
        await engine.computeFanoutQueries(p),
      )
      out.push(await engine.computeSentimentSeries(p), await engine.computeSentimentThemes(p))
    }
    out.push(await engine.computePromptSeries({ domainId, days, now }))
    out.push(await engine.computeCompetitorSeries({ domainId, days, now }))
  }
  return out
}

describe('invalid additions are refused, naming record and field, and nothing is stored', () => {
  let engine: Engine
  beforeEach(async () => {
    engine = await openEngine()
    await engine.ingest(base())
  })
  afterEach(() => engine.close())

  async function expectRefused(bad: unknown, field: string, message: RegExp) {
    const before = await engine.stats()
    const error = await engine.ingest([analysis(), bad]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IngestError)
    expect((error as IngestError).issues).toEqual([
      { index: 1, field, message: expect.stringMatching(message) },
    ])
    expect(await engine.stats()).toEqual(before)
  }

  const url = 'https://acme.com/a'
  it('a title that is empty, longer than 1000 characters or not a string', async () => {
    for (const title of ['', 'x'.repeat(1001), 7]) {
      await expectRefused(
        analysis({ citations: [{ url, title } as never] }),
        'citations[0].title',
        /must be a string of 1 to 1000 characters, or null/,
      )
    }
  })

  it('a page_type that is empty, longer than 100 characters or not a string', async () => {
    for (const page_type of ['', 'p'.repeat(101), false]) {
      await expectRefused(
        analysis({ citations: [{ url }, { url, page_type } as never] }),
        'citations[1].page_type',
        /must be a string of 1 to 100 characters, or null/,
      )
    }
  })

  it('fanout_queries that is not an array of strings, or holds more than 100', async () => {
    for (const fanout_queries of [null, 'crm', { 0: 'crm' }]) {
      await expectRefused(
        analysis({ fanout_queries } as never),
        'fanout_queries',
        /must be an array of strings/,
      )
    }
    await expectRefused(
      analysis({ fanout_queries: Array.from({ length: 101 }, (_, i) => `q${i}`) }),
      'fanout_queries',
      /must hold at most 100 queries/,
    )
  })

  it('a fan-out query that is not a string, blank, or longer than 500 characters once trimmed', async () => {
    for (const q of [3, '', ' \t\n\u00a0', 'x'.repeat(501), ` ${'x'.repeat(501)} `]) {
      await expectRefused(
        analysis({ fanout_queries: ['ok', q] as never }),
        'fanout_queries[1]',
        /must be a string of 1 to 500 characters once trimmed/,
      )
    }
  })

  it('the bounds themselves are valid: 1 and 1000 characters, 100 queries of 500 once trimmed', async () => {
    const r = await engine.ingest([
      analysis({
        citations: [
          { url, title: 'x'.repeat(1000), page_type: 'p'.repeat(100) },
          { url, title: 'T', page_type: 'p' },
        ],
        fanout_queries: Array.from({ length: 100 }, (_, i) => `  ${String(i).padEnd(500, 'q')}\n`),
      }),
    ])
    expect(r).toMatchObject({ citations: 2, fanout_queries: 100 })
  })
})

describe('Arrow', () => {
  it('citations carry title and page_type, fanout_queries is its own table; both like the records', async () => {
    const a = analysis({
      citations: [
        { url: 'https://acme.com/a#x', title: 'A', page_type: 'docs' },
        { url: 'https://acme.com/a', title: null, page_type: 'product' },
      ],
      fanout_queries: [' best crm ', 'crm pricing'],
    })
    const viaRecords = await openEngine()
    await viaRecords.ingest([...base(), a])
    const viaArrow = await openEngine()
    await viaArrow.ingest(base())
    const { citations, fanout_queries, mentions, themes, type: _type, ...scalars } = a
    const r = await viaArrow.ingestArrow({
      analyses: tableFromJSON([scalars]),
      mentions: tableFromJSON(mentions.map((m) => ({ analysis_id: a.id, ...m }))),
      theme_occurrences: tableFromJSON(themes.map((t) => ({ analysis_id: a.id, ...t }))),
      citations: tableFromJSON(citations.map((c) => ({ analysis_id: a.id, ...c }))),
      fanout_queries: tableFromJSON((fanout_queries ?? []).map((query) => ({ analysis_id: a.id, query }))),
    })
    expect(r).toMatchObject({ analyses: 1, citations: 2, fanout_queries: 2 })
    expect(await payloads(viaArrow, DOMAIN)).toEqual(await payloads(viaRecords, DOMAIN))
    await viaRecords.close()
    await viaArrow.close()
  })

  it('child rows carrying ord (as the export writes them) are put in that order, others keep theirs', async () => {
    const url = 'https://acme.com/a'
    const a = analysis({ citations: [], mentions: [], themes: [] })
    const { citations: _c, mentions: _m, themes: _t, type: _type, ...scalars } = a
    const engine = await openEngine()
    await engine.ingest(base())
    await engine.ingestArrow({
      analyses: tableFromJSON([scalars]),
      citations: tableFromJSON([
        { analysis_id: a.id, url, title: 'Later', ord: 1 },
        { analysis_id: a.id, url, title: 'Earlier', ord: 0 },
      ]),
      fanout_queries: tableFromJSON([
        { analysis_id: a.id, query: 'b', ord: 1 },
        { analysis_id: a.id, query: 'a', ord: 0 },
      ]),
    })
    expect((await engine.computeCitations({ domainId: DOMAIN, now: NOW })).data.items[0]?.title).toBe('Later')
    const dir = join(tmp(), 'ord')
    await engine.exportParquet(dir)
    const db = await DuckDBInstance.create(':memory:')
    const conn = await db.connect()
    const rows = async (table: string, column: string) =>
      (
        await conn.runAndReadAll(
          `SELECT ${column}, ord FROM read_parquet('${join(dir, table)}/**/*.parquet') ORDER BY ord`,
        )
      ).getRowsJS()
    expect(await rows('citations', 'title')).toEqual([
      ['Earlier', 0],
      ['Later', 1],
    ])
    expect(await rows('fanout_queries', 'query')).toEqual([
      ['a', 0],
      ['b', 1],
    ])
    conn.closeSync()
    db.closeSync()
    await engine.close()
  })

  it('fan-out rows of no analyses row, or a bad query, are refused naming the table', async () => {
    const engine = await openEngine()
    await engine.ingest(base())
    const a = analysis()
    const { citations: _c, mentions: _m, themes: _t, type: _type, ...scalars } = a
    const error = await engine
      .ingestArrow({
        analyses: tableFromJSON([scalars]),
        fanout_queries: tableFromJSON([
          { analysis_id: a.id, query: '   ' },
          { analysis_id: 'a0000000-0000-4000-8000-00000000ffff', query: 'orphan' },
        ]),
      })
      .catch((e: unknown) => e)
    expect((error as IngestError).issues).toEqual([
      { index: 0, field: 'analyses.fanout_queries[0]', message: expect.stringMatching(/once trimmed/) },
      {
        index: 0,
        field: 'analysis_id',
        message: expect.stringMatching(/fan-out queries but no analyses row/),
      },
    ])
    expect(await engine.stats()).toMatchObject({ analyses: 0, fanout_queries: 0 })
    await engine.close()
  })
})

describe('Parquet export', () => {
  it('round trip with titles, page types and fan-out queries: the same rows, payloads and entry order', async () => {
    const url = 'https://acme.com/pricing'
    const records = [
      ...base(),
      // The same URL twice in one analysis: the later entry's title wins, so order must survive.
      analysis({
        citations: [
          { url, title: 'First', page_type: 'product' },
          { url: `${url}#plans`, title: 'Second', page_type: null },
          { url: 'https://globex.com/', title: null },
        ],
        fanout_queries: ['acme pricing', ' acme pricing', 'acme vs globex'],
      }),
      analysis({ answered_at: '2026-11-18T10:00:00Z', fanout_queries: ['crm'], channel: 'perplexity' }),
      analysis({
        answered_at: '2026-11-17T10:00:00Z',
        citations: [{ url, title: 'Old', page_type: 'blog' }],
      }),
    ]
    const source = await openEngine()
    await source.ingest(records)
    const dir = join(tmp(), 'export')
    const { tables } = await source.exportParquet(dir)
    expect(tables).toMatchObject({ citations: 5, fanout_queries: 4 })
    const copy = await openEngine()
    await copy.ingestFile(dir)
    expect(await copy.stats()).toEqual(await source.stats())
    expect(await payloads(copy, DOMAIN)).toEqual(await payloads(source, DOMAIN))
    const top = await copy.computeCitations({ domainId: DOMAIN, days: 7, now: NOW })
    expect(top.data.items[0]).toMatchObject({ url, title: 'Second', page_type: 'product', frequency: 3 })
    // A second export of the copy writes the same rows.
    expect((await copy.exportParquet(join(tmp(), 'again'))).tables).toEqual(tables)
    await source.close()
    await copy.close()
  })
})

describe('files of schema version 1 (fixtures/legacy, written before the additions)', () => {
  const example = fixture('spec-example/data.ndjson')
  const EXAMPLE_DOMAIN = '5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c'

  it('an export of version 1 imports: titles and page types null, no fan-out queries, payloads as from the NDJSON', async () => {
    const fromExport = await openEngine()
    await fromExport.ingestFile(fixture('legacy/export-v1'))
    const fromNdjson = await openEngine()
    await fromNdjson.ingestFile(example)
    expect(await fromExport.stats()).toEqual(await fromNdjson.stats())
    expect(await payloads(fromExport, EXAMPLE_DOMAIN)).toEqual(await payloads(fromNdjson, EXAMPLE_DOMAIN))
    const cited = await fromExport.computeCitations({ domainId: EXAMPLE_DOMAIN, days: 365, now: NOW })
    expect(cited.data.items.length).toBeGreaterThan(0)
    expect(cited.data.items.every((i) => i.title === null && i.page_type === null)).toBe(true)
    await fromExport.close()
    await fromNdjson.close()
  })

  it('a database file of version 1 is migrated on open: its citations reported like freshly ingested ones', async () => {
    const path = join(tmp(), 'v1.duckdb')
    writeFileSync(path, gunzipSync(readFileSync(fixture('legacy/schema-v1.duckdb.gz'))))
    await expect(openEngine({ path, readOnly: true })).rejects.toThrow(
      `schema version 1, not ${SCHEMA_VERSION}`,
    )
    const migrated = await openEngine({ path })
    const fresh = await openEngine()
    await fresh.ingestFile(example)
    expect(await payloads(migrated, EXAMPLE_DOMAIN)).toEqual(await payloads(fresh, EXAMPLE_DOMAIN))
    expect(await migrated.stats()).toEqual(await fresh.stats())
    // Ingesting into the migrated file goes on as into a new one.
    const more = analysis({
      id: 'a0000000-0000-4000-8000-00000000aaaa',
      domain_id: EXAMPLE_DOMAIN,
      prompt_id: '11111111-1111-4111-8111-111111111111',
      citations: [{ url: 'https://www.acme.com/pricing#top', title: 'Pricing' }],
      fanout_queries: ['acme pricing'],
      mentions: [],
      themes: [],
    })
    await migrated.ingest([more])
    await fresh.ingest([more])
    expect(await payloads(migrated, EXAMPLE_DOMAIN)).toEqual(await payloads(fresh, EXAMPLE_DOMAIN))
    await migrated.close()
    await fresh.close()
  })
})
