/**
 * The record additions of docs/API.md, "Ingest: records" for segments and answers: analysis
 * `country` and `response`, prompt `topic` and `tags`. Each invalid case is refused naming record,
 * field and reason with nothing of the call stored (one test per rule); valid values are stored
 * normalized (checked in the DuckDB tables themselves), on every way in and out: JS records,
 * NDJSON (the worker path and the in-thread path), Arrow, the Parquet export and its import, backups
 * and restores, files and exports of schema version 4.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { tableFromJSON } from 'apache-arrow'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IngestError, openEngine, restoreBackup, SCHEMA_VERSION, type Engine } from '../../src/index.js'
import { lastHandOver } from '../../src/ingest/flat-sql.js'
import { analysis, base, DOMAIN, NOW, OTHER_PROMPT, prompt, PROMPT, toNdjson } from '../support/records.js'
import { onStoreFile } from '../support/store-file.js'

const fixture = (path: string) => new URL(`../../fixtures/${path}`, import.meta.url).pathname
const tmp = () => mkdtempSync(join(tmpdir(), 'va-segment-fields-'))

/** What the DuckDB file at `path` stores of the additions (the engine closed first). */
function stored(path: string) {
  return onStoreFile(path, async ({ objects: rows }) => ({
    prompts: await rows('SELECT id::VARCHAR AS id, topic, tags FROM prompts ORDER BY id'),
    analyses: await rows('SELECT id::VARCHAR AS id, country FROM analyses ORDER BY id'),
    responses: await rows(
      `SELECT a.id::VARCHAR AS id, r.response FROM analysis_responses r
       JOIN analyses a USING (analysis_key) ORDER BY id`,
    ),
    orphanResponses: await rows(
      'SELECT count(*)::INTEGER AS n FROM analysis_responses WHERE analysis_key NOT IN (SELECT analysis_key FROM analyses)',
    ),
  }))
}

/** A store in a file: the engine and its path. */
async function fileEngine() {
  const path = join(tmp(), 'store.duckdb')
  return { engine: await openEngine({ path }), path }
}

const A1 = 'a0000000-0000-4000-8000-000000000001'
const A2 = 'a0000000-0000-4000-8000-000000000002'
const A3 = 'a0000000-0000-4000-8000-000000000003'

/** Records using every addition, with values to normalize. */
const withAdditions = () => [
  ...base().map((r) =>
    r.type === 'prompt' ? { ...r, topic: '  Pricing \t', tags: [' crm', 'b2b', 'crm ', 'b2b'] } : r,
  ),
  prompt({ id: OTHER_PROMPT, text: 'other', topic: null, tags: [] }),
  analysis({ id: A1, country: 'br', response: 'Acme is the best CRM. MARKER-A1' }),
  analysis({ id: A2, prompt_id: OTHER_PROMPT, country: 'De', response: '' }),
  analysis({ id: A3, country: null, response: null, answered_at: '2026-11-18T10:00:00Z' }),
]

/** The stored form of withAdditions(). */
const EXPECTED = {
  prompts: [
    { id: PROMPT, topic: 'Pricing', tags: ['b2b', 'crm'] },
    { id: OTHER_PROMPT, topic: null, tags: [] },
  ].sort((a, b) => (a.id < b.id ? -1 : 1)),
  analyses: [
    { id: A1, country: 'BR' },
    { id: A2, country: 'DE' },
    { id: A3, country: null },
  ],
  responses: [
    { id: A1, response: 'Acme is the best CRM. MARKER-A1' },
    { id: A2, response: '' },
  ],
  orphanResponses: [{ n: 0 }],
}

