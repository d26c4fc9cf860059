/**
 * The flat form of the records (semantics.md 1.2: one table per record type, nested lists as their
 * own tables keyed by analysis_id) turned back into records, for Arrow tables and Parquet exports.
 * Values are normalized (Date -> ISO string, bigint -> number) and then validated like any input.
 */
import { ValidationError } from '../errors.js'

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
] as const
/**
 * Tables accepted on input only (Arrow): `deletes`, one delete record per row (entity, id). An
 * export never writes them; a Parquet import does not read them.
 */
export const INPUT_ONLY_TABLES = ['deletes'] as const
export type FlatTableName = (typeof FLAT_TABLES)[number] | (typeof INPUT_ONLY_TABLES)[number]

/** Rows of each flat table (any subset of the tables). */
export type FlatRows = Partial<Record<FlatTableName, Iterable<Record<string, unknown>>>>

const SINGLE: Record<string, string> = {
  teams: 'team',
  domains: 'domain',
  prompts: 'prompt',
  competitors: 'competitor',
  themes: 'theme',
  deletes: 'delete',
}

/**
 * The columns of each table, as in semantics.md 1.1 and extensions section 1; anything else in a
 * row is dropped. `ord` (citations, fan-out queries; written by the export) is the entry's 0-based
 * position in its analysis's list: rows are put in that order when they have it, else kept in
 * their order.
 */
const COLUMNS: Record<FlatTableName, string[]> = {
  teams: ['id', 'name', 'plan', 'developer_access'],
  domains: ['id', 'team_id', 'brand_name', 'website', 'created_at'],
  prompts: ['id', 'domain_id', 'text', 'estimated_search_volume', 'created_at'],
  competitors: ['id', 'domain_id', 'name', 'website'],
  themes: ['id', 'domain_id', 'name', 'custom_name', 'archived', 'sentiment', 'created_at'],
  analyses: ['id', 'domain_id', 'prompt_id', 'channel', 'model', 'answered_at'],
  mentions: ['analysis_id', 'entity_id', 'position', 'sentiment'],
  citations: ['analysis_id', 'url', 'title', 'page_type', 'ord'],
  theme_occurrences: ['analysis_id', 'theme_id', 'occurrences'],
  deletes: ['entity', 'id'],
  fanout_queries: ['analysis_id', 'query', 'ord'],
}

/** Columns holding a calendar date (`YYYY-MM-DD`) and columns holding an instant (ISO 8601), by `table.column`. */
const DATE_COLUMNS = new Set(['themes.created_at'])
const INSTANT_COLUMNS = new Set(['analyses.answered_at', 'domains.created_at', 'prompts.created_at'])

/** A flat value as a record carries it: Arrow/Parquet dates and timestamps (Date or ms) as ISO strings. */
function normalize(value: unknown, table: FlatTableName, column: string): unknown {
  if (value === undefined) return undefined
  const at = `${table}.${column}`
  const time = DATE_COLUMNS.has(at) || INSTANT_COLUMNS.has(at)
  if (typeof value === 'bigint') value = Number(value)
  if (time && typeof value === 'number') value = new Date(value)
  if (value instanceof Date)
    return DATE_COLUMNS.has(at) ? value.toISOString().slice(0, 10) : value.toISOString()
  return value
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
])

function pick(row: Record<string, unknown>, table: FlatTableName): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const c of COLUMNS[table]) {
    const v = normalize(row[c], table, c)
    if (v !== undefined) out[c] = v
    else if (NULLABLE.has(c)) out[c] = null
  }
  return out
}

/** Where a flat row came from, for error messages: `index` counts rows across all tables. */
export interface FlatRecord {
  record: unknown
  table: FlatTableName
  row: number
  /** Set for child rows whose analysis_id matches no analyses row. */
  orphanOf?: string
}

/** The child lists of one analysis, each item with its `ord` when the row had one. */
interface Children {
  mentions: unknown[]
  citations: Ordered[]
  themes: unknown[]
  fanout: Ordered[]
}
interface Ordered {
  item: unknown
  ord: number | undefined
}

/** The items in `ord` order when the rows carry it (stable: rows without keep their order). */
function inOrder(list: Ordered[]): unknown[] {
  if (list.some((x) => typeof x.ord === 'number')) {
    list = [...list].sort((a, b) => (a.ord ?? Infinity) - (b.ord ?? Infinity))
  }
  return list.map((x) => x.item)
}

const ordOf = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined)

/**
 * Yields the records of flat tables: dimension rows as they are, and one analysis per analyses row
 * with its mentions, citations, theme occurrences and fan-out queries gathered by analysis_id (an
 * analysis without fan-out rows has none); last, one entry per analysis_id of child rows that
 * matches no analyses row.
 */
export function* flatToRecords(tables: FlatRows): Generator<FlatRecord> {
  for (const table of ['teams', 'domains', 'prompts', 'competitors', 'themes', 'deletes'] as const) {
    let row = 0
    for (const r of tables[table] ?? [])
      yield { record: { type: SINGLE[table], ...pick(r, table) }, table, row: row++ }
  }
  const children = new Map<string, Children>()
  const childOf = (id: unknown) => {
    const key = String(id).toLowerCase()
    let c = children.get(key)
    if (c === undefined) children.set(key, (c = { mentions: [], citations: [], themes: [], fanout: [] }))
    return c
  }
  for (const r of tables.mentions ?? []) {
    const { analysis_id, ...mention } = pick(r, 'mentions')
    childOf(analysis_id).mentions.push(mention)
  }
  for (const r of tables.citations ?? []) {
    const { analysis_id, ord, ...citation } = pick(r, 'citations')
    childOf(analysis_id).citations.push({ item: citation, ord: ordOf(ord) })
  }
  for (const r of tables.theme_occurrences ?? []) {
    const { analysis_id, theme_id, occurrences } = pick(r, 'theme_occurrences')
    childOf(analysis_id).themes.push({ theme_id, occurrences })
  }
  for (const r of tables.fanout_queries ?? []) {
    const { analysis_id, query, ord } = pick(r, 'fanout_queries')
    childOf(analysis_id).fanout.push({ item: query, ord: ordOf(ord) })
  }
  let row = 0
  for (const r of tables.analyses ?? []) {
    const a = pick(r, 'analyses')
    const id = String(a.id).toLowerCase()
    const c = children.get(id)
    children.delete(id)
    const record = {
      type: 'analysis',
      ...a,
      mentions: c?.mentions ?? [],
      citations: inOrder(c?.citations ?? []),
      themes: c?.themes ?? [],
      ...(c === undefined || c.fanout.length === 0 ? {} : { fanout_queries: inOrder(c.fanout) }),
    }
    yield { record, table: 'analyses', row: row++ }
  }
  for (const [id] of children) yield { record: undefined, table: 'analyses', row: -1, orphanOf: id }
}

/**
 * The records of flat tables, for `ingest(records)`; child rows without their analyses row are an
 * error (a damaged export).
 */
export function* flatRecords(tables: FlatRows): Generator<unknown> {
  for (const { record, orphanOf } of flatToRecords(tables)) {
    if (orphanOf !== undefined)
      throw new ValidationError([{ path: 'analysis_id', message: orphanMessage(orphanOf) }])
    yield record
  }
}

/** The problem with child rows whose analysis_id matches no analyses row. */
export const orphanMessage = (analysisId: string): string =>
  `${analysisId} has mentions, citations, theme occurrences or fan-out queries but no analyses row`
