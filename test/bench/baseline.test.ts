/**
 * The pure parts of `npm run bench -- --baseline=<rev>` (bench/lib/baseline.ts): its arguments,
 * the round order, the noise rule and the side-by-side table.
 */
import { describe, expect, it } from 'vitest'
import {
  MIN_NOISE,
  compareCase,
  compareSuite,
  noiseBand,
  parseBaselineArgs,
  renderBaselineSection,
  roundOrder,
  summarizeTree,
} from '../../bench/lib/baseline.js'
import type { TimingRow } from '../../bench/lib/suite.js'

const row = (median: number, extra: Partial<TimingRow> = {}): TimingRow => ({
  case: 'c',
  fn: 'computePromptSeries',
  days: 30,
  impl: 'engine',
  median,
  p95: median * 2,
  mean: median,
  min: median,
  max: median,
  samples: 30,
  ...extra,
})

describe('parseBaselineArgs', () => {
  it('null without --baseline; the rev, an optional built tree and rounds (default 2)', () => {
    expect(parseBaselineArgs({ only: 'compute-L' })).toBeNull()
    expect(parseBaselineArgs({ baseline: 'b6b8a8a' })).toEqual({ rev: 'b6b8a8a', dir: null, rounds: 2 })
    expect(
      parseBaselineArgs({ baseline: 'main~1', 'baseline-dir': '/work/wt/base', 'baseline-rounds': '3' }),
    ).toEqual({ rev: 'main~1', dir: '/work/wt/base', rounds: 3 })
  })

  it('refuses malformed arguments, naming them', () => {
    expect(() => parseBaselineArgs({ baseline: true })).toThrow('--baseline must name a git revision')
    expect(() => parseBaselineArgs({ baseline: 'a b' })).toThrow('--baseline must name a git revision')
    expect(() => parseBaselineArgs({ baseline: '--evil' })).toThrow('--baseline must name a git revision')
    expect(() => parseBaselineArgs({ baseline: 'x', 'baseline-rounds': '0' })).toThrow('--baseline-rounds')
    expect(() => parseBaselineArgs({ baseline: 'x', 'baseline-rounds': '1.5' })).toThrow('--baseline-rounds')
    expect(() => parseBaselineArgs({ baseline: 'x', 'baseline-dir': true })).toThrow('--baseline-dir')
    expect(() => parseBaselineArgs({ 'baseline-dir': '/x' })).toThrow('--baseline-dir needs --baseline')
    expect(() => parseBaselineArgs({ 'baseline-rounds': '2' })).toThrow('--baseline-rounds needs --baseline')
  })
})

describe('round order', () => {
  it('alternates which tree runs first', () => {
    expect(roundOrder(0)).toEqual(['current', 'baseline'])
    expect(roundOrder(1)).toEqual(['baseline', 'current'])
    expect(roundOrder(2)).toEqual(['current', 'baseline'])
  })
})

describe('the noise rule', () => {
  it("a tree's median is the median of its rounds' medians; its spread the larger of IQR/median and range/median", () => {
    expect(summarizeTree([row(10), row(30), row(11)])).toEqual({ median: 11, spread: 20 / 11, rounds: 3 })
    expect(summarizeTree([row(10, { p25: 9, p75: 12 })])).toEqual({ median: 10, spread: 0.3, rounds: 1 })
    // One round without quartiles (an older revision's output): no spread known.
    expect(summarizeTree([row(10)]).spread).toBe(0)
  })

  it('the band is at least 5%, else the larger spread of the two trees', () => {
    const t = (spread: number) => ({ median: 1, spread, rounds: 1 })
    expect(noiseBand(t(0), t(0.01))).toBe(MIN_NOISE)
    expect(noiseBand(t(0.2), t(0.01))).toBe(0.2)
    expect(noiseBand(t(0), t(0.12))).toBe(0.12)
  })

  it('within noise when |ratio - 1| <= band; outside otherwise, either way', () => {
    const key = { case: 'c', impl: 'engine' }
    expect(compareCase('s', key, [row(10.4)], [row(10)]).withinNoise).toBe(true) // 4% < 5%
    expect(compareCase('s', key, [row(10.6)], [row(10)]).withinNoise).toBe(false) // 6% > 5%
    expect(compareCase('s', key, [row(9.4)], [row(10)]).withinNoise).toBe(false) // faster, 6%
    const wide = compareCase('s', key, [row(11.5, { p25: 10, p75: 12 })], [row(10)])
    expect(wide.ratio).toBeCloseTo(1.15)
    expect(wide.band).toBeCloseTo(2 / 11.5)
    expect(wide.withinNoise).toBe(true)
  })
})

describe('compareSuite', () => {
  it("compares the engine's cases both trees timed, pooling rounds; peers and missing cases left out", () => {
    const current = [
      [row(10, { case: 'a' }), row(5, { case: 'a', impl: 'typed-arrays' }), row(20, { case: 'new' })],
      [row(12, { case: 'a' })],
    ]
    const baseline = [[row(11, { case: 'a' }), row(5, { case: 'a', impl: 'typed-arrays' })]]
    const out = compareSuite('compute-L', current, baseline)
    expect(out.map((c) => [c.case, c.impl])).toEqual([['a', 'engine']])
    expect(out[0]!.current).toEqual({ median: 11, spread: 2 / 11, rounds: 2 })
    expect(out[0]!.ratio).toBe(1)
  })

  it('every row when the suite has no engine rows', () => {
    const rows = [[row(1, { impl: 'REST' }), row(2, { impl: 'MCP' })]]
    expect(compareSuite('mcp', rows, rows).map((c) => c.impl)).toEqual(['REST', 'MCP'])
  })
})

describe('renderBaselineSection', () => {
  it('states the rule and one row per case with both medians, the ratio and the verdict', () => {
    const key = { case: 'computePromptSeries days=30', impl: 'engine' }
    const lines = renderBaselineSection(
      { rev: 'b6b8a8a', commit: 'b6b8a8a', rounds: 2, currentCommit: 'abc' },
      [
        compareCase('compute-L', key, [row(10.2)], [row(10)]),
        compareCase('compute-L', { ...key, case: 'x' }, [row(13)], [row(10)]),
      ],
    )
    const text = lines.join('\n')
    expect(text).toContain('## Side by side with the baseline b6b8a8a')
    expect(text).toContain('larger of 5%')
    expect(lines).toContain(
      '| compute-L | computePromptSeries days=30 | engine | 10.0 | 10.2 | 1.020 | 5.0% | within noise |',
    )
    expect(lines).toContain('| compute-L | x | engine | 10.0 | 13.0 | 1.300 | 5.0% | **slower** |')
    expect(text).toContain('1 of 2 cases within noise; outside: x (1.30)')
  })
})
