/**
 * The flat form of the records (docs/API.md, "Ingest: records": one table per record type, nested lists as their
 * own tables keyed by analysis_id) turned back into records, for Arrow tables and Parquet exports.
 * Values are normalized (Date -> ISO string, bigint -> number) and then validated like any input.
 */
import type { Utf8Column } from '../db/chunk-writer.js'
import { ValidationError } from '../errors.js'
import { countingOrder } from '../foundation/counting.js'
import { SLICE_MASK, TimeSlice } from '../foundation/slice.js'

export const FLAT_TABLES = [
  'teams',
  'domains',
  'prompts',
  'competitors',
  'themes',
  'analyses',
  'mentions',
  'citations',
  'theme_occurrences',
  'fanout_queries',
  'prompt_tags',
] as const
/**
 * Tables accepted on input only (Arrow): `deletes`, one delete record per row (entity, id). An
 * export never writes them; a Parquet import does not read them.
 */
export const INPUT_ONLY_TABLES = ['deletes'] as const
export type FlatTableName = (typeof FLAT_TABLES)[number] | (typeof INPUT_ONLY_TABLES)[number]

/**
 * A flat table held column by column (an Arrow table or a Parquet read, decoded once per column):
 * `column(name)` gives a column's values by row, or undefined when the table has no such column.
 * Iterating it gives the rows as plain objects.
 */
export class FlatColumns implements Iterable<Record<string, unknown>> {
  /**
   * `bytes(name)`, when given: a text column with no null as its UTF-8 bytes (an Arrow Utf8
   * column's buffers), or undefined when the column is not held so; the SQL path appends those
   * bytes as they are, with no string made per value (src/ingest/flat-sql.ts). `prepare(names)`,
   * when given, decodes those columns ahead in slices of time, so that `column` then finds them
   * decoded and the event loop turns meanwhile (src/ingest/from-arrow.ts).
   */
  constructor(
    readonly length: number,
    readonly names: readonly string[],
    readonly column: (name: string) => ArrayLike<unknown> | undefined,
    readonly bytes?: (name: string) => Utf8Column | undefined,
    readonly prepare?: (names: readonly string[]) => Promise<void>,
  ) {}

  /** Columns given whole (each `length` long). */
  static of(columns: Readonly<Record<string, ArrayLike<unknown>>>, length: number): FlatColumns {
    return new FlatColumns(length, Object.keys(columns), (name) =>
      Object.hasOwn(columns, name) ? columns[name] : undefined,
    )
  }

  *[Symbol.iterator](): Generator<Record<string, unknown>> {
    const cols = this.names.map((n) => this.column(n))
    for (let i = 0; i < this.length; i++) {
      const row: Record<string, unknown> = {}
      for (let c = 0; c < cols.length; c++) row[this.names[c]!] = cols[c]![i]
      yield row
    }
  }
}

/** Rows of each flat table (any subset of the tables), as row objects or as columns. */
export type FlatRows = Partial<Record<FlatTableName, Iterable<Record<string, unknown>> | FlatColumns>>

const SINGLE: Record<string, string> = {
  teams: 'team',
  domains: 'domain',
  prompts: 'prompt',
  competitors: 'competitor',
  themes: 'theme',
  deletes: 'delete',
}

/**
 * The columns of each table, as in docs/API.md, "Ingest: records" and docs/API.md, "Ingest: records"; anything else in a
 * row is dropped. `ord` (citations, fan-out queries; written by the export) is the entry's 0-based
 * position in its analysis's list: rows are put in that order when they have it, else kept in
 * their order.
 */
const COLUMNS: Record<FlatTableName, string[]> = {
  teams: ['id', 'name', 'plan', 'developer_access'],
  domains: ['id', 'team_id', 'brand_name', 'website', 'created_at'],
  prompts: ['id', 'domain_id', 'text', 'estimated_search_volume', 'created_at', 'topic'],
  competitors: ['id', 'domain_id', 'name', 'website'],
  themes: ['id', 'domain_id', 'name', 'custom_name', 'archived', 'sentiment', 'created_at'],
  analyses: ['id', 'domain_id', 'prompt_id', 'channel', 'model', 'answered_at', 'country', 'response'],
  mentions: ['analysis_id', 'entity_id', 'position', 'sentiment'],
  citations: ['analysis_id', 'url', 'title', 'page_type', 'ord'],
  theme_occurrences: ['analysis_id', 'theme_id', 'occurrences'],
  deletes: ['entity', 'id'],
  fanout_queries: ['analysis_id', 'query', 'ord'],
  prompt_tags: ['prompt_id', 'tag'],
}

