/**
 * Suite "crowd" (issue case 3, tenant independence), in its own process: two engines, one holding
 * the L domain alone and one holding L plus a crowd of other domains (ingested interleaved by day, as
 * a multi-tenant store receives them). The four functions for the L domain must answer the same in
 * both (checked before timing, and against the typed-array oracle); then each case is timed on both,
 * back to back, and the ratio crowd/alone reported.
 */
import { DATASETS, datasetRecords, mainDomainId, analysisCount, type DatasetSpec } from '../data/generator.js'
import { TypedArrayStore } from '../peers/typed-arrays.js'
import { loadEngineModule } from '../lib/engine.js'
import { ingestInterleaved } from '../lib/stores.js'
import { diffPayloads } from '../lib/compare.js'
import { timeCase, stopwatch } from '../lib/timing.js'
import {
  callReport,
  startSuite,
  caseList,
  gc,
  outPath,
  profiles,
  removeStore,
  writeJson,
} from '../lib/suite.js'
import type { Engine } from '../../src/types.js'

const { args, quick, dsName, out, log } = startSuite('crowd', { defaultDataset: 'Crowd' })
const base: DatasetSpec = DATASETS[dsName]
// --crowd-domains=N shrinks the crowd (default: the dataset's, 1,000 for Crowd) when ingest is too slow.
const crowdDomains = typeof args['crowd-domains'] === 'string' ? Number(args['crowd-domains']) : undefined
const crowdSpec: DatasetSpec =
  base.crowd && crowdDomains !== undefined
    ? { ...base, crowd: { ...base.crowd, domains: crowdDomains } }
    : base
const aloneSpec: DatasetSpec = { ...crowdSpec, name: `${crowdSpec.name}-alone` }
delete aloneSpec.crowd
const domainId = mainDomainId(crowdSpec)
const prof = profiles(quick)

async function main(): Promise<void> {
  const mod = await loadEngineModule()
  if (!mod.module) {
    out.failures.push(`engine not available: ${mod.error}`)
    return
  }
  const counts = analysisCount(crowdSpec)
  out.sizes = {
    domains: 1 + (crowdSpec.crowd?.domains ?? 0),
    mainAnalyses: counts.main,
    totalAnalyses: counts.total,
  }
  if (crowdSpec !== base)
    out.notes.push(`crowd reduced to ${crowdSpec.crowd?.domains} other domains (--crowd-domains)`)

  const alonePath = outPath(`store-${dsName}-alone.duckdb`)
  const crowdPath = outPath(`store-${dsName}.duckdb`)
  removeStore(alonePath)
  removeStore(crowdPath)
  const alone = await mod.module.openEngine({ path: alonePath })
  const crowd = await mod.module.openEngine({ path: crowdPath })
  try {
    const a = await stopwatch(() => alone.ingest(datasetRecords(aloneSpec)))
    out.setup['alone: ingest (one call)'] = a.ms
    log('alone ingested', a.value.analyses, `${a.ms.toFixed(0)} ms`)
    // The crowd arrives in batches of days, every domain interleaved within a batch.
    const c = await stopwatch(() => ingestInterleaved(crowd, crowdSpec, log))
    const { analyses: total, mentions, batchDays } = c.value
    out.setup['crowd: ingest (batches of days)'] = c.ms
    if (total !== counts.total)
      out.failures.push(`crowd store holds ${total} analyses, the generator made ${counts.total}`)
    if (a.value.analyses !== counts.main)
      out.failures.push(`alone store holds ${a.value.analyses} analyses, expected ${counts.main}`)
    out.sizes.crowdStoreAnalyses = total
    out.sizes.crowdStoreMentions = mentions
    out.extra = { crowdIngestAnalysesPerSec: total / (c.ms / 1000), batchDays }
    log('crowd ingested', total, 'analyses', `${c.ms.toFixed(0)} ms`)

    const oracleStore = await stopwatch(() => TypedArrayStore.build(datasetRecords(aloneSpec), domainId))
    out.setup['typed-arrays oracle: load'] = oracleStore.ms
    const cases = caseList(domainId).filter((x) => x.timed)
    const wrong = new Set<string>()
    for (const cs of cases) {
      const want = await callReport(oracleStore.value, cs.fn, cs.params)
      const pa = await callReport(alone, cs.fn, cs.params)
      const pc = await callReport(crowd, cs.fn, cs.params)
      for (const [impl, got, against, ref] of [
        ['engine (alone)', pa, 'typed-arrays', want],
        ['engine (crowd)', pc, 'engine (alone)', pa],
      ] as const) {
        const diffs = diffPayloads(got, ref)
        out.checks.push({ case: cs.key, impl, ok: diffs.length === 0, against, diffs })
        if (diffs.length > 0) {
          wrong.add(cs.key)
          out.failures.push(`${impl} ${cs.key}: wrong payload: ${diffs.slice(0, 3).join('; ')}`)
        }
      }
    }
    for (const cs of cases) {
      if (wrong.has(cs.key)) continue
      for (const [impl, engine] of [
        ['engine (alone)', alone],
        ['engine (crowd)', crowd],
      ] as [string, Engine][]) {
        gc()
        const { timing, last } = await timeCase(
          `${impl} ${cs.key}`,
          () => callReport(engine, cs.fn, cs.params),
          prof.fast,
        )
        if (diffPayloads(last, await callReport(oracleStore.value, cs.fn, cs.params)).length > 0) {
          out.failures.push(`${impl} ${cs.key}: wrong payload while timed`)
        }
        out.timings.push({ case: cs.key, fn: cs.fn, days: cs.params.days as number, impl, ...timing })
        log(
          impl.padEnd(15),
          cs.key.padEnd(48),
          `median ${timing.median.toFixed(2)} ms  p95 ${timing.p95.toFixed(2)} ms`,
        )
      }
    }
    out.memory = {
      rssMB: process.memoryUsage().rss / 2 ** 20,
      maxRssMB: process.resourceUsage().maxRSS / 1024,
    }
  } finally {
    await alone.close()
    await crowd.close()
  }
}

main()
  .catch((e: unknown) => {
    out.failures.push(`suite crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
    console.error(e)
  })
  .finally(() => {
    writeJson(`suite-crowd-${dsName}.json`, out)
    process.exit(out.failures.length > 0 ? 1 : 0)
  })
