/**
 * GET /api/v1/signals (docs/API.md, "GET /api/v1/signals"): the rules the golden cases do not
 * show on their own (id stability, parameters over the query string and the library), and the
 * engine against the reference model (test/reference/signals.ts) on random data.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS } from '../../src/api/endpoints.js'
import { openEngine, type Engine } from '../../src/index.js'
import type { SignalsPayload } from '../../src/reports/index.js'
import { SIGNAL_COUNTS } from '../../src/reports/signals/query.js'
import type { AggregateStore } from '../../src/tables/aggregate-store.js'
import { ReferenceModel } from '../reference/model.js'
import type { ExtInputRecord } from '../reference/types.js'
import { datasetPath } from '../support/golden.js'
import { readNdjson } from '../support/ndjson.js'

const NOW = '2026-11-20T15:00:00Z'
const D1 = 'd2500000-0000-4000-8000-000000000001'
const D2 = 'd2500000-0000-4000-8000-000000000002'
const row = ENDPOINTS.find((e) => e.id === 'signals')!

/** Each item as `<entity> <segment kind>:<value>` -> id. */
const idsOf = (p: SignalsPayload): Map<string, string> =>
  new Map(p.data.items.map((s) => [`${s.entity_id} ${s.segment.kind}:${s.segment.value}`, s.id]))

