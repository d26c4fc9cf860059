/**
 * One focused test per rule of semantics.md sections 2-7 (and the ingest rules that show in the
 * payloads), each on a tiny inline dataset, each named after its rule and written to fail if that
 * rule broke. Engine only; the reference model has its own checks (golden cases, the spec example).
 */
import { endpointById } from '../../src/api/report-rows.js'
import { payloadProblems } from '../support/golden.js'
import { describe, expect, it } from 'vitest'
import { isValidationError, openEngine } from '../../src/index.js'
import type { AnalysisInputRecord, Engine } from '../../src/index.js'
import { mention, theme as buildTheme } from '../support/records.js'
import { analysis, base, C1, C2, C3, D, D2, NOW, P1, P2, P3, TEAM, withEngine } from '../support/inline.js'

const T1 = 'e0000000-0000-4000-8000-000000000001'
const T2 = 'e0000000-0000-4000-8000-000000000002'
const T3 = 'e0000000-0000-4000-8000-000000000003'

function theme(
  id: string,
  sentiment: 'positive' | 'negative',
  extra: { archived?: boolean; custom_name?: string | null; name?: string } = {},
): AnalysisInputRecord {
  return buildTheme({ id, domain_id: D, name: `theme ${id.slice(-2)}`, sentiment, ...extra })
}

const m = mention

/** The prompt series' dates of P1 (the first item), or [] when it is absent. */
async function promptDates(records: AnalysisInputRecord[], days = 7, now = NOW): Promise<string[]> {
  return withEngine(records, async (e) => {
    const r = await e.computePromptSeries({ domainId: D, days, now })
    return r.data.items.find((i) => i.id === P1)?.series.map((s) => s.date) ?? []
  })
}

describe('2. the window', () => {
  it('window: an analysis at 23:30-03:00 counts on the next UTC date', async () => {
    expect(await promptDates([...base(), analysis('2026-11-18T23:30:00-03:00', [m('brand')])])).toEqual([
      '2026-11-19',
    ])
  })
  it('window: an analysis at 01:00+05:30 counts on the previous UTC date', async () => {
    expect(await promptDates([...base(), analysis('2026-11-19T01:00:00+05:30', [m('brand')])])).toEqual([
      '2026-11-18',
    ])
  })
  it('window: day 1 (today - days + 1) from 00:00:00Z is in, the second before is out', async () => {
    const records = [
      ...base(),
      analysis('2026-11-14T00:00:00Z', [m('brand')]),
      analysis('2026-11-13T23:59:59Z', [m('brand')]),
      analysis('2026-11-14T02:00:00+05:30', [m('brand')]),
    ]
    expect(await promptDates(records, 7)).toEqual(['2026-11-14'])
    expect(await promptDates(records, 8)).toEqual(['2026-11-13', '2026-11-14'])
  })
  it('window: an analysis later today than now counts; tomorrow (UTC) does not', async () => {
    const records = [
      ...base(),
      analysis('2026-11-20T23:59:59Z', [m('brand')]),
      analysis('2026-11-21T00:00:00Z', [m('brand')]),
      analysis('2026-11-20T21:00:00-03:00', [m('brand')]),
    ]
    expect(await promptDates(records, 1)).toEqual(['2026-11-20'])
    const r = await withEngine(records, (e) => e.computePromptSeries({ domainId: D, days: 1, now: NOW }))
    expect(r.data.items[0]?.series[0]?.responses).toBe(1)
  })
  it('window: today is the UTC date of now, also when now carries an offset or is a Date', async () => {
    const records = [
      ...base(),
      analysis('2026-11-20T10:00:00Z', [m('brand')]),
      analysis('2026-11-21T10:00:00Z', [m('brand')]),
    ]
    expect(await promptDates(records, 1, '2026-11-21T02:00:00+05:30')).toEqual(['2026-11-20'])
    expect(await promptDates(records, 1, '2026-11-20T22:00:00-03:00')).toEqual(['2026-11-21'])
    const viaDate = await withEngine(records, (e) =>
      e.computePromptSeries({ domainId: D, days: 1, now: new Date('2026-11-21T02:00:00+05:30') }),
    )
    expect(viaDate.data.items[0]?.series.map((s) => s.date)).toEqual(['2026-11-20'])
  })
  it('window: days defaults to 30 (and limit to 25, model to all)', async () => {
    const records = [
      ...base(),
      analysis('2026-10-22T00:00:00Z', [m('brand')]),
      analysis('2026-10-21T23:59:59Z', [m('brand')]),
    ]
    await withEngine(records, async (e) => {
      const p = await e.computePromptSeries({ domainId: D, now: NOW })
      expect([p.days, p.limit]).toEqual([30, 25])
      expect(p.data.items[0]?.series.map((s) => s.date)).toEqual(['2026-10-22'])
      const c = await e.computeCompetitorSeries({ domainId: D, now: NOW })
      expect([c.days, c.model]).toEqual([30, 'all'])
      const s = await e.computeSentimentThemes({ domainId: D, now: NOW })
      expect([s.days, s.model]).toEqual([30, 'all'])
    })
  })
  it('generated_at: now in UTC, with milliseconds only when they are not zero', async () => {
    await withEngine(base(), async (e) => {
      expect(
        (await e.computeSentimentOverview({ domainId: D, now: '2026-11-21T02:00:00+05:30' })).generated_at,
      ).toBe('2026-11-20T20:30:00Z')
      expect(
        (await e.computeSentimentOverview({ domainId: D, now: '2026-11-20T15:00:00.120Z' })).generated_at,
      ).toBe('2026-11-20T15:00:00.120Z')
    })
  })
  it('generated_at: the current time when now is not given', async () => {
    await withEngine(base(), async (e) => {
      const before = Date.now()
      const r = await e.computeSentimentOverview({ domainId: D })
      const at = Date.parse(r.generated_at)
      expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000)
      expect(at).toBeLessThanOrEqual(Date.now())
      expect(r.generated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/)
    })
  })
})