describe('invalid additions are refused, naming record, field and reason; nothing is stored', () => {
  let engine: Engine
  beforeEach(async () => {
    engine = await openEngine()
    await engine.ingest(base())
  })
  afterEach(() => engine.close())

  /** Each bad record, between good ones, is refused alone with this field and message. */
  async function expectRefused(bads: unknown[], field: string, message: RegExp) {
    for (const bad of bads) {
      const before = await engine.stats()
      const error = await engine.ingest([analysis({ response: 'kept?' }), bad]).catch((e: unknown) => e)
      expect(error, JSON.stringify(bad).slice(0, 200)).toBeInstanceOf(IngestError)
      expect((error as IngestError).issues).toEqual([
        { index: 1, field, message: expect.stringMatching(message) },
      ])
      expect(await engine.stats()).toEqual(before)
    }
  }

  it('country: not two letters A-Z or a-z', async () => {
    const bads = ['USA', 'U', '', 'u1', 'ÉS', 'us ', ' us', '12'].map((country) => analysis({ country }))
    await expectRefused(bads, 'country', /two letters A-Z or a-z/)
  })

  it('country: not a string or null', async () => {
    const bads = [7, true, ['US'], { code: 'US' }].map((country) => ({ ...analysis(), country }))
    await expectRefused(bads, 'country', /two letters A-Z or a-z \(an ISO 3166-1 alpha-2 code\), or null/)
  })

  it('response: longer than 200,000 UTF-16 code units, or not a string or null', async () => {
    const bads = ['x'.repeat(200_001), '\u{1F600}'.repeat(100_001), 7, ['text'], { text: 'x' }].map(
      (response) => ({ ...analysis(), response }),
    )
    await expectRefused(bads, 'response', /a string of at most 200000 characters, or null/)
  })

  it('topic: empty once trimmed', async () => {
    await expectRefused(
      ['', ' ', '\t\n', '\u00a0\ufeff'].map((topic) => prompt({ topic })),
      'topic',
      /1 to 100 characters once trimmed, or null/,
    )
  })

  it('topic: longer than 100 characters once trimmed, or not a string or null', async () => {
    await expectRefused(
      ['x'.repeat(101), ` ${'x'.repeat(101)} `, '\u{1F600}'.repeat(51), 7, ['a']].map((topic) => ({
        ...prompt(),
        topic,
      })),
      'topic',
      /1 to 100 characters once trimmed, or null/,
    )
  })

  it('tags: more than 20', async () => {
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`)
    // 21 entries are refused even when they are duplicates of each other.
    await expectRefused(
      [prompt({ tags: many }), prompt({ tags: Array.from({ length: 21 }, () => 'same') })],
      'tags',
      /at most 20 tags/,
    )
  })

  it('tags: not an array', async () => {
    await expectRefused(
      ['crm', null, 7, { 0: 'crm' }].map((tags) => ({ ...prompt(), tags })),
      'tags',
      /must be an array of strings/,
    )
  })

  it('a tag empty once trimmed', async () => {
    await expectRefused(
      [prompt({ tags: ['crm', '  '] }), prompt({ tags: ['crm', ''] })],
      'tags[1]',
      /1 to 50 characters once trimmed/,
    )
  })

  it('a tag longer than 50 characters once trimmed, or not a string', async () => {
    await expectRefused(
      [['x'.repeat(51)], [` ${'y'.repeat(51)}`], ['\u{1F600}'.repeat(26)], [7], [null]].map((tags) => ({
        ...prompt(),
        tags,
      })),
      'tags[0]',
      /1 to 50 characters once trimmed/,
    )
  })

  it('the bounds themselves are valid: 100-character topic, 20 tags of 50, a 200,000-unit answer', async () => {
    const tags = Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(50, 'x'))
    const r = await engine.ingest([
      prompt({ topic: ` ${'t'.repeat(100)} `, tags: tags.map((t) => ` ${t} `) }),
      analysis({ country: 'zz', response: 'r'.repeat(200_000) }),
      analysis({ response: '\u{1F600}'.repeat(100_000) }),
    ])
    expect(r).toMatchObject({ prompts: 1, analyses: 2 })
  })

  it('the NDJSON paths (worker and in-thread) refuse alike, naming the line', async () => {
    const path = join(tmp(), 'bad.ndjson')
    writeFileSync(
      path,
      toNdjson([analysis({ country: 'USA' }), prompt({ tags: [''] }), analysis({ response: 1 as never })]),
    )
    const expected = [
      { line: 1, field: 'country', message: expect.stringMatching(/two letters/) },
      { line: 2, field: 'tags[0]', message: expect.stringMatching(/once trimmed/) },
      { line: 3, field: 'response', message: expect.stringMatching(/at most 200000/) },
    ]
    const before = await engine.stats()
    for (const onProgress of [undefined, () => undefined]) {
      const error = await engine
        .ingestFile(path, onProgress ? { onProgress } : undefined)
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(IngestError)
      expect((error as IngestError).issues).toEqual(expected)
      expect(await engine.stats()).toEqual(before)
    }
  })
})

describe('stored normalized, on every way in', () => {
  it('JS records: country upper case, topic trimmed, tags trimmed, de-duplicated and sorted, answers kept', async () => {
    const { engine, path } = await fileEngine()
    const r = await engine.ingest(withAdditions())
    expect(r).toMatchObject({ prompts: 2, analyses: 3 })
    await engine.close()
    expect(await stored(path)).toEqual(EXPECTED)
  })

  it('NDJSON, on the worker path and the in-thread path: the same stored rows', async () => {
    const file = join(tmp(), 'in.ndjson')
    writeFileSync(file, toNdjson(withAdditions()))
    for (const onProgress of [undefined, () => undefined]) {
      const { engine, path } = await fileEngine()
      await engine.ingestFile(file, onProgress ? { onProgress } : undefined)
      await engine.close()
      expect(await stored(path)).toEqual(EXPECTED)
    }
  })

  it('Arrow: prompts.topic, the prompt_tags table, analyses.country and analyses.response', async () => {
    const { engine, path } = await fileEngine()
    const recs = withAdditions()
    const of = <T extends string>(type: T) =>
      recs.filter((r) => r.type === type) as unknown as Record<string, unknown>[]
    const strip = (r: Record<string, unknown>, ...keys: string[]) =>
      Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'type' && !keys.includes(k)))
    await engine.ingest(recs.filter((r) => !['prompt', 'analysis'].includes(r.type)))
    await engine.ingestArrow({
      prompts: tableFromJSON(of('prompt').map((p) => strip(p, 'tags', 'created_at'))),
      prompt_tags: tableFromJSON(
        of('prompt').flatMap((p) => ((p.tags as string[]) ?? []).map((tag) => ({ prompt_id: p.id, tag }))),
      ),
      analyses: tableFromJSON(
        of('analysis').map((a) => strip(a, 'mentions', 'citations', 'themes', 'fanout_queries')),
      ),
    })
    expect(lastHandOver).toBeNull() // the SQL path of flat input (src/ingest/flat-sql.ts) took it
    await engine.close()
    expect(await stored(path)).toEqual(EXPECTED)
  })

  it('Arrow: prompt_tags rows of no prompts row, or a bad tag, are refused naming the table', async () => {
    const engine = await openEngine()
    await engine.ingest(base())
    const before = await engine.stats()
    const error = await engine
      .ingestArrow({
        prompts: tableFromJSON([{ id: PROMPT, domain_id: DOMAIN, text: 'p', estimated_search_volume: null }]),
        prompt_tags: tableFromJSON([
          { prompt_id: PROMPT, tag: ' ' },
          { prompt_id: OTHER_PROMPT, tag: 'orphan' },
        ]),
      })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IngestError)
    expect((error as IngestError).issues).toEqual([
      { index: 0, field: 'prompts.tags[0]', message: expect.stringMatching(/once trimmed/) },
      {
        index: 0,
        field: 'prompt_tags.prompt_id',
        message: `${OTHER_PROMPT} has prompt_tags rows but no prompts row`,
      },
    ])
    expect(await engine.stats()).toEqual(before)
    await engine.close()
  })

  it('Parquet export and import: the same stored rows; a second export writes the same tables', async () => {
    const source = await openEngine()
    await source.ingest(withAdditions())
    const dir = join(tmp(), 'export')
    const { tables } = await source.exportParquet(dir)
    expect(tables).toMatchObject({ prompts: 2, prompt_tags: 2, analyses: 3 })
    const { engine: copy, path } = await fileEngine()
    await copy.ingestFile(dir)
    expect(lastHandOver).toBeNull()
    expect(await copy.stats()).toEqual(await source.stats())
    expect((await copy.exportParquet(join(tmp(), 'again'))).tables).toEqual(tables)
    await copy.close()
    await source.close()
    expect(await stored(path)).toEqual(EXPECTED)
  })

  it('backup and restore: the same stored rows', async () => {
    const { engine, path } = await fileEngine()
    await engine.ingest(withAdditions())
    const dir = join(tmp(), 'backup')
    await engine.backup(dir)
    await engine.close()
    const restored = join(tmp(), 'restored.duckdb')
    await restoreBackup({ from: dir, path: restored })
    expect(await stored(restored)).toEqual(await stored(path))
    expect(await stored(restored)).toEqual(EXPECTED)
  })
})

describe('replacing and deleting', () => {
  it('re-ingesting a prompt replaces its topic and tags (absent: none); re-ingesting an analysis its country and answer', async () => {
    const { engine, path } = await fileEngine()
    await engine.ingest(withAdditions())
    await engine.ingest([
      prompt({ topic: 'Support', tags: ['new'] }),
      prompt({ id: OTHER_PROMPT, text: 'other', tags: ['x'] }),
      analysis({ id: A1, country: 'us' }), // no response now: the old text goes
      analysis({ id: A3, response: 'late answer' }),
    ])
    await engine.ingest([prompt({ topic: 'Support' })]) // tags absent: []
    await engine.close()
    const s = await stored(path)
    expect(s.prompts).toEqual(
      [
        { id: PROMPT, topic: 'Support', tags: [] },
        { id: OTHER_PROMPT, topic: null, tags: ['x'] },
      ].sort((a, b) => (a.id < b.id ? -1 : 1)),
    )
    expect(s.analyses).toEqual([
      { id: A1, country: 'US' },
      { id: A2, country: 'DE' },
      { id: A3, country: null },
    ])
    expect(s.responses).toEqual([
      { id: A2, response: '' },
      { id: A3, response: 'late answer' },
    ])
    expect(s.orphanResponses).toEqual([{ n: 0 }])
  })

  it('a repeated analysis in one call keeps the answer of its last record', async () => {
    const { engine, path } = await fileEngine()
    await engine.ingest([
      ...base(),
      analysis({ id: A1, response: 'first' }),
      analysis({ id: A1, response: 'second' }),
      analysis({ id: A2, response: 'kept' }),
      analysis({ id: A2 }),
    ])
    await engine.close()
    expect((await stored(path)).responses).toEqual([{ id: A1, response: 'second' }])
  })

  it('deleting an analysis, a prompt or a domain deletes its answers and tags; retention prunes answers', async () => {
    const { engine, path } = await fileEngine()
    await engine.ingest(withAdditions())
    await engine.ingest([{ type: 'delete', entity: 'analysis', id: A1 }])
    await engine.ingest([{ type: 'delete', entity: 'prompt', id: OTHER_PROMPT }])
    let s = await (async () => {
      await engine.close()
      return stored(path)
    })()
    expect(s.prompts).toEqual([{ id: PROMPT, topic: 'Pricing', tags: ['b2b', 'crm'] }])
    expect(s.responses).toEqual([])
    expect(s.orphanResponses).toEqual([{ n: 0 }])

    const again = await openEngine({ path })
    await again.ingest([analysis({ id: A1, response: 'old', answered_at: '2026-10-01T10:00:00Z' })])
    await again.ingest([analysis({ id: A2, response: 'recent' })])
    const pruned = await again.prune({ olderThanDays: 30, now: NOW })
    expect(pruned.deleted).toMatchObject({ analyses: 1 })
    await again.close()
    s = await stored(path)
    expect(s.responses).toEqual([{ id: A2, response: 'recent' }])
    expect(s.orphanResponses).toEqual([{ n: 0 }])

    const last = await openEngine({ path })
    await last.ingest([{ type: 'delete', entity: 'domain', id: DOMAIN }])
    await last.close()
    s = await stored(path)
    expect(s).toMatchObject({ prompts: [], analyses: [], responses: [] })
  })
})

describe('the bytes of a deleted answer', () => {
  it('a store restored from a backup taken after the delete holds no byte of it', async () => {
    const marker = 'MARKER-7f3c9e-the-deleted-answer'
    const { engine, path } = await fileEngine()
    await engine.ingest([
      ...base(),
      analysis({ id: A1, response: marker }),
      analysis({ id: A2, response: 'kept' }),
    ])
    await engine.close()
    const holds = (file: string) => readFileSync(file).includes(Buffer.from(marker))
    // The check can see the text: a small table keeps it uncompressed in the file.
    expect(holds(path)).toBe(true)
    const again = await openEngine({ path })
    await again.ingest([{ type: 'delete', entity: 'analysis', id: A1 }])
    const dir = join(tmp(), 'backup')
    await again.backup(dir)
    await again.close()
    expect((await stored(path)).responses).toEqual([{ id: A2, response: 'kept' }])
    const restored = join(tmp(), 'restored.duckdb')
    await restoreBackup({ from: dir, path: restored })
    expect(holds(restored)).toBe(false)
    expect((await stored(restored)).responses).toEqual([{ id: A2, response: 'kept' }])
  })
})

describe('files of schema version 4 (fixtures/legacy, written before these additions)', () => {
  const example = fixture('spec-example/data.ndjson')
  const EXAMPLE_DOMAIN = '5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c'

  it('an export of version 4 imports: countries, topics and answers null, no tags', async () => {
    const { engine: fromExport, path } = await fileEngine()
    await fromExport.ingestFile(fixture('legacy/export-v4'))
    const fromNdjson = await openEngine()
    await fromNdjson.ingestFile(example)
    expect(await fromExport.stats()).toEqual(await fromNdjson.stats())
    const p = { domainId: EXAMPLE_DOMAIN, days: 365, now: NOW }
    expect(await fromExport.computeCompetitorSeries(p)).toEqual(await fromNdjson.computeCompetitorSeries(p))
    await fromExport.close()
    await fromNdjson.close()
    const s = await stored(path)
    expect(s.prompts.length).toBeGreaterThan(0)
    expect(s.prompts.every((r) => r.topic === null && Array.isArray(r.tags) && r.tags.length === 0)).toBe(
      true,
    )
    expect(s.analyses.every((r) => r.country === null)).toBe(true)
    expect(s.responses).toEqual([])
  })

  it('a database file of version 4 is migrated on open with its data kept, and takes the additions', async () => {
    const path = join(tmp(), 'v4.duckdb')
    writeFileSync(path, gunzipSync(readFileSync(fixture('legacy/schema-v4.duckdb.gz'))))
    await expect(openEngine({ path, readOnly: true })).rejects.toThrow(
      `schema version 4, not ${SCHEMA_VERSION}`,
    )
    const migrated = await openEngine({ path })
    const fresh = await openEngine()
    await fresh.ingestFile(example)
    expect(await migrated.stats()).toEqual(await fresh.stats())
    const p = { domainId: EXAMPLE_DOMAIN, days: 365, now: NOW }
    expect(await migrated.computePromptSeries(p)).toEqual(await fresh.computePromptSeries(p))
    const promptId = '11111111-1111-4111-8111-111111111111'
    await migrated.ingest([
      {
        type: 'prompt',
        id: promptId,
        domain_id: EXAMPLE_DOMAIN,
        text: 'best crm',
        estimated_search_volume: null,
        topic: 'CRM',
        tags: ['b'],
      },
      analysis({
        id: A1,
        domain_id: EXAMPLE_DOMAIN,
        prompt_id: promptId,
        mentions: [],
        themes: [],
        country: 'fr',
        response: 'r',
      }),
    ])
    await migrated.close()
    await fresh.close()
    const s = await stored(path)
    expect(s.prompts.filter((r) => r.topic !== null)).toEqual([{ id: promptId, topic: 'CRM', tags: ['b'] }])
    expect(
      s.prompts.filter((r) => r.topic === null).every((r) => Array.isArray(r.tags) && r.tags.length === 0),
    ).toBe(true)
    expect(s.analyses.filter((r) => r.country !== null)).toEqual([{ id: A1, country: 'FR' }])
    expect(s.responses).toEqual([{ id: A1, response: 'r' }])
  })
})
