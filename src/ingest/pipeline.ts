/**
 * The ingest pipeline: the SQL steps that merge one call's staged rows into the store, in order,
 * inside the call's transaction. Each step is one file `sql/ingest/<id>.sql` whose header names its
 * phase, its parameters and the steps that must run before it (a test checks the headers, the
 * files and the order against this list).
 *
 * Before the first step, IngestCall has filled the staging tables (stg_analyses, stg_mentions, ...,
 * sql/schema/staging.sql) and the handle -> key maps (stg_*_map).
 */
import { BIGINT, type DuckDBConnection } from '@duckdb/node-api'
import { sqlText } from '../db/sql.js'

export type IngestPhase =
  | 'resolve' // the call's final analyses and the (domain, day) pairs whose aggregates change
  | 'replace' // stored analyses the call replaces, with their mentions, citations, themes, fan-out
  | 'dimensions' // teams, domains, prompts, competitors, themes, models (upsert by id), texts
  | 'facts' // analyses, mentions, citations, theme occurrences, fan-out queries
  | 'aggregates' // the agg_* rows of the affected days: cleared, then recomputed

/** A parameter a step binds: `base`, the first free analysis_key (BIGINT). */
export type StepParam = 'base'

/** The counts of an IngestResult that a step's changed rows are. */
export type FactCount = 'analyses' | 'mentions' | 'citations' | 'theme_occurrences' | 'fanout_queries'

export interface IngestStep {
  /** The step's SQL file: sql/ingest/<id>.sql. */
  readonly id: string
  readonly phase: IngestPhase
  readonly params: readonly StepParam[]
  /** Steps that must have run before this one. */
  readonly after: readonly string[]
  /** The count the step's changed rows are, if any. */
  readonly counts?: FactCount
  /** The file run instead when the call's analysis ids are all distinct (cheaper: fewer joins). */
  readonly unique?: { readonly id: string; readonly params: readonly StepParam[] }
}

const step = (
  id: string,
  phase: IngestPhase,
  after: string[],
  more: Partial<Pick<IngestStep, 'params' | 'counts' | 'unique'>> = {},
): IngestStep => ({ id, phase, params: [], after, ...more })

const AFFECTED = ['affected_old', 'affected_new', 'affected_site']
const aggregate = (table: string, sources: string[]): IngestStep[] => [
  step(`clear_${table}`, 'aggregates', AFFECTED),
  step(`fill_${table}`, 'aggregates', [`clear_${table}`, ...sources]),
]

