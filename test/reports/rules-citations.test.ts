/**
 * One focused test per rule of extensions.md sections 1 (citation titles and page types, fan-out
 * queries), 6 (citations, cited domains, fan-out queries) and 7 (sentiment over time), each on a
 * tiny inline dataset and written to fail if its rule broke. Engine only; the reference model has
 * the golden cases and the differential test.
 */
import { describe, expect, it } from 'vitest'
import { isValidationError } from '../../src/index.js'
import type { AnalysisInputRecord, AnalysisRecord, CitationInput, Engine } from '../../src/index.js'
import {
  analysis as buildAnalysis,
  competitor,
  domain,
  mention,
  prompt,
  team,
  theme,
} from '../support/records.js'
import {
  analysisId,
  C1,
  C2,
  D,
  D2,
  NOW,
  P1,
  P2,
  T1,
  T2,
  T3,
  TEAM,
  withEngine,
  withOpenEngine,
} from '../support/inline.js'

const id = analysisId

/**
 * Team (plan pro), domain D (website www.acme.com unless given) with prompts P1, P2 ('prompt one',
 * 'prompt two'), and `more`: the citation rules' own dataset (support/inline.ts `base` has others).
 */
function base(
  website: string | null = 'www.acme.com',
  more: AnalysisInputRecord[] = [],
): AnalysisInputRecord[] {
  return [
    team({ id: TEAM, name: 'Team', plan: 'pro' }),
    domain({ id: D, team_id: TEAM, website }),
    prompt({ id: P1, domain_id: D, text: 'prompt one', estimated_search_volume: null }),
    prompt({ id: P2, domain_id: D, text: 'prompt two', estimated_search_volume: null }),
    ...more,
  ]
}

/** Analysis number `n` of domain D on P1 (chatgpt, gpt-5) at `at`, with `extra` fields. */
function analysis(n: number, at: string, extra: Partial<AnalysisRecord> = {}): AnalysisRecord {
  return buildAnalysis({
    id: id(n),
    domain_id: D,
    prompt_id: P1,
    channel: 'chatgpt',
    model: 'gpt-5',
    answered_at: at,
    mentions: [],
    citations: [],
    themes: [],
    ...extra,
  })
}
const cite = (url: string, title?: string | null, page_type?: string | null): CitationInput => ({
  url,
  ...(title === undefined ? {} : { title }),
  ...(page_type === undefined ? {} : { page_type }),
})

const citations = (e: Engine, p: { days?: number; model?: string; limit?: number } = {}) =>
  e.computeCitations({ domainId: D, days: 7, now: NOW, ...p })
const citedDomains = (e: Engine, p: { days?: number; model?: string; limit?: number } = {}) =>
  e.computeCitedDomains({ domainId: D, days: 7, now: NOW, ...p })
const fanout = (e: Engine, p: { days?: number; model?: string } = {}) =>
  e.computeFanoutQueries({ domainId: D, days: 7, now: NOW, ...p })
const sentimentSeries = (e: Engine, p: { days?: number; model?: string } = {}) =>
  e.computeSentimentSeries({ domainId: D, days: 7, now: NOW, ...p })