describe('3. the model filter', () => {
  const records = (): AnalysisInputRecord[] => [
    ...base({ themes: [theme(T1, 'positive'), theme(T2, 'negative'), theme(T3, 'positive')] }),
    analysis('2026-11-20T01:00:00Z', [m('brand')], {
      channel: 'chatgpt',
      model: 'gpt-4o',
      themes: [{ theme_id: T1, occurrences: 1 }],
    }),
    analysis('2026-11-20T02:00:00Z', [], {
      channel: 'copilot',
      model: 'gpt-4o',
      themes: [{ theme_id: T2, occurrences: 2 }],
    }),
    analysis('2026-11-20T03:00:00Z', [m('brand')], {
      channel: 'google-ai-mode',
      model: 'gemini',
      themes: [{ theme_id: T3, occurrences: 4 }],
    }),
  ]
  const total = async (e: Engine, model?: string): Promise<number> =>
    (
      await e.computeSentimentOverview({
        domainId: D,
        days: 7,
        now: NOW,
        ...(model === undefined ? {} : { model }),
      })
    ).data.total_mentions

  it('model: all (the default) keeps every analysis', async () => {
    await withEngine(records(), async (e) => {
      expect(await total(e)).toBe(7)
      expect(await total(e, 'all')).toBe(7)
    })
  })
  it('model: a channel name keeps the analyses of that channel', async () => {
    await withEngine(records(), async (e) => {
      expect(await total(e, 'copilot')).toBe(2)
      const c = await e.computeCompetitorSeries({ domainId: D, days: 7, now: NOW, model: 'google-ai-mode' })
      expect(c.data.items[0]?.series.map((s) => [s.mentions, s.visibility])).toEqual([[1, 100]])
    })
  })
  it('model: a raw model id keeps the analyses whose model equals it exactly, on any channel', async () => {
    await withEngine(records(), async (e) => {
      expect(await total(e, 'gpt-4o')).toBe(3)
      expect(await total(e, 'GPT-4o')).toBe(0)
    })
  })
  it('model: a channel name is a channel, even when some analysis has that raw model id', async () => {
    await withEngine(records(), async (e) => expect(await total(e, 'gemini')).toBe(0))
  })
  it('model: a raw id never seen gives the empty result, not an error', async () => {
    await withEngine(records(), async (e) => {
      const t = await e.computeSentimentThemes({ domainId: D, days: 7, now: NOW, model: 'never-seen-1' })
      expect(t.data.items).toEqual([])
      expect(t.model).toBe('never-seen-1')
    })
  })
  it('model: the competitor endpoint takes only all or a channel name', async () => {
    await withEngine(records(), async (e) => {
      const err = await e
        .computeCompetitorSeries({ domainId: D, model: 'gpt-4o', now: NOW })
        .catch((x: unknown) => x)
      expect(isValidationError(err)).toBe(true)
    })
  })
  it('model: the prompt series counts every channel', async () => {
    await withEngine(records(), async (e) => {
      const p = await e.computePromptSeries({ domainId: D, days: 7, now: NOW })
      expect(p.data.items[0]?.series[0]).toMatchObject({ responses: 3, mentions: 2 })
    })
  })
})

