/**
 * The answers listing, engine against the reference model (test/reference/answers.ts) on random
 * datasets: every page equal (cursors included, both signing with REFERENCE_CURSOR_SECRET), and
 * paging through everything with a random limit gives the full ordered list once.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { openEngine } from '../../src/index.js'
import type { AnswersParams } from '../../src/reports/index.js'
import { REFERENCE_CURSOR_SECRET } from '../reference/answers.js'
import { ReferenceModel } from '../reference/model.js'
import { BASE_NOW, extDatasetArb } from '../support/arbitraries.js'

const numRuns = Number(process.env.PROPERTY_RUNS ?? 25)
const COUNTRIES = [null, 'us', 'DE', 'fr']
const RESPONSES = [null, '', 'Acme is fine.', 'Ünïcode ✓ 🎉 text', 'a'.repeat(3000)]
const TOPICS = [null, 'CRM', ' Pricing ']
const TAGS = [[], ['b2b'], ['b2b', 'smb ']]

describe('answers: engine vs reference model', () => {
  it('each page and the whole list, with random limits and filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        extDatasetArb,
        fc.integer({ min: 1, max: 7 }),
        fc.nat(),
        fc.constantFrom<Partial<AnswersParams>>(
          {},
          { days: 365 },
          { model: 'chatgpt' },
          { entity: 'brand' },
          { country: 'US' },
          { topic: 'Pricing' },
          { tag: 'b2b' },
        ),
        async (ds, limit, seed, filter) => {
          // Decorate: countries, answers, topics and tags from the seed (the generator has none).
          let i = seed
          const decorate = (r: (typeof ds.records)[number]) => {
            i++
            if (r.type === 'analysis') return { ...r, country: COUNTRIES[i % 4], response: RESPONSES[i % 5] }
            if (r.type === 'prompt') return { ...r, topic: TOPICS[i % 3], tags: TAGS[i % 3] }
            return r
          }
          const calls = ds.calls.map((call) => call.map(decorate))
          const model = new ReferenceModel()
          model.ingest(calls.flat() as never)
          const engine = await openEngine({ cursorSecret: REFERENCE_CURSOR_SECRET })
          try {
            for (const call of calls) await engine.ingest(call)
            for (const domainId of ds.domainIds) {
              const params: AnswersParams = { domainId, limit, ...filter, now: BASE_NOW }
              const full = model.computeAnswers({ ...params, limit: 100 }).data.items.map((x) => x.id)
              const seen: string[] = []
              let cursor: string | undefined
              for (let page = 0; page < 200; page++) {
                const p = { ...params, ...(cursor === undefined ? {} : { cursor }) }
                const expected = model.computeAnswers(p)
                const actual = await engine.computeAnswers(p)
                expect(JSON.stringify(actual)).toBe(JSON.stringify(expected))
                seen.push(...actual.data.items.map((x) => x.id))
                if (actual.data.next_cursor === null) break
                cursor = actual.data.next_cursor
              }
              expect(seen).toEqual(full)
            }
          } finally {
            await engine.close()
          }
        },
      ),
      { numRuns },
    )
  }, 600_000)
})
