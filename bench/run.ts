/**
 * `npm run bench [-- --quick] [-- --only=compute-L,crowd-Crowd]`: runs every suite, each in its own
 * Node process (no shared heap or GC between suites), then writes bench/out/results.json and
 * bench/RESULTS.md (with --quick: bench/out/results-quick.json and bench/out/RESULTS-quick.md, so
 * the smoke run never overwrites the full results). Exits non-zero when a suite crashed or any
 * implementation returned a wrong payload.
 */
import { spawnSync, execSync } from 'node:child_process'
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { ROOT, outPath, parseArgs, readJson, writeJson, type SuiteOutput } from './lib/suite.js'
import { evaluateTargets, readNotes, renderMarkdown, type Machine, type SuiteRun } from './report.js'

interface PlannedSuite {
  id: string
  script?: string
  dataset?: string
  heapMB?: number
  slot?: string
}

const args = parseArgs()
const quick = args.quick === true
const only = typeof args.only === 'string' ? args.only.split(',') : null
// --reuse=id,...: take those suites' JSON from an earlier invocation instead of running them (the
// report says so, with that run's commit and start time). For a shared machine where one suite
// takes too long to repeat.
const reuse = typeof args.reuse === 'string' ? args.reuse.split(',') : []

const PLAN: PlannedSuite[] = quick
  ? [
      { id: 'reference-S', script: 'reference', dataset: 'S' },
      { id: 'compute-S', script: 'compute', dataset: 'S' },
      { id: 'crowd-Crowdq', script: 'crowd', dataset: 'Crowdq' },
      { id: 'ingest-S', script: 'ingest', dataset: 'S' },
      // Issue 14: Parquet and Arrow ingest, against NDJSON in the same run.
      { id: 'columnar-S', script: 'columnar', dataset: 'S' },
      // Issue 26: serving over HTTP (cache off, with ingest, cached); answers checked, times not judged.
      { id: 'serve-Serveq', script: 'serve', dataset: 'Serveq' },
      { id: 'rankings-S', script: 'rankings', dataset: 'S' },
      // Issue 11: citations, cited domains, fan-out queries, sentiment over time.
      { id: 'citations-S', script: 'citations', dataset: 'S' },
      // Issue 15: every time series by day, week and month over 365 days.
      { id: 'buckets-S', script: 'buckets', dataset: 'S' },
    ]
  : [
      { id: 'reference-S', script: 'reference', dataset: 'S' },
      { id: 'compute-S', script: 'compute', dataset: 'S' },
      { id: 'compute-L', script: 'compute', dataset: 'L', heapMB: 8192 },
      { id: 'crowd-Crowd', script: 'crowd', dataset: 'Crowd', heapMB: 8192 },
      { id: 'ingest-L', script: 'ingest', dataset: 'L', heapMB: 8192 },
      // Issue 14: Parquet and Arrow ingest, against NDJSON in the same run.
      { id: 'columnar-L', script: 'columnar', dataset: 'L', heapMB: 8192 },
      // Issue 26: 200 domains / 720k analyses over HTTP, with an ingest POST every second, cached.
      { id: 'serve-Serve', script: 'serve', dataset: 'Serve' },
      { id: 'rankings-L', script: 'rankings', dataset: 'L', heapMB: 8192 },
      { id: 'rankings-Crowd', script: 'rankings', dataset: 'Crowd', heapMB: 8192 },
      // Issue 11: citations, cited domains, fan-out queries, sentiment over time.
      { id: 'citations-L', script: 'citations', dataset: 'L', heapMB: 8192 },
      // Issue 15: every time series by day, week and month over 365 days.
      { id: 'buckets-L', script: 'buckets', dataset: 'L', heapMB: 8192 },
    ]

async function duckdbVersion(): Promise<string> {
  const inst = await DuckDBInstance.create(':memory:')
  const con = await inst.connect()
  const v = (await con.runAndReadAll('SELECT version() AS v')).getRowObjectsJS()[0]?.v
  con.closeSync()
  inst.closeSync()
  return String(v)
}

