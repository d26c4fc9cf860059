/**
 * Suite "fields": what the record additions cost the NDJSON ingest, and whether a store holding
 * them answers the reports as fast as one without.
 *
 *   npm run bench -- --only=fields-L [--fields=segments,answers] [--rounds=2] [--keep] [--prof]
 *
 * For each field set, two NDJSON files of the dataset that differ only by it (bench/data/generator.ts
 * options; the generator draws the fields from streams of their own, so every other value is the
 * same in both files):
 * - `segments`: the analyses' `country` and the prompts' `topic` and `tags`, against the same file
 *   without them;
 * - `answers`: the answer texts (`response`, 1-6 KB each) on top of the segments, against the file
 *   with the segments only.
 * Each file is ingested into a fresh file store by `engine.ingestFile` in a child process
 * (ingest-child.ts), the two files alternated --rounds times (without then with, then with then
 * without, ...): analyses/s and the child's CPU ms per ingest (every thread of the process), the
 * median of the rounds each, and the ratio with / without. The reports the child computes after
 * each ingest (four reports at 30 and 365 days) must be equal on both stores.
 * Then the last round's two stores are opened side by side in this process: the four reports at
 * 30 and 365 days warm (the aggregate cache on, as served) and two with the aggregate cache off
 * (every call reads DuckDB), each timed on both stores, alternated --rounds times, payloads checked
 * equal. `--prof` writes a CPU profile of each ingest child (bench/out/prof-fields/, summarized by
 * bench/lib/cpu-profile.ts). The NDJSON files are kept in bench/out/ and reused (the generator is
 * deterministic); the stores are removed at the end unless --keep.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Engine } from '../../src/types.js'
import type { IngestResult } from '../../src/types.js'
import { DATASETS, datasetRecords, mainDomainId, type GenerateOptions } from '../data/generator.js'
import { writeNdjson } from '../data/ndjson.js'
import { diffPayloads } from '../lib/compare.js'
import { loadEngineModule } from '../lib/engine.js'
import {
  callReport,
  caseList,
  gc,
  outPath,
  profiles,
  removeStore,
  startSuite,
  writeJson,
} from '../lib/suite.js'
import { stopwatch, summarize, timeCase } from '../lib/timing.js'

const { args, quick, dsName, out, log } = startSuite('fields')
const spec = DATASETS[dsName]
const domainId = mainDomainId(spec)
const prof = profiles(quick)
const ROUNDS = Number(args.rounds ?? (quick ? 1 : 2))
if (!Number.isInteger(ROUNDS) || ROUNDS < 1 || ROUNDS > 10) throw new Error('--rounds must be 1 to 10')

/** A field set: the generator options of the file with it and of the file without it. */
interface FieldSet {
  name: string
  without: GenerateOptions
  with: GenerateOptions
  /** What the two files differ by, for the report's notes. */
  what: string
  /** The bound on with / without analyses/s. */
  minRatio: number
}
const FIELD_SETS: Record<string, FieldSet> = {
  segments: {
    name: 'segments',
    without: { segments: false },
    with: { segments: true },
    what: 'analysis country, prompt topic and tags',
    minRatio: 0.9,
  },
  answers: {
    name: 'answers',
    without: { segments: true },
    with: { segments: true, answers: true },
    what: 'answer texts (response), both files with the segments',
    minRatio: 0.75,
  },
}
const selected = (typeof args.fields === 'string' ? args.fields.split(',') : ['segments', 'answers']).map(
  (f) => {
    const set = FIELD_SETS[f]
    if (set === undefined) throw new Error(`--fields: unknown field set "${f}" (segments, answers)`)
    return set
  },
)

interface ChildReport {
  ingestMs: number
  ingestCpuMs: number
  result: IngestResult
  maxRssKB: number
  payloads: Record<string, unknown>
}

/** The NDJSON file of the dataset with these generator options (written once, then reused). */
async function ndjson(opts: GenerateOptions): Promise<string> {
  const tag = `${opts.segments === false ? '-plain' : ''}${opts.answers === true ? '-answers' : ''}`
  const path = outPath(`fields-${dsName}${tag}.ndjson`)
  if (existsSync(path)) return path
  const w = await stopwatch(() => writeNdjson(`${path}.tmp`, datasetRecords(spec, opts)))
  renameSync(`${path}.tmp`, path)
  out.setup[`write ${path.split('/').pop()} (not timed)`] = w.ms
  log(`wrote ${path}: ${w.value.lines} lines, ${(w.value.bytes / 2 ** 20).toFixed(0)} MiB`)
  return path
}

