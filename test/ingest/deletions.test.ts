/**
 * Delete records (docs/API.md, "Delete records"): one test per rule, on small hand-made data.
 * Cascades and their counts, deletions before upserts, the refusal of a call that deletes an
 * entity and upserts it or anything under it, ids not stored, bad delete records, every ingest
 * path, the keys of a deleted team; and the cascade's coverage of the schema: every stored table
 * is reached (so a table added later fails here until it joins the cascade).
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { tableFromJSON } from 'apache-arrow'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IngestError, openEngine, type Engine, type IngestResult } from '../../src/index.js'
import {
  DELETION_SQL,
  DELETION_STEPS,
  LOCAL_INDEX_COLUMNS,
  NO_DELETIONS,
} from '../../src/ingest/deletions.js'
import { INGEST_STEPS } from '../../src/ingest/pipeline.js'
import {
  analysis,
  base,
  COMPETITOR,
  competitor,
  DOMAIN,
  domain,
  mention,
  NOW,
  OTHER_DOMAIN,
  OTHER_PROMPT,
  PROMPT,
  prompt,
  TEAM,
  team,
  THEME,
  theme,
  toNdjson,
} from '../support/records.js'

const OTHER_TEAM = '0a9c2f4e-1b7d-4c3a-9e8f-5d6b7a8c9d02'
const SECOND_COMPETITOR = 'c0000000-0000-4000-8000-00000000000b'
const SECOND_THEME = 'e0000000-0000-4000-8000-000000000002'
const NEVER_STORED = 'f0000000-0000-4000-8000-000000000000'
const A1 = 'a1000000-0000-4000-8000-000000000001'
const A2 = 'a1000000-0000-4000-8000-000000000002'
const A3 = 'a1000000-0000-4000-8000-000000000003'
/** TEAM's second domain and OTHER_TEAM's second domain: every team has several domains. */
const SIDE_DOMAIN = '7d2a8e3c-0b4f-4a5d-9c1e-3f4a5b6c7d8e'
const SIDE_PROMPT = '55555555-5555-4555-8555-555555555555'
const SIDE_COMPETITOR = 'c0000000-0000-4000-8000-00000000000c'
const SIDE_THEME = 'e0000000-0000-4000-8000-000000000003'
const OTHER_SIDE_DOMAIN = '8e3b9f4d-1c5a-4b6e-8d2f-4a5b6c7d8e9f'
const OTHER_SIDE_PROMPT = '66666666-6666-4666-8666-666666666666'

const del = (entity: string, id: string) => ({ type: 'delete', entity, id })

/**
 * Two teams of two domains each (a cascade that stops at a team's first domain fails here):
 * TEAM with DOMAIN (two prompts, two competitors, two themes, three analyses) and SIDE_DOMAIN (one
 * prompt, competitor and theme, two analyses); OTHER_TEAM with OTHER_DOMAIN (one prompt, one
 * analysis) and OTHER_SIDE_DOMAIN (one prompt, one analysis).
 */