function sh(cmd: string): string {
  try {
    return execSync(cmd, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return 'unknown'
  }
}

/** --report-only: re-render RESULTS.md from bench/out/results.json (after editing bench/NOTES.md). */
function reportOnly(): number {
  const prev = readJson<{
    machine: Machine
    quick: boolean
    targets: ReturnType<typeof evaluateTargets>
    suites: SuiteRun[]
  }>(quick ? 'results-quick.json' : 'results.json')
  if (!prev) {
    console.error('no results.json to render')
    return 1
  }
  const md = renderMarkdown(
    prev.machine,
    prev.suites,
    prev.targets,
    prev.quick,
    prev.quick ? '' : readNotes(),
  )
  const mdPath = prev.quick ? outPath('RESULTS-quick.md') : join(ROOT, 'bench', 'RESULTS.md')
  writeFileSync(mdPath, md)
  console.log(`wrote ${mdPath}`)
  return 0
}

async function main(): Promise<number> {
  if (args['report-only'] === true) return reportOnly()
  const started = new Date()
  const loadBefore = loadavg()
  const runs: SuiteRun[] = []
  for (const s of PLAN) {
    if (only && !only.includes(s.id)) continue
    if (!s.script) {
      runs.push({
        id: s.id,
        exitCode: null,
        wallSec: 0,
        loadAfter: loadavg(),
        output: null,
        slot: s.slot ?? '',
      })
      continue
    }
    const outName = `suite-${s.script}-${s.dataset}.json`
    if (reuse.includes(s.id)) {
      const prev = readJson<SuiteOutput>(outName)
      const when = `${prev?.startedAt ?? 'unknown time'}, commit ${prev?.commit ?? 'unknown'}`
      runs.push({
        id: s.id,
        exitCode: prev && prev.failures.length === 0 ? 0 : 1,
        wallSec: 0,
        loadAfter: loadavg(),
        output: prev,
        slot: `reused from an earlier invocation (${when})`,
      })
      console.log(`\n=== ${s.id}: reused (${when}) ===`)
      continue
    }
    rmSync(outPath(outName), { force: true })
    const script = fileURLToPath(new URL(`./suites/${s.script}.js`, import.meta.url))
    if (!existsSync(script)) {
      runs.push({
        id: s.id,
        exitCode: null,
        wallSec: 0,
        loadAfter: loadavg(),
        output: null,
        slot: `not built: ${s.script}.ts is missing`,
      })
      continue
    }
    const nodeArgs = [
      '--expose-gc',
      `--max-old-space-size=${s.heapMB ?? 4096}`,
      script,
      `--dataset=${s.dataset}`,
    ]
    if (quick) nodeArgs.push('--quick')
    if ((s.script === 'crowd' || s.script === 'citations') && typeof args['crowd-domains'] === 'string')
      nodeArgs.push(`--crowd-domains=${args['crowd-domains']}`)
    // --serve-peer=<dir>: the serving suite runs again against that built tree (the previous main).
    if (s.script === 'serve' && typeof args['serve-peer'] === 'string')
      nodeArgs.push(`--peer-tree=${args['serve-peer']}`)
    if (s.script === 'serve' && args['serve-prof'] === true) nodeArgs.push('--cpu-prof')
    console.log(`\n=== ${s.id} ===`)
    const t0 = performance.now()
    const r = spawnSync(process.execPath, nodeArgs, { cwd: ROOT, stdio: 'inherit' })
    const wallSec = (performance.now() - t0) / 1000
    runs.push({
      id: s.id,
      exitCode: r.status,
      wallSec,
      loadAfter: loadavg(),
      output: readJson<SuiteOutput>(outName),
    })
    console.log(`=== ${s.id}: exit ${r.status} in ${wallSec.toFixed(1)} s ===`)
  }
  const finished = new Date()
  const cpu = cpus()
  const machine: Machine = {
    cpu: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    memGB: totalmem() / 2 ** 30,
    os: `${osType()} ${release()}`,
    node: process.version,
    duckdb: await duckdbVersion(),
    nodeApi: (
      JSON.parse(readFileSync(join(ROOT, 'node_modules/@duckdb/node-api/package.json'), 'utf8')) as {
        version: string
      }
    ).version,
    commit: `${sh('git rev-parse --short HEAD')}${sh('git status --porcelain -- src sql bench') ? ' (with uncommitted changes)' : ''}`,
    loadBefore,
    loadAfter: loadavg(),
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    wallSec: (finished.getTime() - started.getTime()) / 1000,
  }
  const targets = evaluateTargets(runs, quick)
  writeJson(quick ? 'results-quick.json' : only ? 'results-partial.json' : 'results.json', {
    machine,
    quick,
    targets,
    suites: runs,
  })
  const md = renderMarkdown(machine, runs, targets, quick, quick ? '' : readNotes())
  const mdPath = quick ? outPath('RESULTS-quick.md') : join(ROOT, 'bench', 'RESULTS.md')
  if (!only || quick) writeFileSync(mdPath, md)
  else writeFileSync(outPath('RESULTS-partial.md'), md)
  const bad = runs.filter((r) => r.exitCode !== null && r.exitCode !== 0)
  console.log(`\nwrote ${mdPath}`)
  for (const t of targets)
    console.log(
      `${t.met === null ? '   ' : t.met ? 'met' : 'MISSED'}  ${t.name}: ${t.measured} (goal ${t.goal})`,
    )
  if (bad.length) {
    console.error(`\nFAILED: ${bad.map((r) => `${r.id} (exit ${r.exitCode})`).join(', ')}`)
    for (const r of bad)
      for (const f of r.output?.failures ?? []) console.error(`  ${r.id}: ${f.split('\n')[0]}`)
    return 1
  }
  console.log('\nall payloads correct')
  return 0
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e)
    process.exit(2)
  },
)
