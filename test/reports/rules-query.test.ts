/**
 * Rules of GET /api/v1/query (docs/API.md, "GET /api/v1/query") beyond the golden cases and the
 * differential test: each bad parameter is a 400 naming it, before the domain check, with the same
 * sentence in the library and the CLI; a re-ingested prompt's tags and topic move its analyses at
 * once, and a new prompt's rows sort by its id at once; the statistics at their edges.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { computeWithFlags } from '../../src/cli/flags.js'
import { isValidationError, type Engine } from '../../src/index.js'
import { twoProportionPValue, wilson } from '../../src/foundation/stats.js'
import { pValueRef, wilsonInterval } from '../reference/query.js'
import { blankOf, keptShapes } from '../../src/reports/query/query.js'
import { D, UNKNOWN_DOMAIN, acmeServer, bearer } from '../http/helpers.js'
import { analysis, mention, prompt } from '../support/records.js'

const NOW = Date.parse('2026-11-20T15:00:30Z')
const ROW = (ENDPOINTS as readonly Endpoint[]).find((e) => e.id === 'query')!
const P = '30000000-0000-4000-8000-000000000001'

/** A bad query string, and the start of its detail (the parameter named first). */
const BAD: Array<[string, string]> = [
  ['dimensions=', 'dimensions must be a comma-separated list'],
  ['dimensions=prompt,,channel', 'dimensions must be a comma-separated list'],
  ['dimensions=prompt,', 'dimensions must be a comma-separated list'],
  ['dimensions=date,date', 'dimensions must be a comma-separated list'],
  ['dimensions=date,channel,model,country', 'dimensions must be a comma-separated list'],
  ['dimensions=Prompt', 'dimensions must be a comma-separated list'],
  ['dimensions=prompt&dimensions=channel', 'dimensions must be given only once'],
  ['entity=ALL', 'entity must be brand, all, or a competitor id (a UUID).'],
  ['entity=c0000000', 'entity must be brand, all, or a competitor id (a UUID).'],
  ['compare=yes', 'compare must be none or previous.'],
  ['min_responses=-1', 'min_responses must be an integer from 0 to 1000000.'],
  ['min_responses=1000001', 'min_responses must be an integer from 0 to 1000000.'],
  ['page=0', 'page must be an integer from 1 to 1000000000.'],
  ['limit=0', 'limit must be an integer from 1 to 10000.'],
  ['limit=10001', 'limit must be an integer from 1 to 10000.'],
  ['granularity=week', 'granularity is accepted only with the date dimension.'],
  ['dimensions=channel&granularity=week', 'granularity is accepted only with the date dimension.'],
  ['dimensions=date&compare=previous', 'compare must be none when dimensions includes date.'],
  ['country=DEU', 'country must be two letters'],
  ['topic=%20%20', 'topic must be a text of 1 to 100 characters after trimming.'],
  ['model=bad%20model', 'model must be all, one of the channels'],
  // The first invalid parameter in the table's order is the one named.
  ['limit=0&dimensions=x', 'dimensions must be a comma-separated list'],
]

