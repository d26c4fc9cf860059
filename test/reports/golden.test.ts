/**
 * Golden cases (fixtures/cases/<report>/<case>, see fixtures/README.md), one runner for every
 * report of the endpoint table: each expected.json is a valid body of its row's payload schema,
 * with every object's keys in the schema's order and the optional echo fields exactly those the
 * case gives; and each runner (the reference model, the engine) gives exactly expected.json
 * (values and key order) on the case's dataset.
 */
import { describe, expect, it } from 'vitest'
import type { Endpoint } from '../../src/api/endpoints.js'
import { openEngine } from '../../src/index.js'
import { ReferenceModel } from '../reference/model.js'
import { REFERENCE_CURSOR_SECRET } from '../reference/answers.js'
import type { ExtInputRecord } from '../reference/types.js'
import {
  PARAM_NAMES,
  caseFolders,
  datasetPath,
  discoverCases,
  payloadProblems,
  toExtParams,
  type GoldenCase,
} from '../support/golden.js'
import { readJson, readNdjson } from '../support/ndjson.js'

/** A runner calls a report's engine method by name, with the case's library parameters. */
type Call = (method: string, params: Record<string, unknown>) => Promise<unknown>

interface RunnerFactory {
  name: string
  open(records: ExtInputRecord[]): Promise<{ call: Call; close(): Promise<void> }>
}

const byName = (target: object): Call => {
  const methods = target as unknown as Record<string, ((p: unknown) => unknown) | undefined>
  return async (method, params) => {
    const fn = methods[method]
    if (typeof fn !== 'function') throw new Error(`no method ${method}`)
    return fn.call(target, params)
  }
}

const RUNNERS: RunnerFactory[] = [
  {
    name: 'reference model',
    open: async (records) => {
      const model = new ReferenceModel()
      model.ingest(records)
      return { call: byName(model), close: async () => {} }
    },
  },
  {
    name: 'engine',
    open: async (records) => {
      // The answers listing's cursors are signed with the reference model's key.
      const engine = await openEngine({ cursorSecret: REFERENCE_CURSOR_SECRET })
      await engine.ingest(records)
      const call = byName(engine)
      return {
        // The leaderboard takes no model. The library refuses a parameter it does not know (a
        // misspelt one would silently fall back to its default); over HTTP it is ignored.
        call: (method, params) => {
          const { model: _ignored, ...rest } = params
          return call(method, method === 'computeModelLeaderboard' ? rest : params)
        },
        close: () => engine.close(),
      }
    },
  },
]

const cases = discoverCases()
const folders = caseFolders()

/** JSON as the wire carries it: no undefined, -0 written as 0, key order kept. */
const wire = (x: unknown): string => JSON.stringify(x)

/** The row whose payload schema a case's body follows (rows of one report share it). */
const rowOf = (c: GoldenCase): Endpoint => c.report.rows[0]!

describe('golden cases', () => {
  it('exist for every report folder, and several datasets are used', () => {
    for (const { folder } of folders)
      expect(cases.filter((c) => c.folder === folder).length, folder).toBeGreaterThan(0)
    expect(new Set(cases.map((c) => c.params.dataset)).size).toBeGreaterThan(3)
  })

  it('say why, in every folder whose cases say why', () => {
    for (const { folder } of folders) {
      const inFolder = cases.filter((c) => c.folder === folder)
      if (!inFolder.some((c) => c.params.why !== undefined)) continue
      for (const c of inFolder) expect(c.params.why?.length ?? 0, `${c.folder}/${c.name}`).toBeGreaterThan(10)
    }
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

  describe("expected.json is a body of the row's payload schema, keys in its order", () => {
    for (const c of cases) {
      it(`${c.folder}/${c.name}`, () => {
        const row = rowOf(c)
        const expected = readJson<Record<string, unknown>>(c.expectedPath)
        expect(payloadProblems(row.payload, expected)).toEqual([])
        // An optional echo field (a range, granularity) is there exactly when the case gives it.
        const shape = (
          row.payload as unknown as { shape: Record<string, { safeParse(x: unknown): { success: boolean } }> }
        ).shape
        const optional = Object.keys(row.params).filter(
          (k) => k in shape && shape[k]!.safeParse(undefined).success,
        )
        for (const k of optional)
          expect(k in expected, `${c.folder}/${c.name}: ${k}`).toBe(
            c.params[k as keyof typeof c.params] !== undefined,
          )
      })
    }
  })

  for (const factory of RUNNERS) {
    for (const dataset of [...new Set(cases.map((c) => c.params.dataset))].sort()) {
      describe(`${factory.name} on ${dataset}.ndjson`, async () => {
        const { call, close } = await factory.open(readNdjson(datasetPath(dataset)) as ExtInputRecord[])
        for (const c of cases.filter((x) => x.params.dataset === dataset)) {
          it(`${c.folder}/${c.name}`, async () => {
            const payload = await call(c.report.method, toExtParams(c.params))
            // Same bytes as expected.json once both are compact: values and key order.
            expect(wire(payload)).toBe(wire(readJson(c.expectedPath)))
            expect(payloadProblems(rowOf(c).payload, payload)).toEqual([])
          })
        }
        it('closes', close)
      })
    }
  }
})
