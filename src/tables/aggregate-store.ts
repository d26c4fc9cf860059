/**
 * The aggregate store: hands the reports one domain's rows of an aggregate table, read from DuckDB
 * and, by default, kept in memory (least recently used entries go first, up to `maxRows` rows in
 * all). A commit that changes some days of a domain marks its entries stale for those days
 * (`refresh`, while queries are held off by the engine's readers-writer lock): the next read of a
 * table loads only the rows of those days, of every domain whose entry of that table is stale, in
 * one query, and splices them into the kept arrays (sorted by day), so the first query after a
 * commit pays for the changed days, not the whole domain, and one query per table, not one per
 * domain and table. The rows of a day read after the commit are the committed ones, whichever
 * commit came after: a later commit marks its own days, so no entry ever mixes two states of one
 * day. Deletions drop entries (`invalidate`); a call that writes a prompt drops its domain's
 * segments (`dropSegments`: a topic or tags may have changed).
 *
 * It also keeps per-domain structures built from such reads (`derived`: the citation and fan-out
 * indexes of src/tables/cited-index.ts), under the same rules: a commit drops them, or, for those
 * that can `refresh`, marks their changed days like a table's.
 */
import type { DayRange, DomainChange } from '../db/changes.js'
import type { ReadPool } from '../db/read-pool.js'
import { lowerBound } from '../foundation/window.js'
import {
  AGGREGATE_TABLE_NAMES,
  AGGREGATE_TABLES,
  loadQueryId,
  reloadQueryId,
  modelQueryId,
  namedColumns,
  type AggregateRows,
  type AggregateSource,
  type AggregateTable,
  type ModelTable,
  type Derived,
} from './aggregates.js'

export type { DayRange, DomainChange }

interface Entry {
  /** The table's rows (an AggregateRows of the table in the entry's key). */
  rows: Promise<unknown>
  count: number
  /** Days (since 1970-01-01, both included) a commit changed since `rows` was read; null: none. */
  stale: DayRange | null
}