describe('signals: rules', () => {
  let engine: Engine
  const records = readNdjson(datasetPath('signals')) as ExtInputRecord[]
  beforeAll(async () => {
    engine = await openEngine()
    await engine.ingest(records as never)
  })
  afterAll(() => engine.close())

  it('an id depends on domain, entity, segment, window and window end only', async () => {
    const before = await engine.computeSignals({ domainId: D1, window: 2, now: NOW })
    expect(before.data.items.length).toBe(8)
    const ids = idsOf(before)
    // Other thresholds: the same ids for the same signals.
    const looser = await engine.computeSignals({
      domainId: D1,
      window: 2,
      minResponses: 1,
      minDelta: 0,
      now: NOW,
    })
    for (const [key, id] of idsOf(looser)) if (ids.has(key)) expect(id).toBe(ids.get(key))
    // Unrelated data changes: another domain, an analysis outside both periods, and counts
    // (two more current analyses mentioning everyone but Umbrella): the same ids.
    const scratch = await openEngine()
    try {
      const extra = (n: number, day: string, ents: string[]) => ({
        type: 'analysis',
        id: `a25ffff0-0000-4000-8000-00000000000${n}`,
        domain_id: D1,
        prompt_id: 'f2500000-0000-4000-8000-000000000001',
        channel: 'chatgpt',
        model: 'gpt-5',
        answered_at: `2026-11-${day}T12:00:00Z`,
        mentions: ents.map((entity_id) => ({ entity_id, position: null, sentiment: null })),
        citations: [],
        themes: [],
      })
      const others = ['brand', 1, 2, 3, 5].map((e) =>
        e === 'brand' ? 'brand' : `c2500000-0000-4000-8000-00000000000${e}`,
      )
      await scratch.ingest([
        ...records,
        extra(1, '10', others),
        extra(2, '20', others),
        extra(3, '19', others),
      ] as never)
      const after = await scratch.computeSignals({ domainId: D1, window: 2, now: NOW })
      const changed = after.data.items.find((s) => s.entity_name === 'Acme')!
      expect(changed.current.responses).toBe(102)
      expect(idsOf(after)).toEqual(ids)
      // Another window or another day: other ids.
      const later = await scratch.computeSignals({ domainId: D1, window: 2, now: '2026-11-21T01:00:00Z' })
      const wider = await scratch.computeSignals({ domainId: D1, window: 3, minResponses: 1, now: NOW })
      for (const s of [...later.data.items, ...wider.data.items])
        expect([...ids.values()]).not.toContain(s.id)
    } finally {
      await scratch.close()
    }
    // Same (entity, segment, window, day) on another domain: another id.
    const segments = await engine.computeSignals({ domainId: D2, window: 2, now: NOW })
    for (const s of segments.data.items) expect([...ids.values()]).not.toContain(s.id)
  })

  it('after a commit, the kept counts read only the changed days again; a change of topics rebuilds them; both as a full build', async () => {
    const scratch = await openEngine()
    const internals = scratch as unknown as {
      aggregates: AggregateStore
      catalog: { domains: Map<string, { key: number }> }
      db: { pool: AggregateStore['pool'] }
    }
    const model = new ReferenceModel()
    const p = { domainId: D2, window: 2, minResponses: 1, minDelta: 0, now: NOW }
    const check = async () => {
      expect(await scratch.computeSignals(p)).toEqual(model.computeSignals(p))
      const key = internals.catalog.domains.get(D2)!.key
      const kept = await internals.aggregates.derived(SIGNAL_COUNTS, key)
      expect(kept).toEqual((await SIGNAL_COUNTS.build(internals.db.pool, key, internals.aggregates)).value)
    }
    try {
      await scratch.ingest(records as never)
      model.ingest(records)
      await check()
      const misses = internals.aggregates.stats().misses
      const d2 = records.filter(
        (r) => r.type === 'analysis' && (r as { domain_id: string }).domain_id === D2,
      ) as (ExtInputRecord & { id: string; answered_at: string })[]
      // One analysis moved to another day and country, one added on a day of the baseline.
      const moved = [
        { ...d2[0]!, answered_at: '2026-11-17T09:00:00Z', country: 'fr' },
        { ...d2[1]!, id: 'a25ffff0-0000-4000-8000-0000000000d1', answered_at: '2026-11-18T10:00:00Z' },
      ] as ExtInputRecord[]
      await scratch.ingest(moved as never)
      model.ingest(moved)
      await check()
      expect(internals.aggregates.stats().misses).toBe(misses) // refreshed, not built again
      // A prompt's topic changes (its analyses move to another topic segment on every day; the topic
      // codes, in order of the topics, change too).
      const prompt = records.find(
        (r) => r.type === 'prompt' && (r as { topic?: string }).topic === 'pricing',
      )!
      const retopic = [
        { ...prompt, topic: 'wholesale' },
        { ...d2[2]!, id: 'a25ffff0-0000-4000-8000-0000000000d2', answered_at: '2026-11-20T10:00:00Z' },
      ] as ExtInputRecord[]
      await scratch.ingest(retopic as never)
      model.ingest(retopic)
      await check()
      const topics = (await scratch.computeSignals(p)).data.items.map((s) => s.segment.value)
      expect(topics).toContain('wholesale')
      expect(topics).not.toContain('pricing')
      // Only a prompt's topic (a call with no analysis changes no day): the payload follows it.
      const only = [{ ...prompt, topic: 'aaa' }] as ExtInputRecord[]
      await scratch.ingest(only as never)
      model.ingest(only)
      const after = await scratch.computeSignals(p)
      expect(after).toEqual(model.computeSignals(p))
      expect(after.data.items.map((s) => s.segment.value)).toContain('aaa')
    } finally {
      await scratch.close()
    }
  })

  it('an id is a UUID of version 8 with the RFC 9562 variant', async () => {
    const p = await engine.computeSignals({ domainId: D1, window: 2, now: NOW })
    for (const s of p.data.items)
      expect(s.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('the query string: defaults, min_delta a JSON number, granularity a 400, other parameters ignored', async () => {
    const parse = (q: Record<string, string>) => row.query.safeParse(q)
    expect(parse({ domain_id: D1 }).data).toEqual({
      domain_id: D1,
      window: 7,
      min_responses: 30,
      min_delta: 5,
    })
    expect(parse({ domain_id: D1, min_delta: '2.50' }).data?.min_delta).toBe(2.5)
    expect(parse({ domain_id: D1, min_delta: '.5' }).data?.min_delta).toBe(0.5)
    expect(parse({ domain_id: D1, min_delta: '100' }).data?.min_delta).toBe(100)
    for (const bad of ['100.01', '-1', '1e1', ' 5', '5 ', '', '0x10', 'NaN', 'Infinity', '+5', '.']) {
      const r = parse({ domain_id: D1, min_delta: bad })
      expect(r.success, bad).toBe(false)
      expect(r.error?.issues[0]?.message, bad).toBe('min_delta must be a number from 0 to 100.')
    }
    expect(parse({ domain_id: D1, window: '91' }).error?.issues[0]?.message).toBe(
      'window must be an integer from 1 to 90.',
    )
    expect(parse({ domain_id: D1, window: '0' }).success).toBe(false)
    expect(parse({ domain_id: D1, min_responses: '0' }).error?.issues[0]?.message).toBe(
      'min_responses must be an integer from 1 to 1000000.',
    )
    const granularity = parse({ domain_id: D1, granularity: 'day' })
    expect(granularity.success).toBe(false)
    expect(granularity.error?.issues[0]?.path).toEqual(['granularity'])
    // Not parameters here: ignored (and not echoed), as any unknown parameter.
    const ignored = parse({
      domain_id: D1,
      days: '30',
      country: 'US',
      topic: 'x',
      tag: 'y',
      model: 'chatgpt',
    })
    expect(ignored.data).toEqual({ domain_id: D1, window: 7, min_responses: 30, min_delta: 5 })
    const payload = await row.compute(
      engine,
      { ...ignored.data!, window: 2 },
      { now: new Date(NOW), caller: null },
    )
    expect(Object.keys(payload)).toEqual([
      'data',
      'domain_id',
      'window',
      'min_responses',
      'min_delta',
      'generated_at',
    ])
    expect(JSON.stringify(payload)).toContain('"min_delta":5,')
  })

  it('the library refuses bad values, naming the parameter', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ window: 0 }, 'window'],
      [{ window: 91 }, 'window'],
      [{ window: 2.5 }, 'window'],
      [{ minResponses: 0 }, 'min_responses'],
      [{ minDelta: -0.1 }, 'min_delta'],
      [{ minDelta: 100.1 }, 'min_delta'],
      [{ minDelta: Number.NaN }, 'min_delta'],
      [{ minDelta: '5' }, 'min_delta'],
      [{ granularity: 'day' }, 'granularity'],
    ]
    for (const [params, name] of bad) {
      await expect(engine.computeSignals({ domainId: D1, ...params } as never), name).rejects.toThrow(name)
    }
  })
})