describe('1. record additions as the reports show them', () => {
  it('title and page_type: absent or null read as null', async () => {
    const items = await withEngine(
      [
        ...base(),
        analysis(1, '2026-11-19T10:00:00Z', {
          citations: [cite('https://a.org/x'), cite('https://b.org/y', null, null)],
        }),
      ],
      async (e) => (await citations(e)).data.items,
    )
    expect(items.map((i) => [i.url, i.title, i.page_type])).toEqual([
      ['https://a.org/x', null, null],
      ['https://b.org/y', null, null],
    ])
  })

  it('fan-out queries are stored trimmed (JavaScript trim: spaces, tabs, newlines, no-break spaces)', async () => {
    const queries = await withEngine(
      [...base(), analysis(1, '2026-11-19T10:00:00Z', { fanout_queries: ['  crm\t', '\u00a0crm\n', 'crm'] })],
      async (e) => (await fanout(e)).data.items[0]?.fanout_queries,
    )
    expect(queries).toEqual([{ query: 'crm', count: 1, channels: ['chatgpt'] }])
  })

  it('re-ingesting an analysis replaces its fan-out queries, titles and page types', async () => {
    await withOpenEngine(async (engine) => {
      await engine.ingest([
        ...base(),
        analysis(1, '2026-11-19T10:00:00Z', {
          fanout_queries: ['old query'],
          citations: [cite('https://a.org/x', 'Old', 'blog')],
        }),
      ])
      await engine.ingest([
        analysis(1, '2026-11-19T10:00:00Z', {
          fanout_queries: ['new query'],
          citations: [cite('https://a.org/x', 'New', null)],
        }),
      ])
      expect((await fanout(engine)).data.items[0]?.fanout_queries.map((q) => q.query)).toEqual(['new query'])
      expect((await citations(engine)).data.items.map((i) => [i.title, i.page_type])).toEqual([['New', null]])
      await engine.ingest([analysis(1, '2026-11-19T10:00:00Z')])
      expect((await fanout(engine)).data.items).toEqual([])
    })
  })
})