/** Every day: a whole domain's rows. */
const ALL_DAYS: DayRange = { from: -1_000_000, to: 1_000_000 }

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

  /** The derived structures asked for so far, by name (dropped with the tables on invalidation). */
  readonly #derived = new Map<string, Derived<unknown>>()
  /** Per aggregate table, the domains whose kept entry a commit made stale (read again together). */
  readonly #staleKeys = new Map<AggregateTable, Set<number>>()
  /** Per domain, the names of its segments' entries (dropped, and forgotten, at its next change). */
  readonly #segmentNames = new Map<number, Set<string>>()

  constructor(
    readonly pool: Pick<ReadPool, 'loadColumns' | 'loadStrings'>,
    readonly options: AggregateStoreOptions,
  ) {}

  get keepsRows(): boolean {
    return this.options.retain
  }

  rows<T extends AggregateTable>(table: T, domainKey: number): Promise<AggregateRows<T>> {
    const hit = this.options.retain ? this.#entries.get(`${domainKey}:${table}`) : undefined
    if (hit?.stale) this.#refreshTable(table)
    return this.#cached(table, domainKey, async () => {
      const rows = await this.#load(table, domainKey, ALL_DAYS)
      return { value: rows, rows: rows.day.length }
    })
  }

  /**
   * Every kept entry of `table` that a commit made stale, its changed days read again (one query
   * for all of them: a commit of a few hundred analyses touches dozens of domains, and a query per
   * domain cost ~3 ms of DuckDB's fixed work each) and spliced into its kept rows.
   */
  #refreshTable<T extends AggregateTable>(table: T): void {
    const stale: { key: string; entry: Entry; domainKey: number; days: DayRange }[] = []
    for (const domainKey of this.#staleKeys.get(table) ?? []) {
      const key = `${domainKey}:${table}`
      const entry = this.#entries.get(key)
      if (entry?.stale) stale.push({ key, entry, domainKey, days: entry.stale })
    }
    this.#staleKeys.delete(table)
    if (stale.length === 0) return
    const loaded = this.#reload(table, stale)
    for (const s of stale)
      this.#applyDelta(s.key, s.entry, async (kept) => {
        const delta = (await loaded).get(s.domainKey) ?? emptyRows(table)
        const rows = spliceDays(table, kept as AggregateRows<T>, delta, s.days)
        return { value: rows, rows: rows.day.length }
      })
  }

  /** Replaces a stale entry's rows by `update(kept rows)`: the kept ones with the changed days read again. */
  #applyDelta(
    key: string,
    entry: Entry,
    update: (kept: unknown) => Promise<{ value: unknown; rows: number }>,
  ): void {
    const updated = entry.rows.then(update)
    entry.stale = null
    entry.rows = updated.then((u) => u.value)
    updated.then(
      (u) => {
        if (this.#entries.get(key) !== entry) return
        this.#count += u.rows - entry.count
        entry.count = u.rows
        this.#evict()
      },
      () => {
        if (this.#entries.get(key) === entry) {
          this.#count -= entry.count
          this.#entries.delete(key)
        }
      },
    )
  }

  derived<T>(derived: Derived<T>, domainKey: number): Promise<T> {
    this.#derived.set(derived.name, derived as Derived<unknown>)
    const key = `${domainKey}:${derived.name}`
    const hit = this.options.retain ? this.#entries.get(key) : undefined
    const days = hit?.stale
    if (hit !== undefined && days && derived.refresh)
      this.#applyDelta(key, hit, (kept) => derived.refresh!(this.pool, domainKey, kept as T, days))
    return this.#cached(derived.name, domainKey, () => derived.build(this.pool, domainKey, this))
  }

  segmented<T>(derived: Derived<T>, domainKey: number): Promise<T> {
    if (this.options.retain) {
      let names = this.#segmentNames.get(domainKey)
      if (names === undefined) this.#segmentNames.set(domainKey, (names = new Set()))
      names.add(derived.name)
    }
    return this.#cached(derived.name, domainKey, () => derived.build(this.pool, domainKey, this))
  }

  /** Drops the entries of these domains' segments (a call wrote their prompts: topics and tags may have changed). */
  dropSegments(domainKeys: Iterable<number>): void {
    for (const dk of domainKeys) this.#dropSegments(dk)
  }

  /** Drops the entries of a domain's segments. */
  #dropSegments(domainKey: number): void {
    const names = this.#segmentNames.get(domainKey)
    if (names === undefined) return
    this.#segmentNames.delete(domainKey)
    this.#drop(domainKey, names)
  }

  /** The entry `name` of a domain, built once and kept while the options and the budget allow. */
  #cached<T>(name: string, domainKey: number, build: () => Promise<{ value: T; rows: number }>): Promise<T> {
    if (!this.options.retain) return build().then((b) => b.value)
    const key = `${domainKey}:${name}`
    const hit = this.#entries.get(key)
    if (hit) {
      this.#hits++
      this.#entries.delete(key) // re-insert: most recently used last
      this.#entries.set(key, hit)
      return hit.rows as Promise<T>
    }
    this.#misses++
    const built = build()
    const rows = built.then((b) => b.value)
    const entry: Entry = { rows, count: 0, stale: null }
    this.#entries.set(key, entry)
    built.then(
      (b) => {
        if (this.#entries.get(key) !== entry) return // invalidated while loading
        entry.count = b.rows
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
      this.#drop(dk, [...AGGREGATE_TABLE_NAMES, ...this.#derived.keys()])
      this.#dropSegments(dk)
    }
  }

  /**
   * After a commit that changed these days of these domains: their aggregate tables' entries, and
   * the derived structures that can `refresh`, read those days again at their next use (the other
   * derived structures are dropped and rebuilt).
   */
  refresh(changes: Iterable<DomainChange>): void {
    const [refreshed, dropped] = [[] as string[], [] as string[]]
    for (const [name, d] of this.#derived) (d.refresh ? refreshed : dropped).push(name)
    for (const c of changes) {
      this.#drop(c.domainKey, dropped)
      this.#dropSegments(c.domainKey)
      for (const table of [...AGGREGATE_TABLE_NAMES, ...refreshed]) {
        const e = this.#entries.get(`${c.domainKey}:${table}`)
        if (e === undefined) continue
        if (table in AGGREGATE_TABLES) {
          const keys = this.#staleKeys.get(table as AggregateTable)
          if (keys === undefined) this.#staleKeys.set(table as AggregateTable, new Set([c.domainKey]))
          else keys.add(c.domainKey)
        }
        e.stale =
          e.stale === null
            ? { from: c.from, to: c.to }
            : { from: Math.min(e.stale.from, c.from), to: Math.max(e.stale.to, c.to) }
      }
    }
  }

  #drop(domainKey: number, names: Iterable<string>): void {
    for (const name of names) {
      const key = `${domainKey}:${name}`
      const e = this.#entries.get(key)
      if (e) {
        this.#count -= e.count
        this.#entries.delete(key)
      }
    }
  }

  async #load<T extends AggregateTable>(
    table: T,
    domainKey: number,
    days: DayRange,
  ): Promise<AggregateRows<T>> {
    const arrays = await this.pool.loadColumns(
      loadQueryId(table),
      { domain_key: domainKey, from_day: days.from, to_day: days.to },
      AGGREGATE_TABLES[table],
    )
    return namedColumns(table, arrays)
  }

  /** The rows of `table` of each domain's days, by domain (domains without rows there left out). */
  async #reload<T extends AggregateTable>(
    table: T,
    wants: readonly { domainKey: number; days: DayRange }[],
  ): Promise<Map<number, AggregateRows<T>>> {
    const [keys, ...arrays] = await this.pool.loadColumns(
      reloadQueryId(table),
      {
        domain_keys: wants.map((w) => w.domainKey),
        from_days: wants.map((w) => w.days.from),
        to_days: wants.map((w) => w.days.to),
        from_day: Math.min(...wants.map((w) => w.days.from)),
        to_day: Math.max(...wants.map((w) => w.days.to)),
      },
      ['domain_key', ...AGGREGATE_TABLES[table]],
    )
    // Ordered by domain: one run of rows per domain.
    const out = new Map<number, AggregateRows<T>>()
    for (let start = 0, end = 0; start < keys!.length; start = end) {
      while (end < keys!.length && keys![end] === keys![start]) end++
      out.set(
        keys![start]!,
        namedColumns(
          table,
          arrays.map((a) => a.subarray(start, end)),
        ),
      )
    }
    return out
  }

  #evict(): void {
    for (const [key, e] of this.#entries) {
      if (this.#count <= this.options.maxRows || this.#entries.size <= 1) return
      this.#count -= e.count
      this.#entries.delete(key)
    }
  }
}

/** A table's rows of nothing. */
function emptyRows<T extends AggregateTable>(table: T): AggregateRows<T> {
  return namedColumns(
    table,
    AGGREGATE_TABLES[table].map(() => new Float64Array(0)),
  )
}

/** `kept` with its rows of `days` replaced by `delta` (all sorted by day, then as loaded). */
export function spliceDays<T extends AggregateTable>(
  table: T,
  kept: AggregateRows<T>,
  delta: AggregateRows<T>,
  days: DayRange,
): AggregateRows<T> {
  const start = lowerBound(kept.day, days.from)
  const end = lowerBound(kept.day, days.to + 1)
  const n = delta.day.length
  const size = kept.day.length - (end - start) + n
  const columns = AGGREGATE_TABLES[table] as readonly string[]
  const byName = kept as unknown as Record<string, Float64Array>
  const deltaByName = delta as unknown as Record<string, Float64Array>
  const arrays = columns.map((c) => {
    const out = new Float64Array(size)
    const k = byName[c]!
    out.set(k.subarray(0, start), 0)
    out.set(deltaByName[c]!, start)
    out.set(k.subarray(end), start + n)
    return out
  })
  return namedColumns(table, arrays)
}
