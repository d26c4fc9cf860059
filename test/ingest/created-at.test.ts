/**
 * The record additions' timestamps (extensions.md section 1): `created_at` of domains and prompts,
 * optional (absent or null: null), an ISO 8601 timestamp with Z or an offset, stored to the
 * millisecond with finer digits truncated and returned as ISO 8601 UTC with milliseconds, through
 * every ingest path (JS objects, NDJSON on the worker and on the main thread, Arrow, Parquet
 * export and import); a bad one is refused like any bad field, naming the record and the field,
 * and nothing of the call is stored.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TimestampMillisecond, Table, tableFromJSON, vectorFromArray } from 'apache-arrow'
import { afterAll, describe, expect, it } from 'vitest'
import { IngestError, type Engine } from '../../src/index.js'
import {
  domain,
  DOMAIN,
  OTHER_DOMAIN,
  OTHER_PROMPT,
  prompt,
  PROMPT,
  team,
  toNdjson,
} from '../support/records.js'
import { withOpenEngine } from '../support/inline.js'

const NOW = '2026-11-20T15:00:00Z'
const tmp = mkdtempSync(join(tmpdir(), 'va-created-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** As written -> as stored and returned. */
const WRITTEN = '2026-05-04T11:15:02.1189+02:00'
const STORED = '2026-05-04T09:15:02.118Z'

const records = () => [
  team(),
  domain({ created_at: WRITTEN }),
  domain({ id: OTHER_DOMAIN, brand_name: 'Other' }), // no field
  prompt({ created_at: '2025-12-31T23:59:59.9999-01:00' }),
  prompt({ id: OTHER_PROMPT, created_at: null }),
]
const EXPECTED_DOMAINS = [
  { id: DOMAIN, created_at: STORED },
  { id: OTHER_DOMAIN, created_at: null },
]
const EXPECTED_PROMPTS = [
  { id: PROMPT, created_at: '2026-01-01T00:59:59.999Z' },
  { id: OTHER_PROMPT, created_at: null },
]

async function stored(e: Engine) {
  const domains = (await e.computeDomainList({ now: NOW })).data.items.map(({ id, created_at }) => ({
    id,
    created_at,
  }))
  const prompts = (await e.computePromptList({ domainId: DOMAIN, now: NOW })).data.items.map(
    ({ id, created_at }) => ({
      id,
      created_at,
    }),
  )
  return { domains, prompts }
}