describe('4. prompt time series', () => {
  it('prompts: one datapoint per UTC date with an analysis of the prompt, ascending', async () => {
    expect(
      await promptDates([
        ...base(),
        analysis('2026-11-19T10:00:00Z', [m('brand')]),
        analysis('2026-11-16T10:00:00Z', []),
        analysis('2026-11-19T11:00:00Z', []),
      ]),
    ).toEqual(['2026-11-16', '2026-11-19'])
  })
  it('prompts: responses counts analyses, mentions those that mention the brand (not competitors)', async () => {
    const records = [
      ...base({ competitors: [[C1, 'Globex']] }),
      analysis('2026-11-19T10:00:00Z', [m('brand')]),
      analysis('2026-11-19T11:00:00Z', [m(C1)]),
      analysis('2026-11-19T12:00:00Z', []),
    ]
    const r = await withEngine(records, (e) => e.computePromptSeries({ domainId: D, days: 7, now: NOW }))
    expect(r.data.items[0]?.series[0]).toMatchObject({ responses: 3, mentions: 1 })
  })
  it('prompts: avg_position is the mean of non-null brand positions that date, null when none', async () => {
    const records = [
      ...base({ competitors: [[C1, 'Globex']] }),
      analysis('2026-11-18T10:00:00Z', [m('brand', 1), m(C1, 9)]),
      analysis('2026-11-18T11:00:00Z', [m('brand', 2)]),
      analysis('2026-11-18T12:00:00Z', [m('brand', null)]),
      analysis('2026-11-19T10:00:00Z', [m('brand', null), m(C1, 1)]),
    ]
    const r = await withEngine(records, (e) => e.computePromptSeries({ domainId: D, days: 7, now: NOW }))
    expect(r.data.items[0]?.series.map((s) => s.avg_position)).toEqual([1.5, null])
  })
  const citing = (website: string | null, urls: string[]): Promise<number | undefined> =>
    withEngine(
      [
        ...base({ website }),
        analysis('2026-11-19T10:00:00Z', [m('brand')], { citations: urls.map((url) => ({ url })) }),
      ],
      async (e) =>
        (await e.computePromptSeries({ domainId: D, days: 7, now: NOW })).data.items[0]?.series[0]?.citations,
    )
  it('prompts: citations count the website and its subdomains, a leading www. ignored on both sides, any case, http or https', async () => {
    const urls = [
      'https://acme.com/a',
      'http://www.acme.com',
      'https://blog.acme.com/x',
      'https://WWW.ACME.COM/',
      'https://www.blog.acme.com/',
    ]
    expect(await citing('www.acme.com', urls)).toBe(5)
    expect(await citing('acme.com', urls)).toBe(5)
    expect(await citing('https://www.acme.com/en', urls)).toBe(5)
  })
  it('prompts: look-alike hosts are not citations of the site', async () => {
    const urls = [
      'https://acme.com.evil.net/',
      'https://notacme.com/',
      'https://wwwacme.com/',
      'https://acme.com@evil.net/',
      'https://evil.net/acme.com',
      'https://acme.co/',
    ]
    expect(await citing('acme.com', urls)).toBe(0)
  })
  it('prompts: a website on a subdomain does not match its parent', async () => {
    expect(
      await citing('shop.acme.com', [
        'https://acme.com/',
        'https://www.acme.com/shop',
        'https://eu.shop.acme.com/',
      ]),
    ).toBe(1)
  })
  it('prompts: no website, no citations', async () => {
    expect(await citing(null, ['https://acme.com/a', 'https://www.acme.com/'])).toBe(0)
  })
  it('prompts: prompts without a brand mention in the window are left out', async () => {
    const records = [
      ...base(),
      analysis('2026-11-19T10:00:00Z', [], { prompt_id: P1 }),
      analysis('2026-11-01T10:00:00Z', [m('brand')], { prompt_id: P2 }),
      analysis('2026-11-19T10:00:00Z', [m('brand')], { prompt_id: P3 }),
    ]
    const r = await withEngine(records, (e) => e.computePromptSeries({ domainId: D, days: 7, now: NOW }))
    expect(r.data.items.map((i) => i.id)).toEqual([P3])
  })
  it('prompts: ranked by total mentions descending, then by id; limit caps after ranking', async () => {
    const records = [
      ...base(),
      analysis('2026-11-19T10:00:00Z', [m('brand')], { prompt_id: P3 }),
      analysis('2026-11-18T10:00:00Z', [m('brand')], { prompt_id: P3 }),
      analysis('2026-11-19T10:00:00Z', [m('brand')], { prompt_id: P2 }),
      analysis('2026-11-19T11:00:00Z', [m('brand')], { prompt_id: P1 }),
    ]
    await withEngine(records, async (e) => {
      expect(
        (await e.computePromptSeries({ domainId: D, days: 7, now: NOW })).data.items.map((i) => i.id),
      ).toEqual([P3, P1, P2])
      expect(
        (await e.computePromptSeries({ domainId: D, days: 7, limit: 2, now: NOW })).data.items.map(
          (i) => i.id,
        ),
      ).toEqual([P3, P1])
    })
  })
  it('prompts: only the prompts of the requested domain', async () => {
    const P9 = 'f0000000-0000-4000-8000-000000000009'
    const records: AnalysisInputRecord[] = [
      ...base(),
      { type: 'domain', id: D2, team_id: TEAM, brand_name: 'Other', website: null },
      { type: 'prompt', id: P9, domain_id: D2, text: 'other', estimated_search_volume: 3 },
      analysis('2026-11-19T10:00:00Z', [m('brand')], { domain_id: D2, prompt_id: P9 }),
    ]
    await withEngine(records, async (e) => {
      expect((await e.computePromptSeries({ domainId: D, days: 7, now: NOW })).data.items).toEqual([])
      expect(
        (await e.computePromptSeries({ domainId: D2, days: 7, now: NOW })).data.items.map((i) => i.id),
      ).toEqual([P9])
    })
  })
})

