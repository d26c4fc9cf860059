/**
 * Suite "citations" on one dataset, in its own process: the engine's citations,
 * citedDomains, fanoutQueries and sentimentSeries at 30 and 365 days, warm and on the first call
 * after opening the store (cold), beside the naive DuckDB SQL peer producing the same payloads
 * (bench/peers/naive-sql-citations.ts), and the same domain in a store crowded with other domains.
 *
 * Every answer is checked before anything is timed: the engine against the naive peer on every case
 * (and both against the reference model on the quick dataset, where the model is fast enough), the
 * crowded engine against the lone one.
 */
import type { Engine } from '../../src/types.js'
import { ReferenceModel } from '../../test/reference/model.js'
import {
  BENCH_NOW,
  DATASETS,
  SAMPLE_RAW_MODEL,
  datasetDays,
  datasetRecords,
  mainDomainId,
  type DatasetSpec,
} from '../data/generator.js'
import { diffPayloads } from '../lib/compare.js'
import { loadEngineModule } from '../lib/engine.js'
import { gc, outPath, profiles, removeStore, startSuite, writeJson } from '../lib/suite.js'
import { stopwatch, summarize, timeCase } from '../lib/timing.js'
import { NaiveSql } from '../peers/naive-sql.js'
import {
  NaiveSqlCitations,
  type CitationFunctionName,
  type CitationFunctions,
} from '../peers/naive-sql-citations.js'

const { args, quick, dsName, out, log } = startSuite('citations')
const spec: DatasetSpec = DATASETS[dsName]
const domainId = mainDomainId(spec)
const prof = profiles(quick)

/** The crowd around the same main domain: Crowdq (quick) or Crowd with --crowd-domains (default 100). */
function crowdSpec(): DatasetSpec {
  const base: DatasetSpec = quick ? DATASETS.Crowdq : DATASETS.Crowd
  const n = typeof args['crowd-domains'] === 'string' ? Number(args['crowd-domains']) : quick ? 20 : 100
  return { ...base, main: spec.main, seed: spec.seed, crowd: { ...base.crowd!, domains: n } }
}

interface Case {
  key: string
  fn: CitationFunctionName
  params: Record<string, unknown>
  timed: boolean
}

/** The timed cases (30 and 365 days, every model) and checked-only ones (windows, filters, limits). */
function cases(): Case[] {
  const list: Case[] = []
  const add = (fn: CitationFunctionName, p: Record<string, unknown>, timed: boolean) => {
    const params: Record<string, unknown> = { domainId, model: 'all', ...p, now: BENCH_NOW }
    const extra = p.limit !== undefined ? ` limit=${p.limit}` : ''
    list.push({ key: `${fn} days=${params.days} model=${params.model}${extra}`, fn, params, timed })
  }
  const fns: CitationFunctionName[] = ['citations', 'citedDomains', 'fanoutQueries', 'sentimentSeries']
  for (const fn of fns) {
    const limit = fn === 'citations' || fn === 'citedDomains' ? { limit: 100 } : {}
    for (const days of [30, 365]) add(fn, { days, ...limit }, true)
    add(fn, { days: 7, ...limit }, false)
    add(fn, { days: 365, model: 'perplexity', ...limit }, false)
    add(fn, { days: 90, model: SAMPLE_RAW_MODEL, ...limit }, false)
    add(fn, { days: 30, model: 'no-such-model', ...limit }, false)
  }
  add('citations', { days: 365, limit: 1000 }, false)
  add('citedDomains', { days: 365, limit: 1 }, false)
  return list
}

const call = (impl: CitationFunctions | Engine, c: Case): Promise<unknown> =>
  (impl[c.fn] as (p: unknown) => Promise<unknown>).call(impl, c.params)

/** The reference model's function of a case. */
function referenceCall(model: ReferenceModel, c: Case): unknown {
  const method = `compute${c.fn[0]!.toUpperCase()}${c.fn.slice(1)}` as keyof ReferenceModel
  return (model[method] as (p: unknown) => unknown).call(model, c.params)
}

