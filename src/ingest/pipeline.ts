/**
 * The ingest pipeline: the SQL steps that merge one call's staged rows into the store, in order,
 * inside the call's transaction. Each step is one file `sql/ingest/<id>.sql` whose header names its
 * phase, its parameters and the steps that must run before it (a test checks the headers, the
 * files and the order against this list).
 *
 * Before the first step, IngestCall has filled the staging tables (stg_analyses, stg_mentions, ...,
 * sql/schema/staging.sql) and the handle -> key maps (stg_*_map).
 */
import {
  BIGINT,
  INTEGER,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBListValue,
  type DuckDBMaterializedResult,
  type DuckDBValue,
} from '@duckdb/node-api'
import type { DomainChange } from '../db/changes.js'
import { ChunkWriter } from '../db/chunk-writer.js'
import { sqlScript, sqlText } from '../db/sql.js'

export type IngestPhase =
  | 'resolve' // the call's final analyses and the (domain, day) pairs whose aggregates change
  | 'replace' // stored analyses the call replaces, with their mentions, citations, themes, fan-out, text
  | 'dimensions' // teams, domains, prompts, competitors, themes, models (upsert by id), texts
  | 'facts' // analyses, mentions, citations, theme occurrences, fan-out queries, answer texts
  | 'aggregates' // the agg_* rows of the affected days: cleared, then recomputed

/** The counts of an IngestResult that a step's changed rows are. */
export type FactCount = 'analyses' | 'mentions' | 'citations' | 'theme_occurrences' | 'fanout_queries'

/** A call's fact counts before any step has written. */
export function noFacts(): Record<FactCount, number> {
  return { analyses: 0, mentions: 0, citations: 0, theme_occurrences: 0, fanout_queries: 0 }
}

/**
 * What a step reads: the staging tables (by their rows), `appended_responses` (the answer texts
 * the record path appended straight into analysis_responses) and `old`, the stored analyses the
 * call replaces (collect_old's rows). A step whose inputs are all empty has nothing to do and is
 * skipped.
 */
export type StepInput =
  | 'teams'
  | 'domains'
  | 'prompts'
  | 'competitors'
  | 'themes'
  | 'models'
  | 'analyses'
  | 'mentions'
  | 'citations'
  | 'theme_occ'
  | 'fanout'
  | 'responses'
  | 'appended_responses'
  | 'old'

/** The rows of each input of a call (from STAGED_QUERY, and collect_old's changed rows). */
export type StagedRows = Record<StepInput, number>

export interface IngestStep {
  /** The step's SQL file: sql/ingest/<id>.sql. */
  readonly id: string
  readonly phase: IngestPhase
  /** Steps that must have run before this one. */
  readonly after: readonly string[]
  /** The count the step's changed rows are, if any. */
  readonly counts?: FactCount
  /** The file run instead when the call's analysis ids are all distinct (cheaper: fewer joins). */
  readonly unique?: { readonly id: string }
  /** Runs only when one of these inputs has rows (absent: always; the aggregates run per chunk). */
  readonly when?: readonly StepInput[]
  /**
   * Runs first, in a transaction committed before the call's own (`EARLY_COMMIT`), when the call
   * deletes nothing: the step writes only the call's temp tables and reads nothing the steps
   * listed before it write (test/ingest/pipeline.test.ts checks both).
   */
  readonly early?: boolean
}

const step = (
  id: string,
  phase: IngestPhase,
  after: string[],
  more: Partial<Pick<IngestStep, 'counts' | 'unique' | 'when' | 'early'>> = {},
): IngestStep => ({ id, phase, after, ...more })

const OLD = { when: ['old'] } as const satisfies Partial<IngestStep>
const TEXTS = { when: ['citations', 'fanout'] } as const satisfies Partial<IngestStep>
const AFFECTED = ['affected_old', 'affected_new', 'affected_site']
const aggregate = (table: string, sources: string[]): IngestStep[] => [
  step(`clear_${table}`, 'aggregates', AFFECTED),
  step(`fill_${table}`, 'aggregates', [`clear_${table}`, ...sources]),
]

