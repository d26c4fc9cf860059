/**
 * @module The demo (subpath export `visibility-analytics/demo`): a realistic, seeded dataset of a
 * few teams on different plans, their brands, competitors, themes and months of analyses on every
 * channel up to today, and the seeding `visibility serve --demo` and `visibility demo` do with it.
 * @example
 * import { openEngine } from 'visibility-analytics'
 * import { seedDemo } from 'visibility-analytics/demo'
 * const engine = await openEngine()
 * const { domains } = await seedDemo(engine)
 */
import type { Clock, Engine, IngestResult } from '../types.js'
import { demoDataset, type DemoDataset, type DemoOptions } from './dataset.js'
import { DOMAIN as EXAMPLE_DOMAIN } from './records.js'

export {
  DEMO_DAYS,
  DEMO_RECORD_ADDITIONS,
  demoDataset,
  demoDomainId,
  demoTeamId,
  type DemoDataset,
  type DemoDomain,
  type DemoOptions,
} from './dataset.js'

export { DEMO_KEY_NAME, demoKey, demoKeyFile, type DemoKey } from './key.js'

/** The domain of the spec's worked example (fixtures/spec-example), which older demos served. */
export const WORKED_EXAMPLE_DOMAIN = EXAMPLE_DOMAIN

export interface SeedResult extends Pick<DemoDataset, 'domains' | 'teamIds' | 'from' | 'to'> {
  /** What was stored; null when the store holds other data and was left alone. */
  stored: IngestResult | null
}

/**
 * Ingests the demo dataset for `now` (default: the current time) into a store that is empty or
 * holds only demo data (earlier demo seeds, or the worked example older releases served): the
 * records are upserted, so a demo store is brought up to today in place. A store with any other
 * domain is left alone.
 * @example
 * const { stored, domains } = await seedDemo(engine)
 */
export async function seedDemo(
  engine: Pick<Engine, 'stats' | 'getDomain' | 'ingest'>,
  options: DemoOptions & { now?: Clock } = {},
): Promise<SeedResult> {
  const dataset = demoDataset(options)
  const { records, ...rest } = dataset
  // Only demo domains are stored when every stored domain is one of them.
  let demo = 0
  for (const id of [...dataset.domains.map((d) => d.id), WORKED_EXAMPLE_DOMAIN]) {
    if ((await engine.getDomain(id)) !== null) demo += 1
  }
  if (((await engine.stats()).domains ?? 0) > demo) return { ...rest, stored: null }
  return { ...rest, stored: await engine.ingest(records) }
}
