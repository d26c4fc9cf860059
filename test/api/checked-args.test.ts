/**
 * A request is parsed once: the parameters a row's `compute` builds from values its query schema
 * checked are taken by the report as they are, without its library schema parsing them again
 * (`checkedArgs` and `isChecked`, src/schemas/params.ts; `parseParams`, src/queries/context.ts).
 * What makes that safe: for every row that builds them, over many queries, the payload is the one
 * the same parameters get when a library user passes them (parsed). Anything else is still parsed:
 * values that did not come out of a query schema, a bad `now`, every library call.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { CHANNELS, openEngine, ValidationError, type Engine } from '../../src/index.js'
import { competitorSeriesParamsSchema } from '../../src/reports/index.js'
import { isChecked } from '../../src/schemas/params.js'
import { dimRecords, makeAnalyses, makeDims, rng } from '../support/generate.js'

const NOW = new Date('2026-04-01T12:00:00Z')
const ROWS = ENDPOINTS as readonly Endpoint[]
/** The windowed rows whose compute builds its parameters by renaming the checked values. */
const CHECKED_ROWS = ROWS.filter((row) => 'days' in row.params && !['query', 'answers'].includes(row.id))

let engine: Engine
let domains: string[]

beforeAll(async () => {
  const dims = makeDims(11, { teams: 1, domainsPerTeam: 2, promptsPerDomain: 5, competitorsPerDomain: 3 })
  engine = await openEngine()
  await engine.ingest([...dimRecords(dims), ...makeAnalyses(11, dims, 1, 900)])
  domains = dims.domains.map((d) => d.id)
})

afterAll(async () => {
  await engine?.close()
})

/** The engine, recording the parameters each report method is called with. */
function recording(calls: unknown[]): Engine {
  return new Proxy(engine, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown
      if (typeof value !== 'function') return value
      return (params: unknown) => {
        calls.push(params)
        return (value as (p: unknown) => unknown).call(target, params)
      }
    },
  })
}

/** Query values for a row: a sample of a few values of each of its parameters. */
function queries(row: Endpoint, r: () => number, n: number): Record<string, string>[] {
  const values: Record<string, string[]> = {
    domain_id: domains.map((d, i) => (i === 0 ? d.toUpperCase() : d)),
    days: ['1', '7', '30', '90', '365'],
    model: ['all', ...CHANNELS, 'gpt-4o-2024-08-06'],
    granularity: ['day', 'week', 'month'],
    limit: ['1', '3', '25'],
    country: ['DE', 'us'],
    tag: ['branded'],
  }
  return Array.from({ length: n }, () => {
    const q: Record<string, string> = {}
    for (const name of Object.keys(row.params)) {
      const choices = values[name]
      const chance = ['country', 'tag'].includes(name) ? 0.2 : 0.8
      if (choices !== undefined && (name === 'domain_id' || r() < chance))
        q[name] = choices[Math.floor(r() * choices.length)]!
    }
    if (r() < 0.25) {
      delete q.days
      q.start_date = '2026-02-10'
      q.end_date = '2026-03-31'
    }
    return q
  })
}

describe('the parameters of a checked request, taken as they are, give the parsed payload', () => {
  it('covers the four served reports', () => {
    const methods = CHECKED_ROWS.map((row) => row.method)
    for (const method of [
      'computePromptSeries',
      'computeCompetitorSeries',
      'computeSentimentOverview',
      'computeSentimentThemes',
    ])
      expect(methods).toContain(method)
  })

  for (const row of CHECKED_ROWS) {
    it(row.id, async () => {
      const r = rng(row.id.length * 17 + row.path.length)
      let answered = 0
      for (const q of queries(row, r, 24)) {
        const parsed = row.query.safeParse(q)
        // A raw model where only channels are allowed: the query schema's business.
        if (!parsed.success) continue
        const values = parsed.data as Record<string, unknown>
        expect(Object.isFrozen(values)).toBe(true)
        const calls: unknown[] = []
        const payload = await row.compute(recording(calls), values as never, { now: NOW, caller: null })
        expect(calls).toHaveLength(1)
        const args = calls[0] as Record<string, unknown>
        expect(isChecked(args), JSON.stringify(q)).toBe(true)
        // The same parameters from a library user: a plain copy, parsed by the report.
        const copy = { ...args }
        expect(isChecked(copy)).toBe(false)
        const method = engine[row.method] as (p: unknown) => Promise<unknown>
        expect(JSON.stringify(payload), JSON.stringify(q)).toBe(
          JSON.stringify(await method.call(engine, copy)),
        )
        answered++
      }
      expect(answered).toBeGreaterThanOrEqual(12)
    })
  }
})

describe('everything else is parsed', () => {
  const row = ROWS.find((r) => r.method === 'computeCompetitorSeries')!
  const ctx = { now: NOW, caller: null }

  it('a checked request reaches the report without a second parse; a library call is parsed', async () => {
    const spy = vi.spyOn(competitorSeriesParamsSchema, 'safeParse')
    try {
      await row.compute(engine, row.query.parse({ domain_id: domains[0], days: '30' }) as never, ctx)
      expect(spy).not.toHaveBeenCalled()
      await engine.computeCompetitorSeries({ domainId: domains[0]!, days: 30, now: NOW })
      expect(spy).toHaveBeenCalledTimes(1)
    } finally {
      spy.mockRestore()
    }
  })

  it('values that did not come out of the query schema', async () => {
    const values = { domain_id: domains[0], days: 999, model: 'all' }
    await expect(row.compute(engine, values as never, ctx)).rejects.toThrow(ValidationError)
    const copy = { ...(row.query.parse({ domain_id: domains[0] }) as object), days: 0 }
    await expect(row.compute(engine, copy as never, ctx)).rejects.toThrow(ValidationError)
  })

  it('a bad clock beside checked values', async () => {
    const values = row.query.parse({ domain_id: domains[0], days: '7' }) as never
    const call = row.compute(engine, values, { now: new Date(Number.NaN), caller: null })
    await expect(call).rejects.toThrow(ValidationError)
    await expect(row.compute(engine, values, { now: 'yesterday', caller: null })).rejects.toThrow(
      'now must be',
    )
  })

  it('a library call with bad values', async () => {
    await expect(engine.computeCompetitorSeries({ domainId: domains[0]!, days: 999 })).rejects.toThrow(
      ValidationError,
    )
  })
})