describe('GET /api/v1/query: parameters', () => {
  let engine: Engine
  let app: FastifyInstance
  let key: string
  let close: () => Promise<void>
  beforeAll(async () => {
    ;({ engine, app, key, close } = await acmeServer(
      [
        prompt({ id: P, domain_id: D.acme1, topic: 'Pricing', tags: ['a'] } as never),
        ...['2026-11-15T10:00:00Z', '2026-11-16T10:00:00Z'].map((answered_at) =>
          analysis({
            domain_id: D.acme1,
            prompt_id: P,
            answered_at,
            mentions: [mention('brand', 2)],
            themes: [],
          }),
        ),
      ],
      NOW,
    ))
  })
  afterAll(() => close())
  const get = (domain: string, query: string) =>
    app.inject({ url: `${ROW.path}?domain_id=${domain}&${query}`, headers: bearer(key) })

  it('each bad parameter is a 400 naming it, even for an unknown domain (checked before the domain)', async () => {
    for (const [query, detail] of BAD) {
      for (const domain of [D.acme1, UNKNOWN_DOMAIN]) {
        const res = await get(domain, query)
        expect(res.statusCode, `${domain} ${query}`).toBe(400)
        expect((res.json() as { detail: string }).detail, query).toContain(detail)
      }
    }
    // Valid parameters: the domain check answers (the series class: 403 for a domain out of reach).
    expect((await get(UNKNOWN_DOMAIN, 'dimensions=date')).statusCode).toBe(403)
    expect((await get(D.acme1, 'dimensions=date&granularity=week&entity=all')).statusCode).toBe(200)
  })

  it('the library and the CLI say the same', async () => {
    const lib = async (params: Record<string, unknown>) => {
      const e = await engine
        .computeQuery({ domainId: D.acme1, now: new Date(NOW), ...params } as never)
        .catch((x: unknown) => x)
      return isValidationError(e) ? [e.issues[0]!.path, e.issues[0]!.message] : e
    }
    expect(await lib({ dimensions: ['date'], compare: 'previous' })).toEqual([
      'compare',
      'compare must be none when dimensions includes date.',
    ])
    expect(await lib({ granularity: 'week' })).toEqual([
      'granularity',
      'granularity is accepted only with the date dimension.',
    ])
    expect(await lib({ dimensions: 'a,,b' })).toEqual([
      'dimensions',
      'dimensions must be a comma-separated list of at most 3 distinct names among date, channel, model, country, prompt, topic, tag.',
    ])
    const cli = (flags: Record<string, string>) =>
      computeWithFlags(engine, ROW, { domain: D.acme1, now: new Date(NOW).toISOString(), ...flags }).catch(
        (e: Error) => e.message,
      )
    expect(await cli({ dimensions: 'date', compare: 'previous' })).toBe(
      'compare must be none when dimensions includes date.',
    )
    expect(await cli({ 'min-responses': 'x' })).toBe('--min-responses must be an integer from 0 to 1000000')
    const ok = (await cli({ dimensions: 'tag,topic' })) as {
      data: { items: { tag: string; topic: string }[] }
    }
    expect(ok.data.items.map((r) => [r.tag, r.topic])).toEqual([['a', 'Pricing']])
  })

  it("a re-ingested prompt's tags and topic regroup its analyses at once", async () => {
    const groups = async () =>
      (
        await engine.computeQuery({ domainId: D.acme1, now: new Date(NOW), dimensions: ['tag', 'topic'] })
      ).data.items.map((r) => [r.tag, r.topic, r.responses])
    expect(await groups()).toEqual([['a', 'Pricing', 2]])
    await engine.ingest([prompt({ id: P, domain_id: D.acme1, topic: 'Support', tags: ['b', 'c'] } as never)])
    expect(await groups()).toEqual([
      ['b', 'Support', 2],
      ['c', 'Support', 2],
    ])
    expect((await engine.computeQuery({ domainId: D.acme1, now: new Date(NOW), tag: 'a' })).data.total).toBe(
      0,
    )
  })

  it("a new prompt's rows take their place in the prompt order at once (the ranks are not kept stale)", async () => {
    const rows = async () =>
      (
        await engine.computeQuery({ domainId: D.acme1, now: new Date(NOW), dimensions: ['prompt'] })
      ).data.items.map((r) => [r.prompt_id, r.responses])
    expect(await rows()).toEqual([[P, 2]])
    // An id that sorts before P's, with one analysis in the window.
    const first = '10000000-0000-4000-8000-000000000001'
    await engine.ingest([
      prompt({ id: first, domain_id: D.acme1 }),
      analysis({
        domain_id: D.acme1,
        prompt_id: first,
        answered_at: '2026-11-17T10:00:00Z',
        mentions: [mention('brand', 1)],
        themes: [],
      }),
    ])
    expect(await rows()).toEqual([
      [first, 1],
      [P, 2],
    ])
  })

  it('the row kept per shape holds no tenant string: every field in order, strings blanked', async () => {
    const { data } = await engine.computeQuery({
      domainId: D.acme1,
      now: new Date(NOW),
      dimensions: ['prompt', 'channel'],
      compare: 'previous',
    })
    const row = data.items[0]!
    const blank = blankOf(row)
    expect(Object.keys(blank)).toEqual(Object.keys(row))
    for (const [field, value] of Object.entries(row))
      expect((blank as unknown as Record<string, unknown>)[field]).toEqual(
        typeof value === 'string' ? '' : value,
      )
    const strings = (v: unknown): string[] =>
      typeof v === 'string'
        ? [v]
        : v !== null && typeof v === 'object'
          ? Object.values(v).flatMap(strings)
          : []
    expect(keptShapes().length).toBeGreaterThan(0)
    expect(
      keptShapes()
        .flatMap(strings)
        .filter((s) => s !== ''),
    ).toEqual([])
  })
})

describe('the statistics at their edges (section 3)', () => {
  it('Wilson: exactly 0 at k = 0 and 100 at k = n, n = 1 included; null at n = 0', () => {
    expect(wilson(0, 1)![0]).toBe(0)
    expect(wilson(1, 1)![1]).toBe(100)
    expect(wilson(0, 0)).toBeNull()
    for (const [k, n] of [
      [0, 1],
      [1, 1],
      [3, 7],
      [50, 100],
    ] as const) {
      const [lo, hi] = wilson(k, n)!
      const [rlo, rhi] = wilsonInterval(k, n)!
      expect(Math.abs(lo - rlo)).toBeLessThanOrEqual(1e-9 * Math.max(1, rlo))
      expect(Math.abs(hi - rhi)).toBeLessThanOrEqual(1e-9 * Math.max(1, rhi))
      expect(lo).toBeLessThanOrEqual((k / n) * 100)
      expect(hi).toBeGreaterThanOrEqual((k / n) * 100)
    }
  })

  it('the p-value is null when either n is 0 or the pooled proportion is 0 or 1, 1 at no change', () => {
    expect(twoProportionPValue(0, 0, 1, 2)).toBeNull()
    expect(twoProportionPValue(1, 2, 0, 0)).toBeNull()
    expect(twoProportionPValue(0, 3, 0, 4)).toBeNull()
    expect(twoProportionPValue(3, 3, 4, 4)).toBeNull()
    expect(twoProportionPValue(1, 2, 1, 2)).toBe(1)
    expect(pValueRef(10, 100, 30, 100)).toBeCloseTo(twoProportionPValue(10, 100, 30, 100)!, 12)
    expect(twoProportionPValue(10, 100, 30, 100)!).toBeLessThan(0.05)
  })
})
