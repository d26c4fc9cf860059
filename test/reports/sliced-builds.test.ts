/**
 * The reports' cache builds and the read connection's copies let the event loop turn between
 * slices of their JavaScript work (src/foundation/slice.ts), so that a cold build on a large
 * domain never holds a server or a move's target (docs/SCALING.md, "Numbers"). The clock is taken
 * out of the test: TimeSlice is replaced by one whose slice is always spent (every check yields)
 * or never (no check yields), and the structures built both ways must be equal, the first having
 * let the loop turn many times in each build.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { slices } from '../support/fake-slice.js'
import type { Engine } from '../../src/index.js'
import type { Derived } from '../../src/tables/aggregates.js'

vi.mock('../../src/foundation/slice.js', async (original) =>
  (await import('../support/fake-slice.js')).fakeSlices(original as never),
)

const { openEngine } = await import('../../src/index.js')
const { answerDetails } = await import('../../src/reports/answers/details.js')
const { queryFacts } = await import('../../src/reports/query/facts.js')
const { dimRecords, makeAnalyses, makeDims } = await import('../support/generate.js')

interface Internals {
  aggregates: {
    derived<T>(d: Derived<T>, key: number): Promise<T>
    invalidate(keys: number[]): void
  }
  catalog: { domains: Map<string, { key: number }> }
}

describe('cache builds in slices', () => {
  let engine: Engine
  let internals: Internals
  let domainKey: number
  const dims = makeDims(11, { teams: 1, domainsPerTeam: 1, promptsPerDomain: 20, competitorsPerDomain: 5 })

  beforeAll(async () => {
    engine = await openEngine({})
    internals = engine as unknown as Internals
    await engine.ingest([...dimRecords(dims), ...makeAnalyses(11, dims, 1, 3000)])
    domainKey = internals.catalog.domains.get(dims.domains[0]!.id)!.key
  })
  afterAll(() => engine.close())

  /** A cold build of `d` with every slice spent or none; the turns of the loop it took. */
  async function build<T>(d: Derived<T>, spent: boolean): Promise<{ value: T; turns: number }> {
    internals.aggregates.invalidate([domainKey])
    slices.spent = spent
    slices.turns = 0
    try {
      const value = await internals.aggregates.derived(d, domainKey)
      return { value, turns: slices.turns }
    } finally {
      slices.spent = false
    }
  }

  it.each([
    ['query facts', queryFacts],
    ['answers details', answerDetails],
  ] as const)('%s: the same structure whether every check yields or none does', async (_, d) => {
    const whole = await build(d as Derived<unknown>, false)
    const sliced = await build(d as Derived<unknown>, true)
    expect(whole.turns).toBe(0)
    // Reads (each result's chunks) and the JavaScript passes over the rows both yield.
    expect(sliced.turns).toBeGreaterThan(10)
    expect(sliced.value).toEqual(whole.value)
  })
})
