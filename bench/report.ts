/**
 * Turns the suites' JSON outputs into bench/out/results.json and the RESULTS.md table: machine,
 * versions, dataset sizes, median and p95 per case, every ratio against the baselines measured in the
 * same run, and each of the issue's targets as met or missed.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SuiteOutput, TimingRow } from './lib/suite.js'
import { ROOT } from './lib/suite.js'
import { crowdTarget, ms, ratio } from './lib/format.js'
import { rankingsSection, rankingsTargets } from './report-rankings.js'
import { citationSection, citationTargets } from './report-citations.js'
import { columnarSection, columnarTargets } from './report-columnar.js'
import { serveSection, serveTargets } from './report-serve.js'

export interface Machine {
  cpu: string
  cores: number
  memGB: number
  os: string
  node: string
  duckdb: string
  nodeApi: string
  commit: string
  loadBefore: number[]
  loadAfter: number[]
  startedAt: string
  finishedAt: string
  wallSec: number
}

export interface SuiteRun {
  id: string
  exitCode: number | null
  wallSec: number
  loadAfter: number[]
  output: SuiteOutput | null
  slot?: string
}

export interface Target {
  name: string
  goal: string
  measured: string
  met: boolean | null
}

const FN_LABEL: Record<string, string> = {
  computePromptSeries: 'prompt series',
  computeCompetitorSeries: 'competitor series',
  sentimentOverview: 'sentiment overview',
  sentimentThemes: 'sentiment themes',
}
const FNS = Object.keys(FN_LABEL)

const mark = (met: boolean | null): string => (met === null ? 'n/a' : met ? '**met**' : '**missed**')

function find(rows: TimingRow[], fn: string, days: number, impl: string): TimingRow | undefined {
  return rows.find((r) => r.fn === fn && r.days === days && r.impl === impl)
}

/** The issue's targets, evaluated on the compute, crowd and ingest suites of this run. */
export function evaluateTargets(runs: SuiteRun[], quick: boolean): Target[] {
  const t: Target[] = []
  const compute = runs.find((r) => r.id === (quick ? 'compute-S' : 'compute-L'))?.output
  if (compute) {
    for (const fn of FNS) {
      const e365 = find(compute.timings, fn, 365, 'engine')
      const e30 = find(compute.timings, fn, 30, 'engine')
      const naive = find(compute.timings, fn, 365, 'naive-sql')
      const typed = find(compute.timings, fn, 365, 'typed-arrays')
      const label = FN_LABEL[fn]
      t.push({
        name: `${label}, days=365: median`,
        goal: '<= 15 ms',
        measured: e365 ? `${ms(e365.median)} ms (${ratio(e365.median / 15)} of target)` : 'not measured',
        met: e365 ? e365.median <= 15 : false,
      })
      t.push({
        name: `${label}, days=365: vs naive DuckDB SQL`,
        goal: '>= 10x faster',
        measured: e365 && naive ? `${ratio(naive.median / e365.median)}` : 'not measured',
        met: e365 && naive ? naive.median / e365.median >= 10 : false,
      })
      t.push({
        name: `${label}, days=365: vs typed-array single pass`,
        goal: '>= 2x faster',
        measured: e365 && typed ? `${ratio(typed.median / e365.median)}` : 'not measured',
        met: e365 && typed ? typed.median / e365.median >= 2 : false,
      })
      t.push({
        name: `${label}, days=30: median`,
        goal: '<= 3 ms',
        measured: e30 ? `${ms(e30.median)} ms (${ratio(e30.median / 3)} of target)` : 'not measured',
        met: e30 ? e30.median <= 3 : false,
      })
    }
  }
  const crowd = runs.find((r) => r.id.startsWith('crowd'))?.output
  if (crowd) t.push(crowdTarget('Crowd / alone (worst case over the 16 cases, medians)', crowd.timings))
  t.push(...citationTargets(runs))
  const ingest = runs.find((r) => r.id.startsWith('ingest'))?.output
  const ingestExtra = ingest?.extra as
    | {
        first?: { analysesPerSec: number; peakRssMB: number }
        big?: { peakRssMB: number; fileMB: number }
        engineOverNative?: number
      }
    | undefined
  const first = ingestExtra?.first
  // The peak RSS target is for a 2 GB file: a full run measures it (the ingest suite's `big`); a
  // quick run has only its dataset's file.
  const big = ingestExtra?.big
  if (ingestExtra?.engineOverNative !== undefined)
    t.push({
      name: 'ingest NDJSON vs the naive native load (same file, same run)',
      goal: '>= 1.5x',
      measured: ratio(ingestExtra.engineOverNative),
      met: ingestExtra.engineOverNative >= 1.5,
    })
  if (first) {
    t.push({
      name: 'ingest NDJSON: analyses/s',
      goal: '>= 100,000/s',
      measured: `${Math.round(first.analysesPerSec).toLocaleString('en-US')}/s (${ratio(first.analysesPerSec / 100_000)} of target)`,
      met: first.analysesPerSec >= 100_000,
    })
    t.push(
      big === undefined
        ? {
            name: 'ingest NDJSON: peak RSS',
            goal: '< 500 MB',
            measured: `${first.peakRssMB.toFixed(0)} MB (the dataset's file; the 2 GB file not run)`,
            met: first.peakRssMB < 500,
          }
        : {
            name: 'ingest NDJSON: peak RSS, a 2 GB file',
            goal: '< 500 MB',
            measured: `${big.peakRssMB.toFixed(0)} MB (${big.fileMB.toFixed(0)} MiB file; L's file ${first.peakRssMB.toFixed(0)} MB)`,
            met: big.peakRssMB < 500,
          },
    )
  } else
    t.push({
      name: 'ingest NDJSON',
      goal: '>= 100k analyses/s, peak RSS < 500 MB',
      measured: 'not measured',
      met: false,
    })
  t.push(...columnarTargets(runs))
  t.push(...rankingsTargets(runs, quick))
  t.push(...serveTargets(runs, quick))
  return t
}