export const INGEST_STEPS: readonly IngestStep[] = [
  step('final_analyses', 'resolve', [], {
    when: ['analyses'],
    unique: { id: 'final_analyses_unique' },
    early: true,
  }),
  step('collect_old', 'resolve', ['final_analyses'], { when: ['analyses'] }),
  step('affected_old', 'resolve', ['collect_old'], { when: ['old'] }),
  step('affected_new', 'resolve', ['final_analyses'], { when: ['analyses'] }),
  step('affected_site', 'resolve', [], { when: ['domains'] }),

  step('delete_old_mentions', 'replace', ['collect_old'], OLD),
  step('delete_old_citations', 'replace', ['collect_old'], OLD),
  step('delete_old_theme_occurrences', 'replace', ['collect_old'], OLD),
  step('delete_old_fanout_queries', 'replace', ['collect_old'], OLD),
  step('delete_old_analysis_responses', 'replace', ['collect_old'], OLD),
  step('delete_old_analyses', 'replace', ['collect_old', 'affected_old'], OLD),

  step('delete_teams', 'dimensions', [], { when: ['teams'] }),
  step('insert_teams', 'dimensions', ['delete_teams'], { when: ['teams'] }),
  step('delete_domains', 'dimensions', ['affected_site'], { when: ['domains'] }),
  step('insert_domains', 'dimensions', ['delete_domains'], { when: ['domains'] }),
  step('delete_prompts', 'dimensions', [], { when: ['prompts'] }),
  step('insert_prompts', 'dimensions', ['delete_prompts'], { when: ['prompts'] }),
  step('delete_competitors', 'dimensions', [], { when: ['competitors'] }),
  step('insert_competitors', 'dimensions', ['delete_competitors'], { when: ['competitors'] }),
  step('delete_themes', 'dimensions', [], { when: ['themes'] }),
  step('insert_themes', 'dimensions', ['delete_themes'], { when: ['themes'] }),
  step('insert_models', 'dimensions', [], { when: ['models'] }),
  step('call_domains', 'dimensions', [], { ...TEXTS, early: true }),
  step('call_texts', 'dimensions', ['call_domains'], { ...TEXTS, early: true }),
  step('insert_texts', 'dimensions', ['call_texts'], TEXTS),

  step('insert_analyses', 'facts', ['final_analyses', 'delete_old_analyses'], {
    counts: 'analyses',
    when: ['analyses'],
  }),
  step('insert_mentions', 'facts', ['final_analyses', 'delete_old_mentions'], {
    counts: 'mentions',
    when: ['mentions'],
    unique: { id: 'insert_mentions_unique' },
  }),
  // Resolved into stg_citation_rows first, then stored in key order: the joins' hash tables and
  // the sort in one statement could not spill enough at the memory limit (a 2 GB file).
  step('resolve_citations', 'facts', ['final_analyses', 'call_texts'], {
    when: ['citations'],
    unique: { id: 'resolve_citations_unique' },
    early: true,
  }),
  step('insert_citations', 'facts', ['resolve_citations', 'delete_old_citations'], {
    counts: 'citations',
    when: ['citations'],
  }),
  step('insert_theme_occurrences', 'facts', ['final_analyses', 'delete_old_theme_occurrences'], {
    counts: 'theme_occurrences',
    when: ['theme_occ'],
    unique: { id: 'insert_theme_occurrences_unique' },
  }),
  step('insert_fanout_queries', 'facts', ['final_analyses', 'delete_old_fanout_queries', 'call_texts'], {
    counts: 'fanout_queries',
    when: ['fanout'],
    unique: { id: 'insert_fanout_queries_unique' },
  }),

  // An analysis's answer text: no count of its own (it is part of the analysis), no aggregate.
  step('insert_analysis_responses', 'facts', ['final_analyses', 'delete_old_analysis_responses'], {
    when: ['responses'],
    unique: { id: 'insert_analysis_responses_unique' },
  }),
  // The texts the record path appended straight into analysis_responses (src/ingest/call.ts).
  step('drop_repeated_analysis_responses', 'facts', ['final_analyses'], { when: ['appended_responses'] }),
  step(
    'place_analysis_responses',
    'facts',
    ['drop_repeated_analysis_responses', 'delete_old_analysis_responses'],
    { when: ['appended_responses'] },
  ),

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
  // Brand rankings and brand time series (docs/API.md, "Rankings", "Brand time series").
  ...aggregate('agg_channel_prompts', ['insert_analyses']),
  ...aggregate('agg_entity_prompt_day', ['insert_mentions']),
  ...aggregate('agg_citation_day', ['insert_analyses', 'insert_citations', 'insert_domains']),
  // Citations, cited domains and fan-out queries (docs/API.md, "Citations, fan-out and sentiment over time").
  ...aggregate('agg_cited_url', ['insert_analyses', 'insert_mentions', 'insert_citations']),
  ...aggregate('agg_cited_host', ['insert_analyses', 'insert_citations']),
  ...aggregate('agg_fanout', ['insert_analyses', 'insert_fanout_queries']),
]