// ---------------------------------------------------------------------------------------------
// Engine against the reference model on random data.

const CH = ['chatgpt', 'perplexity', 'gemini'] as const
const COUNTRIES = [null, 'us', 'US', 'br', 'De'] as const
const TOPICS = [null, 'pricing', ' pricing ', 'support'] as const

interface RandomData {
  competitors: number
  prompts: (typeof TOPICS)[number][]
  /** Per analysis: day offset back from today, prompt, channel, country, mentioned entities (0 = brand). */
  analyses: { back: number; prompt: number; channel: number; country: number; mentions: boolean[] }[]
  split: number
  /**
   * A third call: one prompt's topic set again (maybe to a new topic: the topic codes change), and
   * stored analyses sent again on another day and country (both days change).
   */
  third: {
    prompt: number
    topic: (typeof TOPICS)[number] | 'zeta'
    moves: { i: number; back: number; country: number }[]
  }
}

const dataArb: fc.Arbitrary<RandomData> = fc
  .record({
    competitors: fc.integer({ min: 0, max: 3 }),
    prompts: fc.array(fc.constantFrom(...TOPICS), { minLength: 1, maxLength: 3 }),
    n: fc.integer({ min: 0, max: 120 }),
    split: fc.integer({ min: 0, max: 120 }),
    // A bias per entity and period, so that real changes happen.
    bias: fc.array(
      fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
      {
        minLength: 4,
        maxLength: 4,
      },
    ),
    seeds: fc.array(fc.integer({ min: 0, max: 2 ** 30 }), { minLength: 120, maxLength: 120 }),
    third: fc.record({
      prompt: fc.nat(),
      topic: fc.constantFrom(...TOPICS, 'zeta' as const),
      moves: fc.array(
        fc.record({
          i: fc.nat(),
          back: fc.integer({ min: 0, max: 8 }),
          country: fc.integer({ min: 0, max: COUNTRIES.length - 1 }),
        }),
        { minLength: 1, maxLength: 5 },
      ),
    }),
  })
  .map(({ competitors, prompts, n, split, bias, seeds, third }) => ({
    competitors,
    prompts,
    split,
    third,
    analyses: seeds.slice(0, n).map((s) => {
      const back = s % 9
      const period = back < 4 ? 1 : 0
      const r = (k: number) => ((s >>> k) % 1000) / 1000
      return {
        back,
        prompt: (s >>> 4) % prompts.length,
        channel: (s >>> 6) % CH.length,
        country: (s >>> 8) % COUNTRIES.length,
        mentions: bias.slice(0, competitors + 1).map((b, e) => r(11 + 3 * e) < b[period]!),
      }
    }),
  }))

