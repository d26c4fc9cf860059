import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openEngine, type Engine } from '../../src/index.js'

const dir = new URL('../../fixtures/spec-example/', import.meta.url)
const queries = JSON.parse(readFileSync(new URL('queries.json', dir), 'utf8')) as Array<
  Record<string, unknown>
>
const expected = JSON.parse(readFileSync(new URL('expected.json', dir), 'utf8')) as unknown[]

describe('the worked example of semantics.md section 9', () => {
  let engine: Engine
  beforeAll(async () => {
    engine = await openEngine()
    await engine.ingestFile(new URL('data.ndjson', dir).pathname)
  })
  afterAll(() => engine.close())

  queries.forEach((q, i) => {
    it(`query ${i}: ${String(q.endpoint)} ${JSON.stringify(q)}`, async () => {
      const { endpoint, domain_id, days, limit, model, now } = q as {
        endpoint: string
        domain_id: string
        days: number
        limit: number
        model: string
        now: string
      }
      const base = { domainId: domain_id, days, now }
      const payload =
        endpoint === 'prompts'
          ? await engine.computePromptSeries({ ...base, limit })
          : endpoint === 'competitors'
            ? await engine.computeCompetitorSeries({ ...base, model })
            : endpoint === 'overview'
              ? await engine.computeSentimentOverview({ ...base, model })
              : await engine.computeSentimentThemes({ ...base, model })
      expect(payload).toEqual(expected[i])
      expect(JSON.stringify(payload)).toBe(JSON.stringify(expected[i]).replace(/(\d)\.0(?=[,}\]])/g, '$1'))
    })
  })
})
