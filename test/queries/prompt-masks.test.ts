/**
 * Distinct prompts from bitmask rows (src/queries/prompt-masks.ts): for any rows, window, channel
 * filter and grouping, each group's count equals the size of the set of prompts its rows name,
 * with prompts in several chunks of 64 and in both words (bits 31 and 63 included).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { distinctPrompts, type PromptMaskRows } from '../../src/queries/prompt-masks.js'

interface Row {
  day: number
  channel: number
  group: number
  prompt: number
}

/** The bitmask rows of `rows` (one prompt each), sorted by day. */
function maskRows(rows: Row[]): PromptMaskRows & { group: Float64Array } {
  const sorted = [...rows].sort((a, b) => a.day - b.day)
  const col = (f: (r: Row) => number) => Float64Array.from(sorted, f)
  const bit = (p: number) => 2 ** (p % 32)
  return {
    day: col((r) => r.day),
    channel: col((r) => r.channel),
    group: col((r) => r.group),
    chunk: col((r) => Math.floor(r.prompt / 64)),
    lo: col((r) => (r.prompt % 64 < 32 ? bit(r.prompt) : 0)),
    hi: col((r) => (r.prompt % 64 >= 32 ? bit(r.prompt) : 0)),
  }
}

const rowArb = fc.record({
  day: fc.integer({ min: 0, max: 20 }),
  channel: fc.integer({ min: 1, max: 3 }),
  group: fc.integer({ min: 0, max: 3 }),
  prompt: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.constantFrom(31, 32, 63, 64, 95, 127)),
})

describe('distinctPrompts', () => {
  it('equals the distinct prompts of each group in the window, after the channel filter', () => {
    fc.assert(
      fc.property(
        fc.array(rowArb, { maxLength: 300 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        (rows, a, b, channel, groups, grouped) => {
          const w = { startDay: Math.min(a, b), endDay: Math.max(a, b) }
          const t = maskRows(rows)
          const got = distinctPrompts(t, w, { channel, modelKey: -1 }, grouped ? t.group : null, groups)
          const want = Array.from({ length: groups }, () => new Set<number>())
          for (const r of rows) {
            const g = grouped ? r.group : 0
            if (r.day < w.startDay || r.day > w.endDay || g >= groups) continue
            if (channel !== 0 && r.channel !== channel) continue
            want[g]!.add(r.prompt)
          }
          expect([...got]).toEqual(want.map((s) => s.size))
        },
      ),
      { numRuns: 300 },
    )
  })
})