/** Columns holding a calendar date (`YYYY-MM-DD`) and columns holding an instant (ISO 8601), by `table.column`. */
const DATE_COLUMNS = new Set(['themes.created_at'])
const INSTANT_COLUMNS = new Set(['analyses.answered_at', 'domains.created_at', 'prompts.created_at'])

/** Whether `table.column` holds a calendar date, an instant (either: a time), or neither. */
function timeKind(table: FlatTableName, column: string): { date: boolean; time: boolean } {
  const at = `${table}.${column}`
  const date = DATE_COLUMNS.has(at)
  return { date, time: date || INSTANT_COLUMNS.has(at) }
}

/**
 * Rows [from, to) of `col` normalized into `out` (made, a copy of `col`, at the first value that
 * changes); returns `out`, still undefined when nothing changed.
 */
function normalizeRange(
  col: ArrayLike<unknown>,
  n: number,
  from: number,
  to: number,
  kind: { date: boolean; time: boolean },
  out: unknown[] | undefined,
): unknown[] | undefined {
  for (let i = from; i < to; i++) {
    const v = col[i]
    let w = v
    if (typeof w === 'bigint') w = Number(w)
    if (kind.time && typeof w === 'number') w = new Date(w)
    if (w instanceof Date) w = kind.date ? w.toISOString().slice(0, 10) : w.toISOString()
    if (w !== v) {
      out ??= Array.from({ length: n }, (_, j) => col[j])
      out[i] = w
    }
  }
  return out
}

/** Whether a column needs no normalizing: typed arrays of numbers (Arrow Float64, Int32) not holding times. */
function plainNumbers(col: ArrayLike<unknown>, time: boolean): boolean {
  return !time && ArrayBuffer.isView(col) && !(col instanceof BigInt64Array || col instanceof BigUint64Array)
}

/** A flat column's values as a record carries them: bigint as number, Arrow/Parquet dates and timestamps (Date or ms) as ISO strings. */
function normalizeColumn(
  col: ArrayLike<unknown>,
  n: number,
  table: FlatTableName,
  column: string,
): ArrayLike<unknown> {
  const kind = timeKind(table, column)
  if (plainNumbers(col, kind.time)) return col
  return normalizeRange(col, n, 0, n, kind, undefined) ?? col
}

/**
 * Rows of a column normalized per look at the clock (SLICE_MASK + 1), the event loop let turn
 * whenever the slice is spent: a time column's Date and ISO string per row held an Arrow import's
 * loop ~0.5-1 s in one go on the bench's L (1.5M analyses).
 */
const NORMALIZE_ROWS = SLICE_MASK + 1

/**
 * normalizeColumn in slices of time (the same values).
 * @example
 * const answeredAt = await normalizeColumnAsync(col, n, 'analyses', 'answered_at')
 */
export async function normalizeColumnAsync(
  col: ArrayLike<unknown>,
  n: number,
  table: FlatTableName,
  column: string,
  slice: TimeSlice = new TimeSlice(),
): Promise<ArrayLike<unknown>> {
  const kind = timeKind(table, column)
  if (plainNumbers(col, kind.time)) return col
  let out: unknown[] | undefined
  for (let from = 0; from < n; from += NORMALIZE_ROWS) {
    await slice.breathe()
    out = normalizeRange(col, n, from, Math.min(n, from + NORMALIZE_ROWS), kind, out)
  }
  return out ?? col
}

/**
 * Columns that may hold null. A flat table without such a column reads it as null: Arrow writers
 * (apache-arrow's tableFromJSON among them) drop columns whose values are all null.
 */
const NULLABLE = new Set([
  'website',
  'custom_name',
  'estimated_search_volume',
  'position',
  'sentiment',
  'title',
  'page_type',
  'topic',
  'country',
  'response',
])

/** A flat table's known columns (docs/API.md, "Ingest: records"), normalized, in COLUMNS order; undefined for a missing one. */
export interface Picked {
  n: number
  names: readonly string[]
  cols: (ArrayLike<unknown> | undefined)[]
}

/** The known columns of a flat table, whether it came as rows or as columns. */
export function columnsOf(
  source: Iterable<Record<string, unknown>> | FlatColumns | undefined,
  table: FlatTableName,
  skip?: ReadonlySet<string>,
): Picked {
  const names = COLUMNS[table]
  if (source === undefined) return { n: 0, names, cols: names.map(() => undefined) }
  let n: number
  let raw: (ArrayLike<unknown> | undefined)[]
  if (source instanceof FlatColumns) {
    n = source.length
    // A skipped column (read another way by the caller) is not decoded.
    raw = names.map((c) => (skip?.has(c) ? undefined : source.column(c)))
  } else {
    const values: unknown[][] = names.map(() => [])
    const seen = names.map(() => false)
    n = 0
    for (const row of source) {
      for (let c = 0; c < names.length; c++) {
        const v = row[names[c]!]
        values[c]!.push(v)
        if (v !== undefined) seen[c] = true
      }
      n++
    }
    raw = values.map((v, c) => (seen[c] ? v : undefined))
  }
  return {
    n,
    names,
    cols: raw.map((col, c) => (col === undefined ? undefined : normalizeColumn(col, n, table, names[c]!))),
  }
}