/**
 * Ends the early steps' transaction and opens the call's own (sql/call/commit_early.sql,
 * sql/call/begin.sql). A table's rows written by the open transaction are scanned on one thread
 * (DuckDB sizes a scan's parallelism by the table's committed rows: DataTable::MaxThreads), so the
 * steps that make the call's temp tables run before it, and the call's inserts and sorts then read
 * those tables on every thread (bench/NOTES.md, "s19"). Only temp tables are committed there: a
 * call refused after it stores nothing (test/ingest/steps-atomic.test.ts).
 */
export const EARLY_COMMIT = ['call/commit_early', 'call/begin'] as const

/** Read after the pipeline, before COMMIT: the domains whose aggregates the call changed. */
export const AFFECTED_DOMAINS_QUERY = 'ingest/affected_domains'

/**
 * The aggregates phase runs in chunks of the affected (domain, day) pairs, each of about this many
 * stored analyses, so that its memory does not grow with the call (DuckDB spills what it can; the
 * per-group states of some aggregates cannot be spilled).
 */
export const AGGREGATE_CHUNK_ANALYSES = 100_000
/** The chunk size of a record call: VA_INGEST_CHUNK_ANALYSES (tests: many chunks), else the default. */
const aggregateChunkAnalyses = () => Number(process.env.VA_INGEST_CHUNK_ANALYSES) || AGGREGATE_CHUNK_ANALYSES
/** The queries that cut the affected pairs into chunks and select one chunk. */
export const AGGREGATE_CHUNK_QUERIES = ['ingest/affected_chunks', 'ingest/affected_chunk'] as const
/** Run in the steps' script after the cut: keeps the first chunk's pairs in stg_affected. */
export const FIRST_CHUNK_QUERY = 'ingest/affected_first_chunk'
/** Read at the end of the steps' script: the fact counts and the last chunk's number. */
export const CALL_SUMMARY_QUERY = 'ingest/call_summary'
/** Read before the steps: whether the call's analysis ids are all distinct, and each input's rows. */
export const STAGED_QUERY = 'ingest/staged'

/**
 * A bulk write of a call's facts (src/ingest/flat-bulk.ts: a flat import into a target that holds
 * none of its domains): run after the other phases' steps (whose facts staging tables are empty)
 * and before the aggregates, which it leaves to the aggregates phase (its affected days in
 * stg_affected), in the record path's chunks: one chunk for a whole L-sized domain ran a hardened
 * import out of memory at the 160 MB limit (fill_agg_cited_url).
 */
export interface BulkFacts {
  /** Makes the write's temp tables (run with the early steps, before the call's transaction). */
  prepare(conn: DuckDBConnection, base: number): Promise<void>
  /** Stores the facts from those tables. */
  write(conn: DuckDBConnection): Promise<Record<FactCount, number>>
}

