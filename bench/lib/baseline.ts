/**
 * The pure parts of `npm run bench -- --baseline=<rev>`: the runner's options, the noise rule and
 * the side-by-side table. The runner (bench/run.ts) builds the baseline tree and runs each suite
 * from both trees, alternating, `rounds` times; this module compares what they wrote.
 *
 * Noise rule: a case is "within noise" when |current / baseline - 1| is at most the larger of 5%
 * and each tree's relative spread, where a tree's spread of a case is the largest of its rounds'
 * relative IQR ((p75 - p25) / median, when the suite reports quartiles) and the relative range of
 * its per-round medians ((max - min) / median of the rounds' medians, with two rounds or more).
 */
import { quantile } from './timing.js'
import type { TimingRow } from './suite.js'

/** The smallest noise band: differences below 5% are never called a change. */
export const MIN_NOISE = 0.05

/** What the runner reads from its arguments about a baseline. */
export interface BaselineOptions {
  /** The git revision to compare against. */
  rev: string
  /** An already built tree of that revision to reuse (its dist/ is copied, never written to). */
  dir: string | null
  /** How many times each suite runs from each tree (alternating A, B, B, A, ...). */
  rounds: number
}

/**
 * Reads `--baseline=<rev>`, `--baseline-dir=<built tree>` and `--baseline-rounds=<n>` (default 2);
 * null without `--baseline`. Throws an Error naming the argument when one is malformed.
 */
export function parseBaselineArgs(args: Record<string, string | true>): BaselineOptions | null {
  const rev = args.baseline
  if (rev === undefined) {
    for (const name of ['baseline-dir', 'baseline-rounds'])
      if (args[name] !== undefined) throw new Error(`--${name} needs --baseline=<git rev>`)
    return null
  }
  if (rev === true || !/^[\w./^~@{}-]+$/.test(rev) || rev.startsWith('-'))
    throw new Error('--baseline must name a git revision (e.g. --baseline=b6b8a8a)')
  const dir = args['baseline-dir']
  if (dir === true || dir === '') throw new Error('--baseline-dir must be the path of a built tree')
  const roundsArg = args['baseline-rounds'] ?? '2'
  const rounds = roundsArg === true ? NaN : Number(roundsArg)
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20)
    throw new Error('--baseline-rounds must be an integer from 1 to 20')
  return { rev, dir: dir ?? null, rounds }
}

/** The order of the trees in round `i` (0-based): current first on even rounds, baseline on odd. */
export function roundOrder(i: number): readonly ['current', 'baseline'] | readonly ['baseline', 'current'] {
  return i % 2 === 0 ? (['current', 'baseline'] as const) : (['baseline', 'current'] as const)
}

/** One tree's figures of one case over its rounds. */
export interface TreeCase {
  /** Median of the rounds' medians (ms). */
  median: number
  /** The tree's relative spread of the case (see the module's noise rule). */
  spread: number
  rounds: number
}

/** One tree's rows of one case, one per round, summarized. */
export function summarizeTree(rows: readonly TimingRow[]): TreeCase {
  const medians = rows.map((r) => r.median).sort((a, b) => a - b)
  const median = quantile(medians, 0.5)
  let spread = 0
  for (const r of rows) {
    if (r.p25 !== undefined && r.p75 !== undefined && r.median > 0)
      spread = Math.max(spread, (r.p75 - r.p25) / r.median)
  }
  if (medians.length >= 2 && median > 0)
    spread = Math.max(spread, (medians[medians.length - 1]! - medians[0]!) / median)
  return { median, spread, rounds: rows.length }
}

/** The noise band of a case: the larger of 5% and both trees' spreads. */
export function noiseBand(current: TreeCase, baseline: TreeCase): number {
  return Math.max(MIN_NOISE, current.spread, baseline.spread)
}

/** One line of the side-by-side table. */
export interface Comparison {
  suite: string
  case: string
  impl: string
  baseline: TreeCase
  current: TreeCase
  /** current / baseline median (above 1: the current tree is slower). */
  ratio: number
  band: number
  withinNoise: boolean
}

/** Compares one case of both trees by the noise rule. */
export function compareCase(
  suite: string,
  key: { case: string; impl: string },
  currentRows: readonly TimingRow[],
  baselineRows: readonly TimingRow[],
): Comparison {
  const current = summarizeTree(currentRows)
  const baseline = summarizeTree(baselineRows)
  const ratio = current.median / baseline.median
  const band = noiseBand(current, baseline)
  return { suite, ...key, baseline, current, ratio, band, withinNoise: Math.abs(ratio - 1) <= band }
}

/**
 * The cases both trees timed, compared, in the current tree's order. Only the engine's rows when
 * the suite has any (peers are not what a baseline compares); every row otherwise.
 */
export function compareSuite(
  suite: string,
  current: readonly (readonly TimingRow[])[],
  baseline: readonly (readonly TimingRow[])[],
): Comparison[] {
  const keyOf = (r: TimingRow) => `${r.case}\u0000${r.impl}`
  const all = current.flat()
  const engineOnly = all.some((r) => r.impl.startsWith('engine'))
  const keys = [...new Map(all.map((r) => [keyOf(r), r])).values()].filter(
    (r) => !engineOnly || r.impl.startsWith('engine'),
  )
  const out: Comparison[] = []
  for (const k of keys) {
    const pick = (rounds: readonly (readonly TimingRow[])[]) =>
      rounds.flatMap((rows) => rows.filter((r) => keyOf(r) === keyOf(k)))
    const b = pick(baseline)
    if (b.length === 0) continue
    out.push(compareCase(suite, { case: k.case, impl: k.impl }, pick(current), b))
  }
  return out
}

const fmt = (x: number): string => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2))
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`

/** The report's section: the rule, then one row per case. */
export function renderBaselineSection(
  meta: { rev: string; commit: string; rounds: number; currentCommit: string },
  comparisons: readonly Comparison[],
): string[] {
  const L: string[] = []
  L.push(`## Side by side with the baseline ${meta.rev} (${meta.commit})`, '')
  L.push(
    `Each suite ran ${meta.rounds} time(s) from each tree in this one run, alternating (current, baseline, then baseline, current, ...), so load from other processes falls on both. Medians in ms are the median of the rounds' medians; ratio = current / baseline (above 1: the current tree ${meta.currentCommit} is slower). **Within noise** when |ratio - 1| is at most the band: the larger of 5% and each tree's spread (the largest relative IQR of its rounds, where the suite reports quartiles, and the relative range of its rounds' medians).`,
    '',
  )
  L.push('| suite | case | impl | baseline median | current median | ratio | band | |')
  L.push('|---|---|---|---:|---:|---:|---:|---|')
  for (const c of comparisons) {
    const verdict = c.withinNoise ? 'within noise' : c.ratio > 1 ? '**slower**' : '**faster**'
    L.push(
      `| ${c.suite} | ${c.case} | ${c.impl} | ${fmt(c.baseline.median)} | ${fmt(c.current.median)} | ${c.ratio.toFixed(3)} | ${pct(c.band)} | ${verdict} |`,
    )
  }
  const outside = comparisons.filter((c) => !c.withinNoise)
  L.push(
    '',
    `${comparisons.length - outside.length} of ${comparisons.length} cases within noise${outside.length ? `; outside: ${outside.map((c) => `${c.case} (${c.ratio.toFixed(2)})`).join(', ')}` : ''}.`,
    '',
  )
  return L
}
