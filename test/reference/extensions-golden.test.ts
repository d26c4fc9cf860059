/**
 * Golden cases of the extensions (fixtures/cases/<folder>/<case>, see fixtures/README.md): every
 * expected.json has the documented keys in the documented order, and each runner gives exactly
 * expected.json (values and key order) on the case's dataset.
 *
 * Today the only runner is the reference model. The engine joins by adding an entry to RUNNERS
 * whose functions call it, one line per function (a function it lacks is reported as skipped):
 *
 *   open: async (records) => { const engine = await openEngine(); await engine.ingest(records)
 *     return { runner: { brandRankings: (p) => engine.brandRankings(p), ... }, close: () => engine.close() } }
 */
import { describe, expect, it } from 'vitest'
import { ReferenceModel } from './model.js'
import type { ExtInputRecord } from './types.js'
import {
  EXT_FOLDERS,
  PARAM_NAMES,
  datasetPath,
  discoverExtCases,
  extShape,
  shapeProblems,
  toExtParams,
} from '../support/golden.js'
import type { ExtFunction } from '../support/golden.js'
import { readJson, readNdjson } from '../support/ndjson.js'

/** What a runner offers: the library functions of the cases, by name, taking camelCase params. */
type Runner = Partial<Record<ExtFunction, (params: never) => unknown>>

interface RunnerFactory {
  name: string
  open(records: ExtInputRecord[]): Promise<{ runner: Runner; close(): Promise<void> }>
}

const RUNNERS: RunnerFactory[] = [
  {
    name: 'reference model',
    open: async (records) => {
      const model = new ReferenceModel()
      model.ingest(records)
      const runner: Required<Runner> = {
        validate: (p) => model.validate(p),
        listDomains: (p) => model.listDomains(p),
        listPrompts: (p) => model.listPrompts(p),
        brandRankings: (p) => model.brandRankings(p),
        modelLeaderboard: (p) => model.modelLeaderboard(p),
        brandSeries: (p) => model.brandSeries(p),
        citations: (p) => model.citations(p),
        citedDomains: (p) => model.citedDomains(p),
        fanoutQueries: (p) => model.fanoutQueries(p),
        sentimentSeries: (p) => model.sentimentSeries(p),
        promptSeries: (p) => model.promptSeries(p),
        competitorSeries: (p) => model.competitorSeries(p),
        sentimentOverview: (p) => model.sentimentOverview(p),
        sentimentThemes: (p) => model.sentimentThemes(p),
      }
      return { runner, close: async () => {} }
    },
  },
]

const cases = discoverExtCases()
const datasets = [...new Set(cases.map((c) => c.params.dataset))].sort()

/** JSON as the wire carries it: no undefined, -0 written as 0, key order kept. */
const wire = (x: unknown): string => JSON.stringify(x)

describe('extension golden cases', () => {
  it('exist for every folder, each saying why', () => {
    for (const folder of Object.keys(EXT_FOLDERS)) {
      expect(cases.filter((c) => c.folder === folder).length, folder).toBeGreaterThan(0)
    }
    for (const c of cases) expect(c.params.why.length, `${c.folder}/${c.name}`).toBeGreaterThan(10)
  })

  it('use only known parameters (a misspelt one would silently fall back to its default)', () => {
    const known = new Set([...Object.keys(PARAM_NAMES), 'dataset', 'why'])
    for (const c of cases) {
      expect(
        Object.keys(c.params).filter((k) => !known.has(k)),
        `${c.folder}/${c.name}`,
      ).toEqual([])
    }
  })

  describe('expected.json has the documented field order', () => {
    for (const c of cases) {
      it(`${c.folder}/${c.name}`, () => {
        expect(shapeProblems(extShape(c), readJson(c.expectedPath))).toEqual([])
      })
    }
  })

  for (const factory of RUNNERS) {
    for (const dataset of datasets) {
      describe(`${factory.name} on ${dataset}.ndjson`, async () => {
        const { runner, close } = await factory.open(readNdjson(datasetPath(dataset)) as ExtInputRecord[])
        for (const c of cases.filter((x) => x.params.dataset === dataset)) {
          const fn = runner[c.fn] as ((p: Record<string, unknown>) => unknown) | undefined
          it.skipIf(fn === undefined)(`${c.folder}/${c.name}`, async () => {
            const payload = await fn!(toExtParams(c.params))
            // Same bytes as expected.json once both are compact: values and key order.
            expect(wire(payload)).toBe(wire(readJson(c.expectedPath)))
          })
        }
        it('closes', close)
      })
    }
  }
})