const dataset = () => [
  ...base(),
  prompt({ id: OTHER_PROMPT, text: 'second prompt' }),
  competitor({ id: SECOND_COMPETITOR, name: 'Initech', website: 'initech.com' }),
  theme({ id: SECOND_THEME, name: 'Price', sentiment: 'negative' }),
  analysis({
    id: A1,
    mentions: [mention('brand', 1, 80), mention(COMPETITOR, 2, 40), mention(SECOND_COMPETITOR, 3, 10)],
    citations: [{ url: 'https://www.acme.com/a' }, { url: 'https://globex.com/' }],
    themes: [
      { theme_id: THEME, occurrences: 2 },
      { theme_id: SECOND_THEME, occurrences: 1 },
    ],
  }),
  analysis({
    id: A2,
    prompt_id: OTHER_PROMPT,
    answered_at: '2026-11-18T10:00:00Z',
    mentions: [mention(COMPETITOR, 1, 60)],
  }),
  analysis({
    id: A3,
    answered_at: '2026-11-17T23:30:00-03:00',
    themes: [{ theme_id: SECOND_THEME, occurrences: 3 }],
  }),
  team({ id: OTHER_TEAM, name: 'Other' }),
  domain({ id: OTHER_DOMAIN, team_id: OTHER_TEAM, brand_name: 'Other', website: 'other.org' }),
  prompt({ id: '33333333-3333-4333-8333-333333333333', domain_id: OTHER_DOMAIN, text: 'other prompt' }),
  analysis({
    domain_id: OTHER_DOMAIN,
    prompt_id: '33333333-3333-4333-8333-333333333333',
    mentions: [mention('brand', 1, 50)],
    citations: [],
    themes: [],
  }),
  domain({ id: SIDE_DOMAIN, brand_name: 'Acme Labs', website: 'acmelabs.io' }),
  prompt({ id: SIDE_PROMPT, domain_id: SIDE_DOMAIN, text: 'side prompt' }),
  competitor({ id: SIDE_COMPETITOR, domain_id: SIDE_DOMAIN, name: 'Umbrella', website: 'umbrella.com' }),
  theme({ id: SIDE_THEME, domain_id: SIDE_DOMAIN, name: 'Support', sentiment: 'positive' }),
  ...['2026-11-19T09:00:00Z', '2026-11-12T09:00:00Z'].map((answered_at) =>
    analysis({
      domain_id: SIDE_DOMAIN,
      prompt_id: SIDE_PROMPT,
      answered_at,
      mentions: [mention('brand', 2, 70), mention(SIDE_COMPETITOR, 1, 30)],
      citations: [{ url: 'https://umbrella.com/x' }],
      themes: [{ theme_id: SIDE_THEME, occurrences: 1 }],
    }),
  ),
  domain({ id: OTHER_SIDE_DOMAIN, team_id: OTHER_TEAM, brand_name: 'Other Side', website: 'other.net' }),
  prompt({ id: OTHER_SIDE_PROMPT, domain_id: OTHER_SIDE_DOMAIN, text: 'other side prompt' }),
  analysis({
    domain_id: OTHER_SIDE_DOMAIN,
    prompt_id: OTHER_SIDE_PROMPT,
    mentions: [mention('brand', 1, 20)],
    citations: [],
    themes: [],
  }),
]

/** Every payload of a domain at NOW (or the error's name when it throws). */
async function payloads(e: Engine, domainId: string) {
  const out: unknown[] = []
  for (const days of [1, 7, 30]) {
    const p = { domainId, days, now: NOW }
    for (const run of [
      () => e.computePromptSeries(p),
      () => e.computeCompetitorSeries(p),
      () => e.computeSentimentOverview(p),
      () => e.computeSentimentThemes(p),
    ])
      out.push(await run().catch((x: Error) => x.name))
  }
  return out
}

/** An engine that never saw what the deletions took: the dataset's records, filtered. */
async function without(
  keep: (r: Record<string, unknown>) => boolean,
  edit = (r: Record<string, unknown>) => r,
) {
  const e = await openEngine()
  await e.ingest(
    dataset()
      .map((r) => edit({ ...r }))
      .filter(keep),
  )
  return e
}

let engine: Engine
beforeEach(async () => {
  engine = await openEngine()
  await engine.ingest(dataset())
})
afterEach(() => engine.close())

const ZERO = NO_DELETIONS
const deleted = (r: IngestResult) => r.deleted

