/**
 * One ingest call: records are validated one by one (collector.ts), staged column-wise into temp tables
 * inside a transaction, then checked for references once the whole call has been read (order
 * within a call does not matter), given surrogate keys, and merged into the store by the
 * ingest pipeline (pipeline.ts). The caller commits or rolls back.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import {
  BIGINT,
  DOUBLE,
  INTEGER,
  UTINYINT,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBMaterializedResult,
  type DuckDBType,
} from '@duckdb/node-api'
import type { Catalog } from '../catalog.js'
import { ChunkWriter, type NullMarker } from '../db/chunk-writer.js'
import { sqlScript, sqlText } from '../db/sql.js'
import { IngestError } from '../errors.js'
import { TimeSlice } from '../foundation/slice.js'
import type { IngestResult } from '../types.js'
import { BatchBuilder, type AnalysisBatch } from './columns.js'
import { applyToCatalog, assignKeys, stageDimensions, stageMaps, type KeyPlan } from './dimensions.js'
import { STAGED_QUERY, resultRows, runIngestSteps, type BulkFacts, type StagedRows } from './pipeline.js'
import { checkReferences } from './references.js'
import { RecordCollector, type CollectorState } from './collector.js'
import {
  checkAnalysisConflicts,
  checkDeletionConflicts,
  deletionCounts,
  planDeletions,
  reloadCatalog,
  runDeletionPass,
  stageDeletions,
  unknownAnalyses,
  type DeletionPlan,
} from './deletions.js'
import type { RecordLocation } from './handles.js'
import type { DomainChange } from '../db/changes.js'

export type { RecordLocation } from './handles.js'

const BATCH_ROWS = 2048
const NO_NULLS: NullMarker[] = []
const MENTION_NULLS: NullMarker[] = ['none', 'none', 'zero', 'nan']

const ANALYSIS_TYPES: DuckDBType[] = [
  INTEGER,
  VARCHAR,
  INTEGER,
  INTEGER,
  UTINYINT,
  INTEGER,
  DOUBLE,
  INTEGER,
  VARCHAR,
]
/**
 * analysis_responses' columns: the record path appends the answer texts straight into the stored
 * table with the staging (a staging table and its INSERT ... SELECT copied every text once more,
 * the largest part of what texts cost an ingest): the key is the call's `base + seq`, the domain
 * its handle h as `-1 - h` until the steps drop_repeated_ and place_analysis_responses put them
 * right in the call's transaction (src/ingest/pipeline.ts); see `begin` for a refused call.
 */
const RESPONSE_TYPES: DuckDBType[] = [BIGINT, INTEGER, VARCHAR]
/** Rows of answer texts (1-6 KB each) the appender buffers before they go to the table. */
const RESPONSE_FLUSH_ROWS = 4096
const MENTION_TYPES: DuckDBType[] = [INTEGER, INTEGER, INTEGER, DOUBLE, INTEGER, INTEGER, UTINYINT, INTEGER]
const CITATION_TYPES: DuckDBType[] = [INTEGER, INTEGER, INTEGER, INTEGER, INTEGER, VARCHAR, VARCHAR]
const CITATION_DICT_TYPES: DuckDBType[] = [INTEGER, VARCHAR, VARCHAR, VARCHAR]
const FANOUT_TYPES: DuckDBType[] = [INTEGER, INTEGER, VARCHAR, INTEGER, INTEGER]
const THEME_OCC_TYPES: DuckDBType[] = [INTEGER, INTEGER, INTEGER, INTEGER, UTINYINT, INTEGER, INTEGER]

export interface StagedCall {
  result: IngestResult
  /** Applies the call's dimension rows to the catalog; run right after COMMIT. */
  applyToCatalog(): void
  /** The first analysis key free after this call. */
  nextAnalysisKey: number
  /** Domains whose aggregates this call changes, with the range of days changed. */
  changedDays: DomainChange[]
  /** Domains whose stored rows the call's deletions removed (their kept aggregates are dropped). */
  deletedFrom: number[]
  /**
   * Stored domains whose prompts the call writes (a topic or tags may change: their kept segments
   * are dropped; a domain new in this call has none).
   */
  promptDomains: number[]
  /** The catalog to install at COMMIT (read again from the transaction when the call deletes). */
  catalog: Catalog
  /** Teams the call deleted (their API keys went with them). */
  deletedTeams: string[]
}