function recordsOf(d: RandomData): ExtInputRecord[][] {
  const team = '7ea00000-0000-4000-8000-0000000000ff'
  const domain = 'd0000000-0000-4000-8000-0000000000ff'
  const comp = (e: number) => `c0000000-0000-4000-8000-0000000000f${e}`
  const prompt = (i: number) => `f0000000-0000-4000-8000-0000000000f${i}`
  const head = [
    { type: 'team', id: team, name: 'T', plan: 'pro', developer_access: true },
    { type: 'domain', id: domain, team_id: team, brand_name: 'Brand', website: null },
    ...d.prompts.map((topic, i) => ({
      type: 'prompt',
      id: prompt(i),
      domain_id: domain,
      text: `p${i}`,
      estimated_search_volume: null,
      ...(topic === null ? {} : { topic }),
    })),
    ...Array.from({ length: d.competitors }, (_, i) => ({
      type: 'competitor',
      id: comp(i + 1),
      domain_id: domain,
      name: `C${i % 2}`,
      website: null,
    })),
  ]
  const analyses = d.analyses.map((a, i) => {
    const day = new Date(Date.parse(NOW) - a.back * 86_400_000).toISOString().slice(0, 10)
    const country = COUNTRIES[a.country]
    return {
      type: 'analysis',
      id: `a0000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      domain_id: domain,
      prompt_id: prompt(a.prompt),
      channel: CH[a.channel],
      model: 'm',
      answered_at: `${day}T0${i % 10}:00:00Z`,
      mentions: a.mentions.flatMap((m, e) =>
        m ? [{ entity_id: e === 0 ? 'brand' : comp(e), position: null, sentiment: null }] : [],
      ),
      citations: [],
      themes: [],
      ...(country === null ? {} : { country }),
    }
  })
  const cut = Math.min(d.split, analyses.length)
  const p = d.third.prompt % d.prompts.length
  const retopic = { ...head.find((r) => r.id === prompt(p))!, topic: d.third.topic }
  const moved =
    analyses.length === 0
      ? []
      : // One move per analysis (the last one drawn).
        [...new Map(d.third.moves.map((m) => [m.i % analyses.length, m])).entries()].map(([i, m]) => {
          const a = analyses[i]!
          const day = new Date(Date.parse(NOW) - m.back * 86_400_000).toISOString().slice(0, 10)
          const country = COUNTRIES[m.country]
          const { country: _c, ...rest } = a as typeof a & { country?: string }
          return { ...rest, answered_at: `${day}T11:00:00Z`, ...(country === null ? {} : { country }) }
        })
  return [
    [...head, ...analyses.slice(0, cut)],
    analyses.slice(cut),
    [retopic, ...moved],
  ] as ExtInputRecord[][]
}

const paramsArb = fc.record({
  window: fc.integer({ min: 1, max: 5 }),
  minResponses: fc.integer({ min: 1, max: 12 }),
  minDelta: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 40, noNaN: true }), fc.constant(100 / 3)),
})

describe('signals: the engine equals the reference model on random data', () => {
  it('after each ingest call', async () => {
    await fc.assert(
      fc.asyncProperty(dataArb, fc.array(paramsArb, { minLength: 1, maxLength: 3 }), async (d, ps) => {
        const engine = await openEngine()
        try {
          const model = new ReferenceModel()
          for (const call of recordsOf(d)) {
            await engine.ingest(call as never)
            model.ingest(call)
            for (const p of ps) {
              const params = { domainId: 'd0000000-0000-4000-8000-0000000000ff', ...p, now: NOW }
              expect(await engine.computeSignals(params)).toEqual(model.computeSignals(params))
            }
          }
        } finally {
          await engine.close()
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 25), endOnFailure: true },
    )
  }, 600_000)
})