export const INGEST_STEPS: readonly IngestStep[] = [
  step('final_analyses', 'resolve', [], {
    params: ['base'],
    unique: { id: 'final_analyses_unique', params: ['base'] },
  }),
  step('collect_old', 'resolve', ['final_analyses']),
  step('affected_old', 'resolve', ['collect_old']),
  step('affected_new', 'resolve', ['final_analyses']),
  step('affected_site', 'resolve', []),

  step('delete_old_mentions', 'replace', ['collect_old']),
  step('delete_old_citations', 'replace', ['collect_old']),
  step('delete_old_theme_occurrences', 'replace', ['collect_old']),
  step('delete_old_fanout_queries', 'replace', ['collect_old']),
  step('delete_old_analyses', 'replace', ['collect_old', 'affected_old']),

  step('delete_teams', 'dimensions', []),
  step('insert_teams', 'dimensions', ['delete_teams']),
  step('delete_domains', 'dimensions', ['affected_site']),
  step('insert_domains', 'dimensions', ['delete_domains']),
  step('delete_prompts', 'dimensions', []),
  step('insert_prompts', 'dimensions', ['delete_prompts']),
  step('delete_competitors', 'dimensions', []),
  step('insert_competitors', 'dimensions', ['delete_competitors']),
  step('delete_themes', 'dimensions', []),
  step('insert_themes', 'dimensions', ['delete_themes']),
  step('insert_models', 'dimensions', []),
  step('insert_texts', 'dimensions', []),

  step('insert_analyses', 'facts', ['final_analyses', 'delete_old_analyses'], { counts: 'analyses' }),
  step('insert_mentions', 'facts', ['final_analyses', 'delete_old_mentions'], {
    counts: 'mentions',
    unique: { id: 'insert_mentions_unique', params: ['base'] },
  }),
  step('insert_citations', 'facts', ['final_analyses', 'delete_old_citations', 'insert_texts'], {
    counts: 'citations',
    unique: { id: 'insert_citations_unique', params: ['base'] },
  }),
  step('insert_theme_occurrences', 'facts', ['final_analyses', 'delete_old_theme_occurrences'], {
    counts: 'theme_occurrences',
    unique: { id: 'insert_theme_occurrences_unique', params: ['base'] },
  }),
  step('insert_fanout_queries', 'facts', ['final_analyses', 'delete_old_fanout_queries', 'insert_texts'], {
    counts: 'fanout_queries',
    unique: { id: 'insert_fanout_queries_unique', params: ['base'] },
  }),

  ...aggregate('agg_prompt_day', [
    'insert_analyses',
    'insert_mentions',
    'insert_citations',
    'insert_domains',
  ]),
  ...aggregate('agg_channel_day', ['insert_analyses']),
  ...aggregate('agg_entity_day', ['insert_mentions']),
  ...aggregate('agg_entity_prompts', ['insert_mentions']),
  ...aggregate('agg_theme_day', ['insert_theme_occurrences']),
  // Brand rankings and brand time series (extensions 4-5).
  ...aggregate('agg_channel_prompts', ['insert_analyses']),
  ...aggregate('agg_entity_prompt_day', ['insert_mentions']),
  ...aggregate('agg_citation_day', ['insert_analyses', 'insert_citations', 'insert_domains']),
  // Citations, cited domains and fan-out queries (extensions 6).
  ...aggregate('agg_cited_url', ['insert_analyses', 'insert_mentions', 'insert_citations']),
  ...aggregate('agg_cited_host', ['insert_analyses', 'insert_citations']),
  ...aggregate('agg_fanout', ['insert_analyses', 'insert_fanout_queries']),
]

/** Read after the pipeline, before COMMIT: the domains whose aggregates the call changed. */
export const AFFECTED_DOMAINS_QUERY = 'ingest/affected_domains'

/** The SQL id a step runs, and its parameters, for a call (unique: its analysis ids are all distinct). */
export function stepFile(s: IngestStep, unique: boolean): { sql: string; params: readonly StepParam[] } {
  const f = unique && s.unique ? s.unique : s
  return { sql: `ingest/${f.id}`, params: f.params }
}

const PARAM_TYPES = { base: BIGINT } as const

/** Runs every step in order; returns the fact counts. The caller owns the transaction. */
export async function runIngestSteps(
  conn: DuckDBConnection,
  call: Record<StepParam, number> & { unique: boolean },
): Promise<Record<FactCount, number>> {
  const counts: Record<FactCount, number> = {
    analyses: 0,
    mentions: 0,
    citations: 0,
    theme_occurrences: 0,
    fanout_queries: 0,
  }
  for (const s of INGEST_STEPS) {
    const file = stepFile(s, call.unique)
    const bind = file.params.length > 0
    const values = bind ? Object.fromEntries(file.params.map((p) => [p, call[p]])) : undefined
    const types = bind ? Object.fromEntries(file.params.map((p) => [p, PARAM_TYPES[p]])) : undefined
    const t0 = performance.now()
    const r = await conn.run(sqlText(file.sql), values, types)
    if (s.counts) counts[s.counts] = r.rowsChanged
    if (process.env.VA_TRACE_INGEST)
      process.stderr.write(`${file.sql} ${(performance.now() - t0).toFixed(1)} ms\n`)
  }
  return counts
}
