/**
 * The aggregate store: hands the reports one domain's rows of an aggregate table, read from DuckDB
 * and, by default, kept in memory (least recently used entries go first, up to `maxRows` rows in
 * all). Entries are dropped for the domains a commit touches, while queries are held off by the
 * engine's readers-writer lock, so an entry never outlives the snapshot it was read from.
 */
import type { ReadPool } from '../db/read-pool.js'
import {
  AGGREGATE_TABLE_NAMES,
  AGGREGATE_TABLES,
  loadQueryId,
  modelQueryId,
  namedColumns,
  type AggregateRows,
  type AggregateSource,
  type AggregateTable,
  type ModelTable,
} from './aggregates.js'

interface Entry {
  /** The table's rows (an AggregateRows of the table in the entry's key). */
  rows: Promise<unknown>
  count: number
}

export interface AggregateStoreOptions {
  /** Keep loaded rows between queries (false: every query reads them again). */
  retain: boolean
  /** Rows kept in all. */
  maxRows: number
}

export class AggregateStore implements AggregateSource {
  readonly #entries = new Map<string, Entry>()
  #count = 0
  #hits = 0
  #misses = 0

  constructor(
    readonly pool: Pick<ReadPool, 'loadColumns'>,
    readonly options: AggregateStoreOptions,
  ) {}

  get keepsRows(): boolean {
    return this.options.retain
  }

  rows<T extends AggregateTable>(table: T, domainKey: number): Promise<AggregateRows<T>> {
    if (!this.options.retain) return this.#load(table, domainKey)
    const key = `${domainKey}:${table}`
    const hit = this.#entries.get(key)
    if (hit) {
      this.#hits++
      this.#entries.delete(key) // re-insert: most recently used last
      this.#entries.set(key, hit)
      return hit.rows as Promise<AggregateRows<T>>
    }
    this.#misses++
    const rows = this.#load(table, domainKey)
    const entry: Entry = { rows, count: 0 }
    this.#entries.set(key, entry)
    rows.then(
      (loaded) => {
        if (this.#entries.get(key) !== entry) return // invalidated while loading
        entry.count = loaded.day.length
        this.#count += entry.count
        this.#evict()
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key)
      },
    )
    return rows
  }

  /** A raw model's rows: read from DuckDB on every call (the slower path of a raw model filter). */
  async modelRows<T extends ModelTable>(
    table: T,
    domainKey: number,
    modelKey: number,
  ): Promise<AggregateRows<T>> {
    const arrays = await this.pool.loadColumns(
      modelQueryId(table),
      { domain_key: domainKey, model_key: modelKey },
      AGGREGATE_TABLES[table],
    )
    return namedColumns(table, arrays)
  }

  /** Rows and entries held, and lookups answered from memory (hits) or DuckDB (misses). */
  stats(): { rows: number; entries: number; hits: number; misses: number } {
    return { rows: this.#count, entries: this.#entries.size, hits: this.#hits, misses: this.#misses }
  }

  /** Drops every entry of these domains. */
  invalidate(domainKeys: Iterable<number>): void {
    for (const dk of domainKeys) {
      for (const table of AGGREGATE_TABLE_NAMES) {
        const key = `${dk}:${table}`
        const e = this.#entries.get(key)
        if (e) {
          this.#count -= e.count
          this.#entries.delete(key)
        }
      }
    }
  }

  async #load<T extends AggregateTable>(table: T, domainKey: number): Promise<AggregateRows<T>> {
    const arrays = await this.pool.loadColumns(
      loadQueryId(table),
      { domain_key: domainKey },
      AGGREGATE_TABLES[table],
    )
    return namedColumns(table, arrays)
  }

  #evict(): void {
    for (const [key, e] of this.#entries) {
      if (this.#count <= this.options.maxRows || this.#entries.size <= 1) return
      this.#count -= e.count
      this.#entries.delete(key)
    }
  }
}
