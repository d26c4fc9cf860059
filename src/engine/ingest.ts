/**
 * @module An engine's ingest calls (docs/API.md, "Ingest"): feed the records, stage them, then
 * COMMIT while reports are held off and drop the aggregates the call made stale.
 */
import { existsSync, statSync } from 'node:fs'
import { ReadOnlyError } from '../errors.js'
import { IngestCall } from '../ingest/call.js'
import { feedFlatBulk, rowsSource } from '../ingest/flat-sql.js'
import { arrowToFlatRows, feedNdjsonPath, feedRecords } from '../ingest/sources.js'
import { exportSource } from '../parquet.js'
import type { ArrowTables, IngestFileOptions, IngestResult, RecordSource } from '../types.js'
import { withExportReader, type EngineInternals } from './operations.js'

/**
 * The ingest calls of one engine: one at a time (the engine's write lock), each one transaction.
 * @example
 * const ingest = new EngineIngest(internals, nextAnalysisKey, (staged) => keys.forgetTeams(staged.deletedTeams))
 * await ingest.records([{ type: 'team', ... }])
 */
export class EngineIngest {
  constructor(
    private readonly e: EngineInternals,
    /** The analysis key the next stored analysis gets. */
    private nextAnalysisKey: number,
    /** Called after each commit, with what it changed (teams deleted, days changed). */
    private readonly committed: (staged: {
      deletedTeams: string[]
      changedDays: readonly { domainKey: number }[]
    }) => void,
  ) {}

  async records(records: RecordSource): Promise<IngestResult> {
    return this.#run((call) => feedRecords(call, records))
  }

  async arrow(tables: ArrowTables): Promise<IngestResult> {
    const rows = arrowToFlatRows(tables)
    return this.#run((call) => feedFlatBulk(call, rowsSource(rows)))
  }

  /** An NDJSON file, or a directory written by `exportParquet`. */
  async file(path: string, options: IngestFileOptions = {}): Promise<IngestResult> {
    if (typeof path === 'string' && existsSync(path) && statSync(path).isDirectory()) {
      this.e.check()
      if (this.e.readOnly) throw new ReadOnlyError('ingest')
      return this.#run((call) =>
        withExportReader(this.e, (reader) => feedFlatBulk(call, exportSource(path, reader))),
      )
    }
    return this.#run((call) => feedNdjsonPath(call, path, options.onProgress))
  }

  /** One ingest call: feed, stage, then COMMIT while reports are held off, and drop stale aggregates. */
  async #run(feed: (call: IngestCall) => Promise<void>): Promise<IngestResult> {
    const e = this.e
    e.check()
    if (e.readOnly) throw new ReadOnlyError('ingest')
    return e.exclusive(async () => {
      e.check()
      const t0 = performance.now()
      const call = await IngestCall.begin(e.write, e.catalog, this.nextAnalysisKey)
      try {
        await feed(call)
        const t1 = performance.now()
        const staged = await call.stage(this.nextAnalysisKey)
        const t2 = performance.now()
        await e.commit(staged.catalog, () => {
          staged.applyToCatalog()
          e.aggregates.invalidate(staged.deletedFrom)
          e.aggregates.refresh(staged.changedDays)
          e.aggregates.dropSegments(staged.promptDomains)
          this.committed(staged)
        })
        this.nextAnalysisKey = staged.nextAnalysisKey
        if (process.env.VA_TRACE_INGEST) {
          const ms = (a: number, b: number) => (b - a).toFixed(1)
          const t3 = performance.now()
          process.stderr.write(
            `ingest call: begin + feed ${ms(t0, t1)} ms, stage ${ms(t1, t2)} ms, commit ${ms(t2, t3)} ms\n`,
          )
        }
        return staged.result
      } catch (err) {
        call.abandon()
        return e.rollback(err, 'ingest', () => call.clearUnplaced())
      }
    })
  }
}