describe('5. competitor time series', () => {
  const series = (records: AnalysisInputRecord[], model = 'all') =>
    withEngine(records, (e) => e.computeCompetitorSeries({ domainId: D, days: 7, now: NOW, model }))

  it('competitors: every entity has a datapoint on each date with an analysis after the model filter', async () => {
    const r = await series(
      [
        ...base({ competitors: [[C1, 'Globex']] }),
        analysis('2026-11-17T10:00:00Z', [m(C1)]),
        analysis('2026-11-19T10:00:00Z', [m('brand')], { channel: 'claude', model: 'claude-4' }),
        analysis('2026-11-20T10:00:00Z', []),
      ],
      'chatgpt',
    )
    expect(r.data.items.map((i) => i.series.map((s) => s.date))).toEqual([
      ['2026-11-17', '2026-11-20'],
      ['2026-11-17', '2026-11-20'],
    ])
  })
  it("competitors: visibility = mentions / analyses * 100 and sov = mentions / all entities' mentions * 100", async () => {
    const r = await series([
      ...base({ competitors: [[C1, 'Globex']] }),
      analysis('2026-11-19T10:00:00Z', [m('brand'), m(C1)]),
      analysis('2026-11-19T11:00:00Z', [m(C1)]),
      analysis('2026-11-19T12:00:00Z', []),
    ])
    const [brand, globex] = r.data.items
    expect(brand?.series[0]).toMatchObject({ mentions: 1, visibility: 100 / 3, sov: 100 / 3 })
    expect(globex?.series[0]).toMatchObject({ mentions: 2, visibility: 200 / 3, sov: 200 / 3 })
  })
  it('competitors: sov is 0 on a date when no entity is mentioned', async () => {
    const r = await series([...base({ competitors: [[C1, 'Globex']] }), analysis('2026-11-19T10:00:00Z', [])])
    expect(r.data.items.map((i) => i.series[0]?.sov)).toEqual([0, 0])
  })
  it('competitors: daily avg_position and sentiment are means of non-null values, 0 when none (a sentiment of 0 counts)', async () => {
    const r = await series([
      ...base(),
      analysis('2026-11-19T10:00:00Z', [m('brand', 1, 0)]),
      analysis('2026-11-19T11:00:00Z', [m('brand', null, 90)]),
      analysis('2026-11-19T12:00:00Z', [m('brand', 4, null)]),
      analysis('2026-11-20T12:00:00Z', [m('brand', null, null)]),
    ])
    expect(r.data.items[0]?.series.map((s) => [s.avg_position, s.sentiment])).toEqual([
      [2.5, 45],
      [0, 0],
    ])
  })
  it('competitors: avg_position and avg_sentiment are weighted by mention, not by day', async () => {
    const r = await series([
      ...base(),
      analysis('2026-11-18T10:00:00Z', [m('brand', 1, 10)]),
      analysis('2026-11-18T11:00:00Z', [m('brand', 1, 10)]),
      analysis('2026-11-19T10:00:00Z', [m('brand', 4, 100)]),
    ])
    expect(r.data.items[0]).toMatchObject({ avg_position: 2, avg_sentiment: 40 })
  })
  it('competitors: avg_mentions, avg_visibility and avg_sov are means of the daily values, zero days included', async () => {
    const r = await series([
      ...base({ competitors: [[C1, 'Globex']] }),
      analysis('2026-11-18T10:00:00Z', [m('brand'), m(C1)]),
      analysis('2026-11-18T11:00:00Z', [m('brand'), m(C1)]),
      analysis('2026-11-19T10:00:00Z', [m(C1)]),
      analysis('2026-11-20T10:00:00Z', []),
    ])
    // brand: mentions 2, 0, 0; visibility 100, 0, 0; sov 50, 0, 0
    expect(r.data.items[0]).toMatchObject({ avg_mentions: 2 / 3, avg_visibility: 100 / 3, avg_sov: 50 / 3 })
  })
  it('competitors: total_queries counts the distinct prompts with an analysis mentioning the entity', async () => {
    const r = await series([
      ...base({ competitors: [[C1, 'Globex']] }),
      analysis('2026-11-18T10:00:00Z', [m('brand')], { prompt_id: P1 }),
      analysis('2026-11-19T10:00:00Z', [m('brand')], { prompt_id: P1 }),
      analysis('2026-11-19T11:00:00Z', [m('brand'), m(C1)], { prompt_id: P2 }),
      analysis('2026-11-19T12:00:00Z', [], { prompt_id: P3 }),
    ])
    expect(r.data.items.map((i) => i.total_queries)).toEqual([2, 1])
  })
  it('competitors: the brand row comes first: user-brand-<domain_id>, brand_name, website, is_brand', async () => {
    const r = await series([
      ...base({ website: 'https://www.acme.com/en', competitors: [[C1, 'Globex']] }),
      analysis('2026-11-19T10:00:00Z', [m(C1)]),
    ])
    expect(r.data.items.map((i) => [i.id, i.name, i.website, i.is_brand])).toEqual([
      [`user-brand-${D}`, 'Acme', 'https://www.acme.com/en', true],
      [C1, 'Globex', null, false],
    ])
  })
  it('competitors: ordered by avg_visibility descending, then name, then id', async () => {
    const r = await series([
      ...base({
        competitors: [
          [C3, 'Alpha'],
          [C2, 'Beta'],
          [C1, 'Alpha'],
        ],
      }),
      analysis('2026-11-19T10:00:00Z', [m(C1), m(C2), m(C3)]),
      analysis('2026-11-19T11:00:00Z', [m(C2)]),
    ])
    expect(r.data.items.map((i) => i.id)).toEqual([`user-brand-${D}`, C2, C1, C3])
  })
  it('competitors: no competitors and no analysis in the window: empty items', async () => {
    const r = await series([...base(), analysis('2026-10-01T10:00:00Z', [m('brand')])])
    expect(r.data.items).toEqual([])
  })
  it('competitors: competitors but no analysis in the window: every row, empty series, zeroed averages', async () => {
    const r = await series(
      [...base({ competitors: [[C1, 'Globex']] }), analysis('2026-11-20T10:00:00Z', [m('brand')])],
      'perplexity',
    )
    for (const item of r.data.items) {
      expect(item).toMatchObject({
        avg_mentions: 0,
        avg_position: 0,
        avg_visibility: 0,
        avg_sov: 0,
        avg_sentiment: 0,
        total_queries: 0,
        series: [],
      })
    }
    expect(r.data.items).toHaveLength(2)
  })
  it('competitors: no competitors but analyses: the brand row alone', async () => {
    const r = await series([...base(), analysis('2026-11-20T10:00:00Z', [])])
    expect(r.data.items.map((i) => i.id)).toEqual([`user-brand-${D}`])
  })
  it("competitors: another domain's competitors never show up", async () => {
    const C9 = 'c0000000-0000-4000-8000-000000000009'
    const P9 = 'f0000000-0000-4000-8000-000000000009'
    const r = await series([
      ...base(),
      { type: 'domain', id: D2, team_id: TEAM, brand_name: 'Other', website: null },
      { type: 'prompt', id: P9, domain_id: D2, text: 'other', estimated_search_volume: null },
      { type: 'competitor', id: C9, domain_id: D2, name: 'Elsewhere', website: null },
      analysis('2026-11-19T10:00:00Z', [m(C9)], { domain_id: D2, prompt_id: P9 }),
      analysis('2026-11-19T10:00:00Z', [m('brand')]),
    ])
    expect(r.data.items.map((i) => i.name)).toEqual(['Acme'])
    expect(r.data.items[0]?.series[0]?.sov).toBe(100)
  })
})

