/**
 * Suite "reference" (a peer of case 2), in its own process because the reference model keeps every
 * record as a JS object (a large heap whose GC must not disturb the other timings). Ingests the
 * dataset into test/reference/model.ts, writes its payloads for every case to
 * bench/out/expected-<dataset>.json (the oracle of the compute suite that runs next), and times the
 * four functions on the timed cases.
 */
import { ReferenceModel } from '../../test/reference/model.js'
import { DATASETS, datasetRecords, mainDomainId } from '../data/generator.js'
import { timeCase, stopwatch } from '../lib/timing.js'
import { caseList, gc, writeJson, startSuite } from '../lib/suite.js'
import type { FunctionName } from '../lib/semantics.js'
import type { AnalysisInputRecord } from '../../src/types.js'

const { quick, dsName, out, log } = startSuite('reference', { elapsed: false })
const spec = DATASETS[dsName]
const domainId = mainDomainId(spec)

const METHOD: Record<FunctionName, keyof ReferenceModel> = {
  computePromptSeries: 'computePromptSeries',
  computeCompetitorSeries: 'computeCompetitorSeries',
  sentimentOverview: 'computeSentimentOverview',
  sentimentThemes: 'computeSentimentThemes',
}

async function main(): Promise<void> {
  const model = new ReferenceModel()
  // The model takes an array; feed it in slices so the whole dataset is never one array.
  const ing = await stopwatch(() => {
    let batch: AnalysisInputRecord[] = []
    for (const r of datasetRecords(spec)) {
      batch.push(r)
      if (batch.length === 50_000) {
        model.ingest(batch)
        batch = []
      }
    }
    model.ingest(batch)
  })
  out.setup['reference model: ingest'] = ing.ms
  log('ingested', `${ing.ms.toFixed(0)} ms`)
  const call = (fn: FunctionName, params: Record<string, unknown>): unknown =>
    (model[METHOD[fn]] as (p: unknown) => unknown).call(model, params)
  const expected: Record<string, unknown> = {}
  const cases = caseList(domainId)
  for (const c of cases) expected[c.key] = call(c.fn, c.params)
  writeJson(`expected-${dsName}.json`, expected)
  log(`wrote the payloads of ${cases.length} cases`)
  // Slow by design (every query rescans every analysis): few iterations.
  const profile = quick
    ? { time: 0, iterations: 1, warmupIterations: 0, warmupTime: 0 }
    : { time: 0, iterations: 3, warmupIterations: 1, warmupTime: 0 }
  for (const c of cases.filter((x) => x.timed)) {
    gc()
    const { timing } = await timeCase(`reference ${c.key}`, () => call(c.fn, c.params), profile)
    out.timings.push({
      case: c.key,
      fn: c.fn,
      days: c.params.days as number,
      impl: 'reference-model',
      ...timing,
    })
    log(c.key.padEnd(48), `median ${timing.median.toFixed(1)} ms`)
  }
  out.memory = { maxRssMB: process.resourceUsage().maxRSS / 1024 }
}

main()
  .catch((e: unknown) => {
    out.failures.push(`suite crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
    console.error(e)
  })
  .finally(() => {
    writeJson(`suite-reference-${dsName}.json`, out)
    process.exit(out.failures.length > 0 ? 1 : 0)
  })
