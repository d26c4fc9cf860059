/**
 * Payload -> Apache Arrow tables, for notebook users who chart or join the reports.
 *
 * One flat table per payload: a row per (prompt, date), per (entity, date), per theme, or a single
 * row for the sentiment overview. The envelope (domain_id, days, limit or model, generated_at) goes
 * into the schema metadata, so rows stay narrow and the table still says where it came from.
 */
import {
  Bool,
  DateDay,
  Field,
  Float64,
  Int32,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Utf8,
  makeBuilder,
  makeData,
  type DataType,
} from 'apache-arrow'
import type {
  CompetitorSeriesPayload,
  PromptSeriesPayload,
  SentimentOverviewPayload,
  SentimentThemesPayload,
} from '../reports/index.js'

/** The four payload kinds. */
export type PayloadKind = 'prompts' | 'competitors' | 'overview' | 'themes'

/** Any of the four documented payloads. */
export type AnyPayload =
  PromptSeriesPayload | CompetitorSeriesPayload | SentimentOverviewPayload | SentimentThemesPayload

interface ColumnSpec {
  name: string
  type: DataType
  nullable: boolean
  values: unknown[]
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** 'YYYY-MM-DD' -> epoch milliseconds of that UTC midnight (what Arrow's DateDay builder takes). */
function dayToEpochMs(date: string): number {
  const m = ISO_DATE.exec(date)
  if (!m) throw new TypeError(`expected a date as YYYY-MM-DD, got ${JSON.stringify(date)}`)
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  // Date.UTC rolls 2026-02-31 over into March: refuse it rather than shift the day.
  if (new Date(ms).toISOString().slice(0, 10) !== date) {
    throw new TypeError(`expected a valid calendar date, got ${JSON.stringify(date)}`)
  }
  return ms
}

function buildTable(columns: ColumnSpec[], metadata: Record<string, string>): Table {
  const fields = columns.map((c) => new Field(c.name, c.type, c.nullable))
  const schema = new Schema(fields, new Map(Object.entries(metadata)))
  const length = columns[0]?.values.length ?? 0
  const children = columns.map((c) => {
    const builder = makeBuilder({ type: c.type, nullValues: [null, undefined] })
    for (const v of c.values) builder.append(v)
    // finish() + flush() yields the whole column as one Data, however long it is.
    return builder.finish().flush()
  })
  const data = makeData({ type: new Struct(fields), length, nullCount: 0, children })
  return new Table(schema, new RecordBatch(schema, data))
}

function envelope(payload: AnyPayload, kind: PayloadKind): Record<string, string> {
  const meta: Record<string, string> = {
    kind,
    domain_id: payload.domain_id,
    days: String(payload.days),
    generated_at: payload.generated_at,
  }
  if ('limit' in payload) meta.limit = String(payload.limit)
  if ('model' in payload) meta.model = payload.model
  return meta
}

/**
 * A prompt time series as one row per (prompt, date).
 *
 * Columns: prompt_id Utf8, text Utf8, estimated_search_volume Int32 (nullable), date DateDay,
 * mentions Int32, responses Int32, citations Int32, avg_position Float64 (nullable).
 * @example
 * const table = promptSeriesToArrow(await engine.computePromptSeries({ domainId, days: 30 }))
 * table.getChild('mentions')?.toArray() // Int32Array
 */
export function promptSeriesToArrow(payload: PromptSeriesPayload): Table {
  const rows = payload.data.items.flatMap((p) => p.series.map((d) => ({ p, d })))
  return buildTable(
    [
      { name: 'prompt_id', type: new Utf8(), nullable: false, values: rows.map((r) => r.p.id) },
      { name: 'text', type: new Utf8(), nullable: false, values: rows.map((r) => r.p.text) },
      {
        name: 'estimated_search_volume',
        type: new Int32(),
        nullable: true,
        values: rows.map((r) => r.p.estimated_search_volume),
      },
      { name: 'date', type: new DateDay(), nullable: false, values: rows.map((r) => dayToEpochMs(r.d.date)) },
      { name: 'mentions', type: new Int32(), nullable: false, values: rows.map((r) => r.d.mentions) },
      { name: 'responses', type: new Int32(), nullable: false, values: rows.map((r) => r.d.responses) },
      { name: 'citations', type: new Int32(), nullable: false, values: rows.map((r) => r.d.citations) },
      {
        name: 'avg_position',
        type: new Float64(),
        nullable: true,
        values: rows.map((r) => r.d.avg_position),
      },
    ],
    envelope(payload, 'prompts'),
  )
}

/**
 * A competitor time series as one row per (entity, date); the brand's rows have is_brand true.
 * An entity with an empty series has no rows.
 *
 * Columns: id Utf8, name Utf8, is_brand Bool, date DateDay, mentions Int32, visibility Float64,
 * sov Float64, avg_position Float64, sentiment Float64 (percent values are 0-100).
 * @example
 * const table = competitorSeriesToArrow(await engine.computeCompetitorSeries({ domainId }))
 * const brand = table.toArray().filter((row) => row.is_brand)
 */
export function competitorSeriesToArrow(payload: CompetitorSeriesPayload): Table {
  const rows = payload.data.items.flatMap((e) => e.series.map((d) => ({ e, d })))
  return buildTable(
    [
      { name: 'id', type: new Utf8(), nullable: false, values: rows.map((r) => r.e.id) },
      { name: 'name', type: new Utf8(), nullable: false, values: rows.map((r) => r.e.name) },
      { name: 'is_brand', type: new Bool(), nullable: false, values: rows.map((r) => r.e.is_brand) },
      { name: 'date', type: new DateDay(), nullable: false, values: rows.map((r) => dayToEpochMs(r.d.date)) },
      { name: 'mentions', type: new Int32(), nullable: false, values: rows.map((r) => r.d.mentions) },
      { name: 'visibility', type: new Float64(), nullable: false, values: rows.map((r) => r.d.visibility) },
      { name: 'sov', type: new Float64(), nullable: false, values: rows.map((r) => r.d.sov) },
      {
        name: 'avg_position',
        type: new Float64(),
        nullable: false,
        values: rows.map((r) => r.d.avg_position),
      },
      { name: 'sentiment', type: new Float64(), nullable: false, values: rows.map((r) => r.d.sentiment) },
    ],
    envelope(payload, 'competitors'),
  )
}

/**
 * The sentiment themes as one row per theme, in payload order (occurrences descending).
 *
 * Columns: id Utf8, name Utf8, sentiment Utf8 ('positive' | 'negative'), occurrences Int32,
 * created_at DateDay.
 * @example
 * const table = sentimentThemesToArrow(await engine.computeSentimentThemes({ domainId }))
 * table.getChild('name')?.get(0) // the most frequent theme
 */
export function sentimentThemesToArrow(payload: SentimentThemesPayload): Table {
  const items = payload.data.items
  return buildTable(
    [
      { name: 'id', type: new Utf8(), nullable: false, values: items.map((t) => t.id) },
      { name: 'name', type: new Utf8(), nullable: false, values: items.map((t) => t.name) },
      { name: 'sentiment', type: new Utf8(), nullable: false, values: items.map((t) => t.sentiment) },
      { name: 'occurrences', type: new Int32(), nullable: false, values: items.map((t) => t.occurrences) },
      {
        name: 'created_at',
        type: new DateDay(),
        nullable: false,
        values: items.map((t) => dayToEpochMs(t.created_at)),
      },
    ],
    envelope(payload, 'themes'),
  )
}

/**
 * The sentiment overview as a single row.
 *
 * Columns: positive_percent Float64, negative_percent Float64, total_mentions Int32.
 * @example
 * const row = sentimentOverviewToArrow(await engine.computeSentimentOverview({ domainId })).get(0)
 * row?.positive_percent // e.g. 66.7
 */
export function sentimentOverviewToArrow(payload: SentimentOverviewPayload): Table {
  const d = payload.data
  return buildTable(
    [
      { name: 'positive_percent', type: new Float64(), nullable: false, values: [d.positive_percent] },
      { name: 'negative_percent', type: new Float64(), nullable: false, values: [d.negative_percent] },
      { name: 'total_mentions', type: new Int32(), nullable: false, values: [d.total_mentions] },
    ],
    envelope(payload, 'overview'),
  )
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null
}

/**
 * Tells the kind of a payload from its shape: `limit` in the envelope means a prompt series, a flat
 * `data` with `positive_percent` the overview; for `data.items` the first item decides
 * (`is_brand`: competitors, `occurrences`: themes). A competitor series and a themes payload share
 * their envelope, so with no items they cannot be told apart: that throws, pass the kind instead.
 * @example
 * detectPayloadKind(await engine.computeSentimentOverview({ domainId })) // 'overview'
 */
export function detectPayloadKind(payload: unknown): PayloadKind {
  if (!isObject(payload) || !isObject(payload.data)) {
    throw new TypeError('not a report payload: expected an object with a data object')
  }
  const data = payload.data
  if ('positive_percent' in data && 'negative_percent' in data) return 'overview'
  if (!Array.isArray(data.items))
    throw new TypeError('not a report payload: data has neither items nor positive_percent')
  if ('limit' in payload) return 'prompts'
  const first: unknown = data.items[0]
  if (first === undefined) {
    throw new TypeError(
      'cannot tell a competitor series from a themes payload when data.items is empty: pass the kind, e.g. toArrow(payload, "themes")',
    )
  }
  if (isObject(first) && 'is_brand' in first) return 'competitors'
  if (isObject(first) && 'occurrences' in first) return 'themes'
  if (isObject(first) && 'estimated_search_volume' in first) return 'prompts'
  throw new TypeError('not a report payload: unknown item shape')
}

/**
 * Turns any of the four payloads into an Apache Arrow table (see the per-kind functions for the
 * columns). The kind is detected from the payload's shape unless given.
 *
 * Dates are Arrow `Date(DAY)` columns (date32): typed, sortable and joinable, and they arrive as
 * dates in DuckDB, Polars, pandas or R. Reading a cell in JS gives epoch milliseconds of the UTC
 * midnight: `new Date(ms).toISOString().slice(0, 10)` is the payload's 'YYYY-MM-DD' again. The
 * envelope (kind, domain_id, days, limit or model, generated_at) is in `table.schema.metadata`.
 * @example
 * import { tableToIPC } from 'apache-arrow'
 * const payload = await engine.computeCompetitorSeries({ domainId, days: 30 })
 * const table = toArrow(payload)
 * table.schema.metadata.get('model') // 'all'
 * for (const row of table) console.log(row.name, new Date(row.date).toISOString().slice(0, 10), row.sov)
 * await writeFile('competitors.arrow', tableToIPC(table, 'file')) // polars.read_ipc, pyarrow.ipc.open_file
 * toArrow(await engine.computeSentimentThemes({ domainId }), 'themes') // kind given: safe when items is empty
 */
export function toArrow(payload: PromptSeriesPayload, kind?: 'prompts'): Table
export function toArrow(payload: CompetitorSeriesPayload, kind?: 'competitors'): Table
export function toArrow(payload: SentimentOverviewPayload, kind?: 'overview'): Table
export function toArrow(payload: SentimentThemesPayload, kind?: 'themes'): Table
export function toArrow(payload: AnyPayload, kind?: PayloadKind): Table
export function toArrow(payload: AnyPayload, kind?: PayloadKind): Table {
  if (kind !== undefined) {
    let detected: PayloadKind | undefined
    try {
      detected = detectPayloadKind(payload)
    } catch {
      detected = undefined // ambiguous (no items): trust the caller
    }
    if (detected !== undefined && detected !== kind) {
      throw new TypeError(`toArrow: kind ${kind} given, but the payload looks like ${detected}`)
    }
  }
  switch (kind ?? detectPayloadKind(payload)) {
    case 'prompts':
      return promptSeriesToArrow(payload as PromptSeriesPayload)
    case 'competitors':
      return competitorSeriesToArrow(payload as CompetitorSeriesPayload)
    case 'overview':
      return sentimentOverviewToArrow(payload as SentimentOverviewPayload)
    case 'themes':
      return sentimentThemesToArrow(payload as SentimentThemesPayload)
  }
}