describe('6. citations', () => {
  it('citations: one item per URL as the WHATWG URL serializes it, without the fragment (default port dropped, host lower-cased)', async () => {
    const items = await withEngine(
      [
        ...base(),
        analysis(1, '2026-11-19T10:00:00Z', {
          citations: [
            cite('https://Acme.com:443/p#a'),
            cite('https://acme.com/p'),
            cite('HTTPS://ACME.COM/p?x=1#z'),
          ],
        }),
      ],
      async (e) => (await citations(e)).data.items,
    )
    expect(items.map((i) => [i.url, i.frequency])).toEqual([
      ['https://acme.com/p', 2],
      ['https://acme.com/p?x=1', 1],
    ])
  })

  it('citations: domain is the host in lower case without a trailing dot or a leading www.', async () => {
    const items = await withEngine(
      [
        ...base(null),
        analysis(1, '2026-11-19T10:00:00Z', {
          citations: [cite('https://WWW.Globex.com./a'), cite('https://blog.globex.com/b')],
        }),
      ],
      async (e) => (await citations(e)).data.items,
    )
    expect(items.map((i) => i.domain)).toEqual(['blog.globex.com', 'globex.com'])
  })

  it('citations: frequency counts entries, responses distinct analyses, prompt_count distinct prompts, brand_mentions citing analyses that mention the brand', async () => {
    const url = 'https://x.org/a'
    const item = await withEngine(
      [
        ...base(),
        analysis(1, '2026-11-18T10:00:00Z', {
          citations: [cite(url), cite(url)],
          mentions: [mention('brand', 1, null)],
        }),
        analysis(2, '2026-11-19T10:00:00Z', { citations: [cite(url)] }),
        analysis(3, '2026-11-19T11:00:00Z', {
          prompt_id: P2,
          citations: [cite(url)],
          mentions: [mention('brand', 2, null)],
        }),
      ],
      async (e) => (await citations(e)).data.items[0],
    )
    expect(item).toMatchObject({ frequency: 4, responses: 3, prompt_count: 2, brand_mentions: 2 })
  })

  it('citations: channels and models are the distinct values, sorted', async () => {
    const url = 'https://x.org/a'
    const item = await withEngine(
      [
        ...base(),
        analysis(1, '2026-11-18T10:00:00Z', {
          channel: 'perplexity',
          model: 'sonar',
          citations: [cite(url)],
        }),
        analysis(2, '2026-11-19T10:00:00Z', { channel: 'chatgpt', model: 'gpt-5', citations: [cite(url)] }),
        analysis(3, '2026-11-19T11:00:00Z', { channel: 'copilot', model: 'gpt-5', citations: [cite(url)] }),
        analysis(4, '2026-11-19T12:00:00Z', { channel: 'chatgpt', model: 'gpt-4o', citations: [cite(url)] }),
      ],
      async (e) => (await citations(e)).data.items[0],
    )
    expect(item?.channels).toEqual(['chatgpt', 'copilot', 'perplexity'])
    expect(item?.models).toEqual(['gpt-4o', 'gpt-5', 'sonar'])
  })

  it('citations: title and page_type are each the latest non-null value by answered_at, then larger analysis id, then later entry', async () => {
    const url = 'https://x.org/a'
    const item = await withEngine(
      [
        ...base(),
        analysis(9, '2026-11-17T10:00:00Z', { citations: [cite(url, 'Oldest', 'docs')] }),
        // Same instant: the larger analysis id wins; within it, the later entry.
        analysis(2, '2026-11-19T10:00:00Z', { citations: [cite(url, 'Tie small id', 'blog')] }),
        analysis(3, '2026-11-19T07:00:00-03:00', {
          citations: [cite(url, 'First entry'), cite(url, 'Later entry', null)],
        }),
        // Later, but without values: ignored.
        analysis(1, '2026-11-19T12:00:00Z', { citations: [cite(url, null, null)] }),
      ],
      async (e) => (await citations(e)).data.items[0],
    )
    expect([item?.title, item?.page_type]).toEqual(['Later entry', 'blog'])
  })

  it('citations: first_seen and last_seen are the earliest and latest answered_at, ISO 8601 UTC with milliseconds', async () => {
    const url = 'https://x.org/a'
    const item = await withEngine(
      [
        ...base(),
        analysis(1, '2026-11-18T23:30:00-03:00', { citations: [cite(url)] }),
        analysis(2, '2026-11-16T10:00:00.5Z', { citations: [cite(url)] }),
      ],
      async (e) => (await citations(e)).data.items[0],
    )
    expect([item?.first_seen, item?.last_seen]).toEqual([
      '2026-11-16T10:00:00.500Z',
      '2026-11-19T02:30:00.000Z',
    ])
  })

  it('citations: is_brand for the website and its subdomains (www. ignored); never without a website', async () => {
    const urls = [
      'https://acme.com/a',
      'https://docs.acme.com/b',
      'https://notacme.com/c',
      'https://acme.com.evil.net/d',
    ]
    const records = (website: string | null) => [
      ...base(website),
      analysis(1, '2026-11-19T10:00:00Z', { citations: urls.map((u) => cite(u)) }),
    ]
    const brand = async (website: string | null) =>
      withEngine(records(website), async (e) =>
        Object.fromEntries((await citations(e)).data.items.map((i) => [i.url, i.is_brand])),
      )
    expect(await brand('www.acme.com')).toEqual({
      'https://acme.com/a': true,
      'https://docs.acme.com/b': true,
      'https://notacme.com/c': false,
      'https://acme.com.evil.net/d': false,
    })
    expect(Object.values(await brand(null))).toEqual([false, false, false, false])
  })

  it('citations: competitor_id is the competitor, smallest id first, whose website host is the host or a parent of it', async () => {
    const competitors = [
      competitor({ id: C2, domain_id: D, name: 'Globex', website: 'https://www.globex.com/en' }),
      competitor({ id: C1, domain_id: D, name: 'Globex Blog', website: 'blog.globex.com' }),
    ]
    const owners = await withEngine(
      [
        ...base('acme.com', competitors),
        analysis(1, '2026-11-19T10:00:00Z', {
          citations: [
            'https://globex.com/',
            'https://blog.globex.com/x',
            'https://shop.globex.com/',
            'https://xglobex.com/',
          ].map((u) => cite(u)),
        }),
      ],
      async (e) => Object.fromEntries((await citations(e)).data.items.map((i) => [i.url, i.competitor_id])),
    )
    expect(owners).toEqual({
      'https://globex.com/': C2,
      'https://blog.globex.com/x': C1,
      'https://shop.globex.com/': C2,
      'https://xglobex.com/': null,
    })
  })

  it('citations: ordered by frequency descending, then URL; limit caps after ordering; total counts every URL', async () => {
    const urls = ['https://b.org/', 'https://a.org/', 'https://c.org/', 'https://c.org/', 'https://B.org/z']
    const data = await withEngine(
      [...base(), analysis(1, '2026-11-19T10:00:00Z', { citations: urls.map((u) => cite(u)) })],
      async (e) => (await citations(e, { limit: 2 })).data,
    )
    expect(data.items.map((i) => i.url)).toEqual(['https://c.org/', 'https://a.org/'])
    expect(data.total).toBe(4)
  })

  it('citations: only the analyses of the window that pass the model filter (a channel, a raw id; an unseen id: empty)', async () => {
    const records = [
      ...base(),
      analysis(1, '2026-11-13T23:59:59Z', { citations: [cite('https://old.org/')] }),
      analysis(2, '2026-11-14T00:00:00Z', {
        channel: 'perplexity',
        model: 'sonar',
        citations: [cite('https://p.org/', 'P')],
      }),
      analysis(3, '2026-11-20T23:00:00Z', { citations: [cite('https://p.org/', 'Later')] }),
      analysis(4, '2026-11-21T00:00:00Z', { citations: [cite('https://future.org/')] }),
    ]
    await withEngine(records, async (e) => {
      expect((await citations(e)).data.items.map((i) => [i.url, i.title])).toEqual([
        ['https://p.org/', 'Later'],
      ])
      expect((await citations(e, { model: 'perplexity' })).data.items.map((i) => i.title)).toEqual(['P'])
      expect((await citations(e, { model: 'sonar' })).data.items.map((i) => i.models)).toEqual([['sonar']])
      expect(await citations(e, { model: 'never-seen' })).toMatchObject({ data: { items: [], total: 0 } })
      expect((await citations(e, { days: 8 })).data.total).toBe(2)
    })
  })

  it('citations: the echo is domain_id, days, model, limit (defaults 30, all, 100), generated_at', async () => {
    const payload = await withEngine(base(), (e) =>
      e.computeCitations({ domainId: D.toUpperCase(), now: NOW }),
    )
    expect(payload).toEqual({
      data: { items: [], total: 0 },
      domain_id: D,
      days: 30,
      model: 'all',
      limit: 100,
      generated_at: NOW,
    })
  })

  it('citations and cited domains: limit is an integer from 1 to 1000', async () => {
    await withEngine(base(), async (e) => {
      for (const limit of [0, 1001, 1.5]) {
        const error = await citations(e, { limit }).catch((x: unknown) => x)
        expect(isValidationError(error) && error.issues).toEqual([
          { path: 'limit', message: 'limit must be an integer from 1 to 1000.' },
        ])
        await expect(citedDomains(e, { limit })).rejects.toThrow('limit must be an integer from 1 to 1000.')
      }
      expect((await citations(e, { limit: 1000 })).limit).toBe(1000)
    })
  })
})

