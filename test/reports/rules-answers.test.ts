/**
 * The answers listing's rules (docs/API.md, "GET /api/v1/answers"): order and keyset paging,
 * tamper-evident cursors, the key that signs them, filters, items and plans.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { openEngine, type Engine } from '../../src/index.js'
import type { AnswersParams, AnswersPayload } from '../../src/reports/index.js'
import { answerIndex } from '../../src/reports/answers/index-rows.js'
import { answerDetails } from '../../src/reports/answers/details.js'
import {
  analysis,
  base,
  COMPETITOR,
  competitor,
  DOMAIN,
  mention,
  NOW,
  OTHER_DOMAIN,
  OTHER_PROMPT,
  PROMPT,
  prompt,
  team,
  THEME,
  theme,
  domain,
} from '../support/records.js'

const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'va-answers-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const id = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const at = (day: number, hour = 10) =>
  `2026-11-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`

/** Pages through every answer of a query; each page's cursor is the previous page's next_cursor. */
async function all(engine: Engine, params: AnswersParams): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = []
  let cursor: string | undefined
  let pages = 0
  for (let i = 0; i < 1000; i++) {
    const page: AnswersPayload = await engine.computeAnswers({
      ...params,
      ...(cursor === undefined ? {} : { cursor }),
      now: NOW,
    })
    pages++
    ids.push(...page.data.items.map((x) => x.id))
    if (page.data.next_cursor === null) return { ids, pages }
    cursor = page.data.next_cursor
  }
  throw new Error('too many pages')
}

describe('order and keyset paging', () => {
  it('answered_at descending, then id descending; pages chain to the full list with no repeat', async () => {
    const engine = await openEngine()
    // Ties on answered_at: ids 3, 5 and 4 at the same instant -> 5, 4, 3.
    await engine.ingest([
      ...base(),
      analysis({ id: id(1), answered_at: at(18) }),
      analysis({ id: id(3), answered_at: at(19) }),
      analysis({ id: id(5), answered_at: at(19) }),
      analysis({ id: id(4), answered_at: at(19) }),
      analysis({ id: id(2), answered_at: at(20, 9) }),
    ])
    const first = await engine.computeAnswers({ domainId: DOMAIN, limit: 2, now: NOW })
    expect(first.data.items.map((x) => x.id)).toEqual([id(2), id(5)])
    expect(typeof first.data.next_cursor).toBe('string')
    const paged = await all(engine, { domainId: DOMAIN, limit: 2 })
    expect(paged).toEqual({ ids: [id(2), id(5), id(4), id(3), id(1)], pages: 3 })
    // The page holding the last item has no next cursor (exactly full: 5 items by 5).
    expect((await all(engine, { domainId: DOMAIN, limit: 5 })).pages).toBe(1)
    await engine.close()
  })

  it('ingest between two pages neither repeats nor skips an analysis that was there before', async () => {
    const engine = await openEngine()
    await engine.ingest([
      ...base(),
      ...[1, 2, 3, 4].map((n) => analysis({ id: id(n), answered_at: at(10 + n) })),
    ])
    const first = await engine.computeAnswers({ domainId: DOMAIN, limit: 2, now: NOW })
    expect(first.data.items.map((x) => x.id)).toEqual([id(4), id(3)])
    // Newer analyses (before the cursor) and one older (after it) land between the pages.
    await engine.ingest([
      analysis({ id: id(9), answered_at: at(19) }),
      analysis({ id: id(8), answered_at: at(14) }),
      analysis({ id: id(7), answered_at: at(12, 12) }),
    ])
    const second = await engine.computeAnswers({
      domainId: DOMAIN,
      limit: 2,
      cursor: first.data.next_cursor!,
      now: NOW,
    })
    expect(second.data.items.map((x) => x.id)).toEqual([id(7), id(2)])
    const third = await engine.computeAnswers({
      domainId: DOMAIN,
      limit: 2,
      cursor: second.data.next_cursor!,
      now: NOW,
    })
    expect(third.data.items.map((x) => x.id)).toEqual([id(1)])
    expect(third.data.next_cursor).toBeNull()
    await engine.close()
  })
})