describe('6. sentiment', () => {
  const themes = (records: AnalysisInputRecord[], model = 'all') =>
    withEngine(records, (e) => e.computeSentimentThemes({ domainId: D, days: 7, now: NOW, model }))
  const overview = (records: AnalysisInputRecord[], model = 'all') =>
    withEngine(records, (e) => e.computeSentimentOverview({ domainId: D, days: 7, now: NOW, model }))
  const occ = (theme_id: string, occurrences: number) => ({ theme_id, occurrences })

  it('themes: archived themes are left out', async () => {
    const r = await themes([
      ...base({ themes: [theme(T1, 'positive', { archived: true }), theme(T2, 'negative')] }),
      analysis('2026-11-19T10:00:00Z', [], { themes: [occ(T1, 5), occ(T2, 1)] }),
    ])
    expect(r.data.items.map((i) => i.id)).toEqual([T2])
  })
  it('themes: name is custom_name when set, else name; created_at as stored', async () => {
    const r = await themes([
      ...base({
        themes: [
          theme(T1, 'positive', { name: 'Pricing', custom_name: 'Price too high' }),
          theme(T2, 'negative', { name: 'Support' }),
        ],
      }),
      analysis('2026-11-19T10:00:00Z', [], { themes: [occ(T1, 2), occ(T2, 1)] }),
    ])
    expect(r.data.items.map((i) => [i.name, i.created_at])).toEqual([
      ['Price too high', '2026-10-01'],
      ['Support', '2026-10-01'],
    ])
  })
  it('themes: occurrences sum over the analyses in the window that pass the model filter', async () => {
    const records = [
      ...base({ themes: [theme(T1, 'positive')] }),
      analysis('2026-11-19T10:00:00Z', [], { themes: [occ(T1, 2)] }),
      analysis('2026-11-20T10:00:00Z', [], { themes: [occ(T1, 3)], channel: 'claude', model: 'claude-4' }),
      analysis('2026-11-01T10:00:00Z', [], { themes: [occ(T1, 100)] }),
    ]
    expect((await themes(records)).data.items[0]?.occurrences).toBe(5)
    expect((await themes(records, 'claude')).data.items[0]?.occurrences).toBe(3)
  })
  it('themes: ordered by occurrences descending, then id', async () => {
    const r = await themes([
      ...base({ themes: [theme(T3, 'positive'), theme(T2, 'negative'), theme(T1, 'negative')] }),
      analysis('2026-11-19T10:00:00Z', [], { themes: [occ(T3, 2), occ(T2, 2), occ(T1, 1)] }),
    ])
    expect(r.data.items.map((i) => i.id)).toEqual([T2, T3, T1])
  })
  it('overview: percentages are round(1000 * P / T) / 10 with halves up (1 of 16: 6.3 / 93.8)', async () => {
    const ids = Array.from(
      { length: 16 },
      (_, i) => `e0000000-0000-4000-8000-0000000001${i.toString(16).padStart(2, '0')}`,
    )
    const r = await overview([
      ...base({ themes: ids.map((id, i) => theme(id, i === 0 ? 'positive' : 'negative')) }),
      analysis('2026-11-19T10:00:00Z', [], { themes: ids.map((id) => occ(id, 1)) }),
    ])
    expect(r.data).toEqual({ positive_percent: 6.3, negative_percent: 93.8, total_mentions: 16 })
  })
  it('overview: 1 of 3 positive gives 33.3 / 66.7', async () => {
    const r = await overview([
      ...base({ themes: [theme(T1, 'positive'), theme(T2, 'negative'), theme(T3, 'negative')] }),
      analysis('2026-11-19T10:00:00Z', [], { themes: [occ(T1, 1), occ(T2, 1), occ(T3, 1)] }),
    ])
    expect([r.data.positive_percent, r.data.negative_percent]).toEqual([33.3, 66.7])
  })
  it('overview: counts themes, not occurrences; total_mentions sums the occurrences', async () => {
    const r = await overview([
      ...base({ themes: [theme(T1, 'positive'), theme(T2, 'negative')] }),
      analysis('2026-11-19T10:00:00Z', [], { themes: [occ(T1, 9), occ(T2, 1)] }),
    ])
    expect(r.data).toEqual({ positive_percent: 50, negative_percent: 50, total_mentions: 10 })
  })
  it('overview: 0.0 / 0.0 / 0 when no theme is in the window', async () => {
    const r = await overview([
      ...base({ themes: [theme(T1, 'positive', { archived: true })] }),
      analysis('2026-11-19T10:00:00Z', [], { themes: [occ(T1, 4)] }),
    ])
    expect(r.data).toEqual({ positive_percent: 0, negative_percent: 0, total_mentions: 0 })
  })
})

