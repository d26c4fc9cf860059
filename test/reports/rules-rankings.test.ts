/**
 * One focused test per rule of extensions.md sections 3-5 (listings, rankings, brand time series),
 * each on a tiny inline dataset, each named after its rule and written to fail if that rule broke.
 * Engine only; the reference model has its golden cases and the differential test.
 */
import { describe, expect, it } from 'vitest'
import { NotFoundError, ValidationError } from '../../src/index.js'
import type { AnalysisInputRecord, KeyScope } from '../../src/index.js'
import { domain, mention as m, prompt, team } from '../support/records.js'
import { analysis, base, C1, C2, C3, D, D2, NOW, P1, P2, P3, TEAM, withEngine } from '../support/inline.js'

const TEAM2 = '7ea00000-0000-4000-8000-000000000002'
const TEAM_OFF = '7ea00000-0000-4000-8000-000000000003'
const D3 = 'd0000000-0000-4000-8000-000000000003'

const T0 = '2026-11-20T10:00:00Z'
const T1 = '2026-11-19T10:00:00Z'

describe('3. listings', () => {
  const key = (over: Partial<KeyScope> = {}): KeyScope => ({
    teamId: TEAM,
    scopeTeamIds: [TEAM],
    allowedDomains: null,
    ...over,
  })
  const tenants = (): AnalysisInputRecord[] => [
    team({ id: TEAM, name: 'Team' }),
    team({ id: TEAM2, name: 'Two', plan: 'starter' }),
    team({ id: TEAM_OFF, name: 'Off', developer_access: false }),
    domain({ id: D, team_id: TEAM, brand_name: 'beta', website: null }),
    domain({ id: D2, team_id: TEAM, brand_name: 'Zeta', website: null }),
    domain({ id: D3, team_id: TEAM2, brand_name: 'Alpha', website: null }),
    domain({
      id: 'd0000000-0000-4000-8000-0000000000ff',
      team_id: TEAM_OFF,
      brand_name: 'Off',
      website: null,
    }),
  ]
  const ids = (r: { data: { items: { id: string }[] } }) => r.data.items.map((d) => d.id)

  it('validate: remaining counts this request and never goes below 0; reset_at in UTC', async () => {
    await withEngine(tenants(), async (e) => {
      const rateLimit = { limitPerMinute: 60, used: 1, resetAt: '2026-11-20T12:01:00-03:00' }
      const r = await e.computeKeyCheck({ key: key(), rateLimit, now: NOW })
      expect(r.data.rate_limit).toEqual({
        limit_per_minute: 60,
        remaining: 59,
        reset_at: '2026-11-20T15:01:00Z',
      })
      const over = await e.computeKeyCheck({ key: key(), rateLimit: { ...rateLimit, used: 61 }, now: NOW })
      expect(over.data.rate_limit.remaining).toBe(0)
    })
  })
  it('validate: the key team, its scope lower-cased, distinct and sorted; an unknown team is not found', async () => {
    await withEngine(tenants(), async (e) => {
      const rateLimit = { limitPerMinute: 60, used: 1, resetAt: NOW }
      const r = await e.computeKeyCheck({
        key: key({
          teamId: TEAM2.toUpperCase(),
          scopeTeamIds: [TEAM2, TEAM.toUpperCase(), TEAM2],
          allowedDomains: [D3, D],
        }),
        rateLimit,
        now: NOW,
      })
      expect(r.data).toMatchObject({
        team_id: TEAM2,
        team_name: 'Two',
        plan: 'starter',
        developer_access: true,
        scoped_team_ids: [TEAM, TEAM2],
        allowed_domains: [D, D3],
      })
      await expect(
        e.computeKeyCheck({ key: key({ teamId: 'eeeeeeee-0000-4000-8000-000000000000' }), rateLimit }),
      ).rejects.toBeInstanceOf(NotFoundError)
    })
  })
  it('domains: only the scoped teams with developer access, narrowed by the allowlist', async () => {
    await withEngine(tenants(), async (e) => {
      expect(ids(await e.computeDomainList({ key: key() }))).toEqual([D2, D])
      expect(ids(await e.computeDomainList({ key: key({ scopeTeamIds: [TEAM, TEAM2, TEAM_OFF] }) }))).toEqual(
        [D3, D2, D],
      )
      expect(
        ids(
          await e.computeDomainList({
            key: key({ scopeTeamIds: [TEAM, TEAM2], allowedDomains: [D3.toUpperCase()] }),
          }),
        ),
      ).toEqual([D3])
      expect(ids(await e.computeDomainList({ key: key({ scopeTeamIds: [TEAM_OFF] }) }))).toEqual([])
    })
  })
  it('domains: ordered by name in UTF-16 code units (capitals first), then id; one page of everything', async () => {
    const records = [
      ...tenants(),
      domain({
        id: 'd0000000-0000-4000-8000-000000000000',
        team_id: TEAM,
        brand_name: 'beta',
        website: null,
      }),
    ]
    await withEngine(records, async (e) => {
      const r = await e.computeDomainList({ key: key(), now: NOW })
      expect(r.data.items.map((d) => d.name)).toEqual(['Zeta', 'beta', 'beta'])
      expect(ids(r).slice(1)).toEqual(['d0000000-0000-4000-8000-000000000000', D])
      expect(r.data).toMatchObject({ total: 3, page: 1, size: 3, total_pages: 1 })
      const none = await e.computeDomainList({ key: key({ scopeTeamIds: [] }) })
      expect(none.data).toEqual({ items: [], total: 0, page: 1, size: 0, total_pages: 1 })
    })
  })
  it('domains: without a key (a local reader) every domain', async () => {
    await withEngine(tenants(), async (e) => {
      expect((await e.computeDomainList()).data.total).toBe(4)
    })
  })
  it('prompts: newest first by instant (offsets applied), unknown last, ties by id', async () => {
    const records = [
      ...base(),
      prompt({ id: P3, domain_id: D, created_at: '2026-03-01T07:00:00-03:00' }), // 10:00Z
      prompt({ id: P2, domain_id: D, created_at: '2026-03-01T10:00:00.0009Z' }), // 10:00:00.000Z
      prompt({ id: P1, domain_id: D, created_at: null }),
      prompt({
        id: 'f0000000-0000-4000-8000-000000000004',
        domain_id: D,
        created_at: '2026-03-01T09:59:59.999Z',
      }),
    ]
    await withEngine(records, async (e) => {
      const r = await e.computePromptList({ domainId: D, now: NOW })
      expect(ids(r)).toEqual([P2, P3, 'f0000000-0000-4000-8000-000000000004', P1])
      expect(r.data.items[0]!.created_at).toBe('2026-03-01T10:00:00.000Z')
    })
  })
  it('prompts: page of size, total_pages = max(1, ceil(total / size)); past the end no items', async () => {
    await withEngine(base(), async (e) => {
      const page = (page: number, size: number) => e.computePromptList({ domainId: D, page, size, now: NOW })
      expect((await page(2, 2)).data).toMatchObject({ total: 3, page: 2, size: 2, total_pages: 2 })
      expect((await page(2, 2)).data.items).toHaveLength(1)
      expect((await page(5, 2)).data.items).toEqual([])
      const r = await e.computePromptList({ domainId: D.toUpperCase(), now: NOW })
      expect([r.domain_id, r.page, r.size, r.data.total_pages]).toEqual([D, 1, 50, 1])
      await expect(page(0, 2)).rejects.toThrow('page must be an integer from 1 to 1000000000.')
      await expect(page(1, 501)).rejects.toThrow('size must be an integer from 1 to 500.')
    })
  })
  it('prompts: an unknown domain is not found', async () => {
    await withEngine(base(), async (e) => {
      await expect(e.computePromptList({ domainId: D2 })).rejects.toBeInstanceOf(NotFoundError)
    })
  })
})