describe('6. cited domains', () => {
  it('cited domains: per host, frequency counts entries, responses the analyses citing it (once each), urls the distinct URLs', async () => {
    const item = await withEngine(
      [
        ...base(null),
        analysis(1, '2026-11-19T10:00:00Z', {
          citations: ['https://x.org/a', 'https://www.x.org/b', 'https://x.org/a#2'].map((u) => cite(u)),
        }),
        analysis(2, '2026-11-19T11:00:00Z', { citations: [cite('https://x.org/a')] }),
      ],
      async (e) => (await citedDomains(e)).data.items[0],
    )
    expect(item).toEqual({
      domain: 'x.org',
      frequency: 4,
      responses: 2,
      urls: 2,
      share: 100,
      is_brand: false,
      competitor_id: null,
    })
  })

  it('cited domains: share is frequency / all citation entries * 100; ordered by frequency, then host; limit and total', async () => {
    const urls = [
      'https://b.org/',
      'https://a.org/',
      'https://c.org/1',
      'https://c.org/2',
      'https://b.org/x',
      'https://d.org/',
    ]
    const data = await withEngine(
      [...base(null), analysis(1, '2026-11-19T10:00:00Z', { citations: urls.map((u) => cite(u)) })],
      async (e) => (await citedDomains(e, { limit: 3 })).data,
    )
    expect(data.items.map((i) => [i.domain, i.frequency, i.share])).toEqual([
      ['b.org', 2, (2 * 100) / 6],
      ['c.org', 2, (2 * 100) / 6],
      ['a.org', 1, 100 / 6],
    ])
    expect(data.total).toBe(4)
  })

  it('cited domains: is_brand and competitor_id as for citations; the model filter applies', async () => {
    const records = [
      ...base('acme.com', [competitor({ id: C1, domain_id: D, name: 'Globex', website: 'globex.com' })]),
      analysis(1, '2026-11-19T10:00:00Z', {
        citations: [cite('https://www.acme.com/'), cite('https://eu.globex.com/')],
      }),
      analysis(2, '2026-11-19T11:00:00Z', {
        channel: 'claude',
        model: 'opus',
        citations: [cite('https://other.org/')],
      }),
    ]
    await withEngine(records, async (e) => {
      expect(
        (await citedDomains(e, { model: 'chatgpt' })).data.items.map((i) => [
          i.domain,
          i.is_brand,
          i.competitor_id,
        ]),
      ).toEqual([
        ['acme.com', true, null],
        ['eu.globex.com', false, C1],
      ])
      expect((await citedDomains(e, { model: 'opus' })).data.items.map((i) => i.domain)).toEqual([
        'other.org',
      ])
    })
  })
})