describe('7. numbers in payloads', () => {
  /** Every number of a payload, with its path. */
  const numbers = (x: unknown, path = '$'): [string, unknown][] =>
    x !== null && typeof x === 'object'
      ? Object.entries(x).flatMap(([k, v]) => numbers(v, `${path}.${k}`))
      : typeof x === 'number' || typeof x === 'bigint'
        ? [[path, x]]
        : []
  const records = (): AnalysisInputRecord[] => [
    ...base({ competitors: [[C1, 'Globex']], themes: [theme(T1, 'positive')] }),
    analysis('2026-11-19T10:00:00Z', [m('brand', 1, 33), m(C1, 2, 50)], {
      citations: [{ url: 'https://acme.com/' }],
      themes: [{ theme_id: T1, occurrences: 2 }],
    }),
    analysis('2026-11-19T11:00:00Z', [m(C1, 1, 67)]),
    analysis('2026-11-19T12:00:00Z', []),
  ]
  it('numbers: counts are JSON integers; no bigint, NaN or Infinity anywhere', async () => {
    await withEngine(records(), async (e) => {
      const params = { domainId: D, days: 7, now: NOW }
      const payloads = [
        await e.computePromptSeries(params),
        await e.computeCompetitorSeries(params),
        await e.computeSentimentOverview(params),
        await e.computeSentimentThemes(params),
      ]
      const counts = /\.(days|limit|mentions|responses|citations|total_queries|total_mentions|occurrences)$/
      for (const payload of payloads) {
        for (const [path, v] of numbers(payload)) {
          expect(typeof v, path).toBe('number')
          expect(Number.isFinite(v), path).toBe(true)
          if (counts.test(path)) expect(Number.isInteger(v), path).toBe(true)
        }
      }
    })
  })
  it('numbers: nothing is rounded but the sentiment percentages', async () => {
    const r = await withEngine(records(), (e) =>
      e.computeCompetitorSeries({ domainId: D, days: 7, now: NOW }),
    )
    expect(r.data.items[0]?.series[0]?.visibility).toBe(100 / 3)
    expect(r.data.items[1]?.series[0]?.visibility).toBe(200 / 3)
    expect(r.data.items[1]?.avg_sentiment).toBe(58.5)
  })
  it('numbers: field order follows api-reference.md (also checked on every golden case)', async () => {
    const r = await withEngine(records(), (e) =>
      e.computeCompetitorSeries({ domainId: D, days: 7, now: NOW }),
    )
    expect(r.data.items.length).toBeGreaterThan(0)
    expect(payloadProblems(endpointById('competitor-series').payload, r)).toEqual([])
  })
})

