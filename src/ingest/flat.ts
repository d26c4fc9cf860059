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

/** The columns of each table, as in semantics.md 1.1; anything else in a row is dropped. */
const COLUMNS: Record<FlatTableName, string[]> = {
  teams: ['id', 'name', 'plan', 'developer_access'],
  domains: ['id', 'team_id', 'brand_name', 'website', 'created_at'],
  prompts: ['id', 'domain_id', 'text', 'estimated_search_volume', 'created_at'],
  competitors: ['id', 'domain_id', 'name', 'website'],
  themes: ['id', 'domain_id', 'name', 'custom_name', 'archived', 'sentiment', 'created_at'],
  analyses: ['id', 'domain_id', 'prompt_id', 'channel', 'model', 'answered_at'],
  mentions: ['analysis_id', 'entity_id', 'position', 'sentiment'],
  citations: ['analysis_id', 'url'],
  theme_occurrences: ['analysis_id', 'theme_id', 'occurrences'],
  deletes: ['entity', 'id'],
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
const NULLABLE = new Set(['website', 'custom_name', 'estimated_search_volume', 'position', 'sentiment'])

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

/**
 * Yields the records of flat tables: dimension rows as they are, and one analysis per analyses row
 * with its mentions, citations and theme occurrences gathered by analysis_id; last, one entry per
 * analysis_id of child rows that matches no analyses row.
 */
export function* flatToRecords(tables: FlatRows): Generator<FlatRecord> {
  for (const table of ['teams', 'domains', 'prompts', 'competitors', 'themes', 'deletes'] as const) {
    let row = 0
    for (const r of tables[table] ?? [])
      yield { record: { type: SINGLE[table], ...pick(r, table) }, table, row: row++ }
  }
  const children = new Map<string, { mentions: unknown[]; citations: unknown[]; themes: unknown[] }>()
  const childOf = (id: string) => {
    let c = children.get(id)
    if (c === undefined) children.set(id, (c = { mentions: [], citations: [], themes: [] }))
    return c
  }
  const childTables = [
    ['mentions', 'mentions'],
    ['citations', 'citations'],
    ['theme_occurrences', 'themes'],
  ] as const
  for (const [table, field] of childTables) {
    for (const r of tables[table] ?? []) {
      const { analysis_id, ...rest } = pick(r, table)
      const item =
        table === 'theme_occurrences' ? { theme_id: rest.theme_id, occurrences: rest.occurrences } : rest
      childOf(String(analysis_id).toLowerCase())[field].push(item)
    }
  }
  let row = 0
  for (const r of tables.analyses ?? []) {
    const a = pick(r, 'analyses')
    const id = String(a.id).toLowerCase()
    const c = children.get(id) ?? { mentions: [], citations: [], themes: [] }
    children.delete(id)
    yield {
      record: { type: 'analysis', ...a, mentions: c.mentions, citations: c.citations, themes: c.themes },
      table: 'analyses',
      row: row++,
    }
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
  `${analysisId} has mentions, citations or theme occurrences but no analyses row`
