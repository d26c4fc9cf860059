/** `visibility demo`: ingests the bundled demo dataset into a DuckDB file and prints the four payloads. */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { openEngine } from '../../index.js'
import { parse } from '../args.js'
import { computeWithFlags } from '../flags.js'
import { COMPUTABLE } from './data.js'

/** The bundled demo dataset (the spec's worked example) and its clock. */
export const DEMO_DATASET = fileURLToPath(
  new URL('../../../../fixtures/spec-example/data.ndjson', import.meta.url),
)
export const DEMO_DOMAIN = '5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c'
export const DEMO_NOW = '2026-11-20T15:00:00Z'

export async function demoCommand(argv: string[]): Promise<number> {
  const { values } = parse<{ db?: string }>(argv, { db: { type: 'string' } }, false)
  const db = values.db ?? 'data/demo.duckdb'
  const dataset = existsSync(DEMO_DATASET)
    ? DEMO_DATASET
    : fileURLToPath(new URL('../../../fixtures/spec-example/data.ndjson', import.meta.url))
  const engine = await openEngine({ path: db })
  try {
    const r = await engine.ingestFile(dataset)
    process.stdout.write(
      `ingested ${r.analyses} analyses into ${db} (re-running changes nothing: ingest is an upsert)\n`,
    )
    for (const [name, endpoint] of COMPUTABLE) {
      const payload = await computeWithFlags(engine, endpoint, {
        domain: DEMO_DOMAIN,
        days: '7',
        now: DEMO_NOW,
      })
      process.stdout.write(
        `\n# visibility compute ${name} --db ${db} --domain ${DEMO_DOMAIN} --days 7 --now ${DEMO_NOW}\n`,
      )
      process.stdout.write(`${JSON.stringify(payload, null, 2)}\n`)
    }
  } finally {
    await engine.close()
  }
  return 0
}
