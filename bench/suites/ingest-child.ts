/**
 * Child process of the ingest suite: opens (or creates) a file store, ingests one NDJSON file with
 * `engine.ingestFile`, and reports the time (wall and CPU), the engine's counts and this process's peak RSS; then
 * computes the four reports at a few windows so the parent can check what was stored.
 * Usage: node ingest-child.js --file=F --store=S --out=O
 */
import { writeFileSync } from 'node:fs'
import { loadEngineModule } from '../lib/engine.js'
import { parseArgs, caseList } from '../lib/suite.js'
import type { FunctionName, ReportFunctions } from '../lib/semantics.js'

const args = parseArgs()
const file = String(args.file)
const store = String(args.store)
const outFile = String(args.out)
const domainId = String(args.domain)

async function main(): Promise<void> {
  const mod = await loadEngineModule()
  if (!mod.module) throw new Error(`engine not available: ${mod.error}`)
  const rssBefore = process.resourceUsage().maxRSS
  const tOpen = performance.now()
  const engine = await mod.module.openEngine({ path: store })
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const result = await engine.ingestFile(file)
  const cpu = process.cpuUsage(cpu0)
  const t1 = performance.now()
  const maxRssKB = process.resourceUsage().maxRSS
  const payloads: Record<string, unknown> = {}
  for (const c of caseList(domainId).filter(
    (x) => x.timed && (x.params.days === 365 || x.params.days === 30),
  )) {
    payloads[c.key] = await (engine[c.fn as FunctionName] as ReportFunctions[FunctionName]).call(
      engine,
      c.params as never,
    )
  }
  const t2 = performance.now()
  await engine.close()
  const t3 = performance.now()
  writeFileSync(
    outFile,
    JSON.stringify({
      openMs: t0 - tOpen,
      ingestMs: t1 - t0,
      // The whole process's CPU (every thread, DuckDB's included) during the ingest call.
      ingestCpuMs: (cpu.user + cpu.system) / 1000,
      closeMs: t3 - t2,
      result,
      maxRssKB,
      maxRssBeforeKB: rssBefore,
      maxRssEndKB: process.resourceUsage().maxRSS,
      payloads,
    }),
  )
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
