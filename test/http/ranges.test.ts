/**
 * Date ranges and buckets over every transport (docs/API.md, "Date ranges and buckets"): each bad
 * input is a 400 whose detail names the parameter, on every endpoint that takes `days`, and the
 * same sentence in the library, the CLI and MCP's normalization; cache keys carry the normalized
 * range and granularity; a request without the new parameters answers the same bytes as before.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { computeWithFlags } from '../../src/cli/flags.js'
import { isValidationError, type Engine } from '../../src/index.js'
import { analysis, competitor, mention, prompt } from '../support/records.js'
import { D, acmeServer, bearer } from './helpers.js'

const NOW = Date.parse('2026-11-20T15:00:30Z')
const ROWS = (ENDPOINTS as readonly Endpoint[]).filter((e) => 'days' in e.params)
const SERIES = new Set([
  'prompt-series',
  'competitor-series',
  'visibility-series',
  'mentions-series',
  'citations-series',
  'citability-series',
  'sentiment-series',
  'query', // granularity with its date dimension (docs/API.md, "GET /api/v1/query")
])

/** Each bad input of section 9, the parameter its detail names, and the detail. */
const BAD: Array<[string, string, RegExp]> = [
  ['start_date=2026-11-10&end_date=2026-11-01', 'start_date', /^start_date must not be after end_date\.$/],
  [
    'start_date=2026-11-10&end_date=2026-11-21',
    'end_date',
    /^end_date must not be after today \(2026-11-20 UTC\)\.$/,
  ],
  [
    'start_date=2025-11-20&end_date=2026-11-20',
    'start_date',
    /^start_date to end_date must span at most 365 days/,
  ],
  [
    'start_date=2026-11-1&end_date=2026-11-10',
    'start_date',
    /^start_date must be a calendar date YYYY-MM-DD\.$/,
  ],
  [
    'start_date=2026-04-31&end_date=2026-05-10',
    'start_date',
    /^start_date must be a calendar date YYYY-MM-DD\.$/,
  ],
  [
    'start_date=2026-04-01&end_date=2025-02-29',
    'end_date',
    /^end_date must be a calendar date YYYY-MM-DD\.$/,
  ],
  [
    'days=7&start_date=2026-11-01&end_date=2026-11-10',
    'days',
    /^days cannot be combined with start_date and end_date/,
  ],
  ['start_date=2026-11-01', 'end_date', /^end_date is required with start_date: give both dates/],
  ['end_date=2026-11-01', 'start_date', /^start_date is required with end_date: give both dates/],
  ['granularity=year', 'granularity', /^granularity must be one of day, week, month\.$/],
  [
    'start_date=2026-11-01&start_date=2026-11-02&end_date=2026-11-10',
    'start_date',
    /^start_date must be given only once/,
  ],
]

