/**
 * The reference model of the extensions, rule by rule where a golden case would be clumsy: the
 * hand check of extensions section 4, the stored form of the new record fields, the parameter
 * rules of section 9 and the bucket arithmetic.
 */
import { describe, expect, it } from 'vitest'
import { ValidationError } from '../../src/errors.js'
import { ReferenceModel } from './model.js'
import { bucketOf, resolveWindow, storedTimestamp } from './buckets.js'
import type { ExtInputRecord } from './types.js'
import { analysis, base, competitor, domain, prompt, DOMAIN, NOW } from '../support/records.js'

const C2 = 'c0000000-0000-4000-8000-00000000000b'

/** The parameter paths of the ValidationError `fn` throws (fails when it throws nothing else). */
function issuePaths(fn: () => unknown): string[] {
  try {
    fn()
  } catch (e) {
    if (e instanceof ValidationError) return e.issues.map((i) => i.path)
    throw e
  }
  throw new Error('no ValidationError')
}

describe('brand rankings: the hand check of extensions section 4', () => {
  it('mentions 1167, 520 and 2 give sov 69.094..., 30.787..., 0.118...', () => {
    const records: ExtInputRecord[] = [...base(), competitor({ id: C2, name: 'Initech' })]
    const n = (i: number): string => `a0000000-0000-4000-8000-${String(i).padStart(12, '0')}`
    // 1167 analyses; the brand in all, Globex in the first 520, Initech in the first 2.
    for (let i = 0; i < 1167; i++) {
      const mentions = [{ entity_id: 'brand', position: 1, sentiment: null }]
      if (i < 520)
        mentions.push({ entity_id: 'c0000000-0000-4000-8000-00000000000a', position: 2, sentiment: null })
      if (i < 2) mentions.push({ entity_id: C2, position: 3, sentiment: null })
      records.push(analysis({ id: n(i), mentions, citations: [], themes: [] }))
    }
    const model = new ReferenceModel()
    model.ingest(records)
    const items = model.computeBrandRankings({ domainId: DOMAIN, days: 7, now: NOW }).data.items
    expect(items.map((r) => r.mentions)).toEqual([1167, 520, 2])
    expect(items.map((r) => r.sov.toFixed(3))).toEqual(['69.094', '30.787', '0.118'])
    expect(items[0]?.sov).toBe((1167 * 100) / 1689)
    expect(items.map((r) => r.visibility)).toEqual([100, (520 * 100) / 1167, (2 * 100) / 1167])
    expect(items.reduce((s, r) => s + r.sov, 0)).toBeCloseTo(100, 10)
  })
})

describe('record additions (extensions section 1)', () => {
  it('stores timestamps to the millisecond, truncated, and returns them in UTC with milliseconds', () => {
    expect(storedTimestamp('2026-05-04T11:15:02.1189+02:00')).toBe('2026-05-04T09:15:02.118Z')
    expect(storedTimestamp('2026-05-04T09:15:02.9999999Z')).toBe('2026-05-04T09:15:02.999Z')
    expect(storedTimestamp('2026-05-04T09:15:02Z')).toBe('2026-05-04T09:15:02.000Z')
    expect(storedTimestamp('2026-05-04T09:15:02.5-03:00')).toBe('2026-05-04T12:15:02.500Z')
    expect(storedTimestamp('2026-01-01T00:30:00+01:00')).toBe('2025-12-31T23:30:00.000Z')
  })

  it('reads absent fields as null / [] and trims fan-out queries; a re-ingested analysis replaces them', () => {
    const model = new ReferenceModel()
    const id = 'a0000000-0000-4000-8000-000000000001'
    model.ingest([
      ...base(),
      { ...domain(), created_at: '2026-05-04T09:15:02.1189Z' },
      prompt(),
      { ...analysis({ id, citations: [{ url: 'https://acme.com/x' }] }), fanout_queries: ['  old \n'] },
    ])
    const q = { domainId: DOMAIN, days: 7, now: NOW }
    expect(model.computeFanoutQueries(q).data.items[0]?.fanout_queries.map((f) => f.query)).toEqual(['old'])
    expect(model.computeCitations(q).data.items[0]?.title).toBeNull()
    expect(model.computePromptList(q).data.items[0]?.created_at).toBeNull()

    model.ingest([
      {
        ...analysis({ id, citations: [{ url: 'https://acme.com/x' }] }),
        fanout_queries: ['\u00a0new', 'new '],
      },
    ])
    expect(model.computeFanoutQueries(q).data.items[0]?.fanout_queries).toEqual([
      { query: 'new', count: 1, channels: ['chatgpt'] },
    ])
    model.ingest([analysis({ id })])
    expect(model.computeFanoutQueries(q).data.items).toEqual([])
  })
})

