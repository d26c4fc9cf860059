/**
 * Golden cases of the extensions (fixtures/cases/<folder>/<case>, see fixtures/README.md): every
 * expected.json has the documented keys in the documented order, and each runner gives exactly
 * expected.json (values and key order) on the case's dataset.
 *
 * The runners are the reference model and the engine. A runner lists the library functions it
 * offers (one line per function; a case of a function it lacks is skipped) and may skip cases it
 * cannot run yet, saying why; only the datasets of the cases it runs are opened.
 */
import { describe, expect, it } from 'vitest'
import { openEngine } from '../../src/index.js'
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
import type { ExtFunction, ExtGoldenCase } from '../support/golden.js'
import { readJson, readNdjson } from '../support/ndjson.js'

/** What a runner offers: the library functions of the cases, by name, taking camelCase params. */
type Runner = Partial<Record<ExtFunction, (params: never) => unknown>>

interface RunnerFactory {
  name: string
  /** The functions the runner offers. */
  functions: readonly ExtFunction[]
  /** Why the runner cannot run a case yet, or null. */
  skip?: (c: ExtGoldenCase) => string | null
  open(records: ExtInputRecord[]): Promise<{ runner: Runner; close(): Promise<void> }>
}

const ALL_FUNCTIONS = [...new Set(Object.values(EXT_FOLDERS))]

const RUNNERS: RunnerFactory[] = [
  {
    name: 'reference model',
    functions: ALL_FUNCTIONS,
    open: async (records) => {
      const model = new ReferenceModel()
      model.ingest(records)
      const runner: Required<Runner> = {
        computeKeyCheck: (p) => model.computeKeyCheck(p),
        computeDomainList: (p) => model.computeDomainList(p),
        computePromptList: (p) => model.computePromptList(p),
        computeBrandRankings: (p) => model.computeBrandRankings(p),
        computeModelLeaderboard: (p) => model.computeModelLeaderboard(p),
        computeBrandSeries: (p) => model.computeBrandSeries(p),
        computeCitations: (p) => model.computeCitations(p),
        computeCitedDomains: (p) => model.computeCitedDomains(p),
        computeFanoutQueries: (p) => model.computeFanoutQueries(p),
        computeSentimentSeries: (p) => model.computeSentimentSeries(p),
        computePromptSeries: (p) => model.computePromptSeries(p),
        computeCompetitorSeries: (p) => model.computeCompetitorSeries(p),
        computeSentimentOverview: (p) => model.computeSentimentOverview(p),
        computeSentimentThemes: (p) => model.computeSentimentThemes(p),
      }
      return { runner, close: async () => {} }
    },
  },
  {
    name: 'engine',
    functions: [
      'computePromptSeries',
      'computeCompetitorSeries',
      'computeSentimentOverview',
      'computeSentimentThemes',
      'computeKeyCheck',
      'computeDomainList',
      'computePromptList',
      'computeBrandRankings',
      'computeModelLeaderboard',
      'computeBrandSeries',
      'computeCitations',
      'computeCitedDomains',
      'computeFanoutQueries',
      'computeSentimentSeries',
    ],
    open: async (records) => {
      const engine = await openEngine()
      await engine.ingest(records)
      const runner: Runner = {
        computeKeyCheck: (p) => engine.computeKeyCheck(p),
        computeDomainList: (p) => engine.computeDomainList(p),
        computePromptList: (p) => engine.computePromptList(p),
        computeBrandRankings: (p) => engine.computeBrandRankings(p),
        // The leaderboard takes no model. The library refuses a parameter it does not know (a
        // misspelt one would silently fall back to its default); over HTTP it is ignored.
        computeModelLeaderboard: ({ model: _ignored, ...p }: { model?: string }) =>
          engine.computeModelLeaderboard(p as never),
        computeBrandSeries: (p) => engine.computeBrandSeries(p),
        computeCitations: (p) => engine.computeCitations(p),
        computeCitedDomains: (p) => engine.computeCitedDomains(p),
        computeFanoutQueries: (p) => engine.computeFanoutQueries(p),
        computeSentimentSeries: (p) => engine.computeSentimentSeries(p),
        computePromptSeries: (p) => engine.computePromptSeries(p),
        computeCompetitorSeries: (p) => engine.computeCompetitorSeries(p),
        computeSentimentOverview: (p) => engine.computeSentimentOverview(p),
        computeSentimentThemes: (p) => engine.computeSentimentThemes(p),
      }
      return { runner, close: () => engine.close() }
    },
  },
]

const cases = discoverExtCases()

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
    const runs = cases.filter((c) => factory.functions.includes(c.fn) && !factory.skip?.(c))
    it(`${factory.name}: skips only cases it says why for`, () => {
      const skipped = cases.filter((c) => factory.functions.includes(c.fn) && factory.skip?.(c))
      for (const c of skipped) expect(factory.skip!(c), `${c.folder}/${c.name}`).toMatch(/\w{10}/)
      expect(runs.length).toBeGreaterThan(0)
    })
    for (const dataset of [...new Set(runs.map((c) => c.params.dataset))].sort()) {
      describe(`${factory.name} on ${dataset}.ndjson`, async () => {
        const { runner, close } = await factory.open(readNdjson(datasetPath(dataset)) as ExtInputRecord[])
        for (const c of runs.filter((x) => x.params.dataset === dataset)) {
          const fn = runner[c.fn] as ((p: Record<string, unknown>) => unknown) | undefined
          it(`${c.folder}/${c.name}`, async () => {
            expect(fn, `${factory.name} lists ${c.fn} but offers no function`).toBeDefined()
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