describe('date ranges and buckets on every endpoint with days', () => {
  let engine: Engine
  let app: FastifyInstance
  let key: string
  let close: () => Promise<void>
  beforeAll(async () => {
    ;({ engine, app, key, close } = await acmeServer(
      [
        prompt({ domain_id: D.acme1 }),
        competitor({ domain_id: D.acme1 }),
        ...['2026-11-15T10:00:00Z', '2026-11-16T10:00:00Z', '2026-11-20T10:00:00Z'].map((answered_at) =>
          analysis({ domain_id: D.acme1, answered_at, mentions: [mention('brand', 2)], themes: [] }),
        ),
      ],
      NOW,
    ))
  })
  afterAll(() => close())
  const get = (row: Endpoint, query: string) =>
    app.inject({ url: `${row.path}?domain_id=${D.acme1}&${query}`, headers: bearer(key) })

  it('takes the three parameters on exactly these rows (the four reports and every extension with days)', () => {
    expect(ROWS.map((r) => r.id).sort()).toEqual(
      [
        ...SERIES,
        'sentiment-overview',
        'sentiment-themes',
        'brand-rankings',
        'model-leaderboard',
        'citations',
        'cited-domains',
        'fanout-queries',
        'answers', // granularity refused (docs/API.md, "GET /api/v1/answers")
      ].sort(),
    )
    for (const row of ROWS) {
      expect(Object.keys(row.params), row.id).toEqual(expect.arrayContaining(['start_date', 'end_date']))
      expect('granularity' in row.params, row.id).toBe(SERIES.has(row.id))
    }
  })

  it('every bad input is a 400 naming the parameter, on every row; the library and the CLI say the same', async () => {
    for (const row of ROWS) {
      for (const [query, name, detail] of BAD) {
        if (query.startsWith('granularity') && !SERIES.has(row.id)) continue
        const res = await get(row, query)
        expect(res.statusCode, `${row.id} ${query}`).toBe(400)
        const body = res.json() as { detail: string }
        expect(body.detail, `${row.id} ${query}`).toMatch(detail)
        expect(body.detail.startsWith(name), `${row.id} ${query}`).toBe(true)
      }
    }
    // The library: the same sentences (the clock decides "today").
    const lib = async (params: Record<string, unknown>) => {
      const e = await engine
        .computePromptSeries({ domainId: D.acme1, now: new Date(NOW), ...params })
        .catch((x: unknown) => x)
      return isValidationError(e) ? [e.issues[0]!.path, e.issues[0]!.message] : e
    }
    expect(await lib({ startDate: '2026-11-10', endDate: '2026-11-21' })).toEqual([
      'end_date',
      'end_date must not be after today (2026-11-20 UTC).',
    ])
    expect(await lib({ days: 7, startDate: '2026-11-01', endDate: '2026-11-10' })).toEqual([
      'days',
      'days cannot be combined with start_date and end_date: give one or the other.',
    ])
    expect(await lib({ startDate: '2026-04-31', endDate: '2026-05-01' })).toEqual([
      'start_date',
      'start_date must be a calendar date YYYY-MM-DD.',
    ])
    expect(await lib({ granularity: 'year' })).toEqual([
      'granularity',
      'granularity must be one of day, week, month.',
    ])
    // The CLI: the flags' own names for a bad value, the window's sentence between flags.
    const prompts = ROWS.find((r) => r.id === 'prompt-series')!
    const cli = (flags: Record<string, string>) =>
      computeWithFlags(engine, prompts, {
        domain: D.acme1,
        now: new Date(NOW).toISOString(),
        ...flags,
      }).catch((x: unknown) => (x as Error).message)
    expect(await cli({ start: '2026-02-30', end: '2026-03-01' })).toBe(
      '--start must be a calendar date YYYY-MM-DD',
    )
    expect(await cli({ days: '7', start: '2026-11-01', end: '2026-11-02' })).toMatch(
      /^days cannot be combined/,
    )
    expect(await cli({ start: '2026-11-01' })).toMatch(/^end_date is required with start_date/)
  })

  it('granularity where there is no series is a 400 naming it (over HTTP; the library refuses it too)', async () => {
    for (const row of ROWS.filter((r) => !SERIES.has(r.id))) {
      const res = await get(row, 'granularity=week')
      expect(res.statusCode, row.id).toBe(400)
      expect((res.json() as { detail: string }).detail).toMatch(
        /^granularity is accepted only by the time-series/,
      )
    }
    const e = await engine
      .brandRankings({ domainId: D.acme1, granularity: 'week' } as never)
      .catch((x: unknown) => x)
    expect(isValidationError(e) && e.issues[0]!.path).toBe('granularity')
  })

  it('echo: days as the window length then the dates, granularity after the other parameters', async () => {
    const prompts = ROWS.find((r) => r.id === 'prompt-series')!
    const res = await get(prompts, 'start_date=2026-11-14&end_date=2026-11-20&granularity=week&limit=3')
    expect(res.statusCode).toBe(200)
    const body = res.json() as Record<string, unknown>
    expect(Object.keys(body)).toEqual([
      'data',
      'domain_id',
      'days',
      'start_date',
      'end_date',
      'limit',
      'granularity',
      'generated_at',
    ])
    expect([body.days, body.start_date, body.end_date, body.granularity]).toEqual([
      7,
      '2026-11-14',
      '2026-11-20',
      'week',
    ])
    // Saturday 11-14 opens the first (partial) week, Monday 11-16 the second.
    const series = (body.data as { items: { series: { date: string; responses: number }[] }[] }).items[0]!
      .series
    expect(series).toEqual([
      expect.objectContaining({ date: '2026-11-14', responses: 1 }),
      expect.objectContaining({ date: '2026-11-16', responses: 2 }),
    ])
  })

  it('a request without the new parameters answers the same bytes as days alone, and as the library', async () => {
    for (const row of ROWS) {
      const plain = await get(row, 'days=30')
      const lib = await row.compute(engine, row.query.parse({ domain_id: D.acme1, days: '30' }), {
        now: new Date(NOW),
        caller: null,
      })
      expect(plain.body, row.id).toBe(JSON.stringify(lib))
      expect(Object.keys(plain.json() as object), row.id).not.toContain('start_date')
      expect(Object.keys(plain.json() as object), row.id).not.toContain('granularity')
    }
  })

  it('cache keys carry the normalized range and granularity', async () => {
    const row = ROWS.find((r) => r.id === 'competitor-series')!
    const a = await get(row, 'start_date=2026-11-01&end_date=2026-11-20&granularity=week')
    expect(a.headers['x-cache']).toBe('MISS')
    // The same request in another order: the same key.
    const b = await app.inject({
      url: `${row.path}?granularity=week&end_date=2026-11-20&start_date=2026-11-01&domain_id=${D.acme1}`,
      headers: bearer(key),
    })
    expect([b.headers['x-cache'], b.body]).toEqual(['HIT', a.body])
    // Another granularity, or days of the same length: other keys, other bodies.
    const month = await get(row, 'start_date=2026-11-01&end_date=2026-11-20&granularity=month')
    expect(month.headers['x-cache']).toBe('MISS')
    const days = await get(row, 'days=20&granularity=week')
    expect(days.headers['x-cache']).toBe('MISS')
    expect(days.body).not.toBe(a.body)
  })
})