describe('the index after a commit', () => {
  it('is refreshed for the changed days alone and equals the index built from the whole history', async () => {
    const engine = await openEngine()
    // Days 2-18, three analyses a day; every third mentions the competitor.
    const day = (d: number, n: number) =>
      analysis({
        id: id(d * 10 + n),
        answered_at: at(d, 8 + n),
        mentions: n === 0 ? [mention(COMPETITOR, 1)] : [mention('brand', 1)],
      })
    await engine.ingest([
      ...base(),
      ...[...Array(17).keys()].flatMap((i) => [0, 1, 2].map((n) => day(i + 2, n))),
    ])
    const views = async () => ({
      all: (await all(engine, { domainId: DOMAIN, limit: 4 })).ids,
      competitor: (await all(engine, { domainId: DOMAIN, limit: 4, entity: COMPETITOR })).ids,
    })
    const before = await views()
    expect(before.all).toHaveLength(51)
    expect(before.competitor).toHaveLength(17)
    // One call: a new analysis on day 9, one moved from day 5 to day 12 (now with the competitor),
    // another of day 5 no longer mentioning it; days 5-12 change, the rest are kept.
    await engine.ingest([
      analysis({
        id: id(999),
        answered_at: at(9, 20),
        mentions: [mention(COMPETITOR, 2), mention('brand', 1)],
      }),
      analysis({ id: id(51), answered_at: at(12, 21), mentions: [mention(COMPETITOR, 1)] }),
      analysis({ id: id(50), answered_at: at(5, 8), mentions: [] }),
    ])
    const builds = [vi.spyOn(answerIndex, 'build'), vi.spyOn(answerDetails, 'build')]
    const refreshes = [vi.spyOn(answerIndex, 'refresh'), vi.spyOn(answerDetails, 'refresh')]
    const refreshed = await views()
    for (const spy of builds) expect(spy).not.toHaveBeenCalled()
    for (const spy of refreshes) expect(spy).toHaveBeenCalledTimes(1)
    const internals = engine as unknown as {
      aggregates: { invalidate(keys: number[]): void; stats(): { misses: number } }
      catalog: { domains: Map<string, { key: number }> }
    }
    internals.aggregates.invalidate([internals.catalog.domains.get(DOMAIN)!.key])
    const rebuilt = await views()
    expect(refreshed).toEqual(rebuilt)
    vi.restoreAllMocks()
    expect(refreshed.all).toHaveLength(52)
    expect(refreshed.all.indexOf(id(51))).toBe(refreshed.all.indexOf(id(122)) - 1)
    expect(refreshed.competitor).toEqual(
      [...before.competitor, id(999), id(51)]
        .filter((x) => x !== id(50))
        .sort((a, b) => rebuilt.all.indexOf(a) - rebuilt.all.indexOf(b)),
    )
    await engine.close()
  })
})

describe('cursors', () => {
  const records = () => [...base(), ...[1, 2, 3].map((n) => analysis({ id: id(n), answered_at: at(10 + n) }))]
  const refused = { name: 'ValidationError', issues: [{ path: 'cursor' }] }

  it('a malformed, altered or other-parameter cursor is refused naming cursor', async () => {
    const engine = await openEngine()
    await engine.ingest(records())
    const cursor = (await engine.computeAnswers({ domainId: DOMAIN, limit: 1, now: NOW })).data.next_cursor!
    const ok = await engine.computeAnswers({ domainId: DOMAIN, limit: 1, cursor, now: NOW })
    expect(ok.data.items.map((x) => x.id)).toEqual([id(2)])
    expect(ok.cursor).toBe(cursor)
    const [pos, mac] = cursor.split('.') as [string, string]
    // Another position, signed with the old signature.
    const moved = Buffer.from(Buffer.from(pos, 'base64url').toString().replace(id(3), id(1))).toString(
      'base64url',
    )
    const flipped = mac.slice(0, -2) + (mac.at(-2) === 'A' ? 'B' : 'A') + mac.at(-1)
    for (const bad of [`${moved}.${mac}`, `${pos}.${flipped}`, 'x.y', `${pos}.${mac}x`]) {
      await expect(
        engine.computeAnswers({ domainId: DOMAIN, limit: 1, cursor: bad, now: NOW }),
      ).rejects.toMatchObject({ name: 'ValidationError' })
    }
    // Other parameters: limit, model, days, a filter.
    for (const other of [
      { limit: 2 },
      { model: 'chatgpt' },
      { days: 7 },
      { entity: 'brand' },
      { country: 'DE' },
    ]) {
      await expect(
        engine.computeAnswers({ domainId: DOMAIN, limit: 1, ...other, cursor, now: NOW }),
      ).rejects.toMatchObject(refused)
    }
    await engine.close()
  })

  it('the key survives a restart; engines sharing cursorSecret accept each other’s cursors, others do not', async () => {
    const dir = tmp()
    const path = join(dir, 'a.duckdb')
    const a = await openEngine({ path })
    await a.ingest(records())
    const cursor = (await a.computeAnswers({ domainId: DOMAIN, limit: 1, now: NOW })).data.next_cursor!
    await a.close()
    const again = await openEngine({ path })
    expect(
      (await again.computeAnswers({ domainId: DOMAIN, limit: 1, cursor, now: NOW })).data.items[0]!.id,
    ).toBe(id(2))
    await again.close()
    // Another store (another shard): its own stored key refuses the cursor ...
    const other = await openEngine({ path: join(dir, 'b.duckdb') })
    await other.ingest(records())
    await expect(
      other.computeAnswers({ domainId: DOMAIN, limit: 1, cursor, now: NOW }),
    ).rejects.toMatchObject(refused)
    await other.close()
    // ... and with one secret, a cursor of one engine pages on the other (a move between shards).
    const secret = 'a shared cursor secret of the fleet'
    const one = await openEngine({ path: join(dir, 'c.duckdb'), cursorSecret: secret })
    const two = await openEngine({ path: join(dir, 'd.duckdb'), cursorSecret: secret })
    await one.ingest(records())
    await two.ingest(records())
    const shared = (await one.computeAnswers({ domainId: DOMAIN, limit: 1, now: NOW })).data.next_cursor!
    expect(
      (await two.computeAnswers({ domainId: DOMAIN, limit: 1, cursor: shared, now: NOW })).data.items[0]!.id,
    ).toBe(id(2))
    const three = await openEngine({ cursorSecret: 'another secret, sixteen+' })
    await three.ingest(records())
    await expect(
      three.computeAnswers({ domainId: DOMAIN, limit: 1, cursor: shared, now: NOW }),
    ).rejects.toMatchObject(refused)
    await Promise.all([one.close(), two.close(), three.close()])
  })
})

