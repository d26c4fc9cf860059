/**
 * `npm run bench [-- --quick] [-- --only=compute-L,crowd-Crowd] [-- --baseline=<git rev>]`: runs
 * every suite, each in its own Node process (no shared heap or GC between suites), then writes
 * bench/out/results.json and bench/RESULTS.md (with --quick: bench/out/results-quick.json and
 * bench/out/RESULTS-quick.md, so the smoke run never overwrites the full results; with --only:
 * bench/out/RESULTS-partial.md). Exits non-zero when a suite crashed or any implementation returned
 * a wrong payload. Arguments the runner does not read are passed to every suite (--calls, --seconds).
 *
 * --baseline=<rev> builds that revision in a temporary git worktree (node_modules hard-linked,
 * `npm run build` there; or reuses a built tree given by --baseline-dir, copying its dist/) and runs
 * each selected suite from both trees, alternating, --baseline-rounds times (default 2); the report
 * gains a side-by-side section (bench/lib/baseline.ts states the noise rule).
 */
import { spawnSync, execSync, execFileSync } from 'node:child_process'
import { cpus, loadavg, release, totalmem, tmpdir, type as osType } from 'node:os'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import {
  ROOT,
  outPath,
  parseArgs,
  readJson,
  writeJson,
  type SuiteOutput,
  type TimingRow,
} from './lib/suite.js'
import { evaluateTargets, readNotes, renderMarkdown, type Machine, type SuiteRun } from './report.js'
import {
  compareSuite,
  parseBaselineArgs,
  renderBaselineSection,
  roundOrder,
  type Comparison,
} from './lib/baseline.js'

interface PlannedSuite {
  id: string
  script: string
  dataset: string
  heapMB?: number
  /** Runs only when named in --only: what it needs that a machine may not have. */
  optIn?: string
}

/** The runner's own arguments; every other one goes to the suites. */
const RUNNER_ARGS = new Set([
  'quick',
  'only',
  'reuse',
  'report-only',
  'baseline',
  'baseline-dir',
  'baseline-rounds',
  'crowd-domains',
  'serve-peer',
  'serve-prof',
])

const args = parseArgs()
const quick = args.quick === true
const only = typeof args.only === 'string' ? args.only.split(',') : null
// --reuse=id,...: take those suites' JSON from an earlier invocation instead of running them (the
// report says so, with that run's commit and start time). For a shared machine where one suite
// takes too long to repeat.
const reuse = typeof args.reuse === 'string' ? args.reuse.split(',') : []
const baseline = parseBaselineArgs(args)
const passThrough = process.argv.slice(2).filter((a) => {
  const name = /^--([^=]+)/.exec(a)?.[1]
  return name !== undefined && !RUNNER_ARGS.has(name)
})
/** PostgreSQL and HAProxy: the cluster suite's needs. */
const CLUSTER_NEEDS =
  'opt-in: needs PostgreSQL (pg_ctl, initdb) and HAProxy on this machine; run it with --only=cluster'