describe('cascades: each delete takes what lies under it, and the store is as if it had never been ingested', () => {
  it('an analysis takes its mentions, citations and theme occurrences', async () => {
    const r = await engine.ingest([del('analysis', A1)])
    expect(deleted(r)).toEqual({ ...ZERO, analyses: 1, mentions: 3, citations: 2, theme_occurrences: 2 })
    const fresh = await without((r) => r.id !== A1)
    expect(await payloads(engine, DOMAIN)).toEqual(await payloads(fresh, DOMAIN))
    await fresh.close()
  })

  it('a prompt takes its analyses (and the prompts left keep their order)', async () => {
    const r = await engine.ingest([del('prompt', PROMPT)])
    expect(deleted(r)).toEqual({
      ...ZERO,
      prompts: 1,
      analyses: 2,
      mentions: 4,
      citations: 3,
      theme_occurrences: 3,
    })
    const fresh = await without((r) => r.id !== PROMPT && r.prompt_id !== PROMPT)
    expect(await payloads(engine, DOMAIN)).toEqual(await payloads(fresh, DOMAIN))
    await fresh.close()
  })

  it('a competitor takes its mentions, not the analyses', async () => {
    const r = await engine.ingest([del('competitor', COMPETITOR)])
    expect(deleted(r)).toEqual({ ...ZERO, competitors: 1, mentions: 2 })
    const dropMentions = (r: Record<string, unknown>) =>
      r.type === 'analysis'
        ? {
            ...r,
            mentions: (r.mentions as { entity_id: string }[]).filter((m) => m.entity_id !== COMPETITOR),
          }
        : r
    const fresh = await without((r) => r.id !== COMPETITOR, dropMentions)
    expect(await payloads(engine, DOMAIN)).toEqual(await payloads(fresh, DOMAIN))
    expect(await engine.stats()).toEqual(await fresh.stats())
    await fresh.close()
  })

  it('a theme takes its occurrences, not the analyses', async () => {
    const r = await engine.ingest([del('theme', SECOND_THEME)])
    expect(deleted(r)).toEqual({ ...ZERO, themes: 1, theme_occurrences: 2 })
    const dropOccurrences = (r: Record<string, unknown>) =>
      r.type === 'analysis'
        ? { ...r, themes: (r.themes as { theme_id: string }[]).filter((t) => t.theme_id !== SECOND_THEME) }
        : r
    const fresh = await without((r) => r.id !== SECOND_THEME, dropOccurrences)
    expect(await payloads(engine, DOMAIN)).toEqual(await payloads(fresh, DOMAIN))
    await fresh.close()
  })

  it('a domain takes its prompts, competitors, themes and analyses; the other domain is untouched', async () => {
    const other = await payloads(engine, OTHER_DOMAIN)
    const r = await engine.ingest([del('domain', DOMAIN)])
    expect(deleted(r)).toEqual({
      ...ZERO,
      domains: 1,
      prompts: 2,
      competitors: 2,
      themes: 2,
      analyses: 3,
      mentions: 5,
      citations: 4,
      theme_occurrences: 4,
    })
    expect(await engine.getDomain(DOMAIN)).toBeNull()
    await expect(engine.computePromptSeries({ domainId: DOMAIN })).rejects.toThrow(/not found/)
    expect(await payloads(engine, OTHER_DOMAIN)).toEqual(other)
    expect((await engine.computeDomainList()).data.items.map((d) => d.id).sort()).toEqual(
      [SIDE_DOMAIN, OTHER_DOMAIN, OTHER_SIDE_DOMAIN].sort(),
    )
  })

  it('a team takes all its domains and its API keys, active or revoked, refused from the next call', async () => {
    const { key } = await engine.createApiKey({ teamId: TEAM })
    const revoked = await engine.createApiKey({ teamId: TEAM })
    await engine.revokeApiKey(revoked.info.id)
    const { key: otherKey } = await engine.createApiKey({ teamId: OTHER_TEAM })
    const r = await engine.ingest([del('team', TEAM.toUpperCase())])
    expect(deleted(r)).toEqual({
      ...ZERO,
      teams: 1,
      domains: 2,
      prompts: 3,
      competitors: 3,
      themes: 3,
      analyses: 5,
      mentions: 9,
      citations: 6,
      theme_occurrences: 6,
      api_keys: 2,
    })
    expect(await engine.verifyApiKey(key)).toBeNull()
    expect(await engine.verifyApiKey(otherKey)).not.toBeNull()
    expect((await engine.listApiKeys()).map((k) => k.team_id)).toEqual([OTHER_TEAM])
    expect(await engine.getTeam(TEAM)).toBeNull()
    for (const id of [DOMAIN, SIDE_DOMAIN]) {
      expect(await engine.getDomain(id), id).toBeNull()
      await expect(engine.computePromptSeries({ domainId: id }), id).rejects.toThrow(/not found/)
    }
    const gone = new Set([DOMAIN, SIDE_DOMAIN])
    const fresh = await without((r) => r.id !== TEAM && r.team_id !== TEAM && !gone.has(String(r.domain_id)))
    expect(await engine.stats()).toEqual(await fresh.stats())
    for (const id of [OTHER_DOMAIN, OTHER_SIDE_DOMAIN])
      expect(await payloads(engine, id)).toEqual(await payloads(fresh, id))
    await fresh.close()
  })

  it('ids not stored are counted, not refused; a repeated delete counts once', async () => {
    const before = await engine.stats()
    const r = await engine.ingest([
      del('team', NEVER_STORED),
      del('analysis', NEVER_STORED),
      del('analysis', NEVER_STORED),
      del('prompt', COMPETITOR), // a competitor's id is no prompt's
    ])
    expect(deleted(r)).toEqual({ ...ZERO, not_found: 3 })
    expect(await engine.stats()).toEqual(before)
  })

  it('a delete inside a deleted domain is found, not counted as missing', async () => {
    const r = await engine.ingest([del('prompt', PROMPT), del('domain', DOMAIN), del('analysis', A1)])
    expect(deleted(r)).toMatchObject({ domains: 1, prompts: 2, analyses: 3, not_found: 0 })
  })
})