function computeTable(out: SuiteOutput, refRows: TimingRow[]): string[] {
  const impls = [
    'engine',
    'engine (cold: first call after open)',
    'typed-arrays',
    'naive-sql',
    'nodejs-polars',
    'reference-model',
  ]
  const rows = [...out.timings, ...refRows]
  const present = impls.filter((i) => rows.some((r) => r.impl === i))
  const days = [...new Set(out.timings.filter((r) => r.fn !== 'floor').map((r) => r.days))].sort(
    (a, b) => a - b,
  )
  const L: string[] = []
  L.push('Median / p95, ms:')
  L.push('')
  L.push(`| function | days | ${present.join(' | ')} |`)
  L.push(`|---|---:|${present.map(() => '---:').join('|')}|`)
  for (const fn of FNS) {
    for (const d of days) {
      const cells = present.map((i) => {
        const r = find(rows, fn, d, i)
        return r ? `${ms(r.median)} / ${ms(r.p95)}` : '–'
      })
      L.push(`| ${FN_LABEL[fn]} | ${d} | ${cells.join(' | ')} |`)
    }
  }
  L.push('')
  L.push(
    'Ratios of medians, X / engine (above 1: the engine is faster), and engine / floor (how many times the scan-only floor the engine takes):',
  )
  L.push('')
  const others = present.slice(1)
  L.push(
    `| function | days | ${others.map((i) => `${i} / engine`).join(' | ')} | engine / DuckDB floor | engine / JS floor |`,
  )
  L.push(`|---|---:|${others.map(() => '---:').join('|')}|---:|---:|`)
  for (const fn of FNS) {
    for (const d of days) {
      const e = find(rows, fn, d, 'engine')
      const f1 = find(rows, 'floor', d, 'floor: duckdb scan-only SUM')
      const f2 = find(rows, 'floor', d, 'floor: typed-array scan')
      const ratios = others.map((i) => {
        const r = find(rows, fn, d, i)
        return r && e ? ratio(r.median / e.median) : '–'
      })
      L.push(
        `| ${FN_LABEL[fn]} | ${d} | ${ratios.join(' | ')} | ${e && f1 ? ratio(e.median / f1.median) : '–'} | ${e && f2 ? ratio(e.median / f2.median) : '–'} |`,
      )
    }
  }
  return L
}