describe('4. brand rankings', () => {
  const C: [string, string][] = [
    [C1, 'Globex'],
    [C2, 'Initech'],
    [C3, 'globex'],
  ]
  const rank = (records: AnalysisInputRecord[], model = 'all', days = 7) =>
    withEngine(records, (e) => e.computeBrandRankings({ domainId: D, days, model, now: NOW }))

  it('the brand first, then competitors by mentions desc, name (UTF-16), id', async () => {
    const r = await rank([...base({ competitors: C }), analysis(T0, [m(C2), m(C3)]), analysis(T0, [m(C2)])])
    expect(r.data.items.map((i) => i.name)).toEqual(['Acme', 'Initech', 'globex', 'Globex'])
    expect(r.data.items[0]).toMatchObject({ id: `user-brand-${D}`, website: 'acme.com', is_brand: true })
  })
  it('visibility = mentions / analyses * 100; sov = mentions / all entities mentions * 100', async () => {
    const r = await rank([
      ...base({ competitors: C }),
      analysis(T0, [m('brand'), m(C1)]),
      analysis(T0, [m('brand')]),
      analysis(T1, []),
    ])
    const [brand, globex] = r.data.items
    expect([brand!.mentions, brand!.visibility, brand!.sov]).toEqual([2, (2 * 100) / 3, (2 * 100) / 3])
    expect([globex!.mentions, globex!.visibility, globex!.sov]).toEqual([1, 100 / 3, 100 / 3])
  })
  it('avg_position: mean of the per-prompt means (not by mention); prompts without a position skipped', async () => {
    const r = await rank([
      ...base(),
      analysis(T0, [m('brand', 1)], { prompt_id: P1 }),
      analysis(T0, [m('brand', 1)], { prompt_id: P1 }),
      analysis(T0, [m('brand', 1)], { prompt_id: P1 }),
      analysis(T0, [m('brand', 5)], { prompt_id: P2 }),
      analysis(T0, [m('brand', null)], { prompt_id: P3 }),
    ])
    expect(r.data.items[0]!.avg_position).toBe(3) // (1 + 5) / 2, where by mention it would be 2
    const none = await rank([...base(), analysis(T0, [m('brand', null)])])
    expect(none.data.items[0]!.avg_position).toBeNull()
  })
  it('prompts_mentioned: distinct prompts mentioning; total_prompts: distinct prompts with an analysis', async () => {
    const r = await rank([
      ...base({ competitors: C }),
      analysis(T0, [m('brand')], { prompt_id: P1 }),
      analysis(T1, [m('brand')], { prompt_id: P1, channel: 'claude' }),
      analysis(T0, [m(C1)], { prompt_id: P2 }),
      analysis(T0, [], { prompt_id: P3 }),
    ])
    expect(r.data.items.map((i) => [i.prompts_mentioned, i.total_prompts])).toEqual([
      [1, 3],
      [1, 3],
      [0, 3],
      [0, 3],
    ])
  })
  it('zeros when nothing is mentioned (sov 0, not NaN); empty items only without competitors and analyses', async () => {
    const quiet = await rank([...base({ competitors: C }), analysis(T0, [])])
    expect(quiet.data.items.map((i) => [i.mentions, i.visibility, i.sov, i.avg_position])).toEqual(
      Array(4).fill([0, 0, 0, null]),
    )
    expect((await rank(base())).data.items).toEqual([])
    const noAnalysis = await rank(base({ competitors: C }))
    expect(noAnalysis.data.items.map((i) => [i.visibility, i.total_prompts])).toEqual(Array(4).fill([0, 0]))
    expect((await rank([...base(), analysis(T0, [])])).data.items).toHaveLength(1)
  })
  it('the window and the model filter: a channel, a raw model id, an unseen raw model id', async () => {
    const records = [
      ...base({ competitors: C }),
      analysis(T0, [m('brand', 2)], { channel: 'chatgpt', model: 'gpt-5' }),
      analysis(T0, [m(C1, 1)], { channel: 'copilot', model: 'gpt-5' }),
      analysis(T0, [m(C2, 3)], { channel: 'chatgpt', model: 'gpt-4o' }),
      analysis('2026-11-13T23:59:59Z', [m(C3)], { channel: 'chatgpt', model: 'gpt-5' }),
    ]
    const mentions = async (model: string, days = 7) =>
      Object.fromEntries((await rank(records, model, days)).data.items.map((i) => [i.name, i.mentions]))
    expect(await mentions('all')).toEqual({ Acme: 1, Globex: 1, Initech: 1, globex: 0 })
    expect(await mentions('all', 8)).toEqual({ Acme: 1, Globex: 1, Initech: 1, globex: 1 })
    expect(await mentions('chatgpt')).toEqual({ Acme: 1, Globex: 0, Initech: 1, globex: 0 })
    expect(await mentions('gpt-5')).toEqual({ Acme: 1, Globex: 1, Initech: 0, globex: 0 })
    const raw = await rank(records, 'gpt-5')
    expect(raw.data.items[0]).toMatchObject({ visibility: 50, avg_position: 2, total_prompts: 1 })
    const unseen = await rank(records, 'gpt-6')
    expect(unseen.model).toBe('gpt-6')
    expect(unseen.data.items.every((i) => i.mentions === 0 && i.total_prompts === 0)).toBe(true)
  })
})

