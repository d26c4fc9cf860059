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
import { openEngine } from '../src/index.js'
import type { Engine } from '../src/index.js'
import { ReferenceModel } from './reference/model.js'
import { datasetArb, paramsFor, queryArb } from './support/arbitraries.js'
import type { Dataset, Query } from './support/arbitraries.js'

const numRuns = Number(process.env.PROPERTY_RUNS ?? 75)
/** Each engine costs a few hundred ms to open and fill; shrinking a failure opens many. */
const timeout = 600_000

/**
 * Runs `check` for each query against a fresh engine and a reference model, after every ingest
 * call (so stale aggregates or caches between calls show up), both fed the same calls in order.
 * With `viaFile` the engine reads each call from an NDJSON file (ingestFile) instead of an array.
 */
async function withBoth(
  ds: Dataset,
  queries: Query[],
  viaFile: boolean,
  check: (engine: Engine, model: ReferenceModel, q: Query) => Promise<void>,
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

describe('engine equals the reference model on random datasets', () => {
  it(
    'prompt series',
    async () => {
      await fc.assert(
        fc.asyncProperty(datasetArb, queries, fc.boolean(), (ds, qs, viaFile) =>
          withBoth(ds, qs, viaFile, async (engine, model, q) => {
            const p = paramsFor(ds, q).prompt
            expect(await engine.computePromptSeries(p)).toEqual(model.promptSeries(p))
          }),
        ),
        { numRuns },
      )
    },
    timeout,
  )

  it(
    'competitor series',
    async () => {
      await fc.assert(
        fc.asyncProperty(datasetArb, queries, fc.boolean(), (ds, qs, viaFile) =>
          withBoth(ds, qs, viaFile, async (engine, model, q) => {
            const p = paramsFor(ds, q).competitor
            expect(await engine.computeCompetitorSeries(p)).toEqual(model.competitorSeries(p))
          }),
        ),
        { numRuns },
      )
    },
    timeout,
  )

  it(
    'sentiment overview',
    async () => {
      await fc.assert(
        fc.asyncProperty(datasetArb, queries, fc.boolean(), (ds, qs, viaFile) =>
          withBoth(ds, qs, viaFile, async (engine, model, q) => {
            const p = paramsFor(ds, q).sentiment
            expect(await engine.sentimentOverview(p)).toEqual(model.sentimentOverview(p))
          }),
        ),
        { numRuns },
      )
    },
    timeout,
  )

  it(
    'sentiment themes',
    async () => {
      await fc.assert(
        fc.asyncProperty(datasetArb, queries, fc.boolean(), (ds, qs, viaFile) =>
          withBoth(ds, qs, viaFile, async (engine, model, q) => {
            const p = paramsFor(ds, q).sentiment
            expect(await engine.sentimentThemes(p)).toEqual(model.sentimentThemes(p))
          }),
        ),
        { numRuns },
      )
    },
    timeout,
  )
})