describe('6. fan-out queries', () => {
  it('fan-out: per prompt, each query with the distinct analyses emitting it (twice in one counts once) and their channels, sorted', async () => {
    const items = await withEngine(
      [
        ...base(),
        analysis(1, '2026-11-19T10:00:00Z', { fanout_queries: ['crm', 'crm', 'CRM'] }),
        analysis(2, '2026-11-19T11:00:00Z', {
          channel: 'perplexity',
          model: 'sonar',
          fanout_queries: [' crm '],
        }),
      ],
      async (e) => (await fanout(e)).data.items,
    )
    expect(items).toEqual([
      {
        id: P1,
        text: 'prompt one',
        fanout_queries: [
          { query: 'crm', count: 2, channels: ['chatgpt', 'perplexity'] },
          { query: 'CRM', count: 1, channels: ['chatgpt'] },
        ],
      },
    ])
  })

  it('fan-out: queries by count descending then query (UTF-16); prompts by the sum of their counts, then id; total is the item count', async () => {
    const data = await withEngine(
      [
        ...base(),
        analysis(1, '2026-11-19T10:00:00Z', { prompt_id: P2, fanout_queries: ['b', 'a'] }),
        analysis(2, '2026-11-19T11:00:00Z', { prompt_id: P1, fanout_queries: ['z', 'y'] }),
        analysis(3, '2026-11-19T12:00:00Z', { prompt_id: P2, fanout_queries: ['b'] }),
      ],
      async (e) => (await fanout(e)).data,
    )
    expect(data.items.map((i) => [i.id, i.fanout_queries.map((q) => q.query)])).toEqual([
      [P2, ['b', 'a']],
      [P1, ['y', 'z']],
    ])
    expect(data.total).toBe(2)
  })

  it('fan-out: only the window and the model filter; a prompt without queries there is left out', async () => {
    const records = [
      ...base(),
      analysis(1, '2026-11-13T23:59:59Z', { fanout_queries: ['old'] }),
      analysis(2, '2026-11-19T10:00:00Z', { channel: 'gemini', model: 'gemini-pro', fanout_queries: ['g'] }),
      analysis(3, '2026-11-19T11:00:00Z', { prompt_id: P2, fanout_queries: [] }),
    ]
    await withEngine(records, async (e) => {
      expect((await fanout(e)).data.items.map((i) => i.id)).toEqual([P1])
      expect((await fanout(e, { model: 'chatgpt' })).data.items).toEqual([])
      expect((await fanout(e, { model: 'gemini-pro' })).data.total).toBe(1)
      expect((await fanout(e, { days: 8 })).data.items[0]?.fanout_queries.map((q) => q.query)).toEqual([
        'g',
        'old',
      ])
    })
  })
})