const PLAN: PlannedSuite[] = quick
  ? [
      { id: 'reference-S', script: 'reference', dataset: 'S' },
      { id: 'compute-S', script: 'compute', dataset: 'S' },
      { id: 'crowd-Crowdq', script: 'crowd', dataset: 'Crowdq' },
      { id: 'ingest-S', script: 'ingest', dataset: 'S' },
      // Parquet and Arrow ingest, against NDJSON in the same run.
      { id: 'columnar-S', script: 'columnar', dataset: 'S' },
      // Serving over HTTP (cache off, with ingest, cached); answers checked, times not judged.
      { id: 'serve-Serveq', script: 'serve', dataset: 'Serveq' },
      // Webhooks: detection's cost on an ingest call, a backlog drained (answers not judged by time).
      { id: 'webhooks-S', script: 'webhooks', dataset: 'S' },
      { id: 'rankings-S', script: 'rankings', dataset: 'S' },
      // The segment filters (country, topic, tag) beside the naive SQL peer with the same filter.
      { id: 'segments-S', script: 'segments', dataset: 'S' },
      // GET /api/v1/query beside the naive SQL peer computing the same payloads.
      { id: 'query-S', script: 'query', dataset: 'S' },
      // The signals beside the naive SQL peer (every day of S checked), the first call after a commit.
      { id: 'signals-S', script: 'signals', dataset: 'S' },
      // The answers listing: pages beside an OFFSET peer, bytes per answer, ingest with answers.
      { id: 'answers-S', script: 'answers', dataset: 'S' },
      // NDJSON ingest with and without the segments, with and without answers; reports on both stores.
      { id: 'fields-S', script: 'fields', dataset: 'S' },
      // Citations, cited domains, fan-out queries, sentiment over time.
      { id: 'citations-S', script: 'citations', dataset: 'S' },
      // Every time series by day, week and month over 365 days.
      { id: 'buckets-S', script: 'buckets', dataset: 'S' },
      // The first query after a commit, MCP beside REST, the /mcp attacks, the cluster.
      { id: 'first-query-S', script: 'first-query', dataset: 'S' },
      { id: 'mcp-S', script: 'mcp', dataset: 'S' },
      { id: 'mcp-attack-S', script: 'mcp-attack', dataset: 'S' },
      { id: 'cluster', script: 'cluster', dataset: 'local', optIn: CLUSTER_NEEDS },
    ]
  : [
      { id: 'reference-S', script: 'reference', dataset: 'S' },
      { id: 'compute-S', script: 'compute', dataset: 'S' },
      { id: 'compute-L', script: 'compute', dataset: 'L', heapMB: 8192 },
      { id: 'crowd-Crowd', script: 'crowd', dataset: 'Crowd', heapMB: 8192 },
      { id: 'ingest-L', script: 'ingest', dataset: 'L', heapMB: 8192 },
      // Parquet and Arrow ingest, against NDJSON in the same run.
      { id: 'columnar-L', script: 'columnar', dataset: 'L', heapMB: 8192 },
      // 200 domains / 720k analyses over HTTP, with an ingest POST every second, cached.
      { id: 'serve-Serve', script: 'serve', dataset: 'Serve' },
      // Parquet and Arrow import through SQL, with the event loop's longest stall (a move's import path).
      { id: 'flat-import-L', script: 'flat-import', dataset: 'L', heapMB: 8192 },
      // Webhooks: detection's cost on a 500-analysis ingest call, a 10,000-event backlog drained,
      // reads beside a hanging receiver.
      { id: 'webhooks-L', script: 'webhooks', dataset: 'L', heapMB: 8192 },
      { id: 'rankings-L', script: 'rankings', dataset: 'L', heapMB: 8192 },
      { id: 'segments-L', script: 'segments', dataset: 'L', heapMB: 8192 },
      { id: 'query-L', script: 'query', dataset: 'L', heapMB: 8192 },
      // The signals beside the naive SQL peer, the first call after a 500-analysis commit.
      { id: 'signals-L', script: 'signals', dataset: 'L', heapMB: 8192 },
      // The answers listing: pages 1 and 1,000 beside an OFFSET peer, bytes per answer, ingest with answers.
      { id: 'answers-L', script: 'answers', dataset: 'L', heapMB: 8192 },
      // NDJSON ingest with and without the segments, with and without answers; reports on both stores.
      { id: 'fields-L', script: 'fields', dataset: 'L', heapMB: 8192 },
      {
        id: 'fields-M',
        script: 'fields',
        dataset: 'M',
        heapMB: 8192,
        optIn: 'opt-in: fields-L on a quarter of L (run it with --only=fields-M)',
      },
      { id: 'rankings-Crowd', script: 'rankings', dataset: 'Crowd', heapMB: 8192 },
      // Citations, cited domains, fan-out queries, sentiment over time.
      { id: 'citations-L', script: 'citations', dataset: 'L', heapMB: 8192 },
      // Every time series by day, week and month over 365 days.
      { id: 'buckets-L', script: 'buckets', dataset: 'L', heapMB: 8192 },
      // The first query after a commit, MCP beside REST, the /mcp attacks, the cluster.
      { id: 'first-query-L', script: 'first-query', dataset: 'L', heapMB: 8192 },
      { id: 'mcp-Lq', script: 'mcp', dataset: 'Lq' },
      { id: 'mcp-attack-S', script: 'mcp-attack', dataset: 'S' },
      { id: 'cluster', script: 'cluster', dataset: 'local', optIn: CLUSTER_NEEDS },
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
  const tree = baseline ? prepareBaseline(baseline.rev, baseline.dir) : null
  const comparisons: Comparison[] = []
  // Interrupted: the temporary tree goes too (the suite child gets the signal from the terminal).
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      tree?.remove()
      process.exit(130)
    })
  try {
    for (const s of PLAN) {
      if (only && !only.includes(s.id)) continue
      if (s.optIn !== undefined && !only?.includes(s.id)) {
        console.log(`\n=== ${s.id}: skipped (${s.optIn}) ===`)
        runs.push({ id: s.id, exitCode: null, wallSec: 0, loadAfter: loadavg(), output: null, slot: s.optIn })
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
      if (tree === null) {
        runs.push(runSuite(s, ROOT, ''))
        continue
      }
      // Side by side: both trees, alternating, `rounds` times.
      const rounds = { current: [] as SuiteRun[], baseline: [] as SuiteRun[] }
      for (let i = 0; i < baseline!.rounds; i += 1) {
        for (const which of roundOrder(i)) {
          const root = which === 'current' ? ROOT : tree.root
          rounds[which].push(runSuite(s, root, ` (${which}, round ${i + 1} of ${baseline!.rounds})`))
        }
      }
      const last = rounds.current[rounds.current.length - 1]!
      const failed = [...rounds.current, ...rounds.baseline].find((r) => r.exitCode !== 0)
      runs.push({ ...last, exitCode: failed?.exitCode ?? last.exitCode })
      const rows = (rs: SuiteRun[]): TimingRow[][] => rs.map((r) => r.output?.timings ?? [])
      comparisons.push(...compareSuite(s.id, rows(rounds.current), rows(rounds.baseline)))
    }
  } finally {
    tree?.remove()
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
    ...(tree ? { baseline: { rev: baseline!.rev, commit: tree.commit, comparisons } } : {}),
  })
  const side = tree
    ? renderBaselineSection(
        { rev: baseline!.rev, commit: tree.commit, rounds: baseline!.rounds, currentCommit: machine.commit },
        comparisons,
      ).join('\n')
    : ''
  const md = `${renderMarkdown(machine, runs, targets, quick, quick ? '' : readNotes())}\n${side}`
  const mdPath = quick ? outPath('RESULTS-quick.md') : join(ROOT, 'bench', 'RESULTS.md')
  const written = !only || quick ? mdPath : outPath('RESULTS-partial.md')
  writeFileSync(written, md)
  const bad = runs.filter((r) => r.exitCode !== null && r.exitCode !== 0)
  console.log(`\nwrote ${written}`)
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