export function renderMarkdown(
  machine: Machine,
  runs: SuiteRun[],
  targets: Target[],
  quick: boolean,
  notes: string,
): string {
  const L: string[] = []
  const shared = machine.loadBefore[0]! > machine.cores * 0.5 || machine.loadAfter[0]! > machine.cores * 0.5
  L.push(
    `# Benchmark results${quick ? " (--quick smoke run: small datasets, few iterations; not the issue's numbers)" : ''}`,
  )
  L.push('')
  L.push(
    `Generated by \`npm run bench${quick ? ' -- --quick' : ''}\` on ${machine.finishedAt} (wall time ${machine.wallSec.toFixed(0)} s). Every number below was measured in that one run; the raw numbers are in \`bench/out/results${quick ? '-quick' : ''}.json\`.`,
  )
  L.push('')
  L.push('## Machine')
  L.push('')
  L.push('| | |')
  L.push('|---|---|')
  L.push(`| CPU | ${machine.cpu}, ${machine.cores} cores |`)
  L.push(`| memory | ${machine.memGB.toFixed(1)} GB |`)
  L.push(`| OS | ${machine.os} |`)
  L.push(`| Node | ${machine.node} |`)
  L.push(`| DuckDB | ${machine.duckdb} (@duckdb/node-api ${machine.nodeApi}) |`)
  L.push(`| commit | ${machine.commit} |`)
  L.push(
    `| load average (1/5/15 min) | before ${machine.loadBefore.map((x) => x.toFixed(2)).join(' / ')}, after ${machine.loadAfter.map((x) => x.toFixed(2)).join(' / ')} |`,
  )
  L.push('')
  if (shared)
    L.push(
      `**The machine was shared with other sessions during this run** (load average above half the core count): absolute times are inflated and noisy; ratios between implementations measured back to back in the same process are the more reliable numbers.\n`,
    )
  L.push('## Targets')
  L.push('')
  L.push('| target | goal | measured | |')
  L.push('|---|---|---|---|')
  for (const t of targets) L.push(`| ${t.name} | ${t.goal} | ${t.measured} | ${mark(t.met)} |`)
  L.push('')
  L.push('## Datasets')
  L.push('')
  L.push('| suite | dataset | sizes |')
  L.push('|---|---|---|')
  for (const r of runs) {
    if (!r.output) continue
    const s = Object.entries(r.output.sizes)
      .map(([k, v]) => `${k} ${Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(1)}`)
      .join(', ')
    L.push(`| ${r.id} | ${r.output.dataset} | ${s} |`)
  }
  L.push('')
  const crowdDomains = (runs.find((x) => x.id.startsWith('crowd'))?.output?.sizes.domains ?? 1001) - 1
  L.push(
    `Seeded generator (bench/data/generator.ts): S = 1 domain, 20 prompts, 5 competitors, 12 themes, 7 channels, 30 days, one analysis per prompt per channel per day. L = 1 domain, 200 prompts, 20 competitors, 50 themes, 7 channels, 365 days, one analysis per prompt per channel per day. Crowd = L plus ${crowdDomains.toLocaleString('en-US')} other domains of 5,000 analyses each (10 prompts, 5 competitors, 10 themes; the issue's Crowd has 1,000), ingested into the same store in 12 batches of days with all domains interleaved. All queries use \`now\` = 2026-11-20T18:00:00Z.`,
  )
  L.push('')
  for (const r of runs.filter((x) => x.id.startsWith('compute') && x.output)) {
    const out = r.output!
    const ref = runs.find((x) => x.id === `reference-${out.dataset}`)?.output
    L.push(`## Cases 1 and 2: the four functions on ${out.dataset}, engine and peers`)
    L.push('')
    L.push(
      'Warm engine (file store, reused connections), default model `all`, prompt limit 25. Medians and p95 in ms; ratios are peer median / engine median (above 1: the engine is faster). Every payload was checked against the oracle before timing, and the last payload of every timed loop again after it.',
    )
    L.push('')
    L.push(...computeTable(out, ref?.timings ?? []))
    L.push('')
  }
  const crowd = runs.find((x) => x.id.startsWith('crowd'))?.output
  if (crowd) {
    L.push(`## Case 3: tenant independence (${crowd.dataset})`)
    L.push('')
    const crowdRun = runs.find((x) => x.id.startsWith('crowd'))
    if (crowdRun?.slot) L.push(`Note: ${crowdRun.slot}.`, '')
    L.push(
      `The L domain alone in one store, and with ${(crowd.sizes.domains ?? 1) - 1} other domains (${(crowd.sizes.totalAnalyses ?? 0).toLocaleString('en-US')} analyses in all) in another; both warm, the same 16 cases timed back to back. Both answered every case identically (and equal to the typed-array oracle) before timing.`,
      '',
    )
    L.push('| function | days | alone median / p95 (ms) | crowd median / p95 (ms) | crowd / alone |')
    L.push('|---|---:|---:|---:|---:|')
    for (const a of crowd.timings.filter((x) => x.impl === 'engine (alone)')) {
      const c = crowd.timings.find((x) => x.case === a.case && x.impl === 'engine (crowd)')
      L.push(
        `| ${FN_LABEL[a.fn]} | ${a.days} | ${ms(a.median)} / ${ms(a.p95)} | ${c ? `${ms(c.median)} / ${ms(c.p95)}` : '–'} | ${c ? ratio(c.median / a.median) : '–'} |`,
      )
    }
    L.push('')
  }
  L.push(...citationSection(runs))
  const ingest = runs.find((x) => x.id.startsWith('ingest'))?.output
  if (ingest?.extra) {
    type Ing = {
      ms: number
      analysesPerSec: number
      mentionsPerSec: number
      peakRssMB: number
      peakRssMBTimeV: number | null
      closeMs: number
    }
    const ex = ingest.extra as {
      first: Ing
      again: Ing
      native?: Ing
      big?: Ing & { fileMB: number; lines: number }
      storeMB: number
      storeMBAfterReingest: number
    }
    L.push(
      `## Case 4: ingest (${ingest.dataset}, ${Number(ingest.sizes.fileMB).toFixed(0)} MB NDJSON, ${ingest.sizes.lines?.toLocaleString('en-US')} lines)`,
    )
    L.push('')
    L.push(
      "Each ingest runs in a fresh child process: `engine.ingestFile(path)` into a file store, one transaction, committed when it resolves. Peak RSS is the child's `process.resourceUsage().maxRSS` read right after the ingest (and `/usr/bin/time -v` over the whole child, which also covers the check queries after it).",
    )
    L.push('')
    L.push(
      '| case | time (s) | analyses/s | mentions/s | peak RSS (MB) | peak RSS, time -v (MB) | close (ms) |',
    )
    L.push('|---|---:|---:|---:|---:|---:|---:|')
    for (const [name, x] of [
      ['NDJSON -> new store', ex.first],
      ['same file again (upsert, idempotent)', ex.again],
      ...(ex.native ? ([['naive native load (DuckDB alone, same file)', ex.native]] as const) : []),
      ...(ex.big
        ? ([
            [
              `the 2 GB file (${ex.big.fileMB.toFixed(0)} MiB, ${ex.big.lines.toLocaleString('en-US')} lines: L and copies of its analyses) -> new store`,
              ex.big,
            ],
          ] as const)
        : []),
    ] as const) {
      L.push(
        `| ${name} | ${(x.ms / 1000).toFixed(2)} | ${Math.round(x.analysesPerSec).toLocaleString('en-US')} | ${Math.round(x.mentionsPerSec).toLocaleString('en-US')} | ${x.peakRssMB.toFixed(0)} | ${x.peakRssMBTimeV?.toFixed(0) ?? '–'} | ${x.closeMs?.toFixed(0) ?? '–'} |`,
      )
    }
    L.push('')
    L.push(
      `Store file: ${ex.storeMB.toFixed(0)} MB after the first ingest, ${ex.storeMBAfterReingest.toFixed(0)} MB after the second. The reports after the re-ingest were checked equal to those after the first.`,
    )
    L.push('')
  }
  L.push(...columnarSection(runs))
  L.push(...serveSection(runs))
  const comp = runs.find((x) => x.id === (quick ? 'compute-S' : 'compute-L'))?.output
  if (comp) {
    L.push(`## Case 5: the floor (${comp.dataset})`)
    L.push('')
    L.push(
      'A scan-only SUM over the columns the competitor query reads (entity, position, sentiment, prompt, day) for the window, nothing else: in DuckDB on a table sorted by (domain, day) with integer keys, and in JS over the typed arrays. What any implementation must at least pay to touch the data.',
    )
    L.push('')
    L.push(
      '| days | DuckDB scan-only SUM median (ms) | JS typed-array scan median (ms) | engine competitor series / DuckDB floor |',
    )
    L.push('|---:|---:|---:|---:|')
    for (const d of [7, 30, 90, 365]) {
      const f1 = find(comp.timings, 'floor', d, 'floor: duckdb scan-only SUM')
      const f2 = find(comp.timings, 'floor', d, 'floor: typed-array scan')
      const e = find(comp.timings, 'computeCompetitorSeries', d, 'engine')
      L.push(
        `| ${d} | ${ms(f1?.median)} | ${ms(f2?.median)} | ${e && f1 ? ratio(e.median / f1.median) : '–'} |`,
      )
    }
    L.push('')
  }
  L.push(...rankingsSection(runs))
  L.push('## Peers: tried, and left out')
  L.push('')
  const notesOf = runs.flatMap((r) => r.output?.notes ?? [])
  const polarsNote = notesOf.find((n) => n.startsWith('nodejs-polars not run'))
  const refRun = runs.find((r) => r.id.startsWith('reference'))
  L.push(
    '- **engine**, two ways on the same store: warm (the headline: aggregates in memory, connections reused) and cold (the first call of each case right after opening the store, so its aggregates are read from DuckDB first: 3 opens per case).',
  )
  L.push(
    '- **typed-arrays** (bench/peers/typed-arrays.ts): a hand-written single pass over typed arrays, all four reports. One domain, analyses sorted by day (window = binary search), ids and hosts interned, CSR children. The strongest baseline here: it keeps no pre-aggregates, so it shows what a good hand-written scan costs.',
  )
  L.push(
    '- **naive-sql** (bench/peers/naive-sql.ts): its own DuckDB instance (same version), raw tables as the records come (string UUID ids, TIMESTAMPTZ, no ordering), one straightforward GROUP BY per report, shaped in TS. All four reports.',
  )
  L.push(
    `- **nodejs-polars** 0.24.1 (bench/peers/polars.ts): filter, join and group-by in Polars over integer-keyed frames built from the typed arrays, shaping in TS. All four reports. ${polarsNote ? `Not run in this run: ${polarsNote}.` : ''} Pinned to 0.24: the native binaries of 0.25.x and 0.26.x declare \`engines: node >= 22\`, so npm skips them on Node 20 and the import fails with "Cannot find module nodejs-polars-linux-x64-gnu".`,
  )
  L.push(
    `- **reference-model** (test/reference/model.ts), in its own process (its heap of JS objects must not disturb the others' GC): deliberately naive, every query rescans every analysis. It is the oracle: its payloads are what every other implementation is checked against. ${refRun && !refRun.output ? `Not run: ${refRun.slot ?? 'no output'}; the typed-array peer was the oracle instead (itself cross-checked with naive-sql and nodejs-polars).` : ''}`,
  )
  L.push(
    '- Left out: chDB (field notes: ~147 ms on the competitor query; its native addon was not tried for lack of time), duckdb-wasm (the same DuckDB engine, single-threaded in WASM; ~400 ms in the field notes), arquero (~1 s) and better-sqlite3 (~1 s; 12.x builds from source on Node 20, 13.x needs Node 22): all slower than naive-sql on this query in the field notes, so they would not change which baseline binds.',
  )
  L.push('')
  L.push(...otherSuitesSection(runs))
  L.push('## Correctness')
  L.push('')
  L.push('| suite | checks | wrong | against |')
  L.push('|---|---:|---:|---|')
  for (const r of runs) {
    if (!r.output) continue
    const against = [...new Set(r.output.checks.map((c) => c.against))].join(', ')
    L.push(
      `| ${r.id} | ${r.output.checks.length} | ${r.output.checks.filter((c) => !c.ok).length} | ${against || '–'} |`,
    )
  }
  L.push('')
  const failures = runs.flatMap((r) =>
    (r.output?.failures ?? (r.exitCode === null ? [] : [`suite did not report (exit ${r.exitCode})`])).map(
      (f) => `${r.id}: ${f}`,
    ),
  )
  if (failures.length) {
    L.push('Failures:')
    L.push('')
    for (const f of failures.slice(0, 50)) L.push(`- ${f.split('\n')[0]}`)
    L.push('')
  } else
    L.push(
      'Every timed function returned the expected payload (before timing and at the end of its timed loop).\n',
    )
  L.push('## Suites and setup times')
  L.push('')
  L.push('| suite | exit | wall (s) | setup (ms) | notes |')
  L.push('|---|---:|---:|---|---|')
  for (const r of runs) {
    const setup = r.output
      ? Object.entries(r.output.setup)
          .map(([k, v]) => `${k}: ${v.toFixed(0)}`)
          .join('; ')
      : ''
    const n = [...(r.output?.notes ?? []), ...(r.slot ? [r.slot] : [])].join('; ')
    L.push(`| ${r.id} | ${r.exitCode ?? '–'} | ${r.wallSec.toFixed(0)} | ${setup} | ${n} |`)
  }
  L.push('')
  if (notes.trim()) L.push(notes.trim(), '')
  return L.join('\n')
}