describe('deletions apply first, then the upserts of the same call', () => {
  it('deleting a prompt and adding another one to the same domain in one call', async () => {
    const added = prompt({ id: '44444444-4444-4444-8444-444444444444', text: 'new prompt' })
    const r = await engine.ingest([analysis({ prompt_id: added.id }), del('prompt', PROMPT), added])
    expect(r).toMatchObject({ prompts: 1, analyses: 1, deleted: { prompts: 1, analyses: 2 } })
    const fresh = await without((x) => x.id !== PROMPT && x.prompt_id !== PROMPT)
    await fresh.ingest([added, analysis({ prompt_id: added.id })])
    expect(await payloads(engine, DOMAIN)).toEqual(await payloads(fresh, DOMAIN))
    await fresh.close()
  })

  it('an entity deleted in one call can come back in a later one', async () => {
    await engine.ingest([del('competitor', COMPETITOR)])
    await engine.ingest([competitor(), analysis({ mentions: [mention(COMPETITOR, 1, 90)] })])
    const items = (await engine.computeCompetitorSeries({ domainId: DOMAIN, now: NOW })).data.items
    expect(items.map((i) => i.name)).toContain('Globex')
  })
})

describe('a call that deletes an entity and upserts it or anything under it is refused, nothing stored', () => {
  const refusal = async (records: unknown[]) => {
    const before = await engine.stats()
    const keys = await engine.listApiKeys()
    const error = await engine.ingest(records).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(IngestError)
    expect(await engine.stats()).toEqual(before)
    expect(await engine.listApiKeys()).toEqual(keys)
    return (error as IngestError).issues
  }

  it('the entity itself', async () => {
    expect(await refusal([del('competitor', COMPETITOR), competitor({ name: 'Globex 2' })])).toEqual([
      {
        index: 1,
        field: 'id',
        message: expect.stringMatching(
          /competitor c0000000-.* is deleted by this call; a call cannot delete an entity and upsert it/,
        ),
      },
    ])
  })

  it('a domain of a deleted team, a prompt of a deleted domain', async () => {
    expect(await refusal([domain({ brand_name: 'x' }), del('team', TEAM)])).toEqual([
      { index: 0, field: 'id', message: expect.stringMatching(/domain 5b0e.* is deleted by this call/) },
    ])
    expect(await refusal([domain({ id: NEVER_STORED }), del('team', TEAM)])).toEqual([
      { index: 0, field: 'team_id', message: expect.stringMatching(/team 0a9c.* is deleted by this call/) },
    ])
    expect(await refusal([del('domain', DOMAIN), prompt({ id: NEVER_STORED })])).toEqual([
      { index: 1, field: 'domain_id', message: expect.stringMatching(/domain .* is deleted by this call/) },
    ])
  })

  it('an analysis mentioning a deleted competitor or citing a deleted theme, or of a deleted prompt', async () => {
    const issues = await refusal([
      del('competitor', COMPETITOR),
      del('theme', THEME),
      del('prompt', OTHER_PROMPT),
      analysis({ mentions: [mention(COMPETITOR, 1, 1)] }),
      analysis({ prompt_id: OTHER_PROMPT, themes: [] }),
    ])
    expect(issues).toEqual([
      { index: 4, field: 'prompt_id', message: expect.stringMatching(/prompt 2222.* is deleted/) },
      {
        index: 3,
        field: 'mentions[0].entity_id',
        message: expect.stringMatching(/competitor .* is deleted/),
      },
      { index: 3, field: 'themes[0].theme_id', message: expect.stringMatching(/theme .* is deleted/) },
    ])
  })

  it('an analysis deleted by id, or stored under a deleted prompt, upserted again (named at the delete record)', async () => {
    expect(await refusal([del('analysis', A2), analysis({ id: A2 })])).toEqual([
      {
        index: 0,
        field: 'id',
        message: expect.stringMatching(
          /analysis a1000000-.*-000000000002 is deleted and upserted by this call/,
        ),
      },
    ])
    // A1 is stored under PROMPT; the call moves it to OTHER_PROMPT while deleting PROMPT.
    expect(await refusal([del('prompt', PROMPT), analysis({ id: A1, prompt_id: OTHER_PROMPT })])).toEqual([
      {
        index: 0,
        field: 'id',
        message: expect.stringMatching(
          /prompt 1111.*, which holds analysis a1000000-.*-000000000001, is deleted and upserted/,
        ),
      },
    ])
  })

  it('a bad record anywhere in the call keeps the deletions from happening too', async () => {
    await refusal([del('domain', DOMAIN), analysis({ domain_id: OTHER_DOMAIN, channel: 'nope' as never })])
  })
})