/**
 * Row `i` of columns `from` to `to` (excluded) as a record's fields: a missing value is null when
 * the column may hold null, else left out (validation then names it).
 */
function rowObject(p: Picked, i: number, from = 0, to = p.names.length): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (let c = from; c < to; c++) {
    const v = p.cols[c]?.[i]
    if (v !== undefined) out[p.names[c]!] = v
    else if (NULLABLE.has(p.names[c]!)) out[p.names[c]!] = null
  }
  return out
}

/** Column `c` of a picked table (analysis_id and the like), undefined values where it is missing. */
const valuesOf = (p: Picked, c: number): ArrayLike<unknown> => p.cols[c] ?? { length: p.n }

/** Where a flat row came from, for error messages: `index` counts rows across all tables. */
export interface FlatRecord {
  record: unknown
  table: FlatTableName
  row: number
  /** Set for child rows whose analysis_id matches no analyses row. */
  orphanOf?: string
}

/**
 * The rows of one child table grouped by analysis: `rows[start[g]]` up to `rows[start[g + 1]]`
 * are group g's row numbers, in table order.
 */
interface Groups {
  start: Int32Array
  rows: Int32Array
}

/**
 * Gives each distinct analysis_id (compared in lower case) a group number, in order of first
 * appearance across the child tables, and the rows of each table by group (a counting sort: no
 * object per row until the analysis's record is built).
 */
class ChildIndex {
  readonly keys: string[] = []
  readonly #group = new Map<string, number>()
  readonly #of: Int32Array[] = []

  /** Numbers the rows of one child table by their analysis_id column. */
  add(ids: ArrayLike<unknown>, n: number): void {
    const of = new Int32Array(n)
    // Child rows come grouped by analysis (an export writes them so): the last id is reused.
    let lastId: unknown
    let last = -1
    for (let i = 0; i < n; i++) {
      const id = ids[i]
      if (id !== lastId || typeof id !== 'string') {
        const key = String(id).toLowerCase()
        let g = this.#group.get(key)
        if (g === undefined) {
          g = this.keys.length
          this.#group.set(key, g)
          this.keys.push(key)
        }
        lastId = id
        last = g
      }
      of[i] = last
    }
    this.#of.push(of)
  }

  group(id: string): number | undefined {
    return this.#group.get(id)
  }

  /** Each table's rows by group, in the order the tables were added. */
  sorted(): Groups[] {
    const count = this.keys.length
    return this.#of.map((of) => {
      const { order, start } = countingOrder(of, count)
      return { start, rows: order }
    })
  }
}

/**
 * The items of group g built by `item(row)`, in `ord` order when the rows carry it (stable: rows
 * without keep their order).
 */
function groupItems(
  gs: Groups,
  g: number | undefined,
  item: (row: number) => unknown,
  ord?: ArrayLike<unknown>,
): unknown[] {
  if (g === undefined) return []
  const from = gs.start[g]!
  const to = gs.start[g + 1]!
  let rows: ArrayLike<number> = gs.rows.subarray(from, to)
  if (ord !== undefined) {
    let any = false
    for (let k = 0; k < rows.length && !any; k++) any = typeof ord[rows[k]!] === 'number'
    if (any) {
      const key = (r: number) => (typeof ord[r] === 'number' ? (ord[r] as number) : Infinity)
      rows = Array.from(rows).sort((a, b) => key(a) - key(b))
    }
  }
  const out = new Array<unknown>(rows.length)
  for (let k = 0; k < rows.length; k++) out[k] = item(rows[k]!)
  return out
}

/** The tags of each prompt id (lower case) in a prompt_tags table, in row order. */
function tagsByPrompt(source: FlatRows['prompt_tags']): Map<string, unknown[]> {
  const p = columnsOf(source, 'prompt_tags')
  const [ids, tags] = [valuesOf(p, 0), valuesOf(p, 1)]
  const out = new Map<string, unknown[]>()
  for (let i = 0; i < p.n; i++) {
    const key = String(ids[i]).toLowerCase()
    let list = out.get(key)
    if (list === undefined) out.set(key, (list = []))
    list.push(tags[i])
  }
  return out
}