/** The SQL id a step runs, and its parameters, for a call (unique: its analysis ids are all distinct). */
export function stepFile(s: IngestStep, unique: boolean): { sql: string } {
  const f = unique && s.unique ? s.unique : s
  return { sql: `ingest/${f.id}` }
}

/**
 * Whether a step runs for a call: when one of its inputs has rows (`old` counted once collect_old
 * ran). VA_INGEST_SKIP=never runs every step (a test compares the stored rows both ways).
 */
export function stepRuns(s: IngestStep, rows: StagedRows): boolean {
  if (process.env.VA_INGEST_SKIP === 'never') return true
  return s.when === undefined || s.when.some((input) => rows[input] > 0)
}

/** A step's start: wall clock and the process's CPU (every thread, DuckDB's included). */
export const mark = () => ({ wall: performance.now(), cpu: process.cpuUsage() })
export const trace = (sql: string, t0: ReturnType<typeof mark>, note = ''): void => {
  if (!process.env.VA_TRACE_INGEST) return
  const cpu = process.cpuUsage(t0.cpu)
  const cpuMs = (cpu.user + cpu.system) / 1000
  process.stderr.write(
    `${sql} ${(performance.now() - t0.wall).toFixed(1)} ms (cpu ${cpuMs.toFixed(1)} ms)${note}\n`,
  )
}

/**
 * VA_PROFILE_INGEST=DIR (with VA_TRACE_INGEST): DuckDB's own profile of each traced step, as JSON
 * in DIR/<n>-<step>.json (operators, their time and the rows they scanned).
 */
let profiles = 0
export async function profiled<T>(conn: DuckDBConnection, sql: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env.VA_PROFILE_INGEST
  if (!dir) return run()
  const file = `${dir}/${String(profiles++).padStart(3, '0')}-${sql.replace(/\W+/g, '_')}.json`
  // The file is bound, never written into the SQL text (test/reliability/sql-safety.test.ts).
  await conn.run('SET VARIABLE va_profile_file = $file', { file }, { file: VARCHAR })
  await conn.run("PRAGMA enable_profiling='json'")
  await conn.run("SET profiling_output = getvariable('va_profile_file')")
  let result: T
  try {
    result = await run()
  } catch (e) {
    // In an aborted transaction the PRAGMA fails too: the step's own error is the one to report.
    await conn.run('PRAGMA disable_profiling').catch(() => undefined)
    throw e
  }
  await conn.run('PRAGMA disable_profiling')
  return result
}

/** What the steps did: the fact counts, and the days whose aggregates changed, by domain. */
export interface StepsDone {
  counts: Record<FactCount, number>
  changedDays: DomainChange[]
}

/** The rows of a materialized result, as objects, read without a round trip per chunk. */
export function resultRows(r: DuckDBMaterializedResult): Record<string, DuckDBValue>[] {
  const names = r.columnNames()
  const rows: Record<string, DuckDBValue>[] = []
  for (let i = 0; i < r.chunkCount; i++) rows.push(...r.getChunk(i).getRowObjects(names))
  return rows
}

/**
 * The steps in the order a call runs them: with `early` (a call that deletes nothing), the early
 * steps first, then EARLY_COMMIT, then the others; otherwise all of them in list order.
 */
export function stepOrder(early: boolean): { first: IngestStep[]; then: IngestStep[] } {
  if (!early) return { first: [], then: [...INGEST_STEPS] }
  return { first: INGEST_STEPS.filter((s) => s.early), then: INGEST_STEPS.filter((s) => !s.early) }
}

/** A call as the steps see it: `early` when it deletes nothing (see stepOrder). */
export interface StepsCall {
  base: number
  unique: boolean
  rows: StagedRows
  early: boolean
  bulk?: BulkFacts | null
}