describe('1.3 ingest rules as the payloads show them', () => {
  it('ids: any case in, lower case out (domain_id echo, brand row, competitor and prompt ids)', async () => {
    const up = (s: string): string => s.toUpperCase()
    const records: AnalysisInputRecord[] = [
      { type: 'team', id: up(TEAM), name: 'Team', plan: 'pro', developer_access: true },
      { type: 'domain', id: up(D), team_id: TEAM, brand_name: 'Acme', website: null },
      { type: 'prompt', id: up(P1), domain_id: D, text: 'p', estimated_search_volume: null },
      { type: 'competitor', id: C1, domain_id: up(D), name: 'Globex', website: null },
      analysis('2026-11-19T10:00:00Z', [m('brand'), m(up(C1))], { domain_id: up(D), prompt_id: P1 }),
    ]
    await withEngine(records, async (e) => {
      const c = await e.computeCompetitorSeries({ domainId: up(D), days: 7, now: NOW })
      expect(c.domain_id).toBe(D)
      expect(c.data.items.map((i) => [i.id, i.series[0]?.mentions])).toEqual([
        [`user-brand-${D}`, 1],
        [C1, 1],
      ])
      expect(
        (await e.computePromptSeries({ domainId: D, days: 7, now: NOW })).data.items.map((i) => i.id),
      ).toEqual([P1])
    })
  })
  it('upsert: the last record with an id wins, in one call and across calls', async () => {
    const engine = await openEngine()
    try {
      await engine.ingest([
        ...base({ competitors: [[C1, 'Old']] }),
        { type: 'competitor', id: C1.toUpperCase(), domain_id: D, name: 'Globex', website: 'globex.com' },
        analysis('2026-11-19T10:00:00Z', [m(C1)]),
      ])
      let r = await engine.computeCompetitorSeries({ domainId: D, days: 7, now: NOW })
      expect(r.data.items[1]).toMatchObject({ name: 'Globex', website: 'globex.com' })
      await engine.ingest([
        { type: 'domain', id: D, team_id: TEAM, brand_name: 'Acme 2', website: 'acme2.com' },
      ])
      r = await engine.computeCompetitorSeries({ domainId: D, days: 7, now: NOW })
      expect(r.data.items[0]).toMatchObject({ name: 'Acme 2', website: 'acme2.com' })
    } finally {
      await engine.close()
    }
  })
  it('upsert: re-ingesting an analysis replaces its mentions, citations and theme occurrences', async () => {
    const engine = await openEngine()
    try {
      const first = analysis('2026-11-19T10:00:00Z', [m('brand', 1), m(C1)], {
        citations: [{ url: 'https://acme.com/' }],
        themes: [{ theme_id: T1, occurrences: 3 }],
      })
      await engine.ingest([
        ...base({ competitors: [[C1, 'Globex']], themes: [theme(T1, 'positive'), theme(T2, 'negative')] }),
        first,
      ])
      await engine.ingest([
        {
          ...first,
          id: first.id.toUpperCase(),
          answered_at: '2026-11-20T10:00:00Z',
          mentions: [m(C1, 2)],
          citations: [],
          themes: [{ theme_id: T2, occurrences: 1 }],
        },
      ])
      const p = await engine.computePromptSeries({ domainId: D, days: 7, now: NOW })
      expect(p.data.items).toEqual([])
      const c = await engine.computeCompetitorSeries({ domainId: D, days: 7, now: NOW })
      expect(c.data.items.map((i) => i.series.map((s) => [s.date, s.mentions]))).toEqual([
        [['2026-11-20', 0]],
        [['2026-11-20', 1]],
      ])
      const t = await engine.computeSentimentThemes({ domainId: D, days: 7, now: NOW })
      expect(t.data.items.map((i) => [i.id, i.occurrences])).toEqual([[T2, 1]])
    } finally {
      await engine.close()
    }
  })
  it('upsert: ingesting the same records twice changes nothing', async () => {
    const records = [
      ...base({ competitors: [[C1, 'Globex']], themes: [theme(T1, 'positive')] }),
      analysis('2026-11-19T10:00:00Z', [m('brand', 1, 80), m(C1)], {
        themes: [{ theme_id: T1, occurrences: 2 }],
      }),
    ]
    const engine = await openEngine()
    try {
      await engine.ingest(records)
      const params = { domainId: D, days: 7, now: NOW }
      const before = [
        await engine.computeCompetitorSeries(params),
        await engine.computeSentimentOverview(params),
      ]
      await engine.ingest(records)
      expect([
        await engine.computeCompetitorSeries(params),
        await engine.computeSentimentOverview(params),
      ]).toEqual(before)
    } finally {
      await engine.close()
    }
  })
})