/** Runs one suite from the tree at `root` in its own process; reads its JSON from that tree. */
function runSuite(s: PlannedSuite, root: string, label: string): SuiteRun {
  const outName = `suite-${s.script}-${s.dataset}.json`
  const outFile = join(root, 'bench', 'out', outName)
  rmSync(outFile, { force: true })
  const script = join(root, 'dist', 'bench', 'suites', `${s.script}.js`)
  if (!existsSync(script)) {
    return {
      id: s.id,
      exitCode: null,
      wallSec: 0,
      loadAfter: loadavg(),
      output: null,
      slot: `not built: ${s.script}.ts is missing${label}`,
    }
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
  nodeArgs.push(...passThrough)
  console.log(`\n=== ${s.id}${label} ===`)
  const t0 = performance.now()
  const r = spawnSync(process.execPath, nodeArgs, { cwd: root, stdio: 'inherit' })
  const wallSec = (performance.now() - t0) / 1000
  console.log(`=== ${s.id}${label}: exit ${r.status} in ${wallSec.toFixed(1)} s ===`)
  const output = existsSync(outFile) ? (JSON.parse(readFileSync(outFile, 'utf8')) as SuiteOutput) : null
  return { id: s.id, exitCode: r.status, wallSec, loadAfter: loadavg(), output }
}

/**
 * The baseline tree: a temporary git worktree of `rev` with node_modules hard-linked and built; or,
 * with `dir`, a scratch copy of that built tree's dist/ (hard links) beside a link to its
 * node_modules, so the suites' output never lands in it.
 */
function prepareBaseline(rev: string, dir: string | null): { root: string; commit: string; remove(): void } {
  const scratch = mkdtempSync(join(tmpdir(), 'va-bench-baseline-'))
  const git = (cwd: string, ...a: string[]) =>
    execFileSync('git', a, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim()
  if (dir !== null) {
    const commit = git(dir, 'rev-parse', '--short', 'HEAD')
    const wanted = git(ROOT, 'rev-parse', '--short', rev)
    if (commit !== wanted) throw new Error(`--baseline-dir ${dir} is at ${commit}, not ${rev} (${wanted})`)
    // dist/ copied (a link would resolve back to `dir`: the suites find the root from their own
    // path); bench/ rebuilt without out/; everything else linked.
    for (const entry of readdirSync(dir)) {
      if (entry === 'dist') execFileSync('cp', ['-al', join(dir, 'dist'), join(scratch, 'dist')])
      else if (entry === 'bench') {
        mkdirSync(join(scratch, 'bench', 'out'), { recursive: true })
        for (const b of readdirSync(join(dir, 'bench')))
          if (b !== 'out') symlinkSync(join(dir, 'bench', b), join(scratch, 'bench', b))
      } else if (entry !== '.git') symlinkSync(join(dir, entry), join(scratch, entry))
    }
    console.log(`baseline ${rev}: the built tree ${dir} (dist/ copied to ${scratch})`)
    return { root: scratch, commit, remove: () => rmSync(scratch, { recursive: true, force: true }) }
  }
  const root = join(scratch, 'tree')
  git(ROOT, 'worktree', 'add', '--detach', root, rev)
  const remove = () => {
    try {
      git(ROOT, 'worktree', 'remove', '--force', root)
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }
  try {
    execFileSync('cp', ['-al', join(ROOT, 'node_modules'), join(root, 'node_modules')])
    console.log(`baseline ${rev}: building in ${root}`)
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' })
    mkdirSync(join(root, 'bench', 'out'), { recursive: true })
    return { root, commit: git(root, 'rev-parse', '--short', 'HEAD'), remove }
  } catch (e) {
    remove()
    throw e
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e)
    process.exit(2)
  },
)
