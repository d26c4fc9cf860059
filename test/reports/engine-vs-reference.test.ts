/**
 * Differential test: the DuckDB engine against the plain-TypeScript reference model
 * (test/reference/model.ts) on random valid datasets (test/support/arbitraries.ts). One fresh
 * in-memory engine per dataset, several parameter sets per engine. Shrunk counterexamples become
 * golden cases under fixtures/cases.
 *
 * PROPERTY_RUNS sets the runs per function (default 75: 300 datasets in all).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { openEngine } from '../../src/index.js'
import type { Engine } from '../../src/index.js'
import { ReferenceModel } from '../reference/model.js'
import {
  datasetArb,
  extDatasetArb,
  extParamsFor,
  extQueryArb,
  paramsFor,
  queryArb,
} from '../support/arbitraries.js'
import type { Dataset, ExtDataset, ExtQuery } from '../support/arbitraries.js'

const numRuns = Number(process.env.PROPERTY_RUNS ?? 75)
/** Each engine costs a few hundred ms to open and fill; shrinking a failure opens many. */
const timeout = 600_000
/**
 * fast-check's own limits, inside the test's: a run that has not settled after 2 minutes fails
 * (with its dataset and seed, where the test's timeout would report none), and a failure's
 * shrinking stops after 8 minutes with the smallest counterexample found so far. A passing
 * property takes well under a minute.
 */
const limits = { numRuns, timeout: 120_000, interruptAfterTimeLimit: 480_000, markInterruptAsFailure: true }

/**
 * Runs `check` for each query against a fresh engine and a reference model, after every ingest
 * call (so stale aggregates or caches between calls show up), both fed the same calls in order.
 * With `viaFile` the engine reads each call from an NDJSON file (ingestFile) instead of an array.
 */
async function withBoth<Q>(
  ds: Pick<Dataset | ExtDataset, 'calls'>,
  queries: Q[],
  viaFile: boolean,
  check: (engine: Engine, model: ReferenceModel, q: Q) => Promise<void>,
): Promise<void> {
  const engine = await openEngine()
  const dir = viaFile ? mkdtempSync(join(tmpdir(), 'va-ref-')) : null
  try {
    const model = new ReferenceModel()
    for (const [i, call] of ds.calls.entries()) {
      if (dir === null) {
        await engine.ingest(call)
      } else {
        const file = join(dir, `call-${i}.ndjson`)
        writeFileSync(file, call.map((r) => `${JSON.stringify(r)}\n`).join(''))
        await engine.ingestFile(file)
      }
      model.ingest(call)
      for (const q of queries) await check(engine, model, q)
    }
  } finally {
    await engine.close()
    if (dir !== null) rmSync(dir, { recursive: true, force: true })
  }
}

const queries = fc.array(queryArb, { minLength: 1, maxLength: 4 })

/** The four reports of the published API: each method beside the params of its family. */
const PUBLISHED = [
  ['prompt series', 'computePromptSeries', 'prompt'],
  ['competitor series', 'computeCompetitorSeries', 'competitor'],
  ['sentiment overview', 'computeSentimentOverview', 'sentiment'],
  ['sentiment themes', 'computeSentimentThemes', 'sentiment'],
] as const

describe('engine equals the reference model on random datasets', () => {
  for (const [name, method, family] of PUBLISHED) {
    it(
      name,
      async () => {
        await fc.assert(
          fc.asyncProperty(datasetArb, queries, fc.boolean(), (ds, qs, viaFile) =>
            withBoth(ds, qs, viaFile, async (engine, model, q) => {
              const p = paramsFor(ds, q)[family] as never
              expect(await engine[method](p)).toEqual(model[method](p))
            }),
          ),
          limits,
        )
      },
      timeout,
    )
  }
})

// ---------------------------------------------------------------------------------------------
// Listings, rankings and brand time series (extensions 3-5), on datasets whose domains and
// prompts may carry created_at (extensions 1).

/** What an API key says, drawn from the dataset's teams and domains (plus an unknown domain). */
const keyPlanArb = fc.record({
  team: fc.nat(),
  scope: fc.array(fc.nat(), { maxLength: 3 }),
  allowed: fc.option(fc.array(fc.nat(), { maxLength: 3 }), { freq: 2 }),
  upper: fc.boolean(),
})
type KeyPlan = typeof keyPlanArb extends fc.Arbitrary<infer T> ? T : never

function keyOf(ds: ExtDataset, plan: KeyPlan) {
  const lower = (xs: string[]) => [...new Set(xs.map((x) => x.toLowerCase()))]
  const teams = lower(ds.records.filter((r) => r.type === 'team').map((r) => r.id))
  const domains = [...ds.domainIds, 'd0000000-0000-4000-8000-0000000000ff']
  const at = <T>(xs: T[], i: number): T => xs[i % xs.length]!
  const spell = (id: string) => (plan.upper ? id.toUpperCase() : id)
  return {
    teamId: spell(at(teams, plan.team)),
    scopeTeamIds: plan.scope.map((i) => spell(at(teams, i))),
    allowedDomains: plan.allowed === null ? null : plan.allowed.map((i) => spell(at(domains, i))),
  }
}

const METRICS = ['visibility', 'mentions', 'citations', 'citability'] as const

