/**
 * The compute suite's engine rows (the four reports at 7, 30, 90 and 365 days, warm) beside another
 * built tree, both engines in this one process, alternated case by case, each on a store its own
 * code built from its own generator: the side-by-side of `--baseline` without the peers, whose
 * loading and timing take most of a compute-L run (minutes per tree on a shared machine).
 *
 *   node --expose-gc dist/bench/compute-side.js --peer-tree=<built tree> [--dataset=L] [--rounds=3]
 *     [--store=<this tree's store>] [--peer-store=<the peer's store>] [--only=<case key substring>]
 *
 * Stores default to bench/out/memory-<dataset>-<commit>.duckdb (those of bench/aggregate-memory.ts,
 * built when missing). Every case's payload is checked equal on both trees before it is timed, and
 * the last payload of each timed loop again. Each round times every case on both trees (this tree
 * first on even rounds, the peer first on odd ones), tinybench's warm profile of the compute suite;
 * besides the wall time, the CPU ms per call (process.cpuUsage over the timed loop, every thread of
 * the process, divided by the calls). The table is bench/lib/baseline.ts's: medians of the rounds'
 * medians, ratio this tree / peer, within noise when |ratio - 1| is at most the larger of 5% and the
 * trees' spreads. Written to bench/out/compute-side-<dataset>.{json,md}.
 */
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { loadavg } from 'node:os'
import type { Engine } from '../src/types.js'
import { diffPayloads } from './lib/compare.js'
import { compareSuite, renderBaselineSection } from './lib/baseline.js'
import { callReport, caseList, gc, outPath, parseArgs, profiles, ROOT, type TimingRow } from './lib/suite.js'
import { timeCase } from './lib/timing.js'
import { ensureTreeStore, loadTree, treeDataset, type Tree } from './lib/tree.js'

const args = parseArgs()
if (typeof args['peer-tree'] !== 'string') throw new Error('--peer-tree=<built tree> is required')
const dsName = typeof args.dataset === 'string' ? args.dataset : 'L'
const ROUNDS = Number(args.rounds ?? 3)
if (!Number.isInteger(ROUNDS) || ROUNDS < 1 || ROUNDS > 20) throw new Error('--rounds must be 1 to 20')
const log = (...a: unknown[]) => console.log(`[compute-side ${dsName}]`, ...a)

type Side = 'current' | 'baseline'

async function openSide(tree: Tree, storeArg: unknown): Promise<Engine> {
  const store =
    typeof storeArg === 'string' ? resolve(storeArg) : outPath(`memory-${dsName}-${tree.commit}.duckdb`)
  await ensureTreeStore(tree, dsName, store, log)
  return tree.openEngine({ path: store })
}

async function main(): Promise<void> {
  const trees: Record<Side, Tree> = {
    current: await loadTree(ROOT),
    baseline: await loadTree(args['peer-tree'] as string),
  }
  const { domainId } = treeDataset(trees.current, dsName)
  if (treeDataset(trees.baseline, dsName).domainId !== domainId)
    throw new Error('the two trees generate different domains for this dataset')
  const engines: Record<Side, Engine> = {
    current: await openSide(trees.current, args.store),
    baseline: await openSide(trees.baseline, args['peer-store']),
  }
  const loadBefore = loadavg()
  const started = new Date().toISOString()
  const prof = profiles(false).fast
  const only = typeof args.only === 'string' ? args.only : null
  const cases = caseList(domainId).filter((c) => c.timed && (only === null || c.key.includes(only)))
  // Correctness first: the same payload from both trees (and the aggregates loaded: warm).
  const want: Record<string, unknown> = {}
  const failures: string[] = []
  for (const c of cases) {
    want[c.key] = await callReport(engines.baseline, c.fn, c.params)
    const diffs = diffPayloads(await callReport(engines.current, c.fn, c.params), want[c.key])
    if (diffs.length > 0)
      failures.push(`${c.key}: the trees answer differently: ${diffs.slice(0, 3).join('; ')}`)
  }
  if (failures.length > 0) throw new Error(failures.join('\n'))
  log(`${cases.length} cases answer the same on both trees`)

  const rows: Record<Side, TimingRow[][]> = { current: [], baseline: [] }
  for (let round = 0; round < ROUNDS; round++) {
    rows.current.push([])
    rows.baseline.push([])
    for (const c of cases) {
      for (const side of round % 2 === 0
        ? (['current', 'baseline'] as const)
        : (['baseline', 'current'] as const)) {
        gc()
        let calls = 0
        const cpu0 = process.cpuUsage()
        const { timing, last } = await timeCase(
          `${side} ${c.key}`,
          () => {
            calls++
            return callReport(engines[side], c.fn, c.params)
          },
          prof,
        )
        const cpu = process.cpuUsage(cpu0)
        if (diffPayloads(last, want[c.key]).length > 0)
          failures.push(`${side} ${c.key}: wrong payload while timed`)
        const cpuMs = (cpu.user + cpu.system) / 1000 / calls
        const base = { case: c.key, fn: c.fn, days: c.params.days as number }
        rows[side][round]!.push({ ...base, impl: 'engine', ...timing })
        rows[side][round]!.push({
          ...base,
          impl: 'engine (CPU ms per call)',
          median: cpuMs,
          p95: cpuMs,
          mean: cpuMs,
          min: cpuMs,
          max: cpuMs,
          samples: calls,
        })
        log(
          `round ${round + 1} ${side.padEnd(8)} ${c.key.padEnd(44)} median ${timing.median.toFixed(3)} ms (IQR ${timing.p25?.toFixed(3)}-${timing.p75?.toFixed(3)}), CPU ${cpuMs.toFixed(3)} ms/call, n=${timing.samples}`,
        )
      }
    }
  }
  await engines.current.close()
  await engines.baseline.close()
  const suite = `compute-side-${dsName}`
  const comparisons = compareSuite(suite, rows.current, rows.baseline)
  const md = [
    ...renderBaselineSection(
      {
        rev: trees.baseline.commit,
        commit: trees.baseline.commit,
        rounds: ROUNDS,
        currentCommit: trees.current.commit,
      },
      comparisons,
    ),
    `Both engines in one process, alternated case by case (bench/compute-side.ts); started ${started}, load average ${loadBefore.map((x) => x.toFixed(1)).join(' ')} before, ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} after.`,
    '',
  ].join('\n')
  writeFileSync(
    outPath(`${suite}.json`),
    JSON.stringify(
      {
        started,
        loadBefore,
        loadAfter: loadavg(),
        trees: { current: trees.current.commit, baseline: trees.baseline.commit },
        rows,
        comparisons,
        failures,
      },
      null,
      1,
    ),
  )
  writeFileSync(outPath(`${suite}.md`), md)
  console.log(md)
  if (failures.length > 0) {
    console.error(failures.join('\n'))
    process.exitCode = 1
  }
}

await main()