export class IngestCall {
  readonly #conn: DuckDBConnection
  #catalog: Catalog
  #c: RecordCollector
  readonly #sink: BatchBuilder
  /**
   * The call's JavaScript work (validation, staging) in slices of main-thread time, so that
   * requests are served while a call is fed (docs/ARCHITECTURE.md, "Inside the engine": reads
   * never wait behind ingest).
   */
  readonly #slice = new TimeSlice()

  #analyses!: ChunkWriter
  #mentions!: ChunkWriter
  #citations!: ChunkWriter
  #citationDict!: ChunkWriter
  /** Citation dictionary entries appended so far: the next batch's first new one is numbered so. */
  #entries = 0
  #themeOcc!: ChunkWriter
  #fanout!: ChunkWriter
  #responses!: ChunkWriter
  /** The first analysis key free before this call: an analysis's key is `base + seq`. */
  readonly #base: number

  private constructor(conn: DuckDBConnection, catalog: Catalog, base: number) {
    this.#conn = conn
    this.#catalog = catalog
    this.#base = base
    this.#sink = new BatchBuilder(BATCH_ROWS, (b) => this.addBatch(b))
    this.#c = new RecordCollector(this.#sink)
  }

  /**
   * Opens the staging tables in a transaction of their own, committed once they are filled
   * (`stage`), when the call's transaction opens: DuckDB plans a statement by its tables'
   * committed row counts, and rows still local to a transaction count as none, which made it build
   * its hash tables on the call's millions of citations and probe them with a few thousand texts.
   * That first transaction writes this connection's temp tables and the call's answer texts, kept
   * apart by a negative domain_key until the call's own transaction places them: a call refused
   * after that commit deletes them again (`clearUnplaced`), and the next call's `begin` deletes any
   * a crash left. `nextAnalysisKey`: the first analysis key free (the one `stage` is given).
   */
  static async begin(conn: DuckDBConnection, catalog: Catalog, nextAnalysisKey: number): Promise<IngestCall> {
    const call = new IngestCall(conn, catalog, nextAnalysisKey)
    // One round trip: under serving load each one waits for a turn of the event loop.
    await conn.run(sqlScript(['call/unplaced_responses', 'call/begin', 'schema/staging']))
    call.#analyses = await ChunkWriter.open(conn, 'stg_analyses', ANALYSIS_TYPES)
    call.#mentions = await ChunkWriter.open(conn, 'stg_mentions', MENTION_TYPES)
    call.#citations = await ChunkWriter.open(conn, 'stg_citations', CITATION_TYPES)
    call.#citationDict = await ChunkWriter.open(conn, 'stg_citation_dict', CITATION_DICT_TYPES)
    call.#themeOcc = await ChunkWriter.open(conn, 'stg_theme_occ', THEME_OCC_TYPES)
    call.#fanout = await ChunkWriter.open(conn, 'stg_fanout', FANOUT_TYPES)
    call.#responses = await ChunkWriter.open(conn, 'analysis_responses', RESPONSE_TYPES, {
      stored: true,
      flushRows: RESPONSE_FLUSH_ROWS,
    })
    return call
  }

  get failed(): boolean {
    return this.#c.failed
  }

  /** The call's write connection, inside its transaction (a bulk path stages through it). */
  get connection(): DuckDBConnection {
    return this.#conn
  }

  /** The first free analysis key, the call's key base (a stored answer text's key is base + seq). */
  get base(): number {
    return this.#base
  }

  /** Answer texts a bulk path appended to analysis_responses in SQL, as addBatch does (src/parquet.ts). */
  appendedResponses = 0

  /** The validating half of the call (a bulk path registers its ids and references there). */
  get collector(): RecordCollector {
    return this.#c
  }

  /** The catalog the call's references are checked against. */
  get catalog(): Catalog {
    return this.#catalog
  }

  /**
   * Starts the call's validation over, before anything was staged: a bulk path that hands the
   * call over to the record path.
   */
  restart(): void {
    this.#c = new RecordCollector(this.#sink)
  }

  /**
   * Closes the staging tables' appenders before a bulk path fills the tables in SQL (closed
   * after that, each one costs tens of ms on this thread); nothing can be added after.
   */
  async closeWriters(): Promise<void> {
    // Each close is a synchronous flush: the event loop turns between them.
    for (const w of this.#writers()) {
      w!.close()
      await yieldToLoop()
    }
    this.#writersClosed = true
  }
  #writersClosed = false

  /**
   * The facts' bulk write, when a bulk path set one instead of staging them (src/ingest/pipeline.ts,
   * BulkFacts); the ingest steps run it.
   */
  bulk: BulkFacts | null = null

  /** Prefixed to every field named by an issue (the table name, for flat input). */
  get fieldPrefix(): string {
    return this.#c.fieldPrefix
  }
  set fieldPrefix(prefix: string) {
    this.#c.fieldPrefix = prefix
  }

  /** Records a problem with one record. */
  issue(loc: RecordLocation, field: string, message: string): void {
    this.#c.issue(loc, field, message)
  }

  /**
   * Lets the event loop turn when this call has held the thread for a slice (SLICE_MS) since the
   * last turn (a feed loop awaits it after each record); otherwise resolves at once.
   */
  breathe(): Promise<void> {
    return this.#slice.breathe()
  }

  /** Validates one record and stages it. Never throws for bad input: problems become issues. */
  add(raw: unknown, loc: RecordLocation): void {
    this.#c.add(raw, loc)
  }

  /** Appends a batch of analyses validated elsewhere (an NDJSON worker). */
  addBatch(b: AnalysisBatch): void {
    this.#analyses.appendColumns(
      [b.seq, b.id, b.domainH, b.promptH, b.channel, b.modelH, b.answeredMs, b.day, b.country],
      b.analyses,
      NO_NULLS,
    )
    this.#mentions.appendColumns(
      [b.mSeq, b.mEntityH, b.mPosition, b.mSentiment, b.mDomainH, b.mPromptH, b.mChannel, b.mDay],
      b.mentions,
      MENTION_NULLS,
    )
    if (b.entries > 0) {
      // One builder numbers a call's entries on from 0 (the worker's for a file, else this call's
      // own): batches of two would name each other's entries.
      if (b.eFirst !== this.#entries) throw new Error('addBatch: citation entries out of sequence')
      const numbers = new Int32Array(b.entries)
      for (let i = 0; i < numbers.length; i++) numbers[i] = b.eFirst + i
      this.#citationDict.appendColumns([numbers, b.eUrl, b.eHost, b.eCited], b.entries, NO_NULLS)
      this.#entries += b.entries
    }
    this.#citations.appendColumns(
      [b.cSeq, b.cEntry, b.cDomainH, b.cDay, b.cOrd, b.cTitle, b.cPageType],
      b.citations,
      NO_NULLS,
    )
    this.#themeOcc.appendColumns(
      [b.tSeq, b.tThemeH, b.tOccurrences, b.tDomainH, b.tChannel, b.tModelH, b.tDay],
      b.themes,
      NO_NULLS,
    )
    this.#fanout.appendColumns([b.fSeq, b.fOrd, b.fQuery, b.fDomainH, b.fDay], b.fanout, NO_NULLS)
    const n = b.responses
    if (n === 0) return
    const keys = new BigInt64Array(n)
    const domains = new Int32Array(n)
    for (let i = 0; i < n; i++) {
      keys[i] = BigInt(this.#base + b.rSeq[i]!)
      domains[i] = -1 - b.rDomainH[i]!
    }
    this.#responses.appendColumns([keys, domains, { utf8: b.rBytes, ends: b.rEnd }], n, NO_NULLS)
  }

  /**
   * Takes over the state of a collector that ran elsewhere (an NDJSON worker that sent its
   * analyses through `addBatch`), in place of this call's own.
   */
  adopt(state: CollectorState): void {
    this.#c = new RecordCollector(this.#sink, state)
  }

  /** Checks references, assigns keys and merges the staged rows into the store (not committed). */
  async stage(nextAnalysisKey: number): Promise<StagedCall> {
    const t0 = performance.now()
    if (nextAnalysisKey !== this.#base) throw new Error('stage: not the analysis key the call began with')
    checkReferences(this.#c, this.#catalog)
    await this.breathe()
    this.#sink.end()
    await this.breathe()
    const deletions = this.#c.deletes.size > 0 ? planDeletions(this.#c, this.#catalog) : null
    if (deletions !== null) checkDeletionConflicts(this.#c, deletions)
    if (this.failed) throw new IngestError(this.#c.issues, this.#c.issueTotal)
    // Each writer's flush is synchronous (node-api has no asynchronous one): one at a time, the
    // event loop turning between them.
    if (!this.#writersClosed)
      for (const w of this.#writers()) {
        w!.close()
        await this.breathe()
      }
    // With no deletions the keys are known now: the dimensions and handle maps are staged with the
    // staging's rows, and the staging's COMMIT, the call's BEGIN and the staged rows' query make one
    // round trip. A call that deletes stages them after its deletion pass (the catalog read again).
    let plan = deletions === null ? assignKeys(this.#c, this.#catalog) : null
    if (plan !== null) await this.#stageKeys(plan)
    let script = ['call/commit_staging', 'call/begin']
    if (plan !== null) script = [...script, STAGED_QUERY]
    let opened: DuckDBMaterializedResult
    try {
      opened = await this.#conn.run(sqlScript(script))
    } finally {
      // The COMMIT ran if any later statement did.
      this.#stagingCommitted = true
    }
    const removed = deletions === null ? null : await this.#delete(deletions)
    if (plan === null) {
      plan = assignKeys(this.#c, this.#catalog)
      await this.#stageKeys(plan)
      opened = await this.#conn.run(sqlText(STAGED_QUERY))
    }
    if (process.env.VA_TRACE_INGEST)
      process.stderr.write(`stage: up to the staged query ${(performance.now() - t0).toFixed(1)} ms\n`)
    // Whether the call repeats an analysis id, asked of DuckDB (it spills; a set of ids in JS would
    // grow with the call), and the rows of each staging table (the steps with none are skipped).
    const staged = resultRows(opened)[0]!
    const { unique, ...rows } = staged as unknown as Omit<StagedRows, 'old' | 'appended_responses'> & {
      unique: boolean
    }
    const { counts, changedDays } = await runIngestSteps(this.#conn, {
      unique,
      rows: { ...rows, old: 0, appended_responses: this.#responses.rowCount + this.appendedResponses },
      base: nextAnalysisKey,
      bulk: this.bulk,
      // Without deletions the transaction open here has written nothing to the store yet: the
      // early steps may commit it (src/ingest/pipeline.ts, EARLY_COMMIT).
      early: removed === null,
    })
    const result: IngestResult = {
      teams: this.#c.teams.size,
      domains: this.#c.domains.size,
      prompts: this.#c.prompts.size,
      competitors: this.#c.competitors.size,
      themes: this.#c.themes.size,
      ...counts,
      ...(removed === null ? {} : { deleted: removed.counts }),
    }
    const catalog = this.#catalog
    const finalPlan = plan
    return {
      result,
      changedDays,
      deletedFrom: [...new Set(removed?.domains ?? [])],
      promptDomains: [
        ...new Set(
          [...this.#c.prompts.values()].flatMap(
            ({ rec }) => catalog.domains.get(rec.domain_id.toLowerCase())?.key ?? [],
          ),
        ),
      ],
      applyToCatalog: () => applyToCatalog(this.#c, catalog, finalPlan),
      nextAnalysisKey: nextAnalysisKey + this.#c.seq,
      catalog,
      deletedTeams: deletions?.storedTeams ?? [],
    }
  }

  /** Stages the call's dimension rows and handle -> key maps (plan: their keys). */
  async #stageKeys(plan: KeyPlan): Promise<void> {
    await stageDimensions(this.#conn, this.#c, plan)
    await stageMaps(this.#conn, this.#c, plan)
  }

  /**
   * The call's deletions, before its upserts (src/ingest/deletions.ts): refused when they take an
   * analysis the call upserts; then the pass, and the catalog read again for the upserts' keys.
   */
  async #delete(plan: DeletionPlan) {
    await stageDeletions(this.#conn, plan)
    await checkAnalysisConflicts(this.#conn, this.#c, plan)
    if (this.failed) throw new IngestError(this.#c.issues, this.#c.issueTotal)
    const notFound = plan.notFound + (await unknownAnalyses(this.#conn))
    const pass = await runDeletionPass(this.#conn, { kind: 'deleted' })
    this.#catalog = await reloadCatalog(this.#conn, this.#catalog)
    return { counts: deletionCounts(pass, notFound), domains: [...pass.affectedDomains, ...plan.domainKeys] }
  }

  /** Closes the writers after a failure; the caller rolls back. */
  abandon(): void {
    for (const w of this.#writers()) w?.abandon()
  }

  #stagingCommitted = false

  /**
   * Run after a refused call's ROLLBACK: once the staging was committed, the answer texts it
   * appended are stored rows, not yet placed (see `begin`), and go.
   */
  async clearUnplaced(): Promise<void> {
    if (this.#stagingCommitted) await this.#conn.run(sqlText('call/unplaced_responses'))
  }

  #writers(): (ChunkWriter | undefined)[] {
    return [
      this.#analyses,
      this.#mentions,
      this.#citations,
      this.#citationDict,
      this.#themeOcc,
      this.#fanout,
      this.#responses,
    ]
  }
}