describe('engine equals the reference model on the listings, rankings and brand series', () => {
  it(
    'validate, domains, prompts, brand rankings, model leaderboard, the four brand series',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          extDatasetArb,
          fc.array(fc.tuple(extQueryArb, keyPlanArb, fc.nat({ max: 100 })), { minLength: 1, maxLength: 3 }),
          fc.boolean(),
          (ds, qs, viaFile) =>
            withBoth(
              ds,
              qs,
              viaFile,
              async (engine, model, [q, keyPlan, used]: [ExtQuery, KeyPlan, number]) => {
                const { domainId, days = 30, model: m = 'all', now: clock } = paramsFor(ds, q.base).sentiment
                const now = clock!
                const key = keyOf(ds, keyPlan)
                const same = async (engineCall: Promise<unknown>, modelCall: () => unknown) => {
                  let expected: unknown
                  try {
                    expected = modelCall()
                  } catch (e) {
                    // The key's team may be gone from a dataset with repeated records: both refuse.
                    await expect(engineCall).rejects.toThrow((e as Error).constructor as never)
                    return
                  }
                  expect(await engineCall).toEqual(expected)
                }
                const rateLimit = { limitPerMinute: 100, used, resetAt: '2026-11-20T15:01:00Z' }
                await same(engine.computeKeyCheck({ key, rateLimit, now }), () =>
                  model.computeKeyCheck({ key, rateLimit, now }),
                )
                await same(engine.computeDomainList({ key, now }), () =>
                  model.computeDomainList({ key, now }),
                )
                const { country: _country, ...listFilters } = q.segment
                const page = { domainId, page: q.page, size: q.size, ...listFilters, now }
                await same(engine.computePromptList(page), () => model.computePromptList(page))
                const report = { domainId, days, model: m, now }
                await same(engine.computeBrandRankings(report), () => model.computeBrandRankings(report))
                await same(engine.computeModelLeaderboard({ domainId, days, now }), () =>
                  model.computeModelLeaderboard({ domainId, days, now }),
                )
                for (const metric of METRICS) {
                  await same(engine.computeBrandSeries({ ...report, metric }), () =>
                    model.computeBrandSeries({ ...report, metric }),
                  )
                }
              },
            ),
        ),
        limits,
      )
    },
    timeout,
  )
})

/** Queries with `days` or a random range (extensions section 9), and a random granularity or none. */
const extQueries = fc.array(extQueryArb, { minLength: 1, maxLength: 4 })

describe('engine equals the reference model on random datasets with titles, page types and fan-out queries', () => {
  const cases = [
    [
      'prompt series (ranges, buckets)',
      (e: Engine, m: ReferenceModel, ds: ExtDataset, q: ExtQuery) => {
        const p = extParamsFor(ds, q).promptSeries
        return [e.computePromptSeries(p), m.computePromptSeries(p)] as const
      },
    ],
    [
      'competitor series (ranges, buckets)',
      (e: Engine, m: ReferenceModel, ds: ExtDataset, q: ExtQuery) => {
        const p = extParamsFor(ds, q).competitorSeries
        return [e.computeCompetitorSeries(p), m.computeCompetitorSeries(p)] as const
      },
    ],
    [
      'sentiment overview and themes (ranges)',
      (e: Engine, m: ReferenceModel, ds: ExtDataset, q: ExtQuery) => {
        const p = extParamsFor(ds, q).report
        return [
          Promise.all([e.computeSentimentOverview(p), e.computeSentimentThemes(p)]),
          [m.computeSentimentOverview(p), m.computeSentimentThemes(p)],
        ] as const
      },
    ],
    [
      'brand rankings, model leaderboard, brand series (ranges, buckets)',
      (e: Engine, m: ReferenceModel, ds: ExtDataset, q: ExtQuery) => {
        const p = extParamsFor(ds, q)
        return [
          Promise.all([
            e.computeBrandRankings(p.report),
            e.computeModelLeaderboard(p.leaderboard),
            e.computeBrandSeries(p.brandSeries),
          ]),
          [
            m.computeBrandRankings(p.report),
            m.computeModelLeaderboard(p.leaderboard),
            m.computeBrandSeries(p.brandSeries),
          ],
        ] as const
      },
    ],
    [
      'citations',
      (e: Engine, m: ReferenceModel, ds: ExtDataset, q: ExtQuery) => {
        const p = extParamsFor(ds, q).citations
        return [e.computeCitations(p), m.computeCitations(p)] as const
      },
    ],
    [
      'cited domains',
      (e: Engine, m: ReferenceModel, ds: ExtDataset, q: ExtQuery) => {
        const p = extParamsFor(ds, q).citations
        return [e.computeCitedDomains(p), m.computeCitedDomains(p)] as const
      },
    ],
    [
      'fan-out queries',
      (e: Engine, m: ReferenceModel, ds: ExtDataset, q: ExtQuery) => {
        const p = extParamsFor(ds, q).report
        return [e.computeFanoutQueries(p), m.computeFanoutQueries(p)] as const
      },
    ],
    [
      'sentiment time series',
      (e: Engine, m: ReferenceModel, ds: ExtDataset, q: ExtQuery) => {
        const p = extParamsFor(ds, q).sentimentSeries
        return [e.computeSentimentSeries(p), m.computeSentimentSeries(p)] as const
      },
    ],
  ] as const
  for (const [name, run] of cases) {
    it(
      name,
      async () => {
        await fc.assert(
          fc.asyncProperty(extDatasetArb, extQueries, fc.boolean(), (ds, qs, viaFile) =>
            withBoth(ds, qs, viaFile, async (engine, model, q) => {
              const [got, want] = run(engine, model, ds, q)
              expect(await got).toEqual(want)
            }),
          ),
          limits,
        )
      },
      timeout,
    )
  }
})
