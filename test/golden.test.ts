/**
 * Golden cases (fixtures/cases, see fixtures/README.md): for each case, the reference model and
 * the engine (one engine per dataset, loaded with ingestFile) must give exactly expected.json; and
 * every expected.json has the documented keys in the documented order (api-reference.md section 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openEngine } from '../src/index.js'
import type { Engine } from '../src/index.js'
import { ReferenceModel } from './reference/model.js'
import {
  DATAPOINT,
  ENVELOPE,
  FUNCTIONS,
  ITEM,
  datasetPath,
  discoverCases,
  toParams,
} from './support/golden.js'
import type { GoldenCase, GoldenFunction } from './support/golden.js'
import { readJson, readNdjson } from './support/ndjson.js'

const cases = discoverCases()
const datasets = [...new Set(cases.map((c) => c.params.dataset))].sort()

/** Every key-order problem of a payload, as readable paths. */
function shapeProblems(fn: GoldenFunction, payload: Record<string, unknown>): string[] {
  const out: string[] = []
  const check = (path: string, obj: unknown, keys: string[]): void => {
    const got = Object.keys(obj as object)
    if (JSON.stringify(got) !== JSON.stringify(keys))
      out.push(`${path}: ${got.join(',')} != ${keys.join(',')}`)
  }
  check('$', payload, ENVELOPE[fn])
  const data = payload.data as Record<string, unknown>
  if (fn === 'sentiment-overview') {
    check('$.data', data, ['positive_percent', 'negative_percent', 'total_mentions'])
    return out
  }
  check('$.data', data, ['items'])
  ;(data.items as Record<string, unknown>[]).forEach((item, i) => {
    check(`$.data.items[${i}]`, item, ITEM[fn] ?? [])
    const dp = DATAPOINT[fn]
    if (dp === null) return
    ;(item.series as unknown[]).forEach((point, j) => check(`$.data.items[${i}].series[${j}]`, point, dp))
  })
  return out
}

type Runner = {
  computePromptSeries(p: ReturnType<typeof toParams>): unknown
  computeCompetitorSeries(p: ReturnType<typeof toParams>): unknown
  computeSentimentOverview(p: ReturnType<typeof toParams>): unknown
  computeSentimentThemes(p: ReturnType<typeof toParams>): unknown
}
async function compute(runner: Runner, c: GoldenCase): Promise<unknown> {
  const p = toParams(c.params)
  switch (c.fn) {
    case 'prompt-series':
      return runner.computePromptSeries(p)
    case 'competitor-series':
      return runner.computeCompetitorSeries(p)
    case 'sentiment-overview':
      return runner.computeSentimentOverview(p)
    case 'sentiment-themes':
      return runner.computeSentimentThemes(p)
  }
}

/** JSON as the wire carries it: no undefined, -0 written as 0. */
const wire = (x: unknown): unknown => JSON.parse(JSON.stringify(x))

describe('golden cases', () => {
  it('exist for every function and every dataset is used', () => {
    for (const fn of FUNCTIONS) expect(cases.filter((c) => c.fn === fn).length, fn).toBeGreaterThan(3)
    expect(datasets.length).toBeGreaterThan(3)
  })

  describe('expected.json has the documented field order', () => {
    for (const c of cases) {
      it(`${c.fn}/${c.name}`, () => {
        expect(shapeProblems(c.fn, readJson<Record<string, unknown>>(c.expectedPath))).toEqual([])
      })
    }
  })

  describe('reference model', () => {
    const models = new Map<string, ReferenceModel>()
    for (const c of cases) {
      it(`${c.fn}/${c.name}`, async () => {
        let model = models.get(c.params.dataset)
        if (model === undefined) {
          model = new ReferenceModel()
          model.ingest(readNdjson(datasetPath(c.params.dataset)))
          models.set(c.params.dataset, model)
        }
        expect(wire(await compute(model, c))).toStrictEqual(readJson(c.expectedPath))
      })
    }
  })

  for (const dataset of datasets) {
    describe(`engine on ${dataset}.ndjson`, () => {
      let engine: Engine
      beforeAll(async () => {
        engine = await openEngine()
        await engine.ingestFile(datasetPath(dataset))
      })
      afterAll(async () => {
        await engine.close()
      })
      for (const c of cases.filter((x) => x.params.dataset === dataset)) {
        it(`${c.fn}/${c.name}`, async () => {
          const runner: Runner = {
            computePromptSeries: (p) => engine.computePromptSeries(p),
            computeCompetitorSeries: (p) => engine.computeCompetitorSeries(p),
            computeSentimentOverview: (p) => engine.computeSentimentOverview(p),
            computeSentimentThemes: (p) => engine.computeSentimentThemes(p),
          }
          const payload = (await compute(runner, c)) as Record<string, unknown>
          expect(payload).toEqual(readJson(c.expectedPath))
          // The engine's own objects carry the documented key order too.
          expect(shapeProblems(c.fn, payload)).toEqual([])
        })
      }
    })
  }
})