/** Ingests `file` into a fresh store at `store` in a child process. */
function ingestChild(file: string, store: string, tag: string): ChildReport {
  removeStore(store)
  const child = fileURLToPath(new URL('./ingest-child.js', import.meta.url))
  const report = outPath(`fields-${dsName}-${tag}.json`)
  const profDir = outPath('prof-fields')
  if (args.prof === true) mkdirSync(profDir, { recursive: true })
  const nodeArgs = [
    ...(args.prof === true
      ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`, `--cpu-prof-name=${tag}.cpuprofile`]
      : []),
    child,
    `--file=${file}`,
    `--store=${store}`,
    `--out=${report}`,
    `--domain=${domainId}`,
  ]
  const r = spawnSync(process.execPath, nodeArgs, { encoding: 'utf8', maxBuffer: 1 << 26 })
  if (r.status !== 0) throw new Error(`ingest child (${tag}) failed: ${r.stderr?.slice(-2000)}`)
  const rep = JSON.parse(readFileSync(report, 'utf8')) as ChildReport
  rmSync(report, { force: true })
  return rep
}

/** Part 1 of a field set: the two files ingested, alternated; returns the last round's stores. */
async function ingestPart(set: FieldSet): Promise<{ with: string; without: string }> {
  const files = { without: await ndjson(set.without), with: await ndjson(set.with) }
  const stores = {
    without: outPath(`store-fields-${dsName}-${set.name}-without.duckdb`),
    with: outPath(`store-fields-${dsName}-${set.name}-with.duckdb`),
  }
  const runs: Record<'with' | 'without', ChildReport[]> = { with: [], without: [] }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['without', 'with'] as const) : (['with', 'without'] as const)
    for (const side of order) {
      const rep = ingestChild(files[side], stores[side], `${set.name}-${side}-${round + 1}`)
      runs[side].push(rep)
      log(
        `${set.name} ${side.padEnd(7)} round ${round + 1}: ${rep.result.analyses} analyses in ${rep.ingestMs.toFixed(0)} ms`,
        `(${(rep.result.analyses / (rep.ingestMs / 1000)).toFixed(0)}/s, CPU ${rep.ingestCpuMs.toFixed(0)} ms, maxRSS ${(rep.maxRssKB / 1024).toFixed(0)} MB)`,
      )
    }
  }
  // What was stored: the same analyses and the same reports on both sides, every round.
  const ref = runs.without[0]!
  for (const side of ['with', 'without'] as const) {
    for (const [i, rep] of runs[side].entries()) {
      if (rep.result.analyses !== ref.result.analyses || rep.result.mentions !== ref.result.mentions)
        out.failures.push(
          `${set.name} ${side} round ${i + 1}: stored ${rep.result.analyses} analyses / ${rep.result.mentions} mentions, without the fields ${ref.result.analyses} / ${ref.result.mentions}`,
        )
      for (const [k, want] of Object.entries(ref.payloads)) {
        const diffs = diffPayloads(rep.payloads[k], want)
        out.checks.push({
          case: k,
          impl: `engine after ingest ${side} ${set.name} (round ${i + 1})`,
          ok: diffs.length === 0,
          against: `engine after ingest without ${set.name}`,
          diffs,
        })
        if (diffs.length > 0)
          out.failures.push(
            `${set.name} ${side} round ${i + 1} ${k}: wrong payload: ${diffs.slice(0, 3).join('; ')}`,
          )
      }
    }
  }
  const perSec = (r: ChildReport) => r.result.analyses / (r.ingestMs / 1000)
  const side = (rs: ChildReport[]) => ({
    analyses_per_s: summarize(rs.map(perSec)).median,
    analyses_per_s_rounds: rs.map((r) => Math.round(perSec(r))),
    ms_rounds: rs.map((r) => Math.round(r.ingestMs)),
    cpu_ms: summarize(rs.map((r) => r.ingestCpuMs)).median,
    cpu_ms_rounds: rs.map((r) => Math.round(r.ingestCpuMs)),
    max_rss_mb: Math.max(...rs.map((r) => r.maxRssKB / 1024)),
  })
  const w = side(runs.with)
  const wo = side(runs.without)
  const ratio = w.analyses_per_s / wo.analyses_per_s
  const cpuRatio = wo.cpu_ms / w.cpu_ms
  const summary = {
    what: set.what,
    file_mb: { with: statSync(files.with).size / 2 ** 20, without: statSync(files.without).size / 2 ** 20 },
    with: w,
    without: wo,
    ratio: +ratio.toFixed(3),
    cpu_ratio: +cpuRatio.toFixed(3),
    min_ratio: set.minRatio,
    met: ratio >= set.minRatio,
  }
  out.extra = { ...out.extra, [set.name]: summary }
  for (const [s, rs] of [
    ['with', runs.with],
    ['without', runs.without],
  ] as const) {
    out.timings.push({
      case: `NDJSON ingest ${s} ${set.name} (ms per call)`,
      fn: 'ingestFile',
      days: spec.main.days,
      impl: 'engine',
      ...summarize(rs.map((r) => r.ingestMs)),
    })
  }
  out.notes.push(
    `NDJSON ingest with ${set.name} (${set.what}) ${w.analyses_per_s.toFixed(0)} analyses/s vs without ${wo.analyses_per_s.toFixed(0)}/s: ${ratio.toFixed(3)}x by wall time, ${cpuRatio.toFixed(3)}x by CPU (medians of ${ROUNDS} rounds, alternated; target >= ${set.minRatio}x: ${ratio >= set.minRatio ? 'met' : 'MISSED'})`,
  )
  log(out.notes[out.notes.length - 1])
  return stores
}

type Open = (path: string, options?: Record<string, unknown>) => Promise<Engine>

/** Part 2 of a field set: reports on the store with the fields beside the store without. */
async function reportsPart(
  set: FieldSet,
  open: Open,
  stores: { with: string; without: string },
): Promise<void> {
  const cases = caseList(domainId).filter((c) => c.timed && (c.params.days === 30 || c.params.days === 365))
  const cacheOff = cases.filter(
    (c) =>
      (c.fn === 'computeCompetitorSeries' && c.params.days === 30) ||
      (c.fn === 'computePromptSeries' && c.params.days === 365),
  )
  const ratios: string[] = []
  for (const [mode, list, profile] of [
    ['warm', cases, prof.fast],
    ['aggregate cache off', cacheOff, prof.slow],
  ] as const) {
    const options = mode === 'warm' ? {} : { aggregateCache: false }
    const engines = { with: await open(stores.with, options), without: await open(stores.without, options) }
    for (const c of list) {
      const want = await callReport(engines.without, c.fn, c.params)
      const got = await callReport(engines.with, c.fn, c.params)
      const diffs = diffPayloads(got, want)
      out.checks.push({
        case: c.key,
        impl: `engine on the store with ${set.name}`,
        ok: diffs.length === 0,
        against: `engine on the store without ${set.name}`,
        diffs,
      })
      if (diffs.length > 0) {
        out.failures.push(
          `${set.name} ${c.key}: the stores answer differently: ${diffs.slice(0, 3).join('; ')}`,
        )
        continue
      }
      const medians: Record<'with' | 'without', number[]> = { with: [], without: [] }
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of round % 2 === 0
          ? (['with', 'without'] as const)
          : (['without', 'with'] as const)) {
          gc()
          const { timing, last } = await timeCase(
            `${side} ${c.key}`,
            () => callReport(engines[side], c.fn, c.params),
            profile,
          )
          medians[side].push(timing.median)
          if (diffPayloads(last, want).length > 0)
            out.failures.push(`${set.name} ${c.key} on the store ${side}: wrong payload while timed`)
        }
      }
      for (const side of ['with', 'without'] as const)
        out.timings.push({
          case: `${c.key}, ${mode}`,
          fn: c.fn,
          days: c.params.days as number,
          impl: `engine, store ${side} ${set.name}`,
          ...summarize(medians[side]),
        })
      const r = summarize(medians.with).median / summarize(medians.without).median
      ratios.push(`${c.key} ${mode} ${r.toFixed(2)}`)
      log(
        `${set.name} ${c.key} ${mode}: with ${summarize(medians.with).median.toFixed(2)} ms, without ${summarize(medians.without).median.toFixed(2)} ms (${r.toFixed(3)}x)`,
      )
    }
    await engines.with.close()
    await engines.without.close()
  }
  out.notes.push(
    `reports on the store with ${set.name} / without (medians of ${ROUNDS} alternated rounds): ${ratios.join(', ')}`,
  )
}

async function main(): Promise<void> {
  const mod = await loadEngineModule()
  if (!mod.module) throw new Error(`engine not available: ${mod.error}`)
  const open: Open = (path, options = {}) => mod.module!.openEngine({ path, ...options })
  for (const set of selected) {
    const stores = await ingestPart(set)
    await reportsPart(set, open, stores)
    if (args.keep !== true) for (const s of Object.values(stores)) removeStore(s)
  }
}

main()
  .catch((e: unknown) => {
    out.failures.push(`suite crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
    console.error(e)
  })
  .finally(() => {
    writeJson(`suite-fields-${dsName}.json`, out)
    process.exit(out.failures.length > 0 ? 1 : 0)
  })