describe('4. model leaderboard', () => {
  it('one item per channel with analyses; visibility; position weighted by mention; order by visibility then name', async () => {
    const r = await withEngine(
      [
        ...base(),
        analysis(T0, [m('brand', 1)], { channel: 'perplexity' }),
        analysis(T0, [m('brand', 4)], { channel: 'perplexity', prompt_id: P2 }),
        analysis(T0, [m('brand', 4)], { channel: 'perplexity', prompt_id: P2 }),
        analysis(T0, [m('brand', null)], { channel: 'claude' }),
        analysis(T0, [], { channel: 'claude' }),
        analysis(T0, [m('brand', 2)], { channel: 'chatgpt' }),
        analysis(T0, [], { channel: 'chatgpt' }),
        analysis(T0, [], { channel: 'gemini' }),
      ],
      (e) => e.computeModelLeaderboard({ domainId: D, days: 7, now: NOW }),
    )
    expect(r.data.items).toEqual([
      { model: 'perplexity', visibility: 100, avg_position: 3, mentions: 3, responses: 3 },
      { model: 'chatgpt', visibility: 50, avg_position: 2, mentions: 1, responses: 2 },
      { model: 'claude', visibility: 50, avg_position: null, mentions: 1, responses: 2 },
      { model: 'gemini', visibility: 0, avg_position: null, mentions: 0, responses: 1 },
    ])
    expect(Object.keys(r)).toEqual(['data', 'domain_id', 'days', 'generated_at'])
  })
  it('takes no model: the library refuses it, naming it', async () => {
    await withEngine(base(), async (e) => {
      const params = { domainId: D, model: 'chatgpt' } as never
      await expect(e.computeModelLeaderboard(params)).rejects.toBeInstanceOf(ValidationError)
      await expect(e.computeModelLeaderboard(params)).rejects.toThrow('unknown parameter model.')
    })
  })
})

