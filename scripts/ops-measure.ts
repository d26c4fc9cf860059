/**
 * `npx tsx scripts/ops-measure.ts [S|L|Lq]`: what the operations cost on a benchmark dataset (a
 * DuckDB file under the system temp directory): deleting an analysis, a competitor and a prompt
 * (the last two renumber the domain and recompute all its days), a prune, a backup of the file
 * opened for serving, and a restore. Figures on stdout; nothing is asserted.
 */
import { execSync } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BENCH_NOW, DATASETS, datasetRecords, domainGenerators } from '../bench/data/generator.js'
import { writeNdjson } from '../bench/data/ndjson.js'
import { openEngine, restoreBackup } from '../src/index.js'

const name = (process.argv[2] ?? 'L') as keyof typeof DATASETS
const spec = DATASETS[name]
const dir = join(tmpdir(), `va-ops-measure-${name}`)
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir, { recursive: true })
const file = join(dir, 'data.ndjson')
await writeNdjson(file, datasetRecords(spec))
const path = join(dir, 'db.duckdb')

async function time(label: string, run: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now()
  const result = await run()
  console.log(`${label}: ${(performance.now() - t0).toFixed(0)} ms ${JSON.stringify(result)}`)
}

const main = domainGenerators(spec)[0]!
const firstAnalysis = JSON.parse(execSync(`grep -m1 '"type":"analysis"' ${file}`).toString()) as {
  id: string
}
const del = (entity: string, id: string) => [{ type: 'delete', entity, id }]

let engine = await openEngine({ path })
await time('ingest', () => engine.ingestFile(file))
await time('delete 1 analysis', async () => (await engine.ingest(del('analysis', firstAnalysis.id))).deleted)
await time(
  'delete 1 competitor',
  async () => (await engine.ingest(del('competitor', main.competitorIds[0]!))).deleted,
)
await time(
  'delete the first prompt',
  async () => (await engine.ingest(del('prompt', main.promptIds[0]!))).deleted,
)
await time('prune older than 300 days', () => engine.prune({ olderThanDays: 300, now: BENCH_NOW }))
await engine.close()
engine = await openEngine({ path, hardened: true })
await time(
  'backup of the served file',
  async () => (await engine.backup(join(dir, 'backup'))).manifest.tables,
)
await engine.close()
await time(
  'restore',
  async () => (await restoreBackup({ from: join(dir, 'backup'), path: join(dir, 'r.duckdb') })).tables,
)
console.log(`peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`)
rmSync(dir, { recursive: true, force: true })