/** The suites with a section of their own above; every other suite gets the generic table. */
const OWN_SECTION = new Set([
  'reference',
  'compute',
  'crowd',
  'ingest',
  'columnar',
  'rankings',
  'citations',
  'buckets',
])

/**
 * The other suites (first-query, mcp, mcp-attack, cluster, ...): their timed rows as written (the
 * suite's notes say what its p95 column holds) and their raw figures.
 */
function otherSuitesSection(runs: SuiteRun[]): string[] {
  const L: string[] = []
  for (const r of runs) {
    const out = r.output
    if (out === null || OWN_SECTION.has(out.suite)) continue
    L.push(`## Suite ${r.id}`, '')
    if (out.notes.length) L.push(out.notes.join('; ') + '.', '')
    if (out.timings.length) {
      L.push('| case | impl | median (ms) | p95 (ms) | samples |')
      L.push('|---|---|---:|---:|---:|')
      for (const t of out.timings)
        L.push(
          `| ${t.case} | ${t.impl} | ${ms(t.median)} | ${ms(t.p95)} | ${Number.isNaN(t.samples) ? '–' : t.samples} |`,
        )
      L.push('')
    }
    if (out.extra !== undefined) L.push('```json', JSON.stringify(out.extra, null, 1), '```', '')
  }
  return L
}

/** Hand-written analysis kept next to the generated tables. */
export function readNotes(): string {
  const p = join(ROOT, 'bench', 'NOTES.md')
  return existsSync(p) ? readFileSync(p, 'utf8') : ''
}