describe('5. brand time series', () => {
  const series = (
    records: AnalysisInputRecord[],
    metric: 'visibility' | 'mentions' | 'citations' | 'citability',
    model = 'all',
  ) =>
    withEngine(
      records,
      async (e) => (await e.computeBrandSeries({ domainId: D, days: 7, model, metric, now: NOW })).data.items,
    )
  const cite = (...urls: string[]) => ({ citations: urls.map((url) => ({ url })) })

  it('dates: those with an analysis passing the filter, ascending; none: empty', async () => {
    const records = [...base(), analysis(T0, [m('brand')], { channel: 'claude' }), analysis(T1, [])]
    expect((await series(records, 'mentions')).map((p) => p.date)).toEqual(['2026-11-19', '2026-11-20'])
    expect((await series(records, 'mentions', 'claude')).map((p) => p.date)).toEqual(['2026-11-20'])
    expect(await series(records, 'mentions', 'gpt-6')).toEqual([])
  })
  it('visibility: brand-mentioning analyses / analyses * 100; mentions: their number', async () => {
    const records = [...base(), analysis(T0, [m('brand')]), analysis(T0, [m('brand')]), analysis(T0, [])]
    expect(await series(records, 'visibility')).toEqual([{ date: '2026-11-20', value: (2 * 100) / 3 }])
    expect(await series(records, 'mentions')).toEqual([{ date: '2026-11-20', value: 2 }])
  })
  it('citations: every entry on the site or a subdomain, www. ignored; look-alikes and paths do not count', async () => {
    const records = [
      ...base({ website: 'https://www.Acme.com/en' }),
      analysis(
        T0,
        [],
        cite(
          'https://acme.com/a',
          'https://acme.com/a',
          'https://WWW.acme.com/b',
          'https://blog.acme.com/',
          'https://notacme.com/',
          'https://acme.com.evil.net/',
          'https://other.org/acme.com',
        ),
      ),
    ]
    expect(await series(records, 'citations')).toEqual([{ date: '2026-11-20', value: 4 }])
    expect(await series(records, 'citability')).toEqual([{ date: '2026-11-20', value: (4 * 100) / 7 }])
  })
  it('citations: none without a website; citability 0 on a date without citations', async () => {
    const records = [...base({ website: null }), analysis(T0, [], cite('https://acme.com/'))]
    expect(await series(records, 'citations')).toEqual([{ date: '2026-11-20', value: 0 }])
    expect(await series([...base(), analysis(T0, [])], 'citability')).toEqual([
      { date: '2026-11-20', value: 0 },
    ])
  })
  it('citations: a changed website re-counts the stored days; a re-ingested analysis replaces its citations', async () => {
    const a = analysis(T1, [], cite('https://acme.com/', 'https://globex.com/'))
    await withEngine([...base(), a], async (e) => {
      const value = async () =>
        (await e.computeBrandSeries({ domainId: D, days: 7, metric: 'citations', now: NOW })).data.items[0]
          ?.value
      expect(await value()).toBe(1)
      await e.ingest([domain({ id: D, team_id: TEAM, brand_name: 'Acme', website: 'globex.com' })])
      expect(await value()).toBe(1)
      await e.ingest([domain({ id: D, team_id: TEAM, brand_name: 'Acme', website: 'example.net' })])
      expect(await value()).toBe(0)
      await e.ingest([
        { ...a, citations: [{ url: 'https://example.net/' }, { url: 'https://x.example.net/' }] },
      ])
      expect(await value()).toBe(2)
    })
  })
  it('a raw model id reads the same numbers for that model alone', async () => {
    const records = [
      ...base(),
      analysis(T0, [m('brand')], { channel: 'chatgpt', model: 'gpt-5', ...cite('https://acme.com/') }),
      analysis(T0, [], { channel: 'copilot', model: 'gpt-5', ...cite('https://x.org/') }),
      analysis(T0, [m('brand')], { channel: 'chatgpt', model: 'gpt-4o', ...cite('https://acme.com/') }),
    ]
    expect(await series(records, 'visibility', 'gpt-5')).toEqual([{ date: '2026-11-20', value: 50 }])
    expect(await series(records, 'citability', 'gpt-5')).toEqual([{ date: '2026-11-20', value: 50 }])
    expect(await series(records, 'citability', 'chatgpt')).toEqual([{ date: '2026-11-20', value: 100 }])
  })
  it('metric must be one of the four', async () => {
    await withEngine(base(), async (e) => {
      await expect(e.computeBrandSeries({ domainId: D, metric: 'sov' as never })).rejects.toThrow(
        'metric must be one of visibility, mentions, citations, citability.',
      )
    })
  })
})
