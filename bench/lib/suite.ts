/** What every suite process shares: arguments, output paths, the case list and timing profiles. */
import { mkdirSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs'
import { execSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import type { TimingOptions } from './timing.js'
import type { FunctionName, ReportFunctions } from './semantics.js'
import type { CitationFunctionName } from '../peers/naive-sql-citations.js'
import { BENCH_NOW, SAMPLE_RAW_MODEL, type DatasetName } from '../data/generator.js'

/** The repository root (dist/bench/lib/ -> ../../..). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
export const OUT = join(ROOT, 'bench', 'out')

export function parseArgs(argv = process.argv.slice(2)): Record<string, string | true> {
  const out: Record<string, string | true> = {}
  for (const a of argv) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(a)
    if (m?.[1]) out[m[1]] = m[2] ?? true
  }
  return out
}

export function outPath(name: string): string {
  mkdirSync(OUT, { recursive: true })
  return join(OUT, name)
}
export function writeJson(name: string, data: unknown): void {
  writeFileSync(outPath(name), JSON.stringify(data, null, 1))
}
export function readJson<T>(name: string): T | null {
  const p = outPath(name)
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as T) : null
}
/** Removes a DuckDB file and its WAL. */
export function removeStore(path: string): void {
  rmSync(path, { force: true })
  rmSync(`${path}.wal`, { force: true })
}

export const DAYS = [7, 30, 90, 365] as const

export interface CaseSpec {
  key: string
  fn: FunctionName
  params: Record<string, unknown>
  /** Timed (the cases) or only checked (model filters, other limits). */
  timed: boolean
}

function key(fn: FunctionName, p: Record<string, unknown>): string {
  const extra = p.limit !== undefined ? `limit=${p.limit}` : `model=${p.model}`
  return `${fn} days=${p.days} ${extra}`
}

/** The cases every implementation must answer identically; the timed ones are case 1 of the issue. */
export function caseList(domainId: string): CaseSpec[] {
  const now = BENCH_NOW
  const out: CaseSpec[] = []
  const add = (fn: FunctionName, p: Record<string, unknown>, timed: boolean) => {
    const params = { domainId, ...p, now }
    out.push({ key: key(fn, params), fn, params, timed })
  }
  for (const days of DAYS) {
    add('computePromptSeries', { days, limit: 25 }, true)
    add('computeCompetitorSeries', { days, model: 'all' }, true)
    add('sentimentOverview', { days, model: 'all' }, true)
    add('sentimentThemes', { days, model: 'all' }, true)
  }
  add('computePromptSeries', { days: 365, limit: 100 }, false)
  add('computePromptSeries', { days: 1, limit: 5 }, false)
  add('computeCompetitorSeries', { days: 30, model: 'gemini' }, false)
  add('computeCompetitorSeries', { days: 1, model: 'all' }, false)
  add('sentimentOverview', { days: 365, model: 'perplexity' }, false)
  add('sentimentThemes', { days: 90, model: SAMPLE_RAW_MODEL }, false)
  add('sentimentThemes', { days: 30, model: 'no-such-model' }, false)
  return out
}

/** Timing profiles: `fast` for the engine and the typed arrays, `slow` for peers that take 100 ms+. */
export function profiles(quick: boolean): { fast: TimingOptions; slow: TimingOptions } {
  return quick
    ? {
        fast: { time: 20, iterations: 3, warmupIterations: 1, warmupTime: 0 },
        slow: { time: 0, iterations: 1, warmupIterations: 0, warmupTime: 0 },
      }
    : {
        fast: { time: 1500, iterations: 30, warmupIterations: 10, warmupTime: 300 },
        slow: { time: 1000, iterations: 7, warmupIterations: 2, warmupTime: 0 },
      }
}

/** One timed row of a suite's output. */
export interface TimingRow {
  case: string
  /** A report function, 'floor', or another suite's function name (bench/suites/rankings.ts, citations.ts). */
  fn: FunctionName | 'floor' | CitationFunctionName | (string & {})
  days: number
  impl: string
  median: number
  /** Quartiles, when the suite kept its samples (absent in results of older revisions). */
  p25?: number
  p75?: number
  p95: number
  mean: number
  min: number
  max: number
  samples: number
}

export interface CheckRow {
  case: string
  impl: string
  ok: boolean
  against: string
  diffs: string[]
}

export interface SuiteOutput {
  /** The git commit the suite ran on and when it started (set by `suiteMeta`). */
  commit?: string
  startedAt?: string
  suite: string
  dataset: string
  quick: boolean
  sizes: Record<string, number>
  setup: Record<string, number>
  checks: CheckRow[]
  timings: TimingRow[]
  memory?: Record<string, number>
  notes: string[]
  failures: string[]
  extra?: Record<string, unknown>
}

export function gc(): void {
  ;(globalThis as { gc?: () => void }).gc?.()
}

/** The commit (with a mark when src/, sql/ or bench/ have uncommitted changes) and the start time. */
export function suiteMeta(): { commit: string; startedAt: string } {
  const sh = (cmd: string): string => {
    try {
      return execSync(cmd, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    } catch {
      return ''
    }
  }
  const head = sh('git rev-parse --short HEAD') || 'unknown'
  const dirty = sh('git status --porcelain -- src sql bench') ? ' (with uncommitted changes)' : ''
  return { commit: head + dirty, startedAt: new Date().toISOString() }
}

/** What every suite process starts with: its arguments, dataset, empty output and a logger. */
export function startSuite(suite: string, options: { elapsed?: boolean; defaultDataset?: DatasetName } = {}) {
  const args = parseArgs()
  const quick = args.quick === true
  const dsName = (
    typeof args.dataset === 'string' ? args.dataset : (options.defaultDataset ?? 'L')
  ) as DatasetName
  const out: SuiteOutput = {
    ...suiteMeta(),
    suite,
    dataset: dsName,
    quick,
    sizes: {},
    setup: {},
    checks: [],
    timings: [],
    notes: [],
    failures: [],
  }
  const t0 = performance.now()
  const log = (...a: unknown[]) =>
    console.log(
      options.elapsed === false
        ? `[${suite} ${dsName}]`
        : `[${suite} ${dsName} +${((performance.now() - t0) / 1000).toFixed(1)}s]`,
      ...a,
    )
  return { args, quick, dsName, out, log }
}

/** Calls one report function of an implementation by name. */
export const callReport = (
  fns: ReportFunctions,
  fn: FunctionName,
  params: Record<string, unknown>,
): Promise<unknown> => Promise.resolve((fns[fn] as (p: unknown) => unknown).call(fns, params))

/**
 * The IPC messages of a child process in arrival order: `next()` gives the next one, even if it
 * came before the call (a `once('message')` registered late misses it and waits forever), and
 * rejects when the child exits first or after `timeoutMs`.
 */
export function messagesOf(child: import('node:child_process').ChildProcess) {
  const queue: unknown[] = []
  const waiting: Array<{ resolve: (m: unknown) => void; reject: (e: Error) => void }> = []
  let exited: Error | null = null
  child.on('message', (m) => {
    const w = waiting.shift()
    if (w === undefined) queue.push(m)
    else w.resolve(m)
  })
  child.once('exit', (code, signal) => {
    exited = new Error(`the child process exited (${signal ?? code}) before its message`)
    for (const w of waiting.splice(0)) w.reject(exited)
  })
  return {
    next<T>(timeoutMs = 600_000): Promise<T> {
      if (queue.length > 0) return Promise.resolve(queue.shift() as T)
      if (exited !== null) return Promise.reject(exited)
      return new Promise<T>((resolve, reject) => {
        const w = {
          resolve: (m: unknown) => {
            clearTimeout(timer)
            resolve(m as T)
          },
          reject: (e: Error) => {
            clearTimeout(timer)
            reject(e)
          },
        }
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(w), 1)
          reject(new Error(`no message from the child process within ${timeoutMs} ms`))
        }, timeoutMs)
        waiting.push(w)
      })
    },
  }
}

/**
 * Copies of `records` under new ids for round `round` (a 500-analysis call again and again): the
 * last 12 hex digits of each id become round * 1000 + its index, zero-padded, so the copies order
 * by id as they are listed.
 */
export function withRoundIds<T extends { id: string }>(records: readonly T[], round: number): T[] {
  return records.map((r, i) => ({
    ...r,
    id: `${r.id.slice(0, 24)}${(round * 1000 + i).toString(16).padStart(12, '0')}`,
  }))
}