describe('ranges and buckets (extensions section 9)', () => {
  const model = new ReferenceModel()
  model.ingest([...base(), analysis()])
  const d = { domainId: DOMAIN, now: NOW }

  it('a range replaces days: both dates or neither, never with days', () => {
    expect(
      issuePaths(() =>
        model.computeBrandRankings({ ...d, days: 7, startDate: '2026-11-01', endDate: '2026-11-02' }),
      ),
    ).toEqual(['days'])
    expect(issuePaths(() => model.computeCitations({ ...d, startDate: '2026-11-01' }))).toEqual(['end_date'])
    expect(issuePaths(() => model.computeCitations({ ...d, endDate: '2026-11-01' }))).toEqual(['start_date'])
  })

  it('dates are real calendar dates, start <= end <= today, at most 365 days', () => {
    expect(
      issuePaths(() => model.computeFanoutQueries({ ...d, startDate: '2025-02-29', endDate: '2025-03-01' })),
    ).toEqual(['start_date'])
    expect(
      issuePaths(() => model.computeFanoutQueries({ ...d, startDate: '2026-11-01', endDate: '2026-11-1' })),
    ).toEqual(['end_date'])
    expect(
      issuePaths(() => model.computeFanoutQueries({ ...d, startDate: '2026-11-02', endDate: '2026-11-01' })),
    ).toEqual(['start_date'])
    expect(
      issuePaths(() => model.computeFanoutQueries({ ...d, startDate: '2026-11-20', endDate: '2026-11-21' })),
    ).toEqual(['end_date'])
    expect(
      issuePaths(() => model.computeFanoutQueries({ ...d, startDate: '2025-11-20', endDate: '2026-11-20' })),
    ).toEqual(['start_date'])
    const max = model.computeFanoutQueries({ ...d, startDate: '2025-11-21', endDate: '2026-11-20' })
    expect([max.days, max.start_date, max.end_date]).toEqual([365, '2025-11-21', '2026-11-20'])
    expect(model.computeFanoutQueries({ ...d, startDate: '2024-02-01', endDate: '2024-03-01' }).days).toBe(30)
  })

  it('granularity: day, week or month on the time series only', () => {
    const g = (granularity: string) => ({ ...d, granularity }) as never
    expect(
      issuePaths(() => model.computeBrandSeries({ ...d, metric: 'mentions', granularity: 'year' })),
    ).toEqual(['granularity'])
    expect(issuePaths(() => model.computeBrandRankings(g('week')))).toEqual(['granularity'])
    expect(issuePaths(() => model.computeCitations(g('day')))).toEqual(['granularity'])
    expect(issuePaths(() => model.computeSentimentOverview(g('day')))).toEqual(['granularity'])
    expect(issuePaths(() => model.computePromptList(g('day')))).toEqual(['granularity'])
    for (const granularity of ['day', 'week', 'month']) {
      expect(model.computeSentimentSeries({ ...d, granularity }).granularity).toBe(granularity)
      expect(model.computePromptSeries({ ...d, granularity }).granularity).toBe(granularity)
    }
  })

  it('without the new parameters the first four answer with the same fields as before', () => {
    expect(Object.keys(model.computePromptSeries(d))).toEqual([
      'data',
      'domain_id',
      'days',
      'limit',
      'generated_at',
    ])
    expect(Object.keys(model.computeCompetitorSeries(d))).toEqual([
      'data',
      'domain_id',
      'days',
      'model',
      'generated_at',
    ])
    expect(Object.keys(model.computeSentimentOverview(d))).toEqual([
      'data',
      'domain_id',
      'days',
      'model',
      'generated_at',
    ])
  })

  it('other parameters: page, size, limit, metric, model', () => {
    expect(issuePaths(() => model.computePromptList({ ...d, page: 0 }))).toEqual(['page'])
    expect(issuePaths(() => model.computePromptList({ ...d, size: 501 }))).toEqual(['size'])
    expect(model.computePromptList({ ...d, size: 500, page: 10 ** 6 }).data.items).toEqual([])
    expect(issuePaths(() => model.computeCitedDomains({ ...d, limit: 1001 }))).toEqual(['limit'])
    expect(model.computeCitedDomains({ ...d, limit: 1000 }).limit).toBe(1000)
    expect(issuePaths(() => model.computeBrandSeries({ ...d, metric: 'sov' as never }))).toEqual(['metric'])
    expect(issuePaths(() => model.computeBrandRankings({ ...d, model: 'gpt 4' }))).toEqual(['model'])
    expect(model.computeBrandRankings({ ...d, model: 'gpt-4o' }).model).toBe('gpt-4o')
  })

  it('buckets are named by their first date inside the window', () => {
    const w = (first: string, granularity: 'day' | 'week' | 'month') => ({
      first,
      last: '2026-12-31',
      echo: { days: 1 },
      granularity,
    })
    // 2026-01-01 is a Thursday: its ISO week starts on Monday 2025-12-29.
    expect(bucketOf('2026-01-04', w('2025-01-01', 'week'))).toBe('2025-12-29')
    expect(bucketOf('2026-01-05', w('2025-01-01', 'week'))).toBe('2026-01-05')
    expect(bucketOf('2026-01-04', w('2025-12-31', 'week'))).toBe('2025-12-31')
    expect(bucketOf('2024-03-03', w('2024-01-01', 'week'))).toBe('2024-02-26')
    expect(bucketOf('2024-02-29', w('2024-02-10', 'month'))).toBe('2024-02-10')
    expect(bucketOf('2024-03-31', w('2024-02-10', 'month'))).toBe('2024-03-01')
    expect(bucketOf('2024-02-29', w('2024-02-10', 'day'))).toBe('2024-02-29')
    // A week bucket: Sunday belongs to the week of the Monday before it.
    expect(bucketOf('2026-11-22', w('2026-01-01', 'week'))).toBe('2026-11-16')
  })

  it('the window of days ends today (UTC), whatever the offset of now', () => {
    const win = resolveWindow({ days: 7 }, Date.parse('2026-11-21T02:00:00+05:30'), true)
    expect([win.first, win.last, win.granularity]).toEqual(['2026-11-14', '2026-11-20', null])
  })
})
