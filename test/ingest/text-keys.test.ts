/**
 * The key of the text dictionaries (sql/schema/007_text_keys.sql): every stored entry carries the
 * first 128 bits of its text's SHA-256, written with each new entry and filled by the migration
 * of an older file; an ingest call finds stored texts by that key, so a text seen before keeps its
 * index and is never stored twice, and a new one takes the next index of its dictionary.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, describe, expect, it } from 'vitest'
import { openEngine, SCHEMA_VERSION, type Engine } from '../../src/index.js'
import {
  analysis,
  base,
  domain,
  DOMAIN,
  NOW,
  OTHER_DOMAIN,
  prompt,
  PROMPT,
  TEAM,
} from '../support/records.js'

const fixture = (path: string) => new URL(`../../fixtures/${path}`, import.meta.url).pathname
const dir = mkdtempSync(join(tmpdir(), 'va-text-keys-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The key as the schema defines it, computed here independently of DuckDB. */
const keyOf = (text: string) =>
  BigInt(`0x${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32)}`)

type Entry = { domain: string; kind: number; idx: number; text: string; h: bigint | null }

/** Every entry of the file's text dictionaries (the engine closed first). */
async function entries(path: string): Promise<Entry[]> {
  const db = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' })
  const conn = await db.connect()
  try {
    const r = await conn.runAndReadAll(
      `SELECT d.id::VARCHAR, t.kind, t.idx, t.text, t.h FROM texts t JOIN domains d USING (domain_key)
       ORDER BY 1, 2, 3`,
    )
    return r.getRows().map(([domain, kind, idx, text, h]) => ({
      domain: domain as string,
      kind: Number(kind),
      idx: Number(idx),
      text: text as string,
      h: h === null ? null : BigInt(h as bigint),
    }))
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

/** Fails unless every entry's key is its text's, and no (domain, kind, text) is stored twice. */
function expectKeyed(all: Entry[]): void {
  expect(all.length).toBeGreaterThan(0)
  for (const e of all) expect({ ...e, h: e.h }).toEqual({ ...e, h: keyOf(e.text) })
  const seen = new Set(all.map((e) => `${e.domain} ${e.kind} ${e.text}`))
  expect(seen.size).toBe(all.length)
  const idx = new Set(all.map((e) => `${e.domain} ${e.kind} ${e.idx}`))
  expect(idx.size).toBe(all.length)
}

const URL_KIND = 1
const FANOUT_KIND = 5

/** Citations report payloads of every window (they read the dictionaries through their indexes). */
async function reports(engine: Engine, domainId: string): Promise<unknown[]> {
  const out: unknown[] = []
  for (const days of [7, 365]) {
    const p = { domainId, days, now: NOW }
    out.push(
      await engine.computeCitations(p),
      await engine.computeCitedDomains(p),
      await engine.computeFanoutQueries(p),
    )
  }
  return out
}

describe('the text dictionaries keyed by SHA-256', () => {
  it('a new file writes each new text with its key; a text seen again keeps its index', async () => {
    const path = join(dir, 'new.duckdb')
    const engine = await openEngine({ path })
    const first = analysis({
      id: 'a0000000-0000-4000-8000-0000000000f1',
      citations: [{ url: 'https://acme.com/a', title: 'A' }, { url: 'https://b.example/x' }],
      fanout_queries: ['best crm', 'crm pricing'],
    })
    await engine.ingest([...base(), first])
    await engine.close()
    const before = await entries(path)
    expectKeyed(before)

    // The same texts again, in another call and another order, with one new URL and query.
    const again = await openEngine({ path })
    await again.ingest([
      analysis({
        id: 'a0000000-0000-4000-8000-0000000000f2',
        citations: [
          { url: 'https://b.example/x' },
          { url: 'https://new.example/' },
          { url: 'https://acme.com/a' },
        ],
        fanout_queries: ['crm pricing', 'zzz new query', 'best crm'],
      }),
    ])
    await again.close()
    const after = await entries(path)
    expectKeyed(after)
    // Every entry stored before is still there with its index.
    expect(
      after.filter((e) => before.some((b) => b.domain === e.domain && b.kind === e.kind && b.idx === e.idx)),
    ).toEqual(before)
    const added = after.filter(
      (e) => !before.some((b) => b.domain === e.domain && b.kind === e.kind && b.idx === e.idx),
    )
    const top = (kind: number) =>
      Math.max(...before.filter((e) => e.domain === DOMAIN && e.kind === kind).map((e) => e.idx))
    expect(added.filter((e) => e.kind === URL_KIND).map(({ text, idx }) => ({ text, idx }))).toEqual([
      { text: 'https://new.example/', idx: top(URL_KIND) + 1 },
    ])
    expect(added.filter((e) => e.kind === FANOUT_KIND).map(({ text, idx }) => ({ text, idx }))).toEqual([
      { text: 'zzz new query', idx: top(FANOUT_KIND) + 1 },
    ])
  })

  it('a call naming several domains gives each new text the next index of its own dictionary', async () => {
    // A new text takes the next index of its own (domain, kind) dictionary (sql/ingest/call_texts.sql,
    // `top`), whatever the other domains of the call, or of the store, hold.
    const path = join(dir, 'domains.duckdb')
    const third = '7d2a8e3c-0b4f-4a5d-9ce1-3f4a5b6c7d8e'
    const otherPrompt = 'b0000000-0000-4000-8000-0000000000b1'
    const thirdPrompt = 'b0000000-0000-4000-8000-0000000000b2'
    const urls = (host: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ url: `https://${host}/${i}` }))
    const at = (domainId: string, promptId: string, citations: { url: string }[]) =>
      analysis({ domain_id: domainId, prompt_id: promptId, mentions: [], themes: [], citations })
    const engine = await openEngine({ path })
    await engine.ingest([
      ...base(),
      domain({ id: OTHER_DOMAIN, team_id: TEAM, brand_name: 'Initech', website: 'initech.com' }),
      prompt({ id: otherPrompt, domain_id: OTHER_DOMAIN, text: 'best crm' }),
      domain({ id: third, team_id: TEAM, brand_name: 'Umbrella', website: 'umbrella.com' }),
      prompt({ id: thirdPrompt, domain_id: third, text: 'best erp' }),
      at(DOMAIN, PROMPT, urls('a.example', 3)),
      at(OTHER_DOMAIN, otherPrompt, urls('a.example', 1)),
      at(third, thirdPrompt, urls('a.example', 6)),
    ])
    // Each of the two domains: one stored URL again and one new one; the third is not named.
    await engine.ingest([
      at(OTHER_DOMAIN, otherPrompt, [{ url: 'https://a.example/0' }, { url: 'https://b.example/new' }]),
      at(DOMAIN, PROMPT, [{ url: 'https://b.example/new' }, { url: 'https://a.example/2' }]),
    ])
    await engine.close()
    const all = await entries(path)
    expectKeyed(all)
    const urlsOf = (domainId: string) =>
      all.filter((e) => e.domain === domainId && e.kind === URL_KIND).map((e) => [e.idx, e.text])
    expect(urlsOf(DOMAIN)).toEqual([
      [0, 'https://a.example/0'],
      [1, 'https://a.example/1'],
      [2, 'https://a.example/2'],
      [3, 'https://b.example/new'],
    ])
    expect(urlsOf(OTHER_DOMAIN)).toEqual([
      [0, 'https://a.example/0'],
      [1, 'https://b.example/new'],
    ])
    expect(urlsOf(third)).toHaveLength(6)
  })

  it('a call with several new texts per dictionary numbers them in text order after the stored ones', async () => {
    // sql/ingest/call_texts.sql: each (domain, kind)'s fresh texts take the indexes after its top,
    // in text order, whatever the order they arrive in and whatever the call's other dictionaries.
    const path = join(dir, 'order.duckdb')
    const otherPrompt = 'b0000000-0000-4000-8000-0000000000c1'
    const at = (domainId: string, promptId: string, urls: string[], queries: string[]) =>
      analysis({
        domain_id: domainId,
        prompt_id: promptId,
        mentions: [],
        themes: [],
        citations: urls.map((url) => ({ url })),
        fanout_queries: queries,
      })
    const engine = await openEngine({ path })
    await engine.ingest([
      ...base(),
      domain({ id: OTHER_DOMAIN, team_id: TEAM, brand_name: 'Initech', website: 'initech.com' }),
      prompt({ id: otherPrompt, domain_id: OTHER_DOMAIN, text: 'best crm' }),
      at(DOMAIN, PROMPT, ['https://a.example/2', 'https://a.example/0', 'https://a.example/1'], ['q b']),
      at(OTHER_DOMAIN, otherPrompt, ['https://a.example/0'], ['q b']),
    ])
    await engine.ingest([
      at(
        DOMAIN,
        PROMPT,
        ['https://c.example/z', 'https://a.example/1', 'https://b.example/y'],
        ['q c', 'q b'],
      ),
      at(DOMAIN, PROMPT, ['https://a.example/9'], ['q a']),
      at(OTHER_DOMAIN, otherPrompt, ['https://z.example/', 'https://b.example/y'], ['q a']),
    ])
    await engine.close()
    const all = await entries(path)
    expectKeyed(all)
    // Each dictionary's texts by index (entries() orders them by index; the indexes run from 0).
    const of = (domainId: string, kind: number) => {
      const d = all.filter((e) => e.domain === domainId && e.kind === kind)
      expect(d.map((e) => e.idx)).toEqual(d.map((_, i) => i))
      return d.map((e) => e.text).join(', ')
    }
    expect(of(DOMAIN, URL_KIND)).toBe(
      'https://a.example/0, https://a.example/1, https://a.example/2, https://a.example/9, https://b.example/y, https://c.example/z',
    )
    expect(of(DOMAIN, 2)).toBe('a.example, b.example, c.example')
    expect(of(DOMAIN, FANOUT_KIND)).toBe('q b, q a, q c')
    expect(of(OTHER_DOMAIN, URL_KIND)).toBe('https://a.example/0, https://b.example/y, https://z.example/')
    expect(of(OTHER_DOMAIN, 2)).toBe('a.example, b.example, z.example')
    expect(of(OTHER_DOMAIN, FANOUT_KIND)).toBe('q b, q a')
  })

  it('a file of schema version 4 is migrated with every stored text keyed, and ingests as a new one', async () => {
    const path = join(dir, 'v4.duckdb')
    writeFileSync(path, gunzipSync(readFileSync(fixture('legacy/schema-v4.duckdb.gz'))))
    await expect(openEngine({ path, readOnly: true })).rejects.toThrow(
      `schema version 4, not ${SCHEMA_VERSION}`,
    )
    const example = fixture('spec-example/data.ndjson')
    const migrated = await openEngine({ path })
    const fresh = await openEngine()
    await fresh.ingestFile(example)
    const domainId = '5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c'
    expect(await reports(migrated, domainId)).toEqual(await reports(fresh, domainId))
    await migrated.close()
    const stored = await entries(path)
    expectKeyed(stored)
    expect(stored.some((e) => e.kind === URL_KIND && e.text === 'https://acme.com/pricing')).toBe(true)

    // A call repeating a stored URL beside a new one: the stored entry is found by its key.
    const more = analysis({
      id: 'a0000000-0000-4000-8000-0000000000f3',
      domain_id: domainId,
      prompt_id: '11111111-1111-4111-8111-111111111111',
      mentions: [],
      themes: [],
      citations: [{ url: 'https://acme.com/pricing' }, { url: 'https://fresh.example/p' }],
    })
    const reopened = await openEngine({ path })
    await reopened.ingest([more])
    await fresh.ingest([more])
    expect(await reports(reopened, domainId)).toEqual(await reports(fresh, domainId))
    await reopened.close()
    await fresh.close()
    const after = await entries(path)
    expectKeyed(after)
    const isNew = (e: Entry) => !stored.some((s) => s.kind === e.kind && s.text === e.text)
    expect(after.filter(isNew).map((e) => [e.kind, e.text])).toEqual([
      [URL_KIND, 'https://fresh.example/p'],
      [2, 'fresh.example'],
    ])
    expect(after.filter((e) => !isNew(e))).toEqual(stored)
  })
})