/**
 * Runs the steps in order (stepOrder), skipping those with nothing to do; returns the fact counts
 * and the changed days. The caller owns the transaction; with `early` it holds no write to the
 * store yet, and the early steps' COMMIT ends it (the call's own opens after). The call's values
 * the steps read (its key base, the aggregates' chunk size) go to stg_call first, through an
 * appender (no round trip). Then every step, the first
 * chunk of the aggregates and the call's summary (sql/ingest/call_summary.sql: the counts, the
 * number of chunks) run as one multi-statement script: one round trip through Node's thread pool,
 * which the readers share, and one turn of the event loop (each one waits behind the requests
 * served). A call whose affected days hold more than a chunk runs the other chunks after it, one
 * script each. VA_TRACE_INGEST runs and times each step on its own.
 */
export async function runIngestSteps(conn: DuckDBConnection, call: StepsCall): Promise<StepsDone> {
  const chunkRows = aggregateChunkAnalyses()
  const values = await ChunkWriter.open(conn, 'stg_call', [BIGINT, BIGINT])
  values.push(BigInt(call.base), BigInt(chunkRows))
  values.close()
  if (process.env.VA_TRACE_INGEST || call.bulk) return runStepByStep(conn, call)
  // collect_old's rows are not known before the script runs: the steps on the replaced analyses
  // run whenever the call has analyses (with none replaced they change nothing).
  const rows: StagedRows = { ...call.rows, old: call.rows.analyses }
  const { first, then } = stepOrder(call.early)
  const script = first.filter((s) => stepRuns(s, rows)).map((s) => stepFile(s, call.unique).sql)
  if (script.length > 0) script.push(...EARLY_COMMIT)
  for (const s of then)
    if (s.phase !== 'aggregates' && stepRuns(s, rows)) script.push(stepFile(s, call.unique).sql)
  const [cut] = AGGREGATE_CHUNK_QUERIES
  script.push(cut, FIRST_CHUNK_QUERY)
  script.push(...aggregateSteps(call.unique))
  script.push(CALL_SUMMARY_QUERY)
  const summary = resultRows(await conn.run(sqlScript(script)))[0]!
  const { chunks, affected_domains, affected_from, affected_to, ...counts } = summary as Record<
    FactCount | 'chunks',
    number
  > &
    Record<'affected_domains' | 'affected_from' | 'affected_to', DuckDBListValue | null>
  if (chunks > 0) {
    await runChunks(conn, 1, chunks, () => conn.run(sqlScript(aggregateSteps(call.unique))))
    return { counts, changedDays: await readChangedDays(conn) }
  }
  const list = (l: DuckDBListValue | null) => (l?.items ?? []) as number[]
  const [keys, from, to] = [list(affected_domains), list(affected_from), list(affected_to)]
  return {
    counts,
    changedDays: keys.map((domainKey, i) => ({ domainKey, from: from[i]!, to: to[i]! })),
  }
}

/** The call's changed days by domain (sql/ingest/affected_domains.sql). */
async function readChangedDays(conn: DuckDBConnection): Promise<DomainChange[]> {
  return resultRows(await conn.run(sqlText(AFFECTED_DOMAINS_QUERY))).map((r) => ({
    domainKey: r.domain_key as number,
    from: r.from_day as number,
    to: r.to_day as number,
  }))
}

const aggregateSteps = (unique: boolean) =>
  INGEST_STEPS.filter((s) => s.phase === 'aggregates').map((s) => stepFile(s, unique).sql)

/**
 * Runs `run` for each chunk `from`..`to` of the affected (domain, day) pairs (stg_affected_all),
 * with that chunk's pairs in stg_affected; then puts the whole set back, for what reads
 * stg_affected after the steps.
 */
async function runChunks(conn: DuckDBConnection, from: number, to: number, run: () => Promise<unknown>) {
  const select = async (chunk: number) => {
    await conn.run('DELETE FROM stg_affected')
    await conn.run(sqlText(AGGREGATE_CHUNK_QUERIES[1]), { chunk }, { chunk: INTEGER })
  }
  for (let chunk = from; chunk <= to; chunk++) {
    await select(chunk)
    await run()
  }
  await select(-1)
}

