/**
 * The daily aggregate tables as the reports read them. The ingest transaction keeps the `agg_*`
 * tables up to date in DuckDB (sql/ingest/fill_agg_*.sql); a report reads one domain's rows of a
 * table as columns of Float64Arrays sorted by day (sql/queries/load_agg_*.sql), so a window of days
 * is a range of rows (see foundation/window.ts).
 *
 * A new aggregate for a new report: a table in sql/schema, its clear and fill steps in
 * ingest/pipeline.ts, its load query, and one entry below.
 */

import type { DayRange } from '../db/changes.js'
import type { ReadPool } from '../db/read-pool.js'

/** Each table's columns, in the order its load query returns them; `day` (days since 1970-01-01) first. */
export const AGGREGATE_TABLES = {
  /** Per (day, prompt): analyses, brand mentions, own-site citations, brand position sum and count. */
  agg_prompt_day: ['day', 'prompt_idx', 'responses', 'mentions', 'citations', 'pos_sum', 'pos_cnt'],
  /** Per (day, channel): analyses. */
  agg_channel_day: ['day', 'channel', 'analyses'],
  /**
   * Per (day, channel, entity; 0 = the brand): mentions, position and sentiment sums and counts. The
   * sentiment sum is exact fixed point (src/queries/exact-mean.ts `FixedSum`), as two doubles.
   */
  agg_entity_day: [
    'day',
    'channel',
    'entity_idx',
    'mentions',
    'pos_sum',
    'pos_cnt',
    'sent_hi',
    'sent_lo',
    'sent_cnt',
  ],
  /** Per (day, channel, entity, chunk of 64 prompts): the prompts mentioning it, as two 32-bit masks. */
  agg_entity_prompts: ['day', 'channel', 'entity_idx', 'chunk', 'lo', 'hi'],
  /** Per (day, channel, model, theme): occurrences. */
  agg_theme_day: ['day', 'channel', 'model_key', 'theme_idx', 'occurrences'],
  /** Per (day, channel, chunk of 64 prompts): the prompts with an analysis, as two 32-bit masks. */
  agg_channel_prompts: ['day', 'channel', 'chunk', 'lo', 'hi'],
  /** Per (day, channel, entity, prompt): mentions, position sum and count. */
  agg_entity_prompt_day: ['day', 'channel', 'entity_idx', 'prompt_idx', 'mentions', 'pos_sum', 'pos_cnt'],
  /** Per (day, channel): citation entries and brand citation entries. */
  agg_citation_day: ['day', 'channel', 'citations', 'brand_citations'],
} as const

export type AggregateTable = keyof typeof AGGREGATE_TABLES
export const AGGREGATE_TABLE_NAMES = Object.keys(AGGREGATE_TABLES) as AggregateTable[]

/** One domain's rows of one aggregate table: a Float64Array per column, rows sorted by day. */
export type AggregateRows<T extends AggregateTable> = {
  readonly [C in (typeof AGGREGATE_TABLES)[T][number]]: Float64Array
} & { readonly day: Float64Array }

/** The query that reads one domain's rows of `table` (parameter `$domain_key`). */
export const loadQueryId = (table: AggregateTable): string => `queries/load_${table}`

/** The query that reads the changed days of many domains' rows of `table` (sql/queries/reload_agg_*.sql). */
export const reloadQueryId = (table: AggregateTable): string => `queries/reload_${table}`

/**
 * Tables that can also be computed for one raw model id (a report's `model` filter that is neither
 * `all` nor a channel): the same columns and rows, from the raw tables, for that model's analyses.
 */
export const MODEL_TABLES = [
  'agg_channel_day',
  'agg_entity_day',
  'agg_entity_prompts',
  'agg_channel_prompts',
  'agg_entity_prompt_day',
  'agg_citation_day',
] as const satisfies readonly AggregateTable[]
export type ModelTable = (typeof MODEL_TABLES)[number]

/** The query that computes `table`'s rows of one domain and one model (`$domain_key`, `$model_key`). */
export const modelQueryId = (table: ModelTable): string => `queries/load_${table}_by_model`

/** Names the columns of a table's loaded arrays. */
export function namedColumns<T extends AggregateTable>(table: T, arrays: Float64Array[]): AggregateRows<T> {
  const out: Record<string, Float64Array> = {}
  AGGREGATE_TABLES[table].forEach((name, i) => (out[name] = arrays[i]!))
  return out as AggregateRows<T>
}

/**
 * A per-domain structure built from the database (and from other aggregates): its name (unique)
 * and how to build it; `rows` sizes it against the store's budget.
 */
export interface Derived<T> {
  readonly name: string
  /** Whether it reads no analysis (texts, URL hosts): a segment of the analyses shares it (src/queries/segment.ts). */
  readonly analysisFree?: boolean
  build(
    pool: Pick<ReadPool, 'loadColumns' | 'loadStrings'>,
    domainKey: number,
    source: AggregateSource,
  ): Promise<{ value: T; rows: number }>
  /**
   * The structure after a commit changed `days` of the domain, made from the kept one (reading
   * only what those days need). Without it, a commit drops the structure and its next use builds
   * it whole.
   */
  refresh?(
    pool: Pick<ReadPool, 'loadColumns' | 'loadStrings'>,
    domainKey: number,
    kept: T,
    days: DayRange,
  ): Promise<{ value: T; rows: number }>
}

/** Where the reports get aggregate rows (and structures derived per domain) from. */
export interface AggregateSource {
  /** Whether `rows` hands out the same rows again until a commit changes them (kept in memory). */
  readonly keepsRows: boolean
  rows<T extends AggregateTable>(table: T, domainKey: number): Promise<AggregateRows<T>>
  /** The rows of `table` for one domain's analyses of one raw model (computed on each call, not kept). */
  modelRows<T extends ModelTable>(table: T, domainKey: number, modelKey: number): Promise<AggregateRows<T>>
  derived<T>(derived: Derived<T>, domainKey: number): Promise<T>
  /**
   * A structure of one domain for one segment of its analyses (src/queries/segment.ts): kept like
   * `derived`, under a name that says the segment, and dropped with the domain's other entries at
   * the next commit that changes it.
   */
  segmented<T>(derived: Derived<T>, domainKey: number): Promise<T>
}