describe('created_at through every ingest path', () => {
  it('JS objects: truncated to the millisecond, in UTC; absent and null read as null', async () => {
    await withOpenEngine(async (e) => {
      await e.ingest(records())
      expect(await stored(e)).toEqual({ domains: EXPECTED_DOMAINS, prompts: EXPECTED_PROMPTS })
      // A later record without the field replaces the value (upsert by id: the last one wins).
      await e.ingest([domain({ brand_name: 'Acme' })])
      expect((await stored(e)).domains[0]).toEqual({ id: DOMAIN, created_at: null })
    })
  })

  it('NDJSON files, read on a worker and on this thread', async () => {
    const file = join(tmp, 'records.ndjson')
    writeFileSync(file, toNdjson(records()))
    for (const onProgress of [undefined, () => {}]) {
      await withOpenEngine(async (e) => {
        await e.ingestFile(file, onProgress === undefined ? {} : { onProgress })
        expect(await stored(e)).toEqual({ domains: EXPECTED_DOMAINS, prompts: EXPECTED_PROMPTS })
      })
    }
  })

  it('Arrow: ISO strings, timestamp columns, and no column at all', async () => {
    const [t, d1, d2, p1, p2] = records() as [object, object, object, object, object]
    const strip = (r: object) => {
      const { type: _type, ...rest } = r as Record<string, unknown>
      return rest
    }
    await withOpenEngine(async (e) => {
      await e.ingestArrow({
        teams: tableFromJSON([strip(t)]),
        domains: tableFromJSON([strip(d1), { ...strip(d2), created_at: null }]),
        prompts: tableFromJSON([strip(p1), strip(p2)]),
      })
      expect(await stored(e)).toEqual({ domains: EXPECTED_DOMAINS, prompts: EXPECTED_PROMPTS })
    })
    await withOpenEngine(async (e) => {
      const ms = Date.parse(STORED)
      const domains = new Table({
        id: vectorFromArray([DOMAIN]),
        team_id: vectorFromArray([(t as { id: string }).id]),
        brand_name: vectorFromArray(['Acme']),
        website: vectorFromArray(['acme.com']),
        created_at: vectorFromArray([ms], new TimestampMillisecond()),
      })
      const { created_at: _c, ...withoutColumn } = strip(p1)
      await e.ingestArrow({
        teams: tableFromJSON([strip(t)]),
        domains,
        prompts: tableFromJSON([withoutColumn]),
      })
      expect(await stored(e)).toEqual({
        domains: [{ id: DOMAIN, created_at: STORED }],
        prompts: [{ id: PROMPT, created_at: null }],
      })
    })
  })

  it('Parquet: an export keeps the milliseconds, and imports back', async () => {
    await withOpenEngine(async (source) => {
      await source.ingest(records())
      const dir = join(tmp, 'export')
      await source.exportParquet(dir)
      await withOpenEngine(async (copy) => {
        await copy.ingestFile(dir)
        expect(await stored(copy)).toEqual({ domains: EXPECTED_DOMAINS, prompts: EXPECTED_PROMPTS })
      })
    })
  })
})

describe('a bad created_at is refused, naming the record and the field; nothing is stored', () => {
  const BAD: Array<[unknown, RegExp]> = [
    ['2026-05-04T09:15:02', /with Z or an offset, or null/], // no offset
    ['2026-05-04', /with Z or an offset, or null/],
    ['yesterday', /with Z or an offset, or null/],
    [1777886102118, /with Z or an offset, or null/],
    ['2026-02-30T00:00:00Z', /with Z or an offset, or null/],
    ['0000-01-01T00:00:00+01:00', /years 0000 to 9999 once in UTC/],
  ]
  for (const [value, message] of BAD) {
    it(`${JSON.stringify(value)}`, async () => {
      await withOpenEngine(async (e) => {
        await e.ingest([team()])
        const before = await e.stats()
        const error = await e
          .ingest([
            domain(),
            prompt({ created_at: value as string }),
            domain({ id: OTHER_DOMAIN, created_at: value as string }),
          ])
          .catch((x: unknown) => x)
        expect(error).toBeInstanceOf(IngestError)
        expect((error as IngestError).issues).toEqual([
          { index: 1, field: 'created_at', message: expect.stringMatching(message) },
          { index: 2, field: 'created_at', message: expect.stringMatching(message) },
        ])
        expect(await e.stats()).toEqual(before)
      })
    })
  }

  it('NDJSON names the line, Arrow the table', async () => {
    await withOpenEngine(async (e) => {
      const file = join(tmp, 'bad.ndjson')
      writeFileSync(file, toNdjson([team(), domain({ created_at: '2026-05-04T09:15:02' })]))
      const error = await e.ingestFile(file).catch((x: unknown) => x)
      expect((error as IngestError).issues).toEqual([
        { line: 2, field: 'created_at', message: expect.stringMatching(/with Z or an offset/) },
      ])
      const arrow = await e
        .ingestArrow({ prompts: tableFromJSON([{ ...prompt(), type: undefined, created_at: 'soon' }]) })
        .catch((x: unknown) => x)
      expect((arrow as IngestError).issues).toContainEqual({
        index: 0,
        field: 'prompts.created_at',
        message: expect.stringMatching(/with Z or an offset/),
      })
      expect((await e.stats()).domains).toBe(0)
    })
  })
})