describe('filters', () => {
  const C2 = 'c0000000-0000-4000-8000-00000000000b'
  const records = () => [
    ...base(),
    competitor({ id: C2, name: 'Initech', website: null }),
    prompt({ id: OTHER_PROMPT, text: 'cheapest crm', topic: 'Pricing', tags: ['b2b'] }),
    team({ id: '0a9c2f4e-1b7d-4c3a-9e8f-5d6b7a8c9d02' }),
    domain({ id: OTHER_DOMAIN, team_id: '0a9c2f4e-1b7d-4c3a-9e8f-5d6b7a8c9d02' }),
    prompt({ id: '33333333-3333-4333-8333-333333333333', domain_id: OTHER_DOMAIN }),
    analysis({ id: id(1), answered_at: at(11), mentions: [mention(COMPETITOR, 1)] }),
    analysis({ id: id(2), answered_at: at(12), channel: 'perplexity', model: 'sonar', country: 'de' }),
    analysis({ id: id(3), answered_at: at(13), prompt_id: OTHER_PROMPT, mentions: [] }),
    analysis({ id: id(4), answered_at: '2026-09-01T10:00:00Z' }),
  ]
  const ids = async (engine: Engine, over: Partial<AnswersParams>) =>
    (await all(engine, { domainId: DOMAIN, ...over })).ids

  it('window, model, country, topic, tag, prompt_id and entity', async () => {
    const engine = await openEngine()
    await engine.ingest(records())
    expect(await ids(engine, {})).toEqual([id(3), id(2), id(1)])
    expect(await ids(engine, { days: 365 })).toEqual([id(3), id(2), id(1), id(4)])
    expect(await ids(engine, { startDate: '2026-11-12', endDate: '2026-11-12' })).toEqual([id(2)])
    expect(await ids(engine, { model: 'perplexity' })).toEqual([id(2)])
    expect(await ids(engine, { model: 'gpt-4o' })).toEqual([id(3), id(1)])
    expect(await ids(engine, { model: 'never-seen' })).toEqual([])
    expect(await ids(engine, { country: 'de' })).toEqual([id(2)])
    expect(await ids(engine, { country: 'FR' })).toEqual([])
    expect(await ids(engine, { topic: ' Pricing ' })).toEqual([id(3)])
    expect(await ids(engine, { topic: 'pricing' })).toEqual([])
    expect(await ids(engine, { tag: 'b2b' })).toEqual([id(3)])
    expect(await ids(engine, { promptId: OTHER_PROMPT.toUpperCase() })).toEqual([id(3)])
    // A prompt of another domain, or unknown: the empty result.
    expect(await ids(engine, { promptId: '33333333-3333-4333-8333-333333333333' })).toEqual([])
    expect(await ids(engine, { promptId: '44444444-4444-4444-8444-444444444444' })).toEqual([])
    expect(await ids(engine, { entity: 'brand' })).toEqual([id(2)])
    expect(await ids(engine, { entity: COMPETITOR })).toEqual([id(1)])
    expect(await ids(engine, { entity: C2 })).toEqual([])
    // A UUID that is no competitor of the domain: empty; anything else: refused.
    expect(await ids(engine, { entity: PROMPT })).toEqual([])
    await expect(engine.computeAnswers({ domainId: DOMAIN, entity: 'Acme', now: NOW })).rejects.toMatchObject(
      {
        issues: [{ path: 'entity' }],
      },
    )
    await expect(
      engine.computeAnswers({ domainId: DOMAIN, promptId: 'nope', now: NOW }),
    ).rejects.toMatchObject({
      issues: [{ path: 'prompt_id' }],
    })
    await expect(
      engine.computeAnswers({ domainId: DOMAIN, granularity: 'week', now: NOW } as AnswersParams),
    ).rejects.toMatchObject({ issues: [{ path: 'granularity' }] })
    for (const limit of [0, 101, 1.5]) {
      await expect(engine.computeAnswers({ domainId: DOMAIN, limit, now: NOW })).rejects.toMatchObject({
        issues: [{ path: 'limit' }],
      })
    }
    await engine.close()
  })
})

