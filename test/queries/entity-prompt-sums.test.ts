/**
 * The brand rankings' window sums per (entity, prompt) (src/queries/entity-prompt-sums.ts): with
 * the index of running sums (kept rows, `all`, long windows) they equal the plain sum of the
 * window's rows, for any window, over a table large enough to be indexed, also when the domain has
 * gained prompts or competitors since the rows were loaded.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { entityPromptSums } from '../../src/queries/entity-prompt-sums.js'
import { rng } from '../support/random.js'
import type { AggregateRows } from '../../src/tables/aggregates.js'

/** Day-sorted rows over `days` days from day `first`: about 300 a day, positions 1-5. */
function table(first: number, days: number): AggregateRows<'agg_entity_prompt_day'> {
  const r = rng(11)
  const cols: Record<string, number[]> = {
    day: [],
    channel: [],
    entity_idx: [],
    prompt_idx: [],
    mentions: [],
    pos_sum: [],
    pos_cnt: [],
  }
  for (let d = first; d < first + days; d++) {
    if (r() < 0.1) continue // days without rows
    for (let k = 0; k < 300; k++) {
      const mentions = 1 + Math.floor(r() * 3)
      const cnt = Math.floor(r() * (mentions + 1))
      cols.day!.push(d)
      cols.channel!.push(1 + Math.floor(r() * 7))
      cols.entity_idx!.push(Math.floor(r() * 6))
      cols.prompt_idx!.push(Math.floor(r() * 40))
      cols.mentions!.push(mentions)
      cols.pos_sum!.push(cnt * (1 + Math.floor(r() * 5)))
      cols.pos_cnt!.push(cnt)
    }
  }
  return Object.fromEntries(
    Object.entries(cols).map(([k, v]) => [k, Float64Array.from(v)]),
  ) as AggregateRows<'agg_entity_prompt_day'>
}

describe('window sums per (entity, prompt)', () => {
  const FIRST = 20_000
  const t = table(FIRST, 400)
  const ALL = { channel: 0, modelKey: -1 }

  it('the table is large enough for the index', () => {
    expect(t.day.length).toBeGreaterThan(1 << 16)
  })

  it('indexed sums equal the plain sums for any window and domain size', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: FIRST - 30, max: FIRST + 430 }),
        fc.integer({ min: 1, max: 365 }),
        fc.integer({ min: 4, max: 8 }), // fewer entities than the rows have: theirs are left out
        fc.integer({ min: 30, max: 50 }),
        (startDay, length, entities, prompts) => {
          const w = { startDay, endDay: startDay + length - 1 }
          const indexed = entityPromptSums(t, w, ALL, entities, prompts, true)
          const plain = entityPromptSums(t, w, ALL, entities, prompts, false)
          expect(indexed).toEqual(plain)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('a channel filter adds up its rows only', () => {
    const w = { startDay: FIRST, endDay: FIRST + 399 }
    const chatgpt = entityPromptSums(t, w, { channel: 1, modelKey: -1 }, 6, 40, true)
    let mentions = 0
    for (let i = 0; i < t.day.length; i++) if (t.channel[i] === 1) mentions += t.mentions[i]!
    expect(chatgpt.mentions.reduce((a, b) => a + b, 0)).toBe(mentions)
  })
})