describe('bad delete records are refused, naming record and field', () => {
  const cases: Array<[string, unknown, string, RegExp]> = [
    [
      'unknown entity',
      { type: 'delete', entity: 'mention', id: A1 },
      'entity',
      /must be one of team, domain, prompt, competitor, theme, analysis/,
    ],
    ['malformed id', { type: 'delete', entity: 'analysis', id: 'a1000000-0000' }, 'id', /must be a UUID/],
    ['missing id', { type: 'delete', entity: 'analysis' }, 'id', /is required/],
    ['missing entity', { type: 'delete', id: A1 }, 'entity', /is required/],
    [
      'extra field',
      { type: 'delete', entity: 'analysis', id: A1, cascade: false },
      'cascade',
      /unknown field/,
    ],
  ]
  for (const [name, record, field, message] of cases) {
    it(name, async () => {
      const before = await engine.stats()
      const error = await engine.ingest([del('analysis', A1), record]).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(IngestError)
      expect((error as IngestError).issues).toEqual([
        { index: 1, field, message: expect.stringMatching(message) },
      ])
      expect(await engine.stats()).toEqual(before)
    })
  }
})

describe('every ingest path carries delete records', () => {
  const expected = { ...ZERO, analyses: 1, mentions: 3, citations: 2, theme_occurrences: 2, not_found: 1 }
  const records = [del('analysis', A1), del('domain', NEVER_STORED)]

  for (const worker of ['never', 'always']) {
    it(`NDJSON file (worker: ${worker})`, async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'va-del-')), 'deletes.ndjson')
      writeFileSync(file, toNdjson(records))
      const saved = process.env.VA_INGEST_WORKER
      process.env.VA_INGEST_WORKER = worker
      try {
        expect(deleted(await engine.ingestFile(file))).toEqual(expected)
      } finally {
        if (saved === undefined) delete process.env.VA_INGEST_WORKER
        else process.env.VA_INGEST_WORKER = saved
      }
    })
  }

  it('NDJSON file: a bad delete names its line', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'va-del-')), 'bad.ndjson')
    writeFileSync(file, toNdjson([del('analysis', A1), del('frog', A1)]))
    const error = await engine.ingestFile(file).catch((e: unknown) => e)
    expect((error as IngestError).issues).toEqual([
      { line: 2, field: 'entity', message: expect.stringMatching(/must be one of/) },
    ])
  })

  it('JS objects', async () => {
    expect(deleted(await engine.ingest(records))).toEqual(expected)
  })

  it('Arrow: a `deletes` table of (entity, id); a bad row names the table', async () => {
    const r = await engine.ingestArrow({
      deletes: tableFromJSON([
        { entity: 'analysis', id: A1 },
        { entity: 'domain', id: NEVER_STORED },
      ]),
    })
    expect(deleted(r)).toEqual(expected)
    const error = await engine
      .ingestArrow({ deletes: tableFromJSON([{ entity: 'frog', id: A2 }]) })
      .catch((e: unknown) => e)
    expect((error as IngestError).issues).toEqual([
      { index: 0, field: 'deletes.entity', message: expect.stringMatching(/must be one of/) },
    ])
  })

  it('Parquet exports carry no deletes: an export of a store after deletions is the store', async () => {
    await engine.ingest([del('prompt', PROMPT)])
    const dir = join(mkdtempSync(join(tmpdir(), 'va-del-')), 'export')
    await engine.exportParquet(dir)
    const copy = await openEngine({ parquet: dir })
    expect(await payloads(copy, DOMAIN)).toEqual(await payloads(engine, DOMAIN))
    await copy.close()
  })
})