describe('7. sentiment time series', () => {
  const themes = [
    theme({ id: T1, domain_id: D, name: 'Pricing', sentiment: 'positive' }),
    theme({ id: T2, domain_id: D, name: 'Bugs', sentiment: 'negative' }),
    theme({ id: T3, domain_id: D, name: 'Old', sentiment: 'positive', archived: true }),
  ]
  const occ = (theme_id: string, occurrences: number) => ({ theme_id, occurrences })

  it('sentiment series: one entry per UTC date with a non-archived theme, ascending; a date with only archived themes has none', async () => {
    const items = await withEngine(
      [
        ...base('acme.com', themes),
        analysis(1, '2026-11-19T01:00:00+05:30', { themes: [occ(T1, 2)] }),
        analysis(2, '2026-11-17T10:00:00Z', { themes: [occ(T3, 5)] }),
        analysis(3, '2026-11-16T10:00:00Z', { themes: [occ(T2, 1)] }),
      ],
      async (e) => (await sentimentSeries(e)).data.items,
    )
    expect(items).toEqual([
      { date: '2026-11-16', positive_percent: 0, negative_percent: 100, total_mentions: 1 },
      { date: '2026-11-18', positive_percent: 100, negative_percent: 0, total_mentions: 2 },
    ])
  })

  it('sentiment series: per date, the overview rule over the distinct themes of that date; total_mentions sums their occurrences', async () => {
    const items = await withEngine(
      [
        ...base('acme.com', themes),
        analysis(1, '2026-11-19T10:00:00Z', { themes: [occ(T1, 2), occ(T2, 1), occ(T3, 9)] }),
        analysis(2, '2026-11-19T11:00:00Z', { channel: 'claude', model: 'opus', themes: [occ(T2, 4)] }),
      ],
      async (e) => ({
        all: (await sentimentSeries(e)).data.items,
        opus: (await sentimentSeries(e, { model: 'opus' })).data.items,
        unseen: (await sentimentSeries(e, { model: 'gpt-9' })).data.items,
      }),
    )
    expect(items.all).toEqual([
      { date: '2026-11-19', positive_percent: 50, negative_percent: 50, total_mentions: 7 },
    ])
    expect(items.opus).toEqual([
      { date: '2026-11-19', positive_percent: 0, negative_percent: 100, total_mentions: 4 },
    ])
    expect(items.unseen).toEqual([])
  })

  it('sentiment series: only the domain asked for, and the library refuses a malformed domain id', async () => {
    const other = theme({
      id: 'e0000000-0000-4000-8000-0000000000ff',
      domain_id: D2,
      name: 'Other',
      sentiment: 'positive',
    })
    await withEngine(
      [
        ...base('acme.com', themes),
        domain({ id: D2, team_id: TEAM, brand_name: 'Other', website: null }),
        prompt({
          id: 'f0000000-0000-4000-8000-0000000000ff',
          domain_id: D2,
          text: 'other',
          estimated_search_volume: null,
        }),
        other,
        analysis(1, '2026-11-19T10:00:00Z', {
          domain_id: D2,
          prompt_id: 'f0000000-0000-4000-8000-0000000000ff',
          themes: [occ(other.id, 3)],
        }),
      ],
      async (e) => {
        expect((await sentimentSeries(e)).data.items).toEqual([])
        await expect(e.computeSentimentSeries({ domainId: 'nope', now: NOW })).rejects.toThrow(
          'domain_id must be a UUID.',
        )
      },
    )
  })
})