async function main(): Promise<void> {
  const mod = await loadEngineModule()
  if (!mod.module) {
    out.failures.push(`engine not available: ${mod.error}`)
    return
  }
  const path = outPath(`store-citations-${dsName}.duckdb`)
  removeStore(path)
  let engine = await mod.module.openEngine({ path })
  const ing = await stopwatch(() => engine.ingest(datasetRecords(spec)))
  out.setup['engine: ingest records -> file store (one call)'] = ing.ms
  out.sizes = {
    analyses: ing.value.analyses,
    citations: ing.value.citations,
    fanout_queries: ing.value.fanout_queries,
    theme_occurrences: ing.value.theme_occurrences,
    days: spec.main.days,
  }
  log('engine ingested', ing.value, `${ing.ms.toFixed(0)} ms`)
  const naiveLoad = await stopwatch(() => NaiveSql.load(datasetRecords(spec)))
  out.setup['naive-sql: load (appenders)'] = naiveLoad.ms
  const naive = new NaiveSqlCitations(naiveLoad.value)
  log('naive sql loaded', `${naiveLoad.ms.toFixed(0)} ms`)

  // Correctness gate: the engine against the naive peer (and, quick, both against the model).
  const all = cases()
  const model = quick ? new ReferenceModel() : null
  if (model !== null) model.ingest([...datasetRecords(spec)])
  else
    out.notes.push(
      'the reference model is not run on this dataset (too slow): the oracle is the naive SQL peer',
    )
  const oracle: Record<string, unknown> = {}
  const wrong = new Set<string>()
  for (const c of all) {
    const want = model !== null ? referenceCall(model, c) : await call(naive, c)
    oracle[c.key] = want
    const impls: [string, () => Promise<unknown>][] = [['engine', () => call(engine, c)]]
    if (model !== null) impls.push(['naive-sql', () => call(naive, c)])
    for (const [impl, run] of impls) {
      const diffs = diffPayloads(await run(), want)
      const against = model !== null ? 'reference-model' : 'naive-sql'
      out.checks.push({ case: c.key, impl, ok: diffs.length === 0, against, diffs })
      if (diffs.length > 0) {
        wrong.add(c.key)
        out.failures.push(`${impl} ${c.key}: wrong payload: ${diffs.slice(0, 3).join('; ')}`)
        log('WRONG', impl, c.key, diffs.slice(0, 5))
      }
    }
  }
  log(`checked ${all.length} cases; ${wrong.size} wrong`)

  const timed = all.filter((c) => c.timed && !wrong.has(c.key))
  for (const c of timed) {
    for (const [impl, fns, profile] of [
      ['engine', engine, prof.fast],
      ['naive-sql', naive, prof.slow],
    ] as const) {
      gc()
      const { timing, last } = await timeCase(`${impl} ${c.key}`, () => call(fns, c), profile)
      if (diffPayloads(last, oracle[c.key]).length > 0)
        out.failures.push(`${impl} ${c.key}: wrong payload while timed`)
      out.timings.push({ case: c.key, fn: c.fn, days: c.params.days as number, impl, ...timing })
      log(
        impl.padEnd(10),
        c.key.padEnd(48),
        `median ${timing.median.toFixed(2)} ms  p95 ${timing.p95.toFixed(2)} ms`,
      )
    }
  }
  await naiveLoad.value.close()

  // Cold: the first call of each case after opening the store (its structures not loaded yet).
  await engine.close()
  for (const c of timed) {
    const samples: number[] = []
    for (let i = 0; i < (quick ? 1 : 3); i++) {
      engine = await mod.module.openEngine({ path })
      gc()
      const { ms, value } = await stopwatch(() => call(engine, c))
      await engine.close()
      if (diffPayloads(value, oracle[c.key]).length > 0)
        out.failures.push(`engine (cold) ${c.key}: wrong payload`)
      samples.push(ms)
    }
    const timing = summarize(samples)
    const impl = 'engine (cold: first call after open)'
    out.timings.push({ case: c.key, fn: c.fn, days: c.params.days as number, impl, ...timing })
    log('engine cold'.padEnd(10), c.key.padEnd(48), `median ${timing.median.toFixed(1)} ms`)
  }

  await crowdVersusAlone(mod.module.openEngine, path, timed, oracle)
  out.memory = { maxRssMB: process.resourceUsage().maxRSS / 1024 }
}

/** The same domain alone and in a crowd of other domains, each case timed on both back to back. */
async function crowdVersusAlone(
  open: (o: { path: string }) => Promise<Engine>,
  alonePath: string,
  timed: Case[],
  oracle: Record<string, unknown>,
): Promise<void> {
  const crowd = crowdSpec()
  const crowdPath = outPath(`store-citations-${dsName}-crowd.duckdb`)
  removeStore(crowdPath)
  const crowded = await open({ path: crowdPath })
  const alone = await open({ path: alonePath })
  try {
    const days = datasetDays(crowd)
    const batchDays = Math.ceil(days / 6)
    const c = await stopwatch(async () => {
      for (let from = 0; from < days; from += batchDays) {
        await crowded.ingest(
          datasetRecords(crowd, { fromDay: from, toDay: from + batchDays, entities: from === 0 }),
        )
      }
    })
    out.setup[`crowd: ingest the domain and ${crowd.crowd!.domains} others (batches of days)`] = c.ms
    out.sizes.crowdDomains = 1 + crowd.crowd!.domains
    log('crowd ingested', `${c.ms.toFixed(0)} ms`)
    for (const cs of timed) {
      const diffs = diffPayloads(await call(crowded, cs), oracle[cs.key])
      out.checks.push({
        case: cs.key,
        impl: 'engine (crowd)',
        ok: diffs.length === 0,
        against: 'oracle',
        diffs,
      })
      if (diffs.length > 0) {
        out.failures.push(`engine (crowd) ${cs.key}: wrong payload: ${diffs.slice(0, 3).join('; ')}`)
        continue
      }
      // Alternating rounds (alone, crowd, alone, ...), so a burst of load on the shared machine
      // falls on both sides rather than on one.
      const samples: Record<'alone' | 'crowd', number[]> = { alone: [], crowd: [] }
      const engines = { alone, crowd: crowded }
      for (const side of ['alone', 'crowd'] as const)
        for (let i = 0; i < 3; i++) await call(engines[side], cs)
      gc()
      for (let round = 0; round < (quick ? 2 : 8); round++) {
        for (const side of ['alone', 'crowd'] as const) {
          for (let i = 0; i < (quick ? 3 : 8); i++) {
            const t0 = performance.now()
            await call(engines[side], cs)
            samples[side].push(performance.now() - t0)
          }
        }
      }
      for (const side of ['alone', 'crowd'] as const) {
        const timing = summarize(samples[side])
        const impl = `engine (${side})`
        out.timings.push({ case: cs.key, fn: cs.fn, days: cs.params.days as number, impl, ...timing })
        log(impl.padEnd(15), cs.key.padEnd(48), `median ${timing.median.toFixed(2)} ms`)
      }
    }
  } finally {
    await alone.close()
    await crowded.close()
  }
}

main()
  .catch((e: unknown) => {
    out.failures.push(`suite crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
    console.error(e)
  })
  .finally(() => {
    writeJson(`suite-citations-${dsName}.json`, out)
    process.exit(out.failures.length > 0 ? 1 : 0)
  })