/**
 * The steps one statement at a time (VA_TRACE_INGEST times each one; VA_TRACE_MEMORY adds DuckDB's
 * memory by tag after each, resident:spilled MB from duckdb_memory()), and a bulk path's facts
 * (src/ingest/flat-bulk.ts), whose write runs between the steps and the aggregates.
 */
async function runStepByStep(conn: DuckDBConnection, call: StepsCall): Promise<StepsDone> {
  const counts = noFacts()
  const rows: StagedRows = { ...call.rows, old: 0 }
  const tracing = Boolean(process.env.VA_TRACE_INGEST)
  let pending: string[] = []
  const flush = async () => {
    if (pending.length === 0) return
    const t0 = mark()
    await conn.run(sqlScript(pending))
    trace(pending.length === 1 ? '(1 step)' : `(${pending.length} steps)`, t0)
    pending = []
  }
  const runStep = async (s: IngestStep) => {
    const file = stepFile(s, call.unique)
    if (!s.counts && s.id !== 'collect_old' && !tracing) {
      pending.push(file.sql)
      return
    }
    await flush()
    const t0 = mark()
    const r = await profiled(conn, file.sql, () => conn.run(sqlText(file.sql)))
    if (s.counts) counts[s.counts] = r.rowsChanged
    if (s.id === 'collect_old') rows.old = r.rowsChanged
    trace(file.sql, t0)
    if (process.env.VA_TRACE_MEMORY) {
      const m = await conn.runAndReadAll(
        'SELECT tag, round(memory_usage_bytes / 2 ** 20)::INTEGER AS mb, round(temporary_storage_bytes / 2 ** 20)::INTEGER AS tmp FROM duckdb_memory() WHERE memory_usage_bytes + temporary_storage_bytes > 0',
      )
      process.stderr.write(
        `  memory ${m
          .getRows()
          .map((r) => r.join(':'))
          .join(' ')}\n`,
      )
    }
  }
  const aggregates = INGEST_STEPS.filter((s) => s.phase === 'aggregates')
  const { first, then } = stepOrder(call.early)
  const early = first.filter((s) => stepRuns(s, rows))
  for (const s of early) await runStep(s)
  await flush()
  // The bulk write's temp tables, with the early steps (committed with them when the call may).
  if (call.bulk) await call.bulk.prepare(conn, call.base)
  if (call.early && (early.length > 0 || call.bulk)) {
    const t0 = mark()
    await conn.run(sqlScript(EARLY_COMMIT))
    trace("(the early steps' commit)", t0)
  }
  for (const s of then) if (s.phase !== 'aggregates' && stepRuns(s, rows)) await runStep(s)
  await flush()
  if (call.bulk) Object.assign(counts, await call.bulk.write(conn))
  // The aggregates phase, one chunk of affected (domain, day) pairs at a time.
  await profiled(conn, AGGREGATE_CHUNK_QUERIES[0], () => conn.run(sqlText(AGGREGATE_CHUNK_QUERIES[0])))
  const last = await conn.runAndReadAll('SELECT coalesce(max(chunk), -1)::INTEGER FROM stg_affected_all')
  const chunks = last.getRows()[0]![0] as number
  const runAggregates = async () => {
    for (const s of aggregates) await runStep(s)
    await flush()
  }
  // A call within one chunk keeps stg_affected whole: nothing to select.
  if (chunks > 0) await runChunks(conn, 0, chunks, runAggregates)
  else await runAggregates()
  // The one-script path's summary, profiled here only (its counts are the steps' own here).
  if (process.env.VA_PROFILE_INGEST)
    await profiled(conn, CALL_SUMMARY_QUERY, () => conn.run(sqlText(CALL_SUMMARY_QUERY)))
  return { counts, changedDays: await readChangedDays(conn) }
}