/**
 * Yields the records of flat tables: dimension rows as they are (a prompt with its tags gathered
 * from prompt_tags by prompt_id; none: no tags), and one analysis per analyses row
 * with its mentions, citations, theme occurrences and fan-out queries gathered by analysis_id (an
 * analysis without fan-out rows has none; a repeated analyses row gets them once, with the first);
 * last, one entry per analysis_id of child rows that matches no analyses row. An entry with
 * `orphanOf` and table `prompt_tags` is a prompt_id of prompt_tags rows that matches no prompts row.
 */
export function* flatToRecords(tables: FlatRows): Generator<FlatRecord> {
  const tags = tagsByPrompt(tables.prompt_tags)
  for (const table of ['teams', 'domains', 'prompts', 'competitors', 'themes', 'deletes'] as const) {
    const p = columnsOf(tables[table], table)
    for (let i = 0; i < p.n; i++) {
      const record: Record<string, unknown> = { type: SINGLE[table], ...rowObject(p, i) }
      if (table === 'prompts') {
        const key = String(record.id).toLowerCase()
        const own = tags.get(key)
        if (own !== undefined) {
          record.tags = own
          tags.delete(key) // a repeated prompts row gets them once, with the first
        }
      }
      yield { record, table, row: i }
    }
  }
  for (const promptId of tags.keys())
    yield { record: undefined, table: 'prompt_tags', row: -1, orphanOf: promptId }
  const mentions = columnsOf(tables.mentions, 'mentions')
  const citations = columnsOf(tables.citations, 'citations')
  const occurrences = columnsOf(tables.theme_occurrences, 'theme_occurrences')
  const fanout = columnsOf(tables.fanout_queries, 'fanout_queries')
  const index = new ChildIndex()
  for (const t of [mentions, citations, occurrences, fanout]) index.add(valuesOf(t, 0), t.n)
  const [mGroups, cGroups, tGroups, fGroups] = index.sorted() as [Groups, Groups, Groups, Groups]
  const [tTheme, tCount] = [1, 2].map((c) => valuesOf(occurrences, c)) as [
    ArrayLike<unknown>,
    ArrayLike<unknown>,
  ]
  const [fQuery, fOrd] = [1, 2].map((c) => valuesOf(fanout, c)) as [ArrayLike<unknown>, ArrayLike<unknown>]
  const used = new Uint8Array(index.keys.length)

  const analyses = columnsOf(tables.analyses, 'analyses')
  for (let i = 0; i < analyses.n; i++) {
    const a = rowObject(analyses, i)
    let g = index.group(String(a.id).toLowerCase())
    if (g !== undefined && used[g] === 1) g = undefined
    if (g !== undefined) used[g] = 1
    const fanoutQueries = groupItems(fGroups, g, (r) => fQuery[r], fOrd)
    const record = {
      type: 'analysis',
      ...a,
      mentions: groupItems(mGroups, g, (r) => rowObject(mentions, r, 1)),
      citations: groupItems(cGroups, g, (r) => rowObject(citations, r, 1, 4), valuesOf(citations, 4)),
      themes: groupItems(tGroups, g, (r) => ({ theme_id: tTheme[r], occurrences: tCount[r] })),
      ...(fanoutQueries.length === 0 ? {} : { fanout_queries: fanoutQueries }),
    }
    yield { record, table: 'analyses', row: i }
  }
  for (let g = 0; g < used.length; g++)
    if (used[g] === 0) yield { record: undefined, table: 'analyses', row: -1, orphanOf: index.keys[g]! }
}

/**
 * The records of flat tables, for `ingest(records)`; child rows without their analyses row are an
 * error (a damaged export).
 */
export function* flatRecords(tables: FlatRows): Generator<unknown> {
  for (const { record, table, orphanOf } of flatToRecords(tables)) {
    if (orphanOf !== undefined) throw new ValidationError([orphanIssue(table, orphanOf)])
    yield record
  }
}

/** The problem with child rows whose analysis_id matches no analyses row. */
export const orphanMessage = (analysisId: string): string =>
  `${analysisId} has mentions, citations, theme occurrences or fan-out queries but no analyses row`

/** The issue of an orphan entry of flatToRecords: its id field and the problem. */
export function orphanIssue(table: FlatTableName, id: string): { path: string; message: string } {
  return table === 'prompt_tags'
    ? { path: 'prompt_tags.prompt_id', message: `${id} has prompt_tags rows but no prompts row` }
    : { path: 'analysis_id', message: orphanMessage(id) }
}