describe('items', () => {
  it('every field as docs/API.md says: mentions by position then id, citations in order, themes by id, queries trimmed', async () => {
    const engine = await openEngine()
    const T2 = 'e0000000-0000-4000-8000-000000000002'
    const T3 = 'e0000000-0000-4000-8000-000000000003'
    await engine.ingest([
      ...base(),
      theme({ id: T2, name: 'Price', custom_name: 'Pricing', sentiment: 'negative' }),
      theme({ id: T3, name: 'Old', archived: true }),
      analysis({
        id: id(1),
        answered_at: '2026-11-19T10:00:00.123Z',
        country: 'us',
        response: 'Acme is the best. Globex too.',
        mentions: [mention(COMPETITOR, null, 10), mention('brand', 2, 33.3)],
        citations: [
          { url: 'https://Docs.Globex.com/x?y=1', title: 'Globex docs', page_type: 'docs' },
          { url: 'https://www.acme.com/a' },
        ],
        themes: [
          { theme_id: T3, occurrences: 1 },
          { theme_id: T2, occurrences: 3 },
          { theme_id: THEME, occurrences: 2 },
        ],
        fanout_queries: ['  best pm tool ', 'acme', 'acme'],
      }),
    ])
    const page = await engine.computeAnswers({ domainId: DOMAIN, now: NOW })
    expect(page.data.items).toEqual([
      {
        id: id(1),
        prompt_id: PROMPT,
        prompt_text: 'best project management tool',
        channel: 'chatgpt',
        model: 'gpt-4o',
        country: 'US',
        answered_at: '2026-11-19T10:00:00.123Z',
        response: 'Acme is the best. Globex too.',
        mentions: [
          { entity_id: `user-brand-${DOMAIN}`, name: 'Acme', is_brand: true, position: 2, sentiment: 33.3 },
          { entity_id: COMPETITOR, name: 'Globex', is_brand: false, position: null, sentiment: 10 },
        ],
        citations: [
          {
            url: 'https://Docs.Globex.com/x?y=1',
            domain: 'docs.globex.com',
            title: 'Globex docs',
            page_type: 'docs',
          },
          { url: 'https://www.acme.com/a', domain: 'acme.com', title: null, page_type: null },
        ],
        themes: [
          { id: THEME, name: 'Ease of use', sentiment: 'positive', occurrences: 2 },
          { id: T2, name: 'Pricing', sentiment: 'negative', occurrences: 3 },
        ],
        fanout_queries: ['best pm tool', 'acme', 'acme'],
      },
    ])
    // model, like the filters, is echoed only when given (all included), after limit.
    expect(Object.keys(page)).toEqual(['data', 'domain_id', 'days', 'limit', 'generated_at'])
    for (const model of ['all', 'chatgpt']) {
      const given = await engine.computeAnswers({ domainId: DOMAIN, model, now: NOW })
      expect(Object.keys(given), model).toEqual([
        'data',
        'domain_id',
        'days',
        'limit',
        'model',
        'generated_at',
      ])
      expect(given.model).toBe(model)
    }
    // A plan without sentiment: every item's themes is [].
    await engine.ingest([team({ plan: 'starter' })])
    const starter = await engine.computeAnswers({ domainId: DOMAIN, now: NOW })
    expect(starter.data.items[0]!.themes).toEqual([])
    expect(starter.data.items[0]!.mentions).toHaveLength(2)
    await engine.close()
  })
})
