/**
 * Golden cases of the extensions (fixtures/cases/<folder>/<case>, see fixtures/README.md): every
 * expected.json has the documented keys in the documented order, and each runner gives exactly
 * expected.json (values and key order) on the case's dataset.
 *
 * Runners: the reference model (every function), and the engine with one line per function it
 * offers (a function it lacks is reported as skipped, and a dataset none of its cases use is not
 * ingested). The engine does not take date ranges or buckets yet (extensions section 9): cases with
 * start_date, end_date or granularity are skipped for it.
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
  /** The functions it offers (absent: every one). */
  provides?: readonly ExtFunction[]
  /** Whether it takes a case's parameters (absent: every case). */
  takes?(c: ExtGoldenCase): boolean
  open(records: ExtInputRecord[]): Promise<{ runner: Runner; close(): Promise<void> }>
}

/** The engine's extension functions, one line each. */
const engineRunner = (engine: Awaited<ReturnType<typeof openEngine>>): Runner => ({
  citations: (p) => engine.citations(p),
  citedDomains: (p) => engine.citedDomains(p),
  fanoutQueries: (p) => engine.fanoutQueries(p),
  sentimentSeries: (p) => engine.sentimentSeries(p),
})

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
  {
    name: 'engine',
    provides: ['citations', 'citedDomains', 'fanoutQueries', 'sentimentSeries'],
    takes: (c) =>
      c.params.start_date === undefined &&
      c.params.end_date === undefined &&
      c.params.granularity === undefined,
    open: async (records) => {
      const engine = await openEngine()
      await engine.ingest(records)
      return { runner: engineRunner(engine), close: () => engine.close() }
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
    const runs = (c: ExtGoldenCase) =>
      (factory.provides?.includes(c.fn) ?? true) && (factory.takes?.(c) ?? true)
    for (const dataset of datasets) {
      if (!cases.some((c) => c.params.dataset === dataset && runs(c))) continue
      describe(`${factory.name} on ${dataset}.ndjson`, async () => {
        const { runner, close } = await factory.open(readNdjson(datasetPath(dataset)) as ExtInputRecord[])
        for (const c of cases.filter((x) => x.params.dataset === dataset)) {
          const fn = runner[c.fn] as ((p: Record<string, unknown>) => unknown) | undefined
          it.skipIf(fn === undefined || !runs(c))(`${c.folder}/${c.name}`, async () => {
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