describe('the cascade covers every stored table (a new table fails here until it joins; docs/ARCHITECTURE.md)', () => {
  const conn = (e: Engine) => (e as unknown as { write: DuckDBConnection }).write
  const columnsByTable = async () => {
    const rows = (
      await conn(engine).runAndReadAll(
        "SELECT table_name, column_name FROM duckdb_columns() WHERE database_name <> 'temp' AND schema_name = 'main' AND NOT internal ORDER BY 1",
      )
    ).getRowObjectsJson()
    const out = new Map<string, Set<string>>()
    for (const r of rows) {
      const t = String(r.table_name)
      if (!out.has(t)) out.set(t, new Set())
      out.get(t)!.add(String(r.column_name))
    }
    return out
  }
  const deletionSql = new Set(DELETION_STEPS.map((s) => s.sql))
  const aggregates = new Set(
    INGEST_STEPS.filter((s) => s.phase === 'aggregates').map((s) => s.id.replace(/^(clear|fill)_/, '')),
  )

  it('each table is an aggregate (recomputed), an analysis child (replace step), or has its own delete step', async () => {
    for (const [table, columns] of await columnsByTable()) {
      if (table === 'meta' || table === 'models') continue // no domain data: the schema version; raw model ids (global)
      // The webhooks' own tables (docs/WEBHOOKS.md) are kept by their service on its connection, with
      // their own retention; deleting a team does not remove its subscriptions yet (documented there).
      if (table.startsWith('webhook_')) continue
      if (table.startsWith('agg_')) {
        expect(aggregates.has(table), `${table}: clear_/fill_ steps in INGEST_STEPS`).toBe(true)
        continue
      }
      if (columns.has('analysis_key') && table !== 'analyses') {
        expect(
          deletionSql.has(`ingest/delete_old_${table}`),
          `${table}: a delete_old_ step in INGEST_STEPS`,
        ).toBe(true)
        continue
      }
      if (table === 'analyses') {
        expect(deletionSql.has('ingest/delete_old_analyses')).toBe(true)
        continue
      }
      expect(
        deletionSql.has(`delete/delete_${table}`),
        `${table}: a delete/delete_${table}.sql step in DELETION_STEPS`,
      ).toBe(true)
    }
  })

  it('each local index column outside the aggregates is renumbered', async () => {
    for (const [table, columns] of await columnsByTable()) {
      if (table.startsWith('agg_')) continue
      for (const column of Object.keys(LOCAL_INDEX_COLUMNS) as (keyof typeof LOCAL_INDEX_COLUMNS)[]) {
        if (!columns.has(column)) continue
        expect(LOCAL_INDEX_COLUMNS[column] as readonly string[], `${table}.${column}`).toContain(table)
        expect(deletionSql.has(`delete/renumber_${table}_${column}`)).toBe(true)
      }
    }
  })
})

describe('sql/delete', () => {
  const DIR = new URL('../../sql/delete/', import.meta.url).pathname
  it('every file is a step or a query of src/ingest/deletions.ts, and every one listed exists', () => {
    const onDisk = readdirSync(DIR).map((f) => `delete/${f.replace(/\.sql$/, '')}`)
    expect(DELETION_SQL.map((s) => s.sql).sort()).toEqual(onDisk.sort())
  })
  it('each header names its step and phase (or says it is a query)', () => {
    for (const { sql, phase } of DELETION_SQL) {
      const name = sql.replace(/^delete\//, '')
      const head = readFileSync(join(DIR, `${name}.sql`), 'utf8').split('\n')[0]
      expect(head, sql).toBe(
        phase === 'query'
          ? `-- Deletion query ${name} (src/ingest/deletions.ts), read before the pass runs.`
          : `-- Deletion step ${name}; phase ${phase} (the list: src/ingest/deletions.ts).`,
      )
    }
  })
})
