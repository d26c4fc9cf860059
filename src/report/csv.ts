/**
 * Payloads as CSV (RFC 4180): a header row, CRLF line ends, fields quoted only when they hold a
 * comma, a double quote, CR or LF (quotes doubled). The rows and columns are those of `toArrow`:
 * one row per (prompt, date), per (entity, date), per theme, or one row for the overview; and one
 * row per cited host or cited page.
 * null is an empty field; numbers are written as JSON writes them; booleans as true/false.
 */
import type {
  CitationsPayload,
  CitedDomainsPayload,
  CompetitorSeriesPayload,
  PromptSeriesPayload,
  SentimentOverviewPayload,
  SentimentThemesPayload,
} from '../reports/index.js'

/** Options of the CSV writers. */
export interface CsvOptions {
  /**
   * Guard against spreadsheet formula injection: a text field starting with `=`, `+`, `-`, `@`,
   * tab or CR gets a leading `'` (OWASP's advice). Off by default, so the file holds the data
   * exactly; turn it on for files people open in Excel or Sheets (prompt texts and theme names are
   * free text).
   */
  formulaGuard?: boolean
}

type Cell = string | number | boolean | null

const NEEDS_QUOTES = /[",\r\n]/
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * One CSV field per RFC 4180.
 * @example
 * csvField('say "hi", then go') // '"say ""hi"", then go"'
 */
export function csvField(value: Cell, options: CsvOptions = {}): string {
  if (value === null) return ''
  if (typeof value === 'number') {
    // JSON never carries NaN/Infinity; an empty field is the honest CSV for them too.
    return Number.isFinite(value) ? String(value) : ''
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  const text = options.formulaGuard === true && FORMULA_START.test(value) ? `'${value}` : value
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/**
 * A header and rows as one CSV document (CRLF after every record, the last one included).
 * @example
 * toCsv(['a', 'b'], [[1, 'x,y']]) // 'a,b\r\n1,"x,y"\r\n'
 */
export function toCsv(
  header: readonly string[],
  rows: Iterable<readonly Cell[]>,
  options: CsvOptions = {},
): string {
  const lines = [header.map((h) => csvField(h)).join(',')]
  for (const row of rows) lines.push(row.map((v) => csvField(v, options)).join(','))
  return lines.join('\r\n') + '\r\n'
}

/** Columns of {@link promptSeriesCsv}. */
export const PROMPT_CSV_COLUMNS = [
  'prompt_id',
  'text',
  'estimated_search_volume',
  'date',
  'mentions',
  'responses',
  'citations',
  'avg_position',
] as const

/**
 * A prompt time series as CSV, one row per (prompt, date), in payload order.
 * @example
 * await writeFile('prompts.csv', promptSeriesCsv(await engine.computePromptSeries({ domainId })))
 */
export function promptSeriesCsv(payload: PromptSeriesPayload, options: CsvOptions = {}): string {
  const rows = payload.data.items.flatMap((p) =>
    p.series.map((d): Cell[] => [
      p.id,
      p.text,
      p.estimated_search_volume,
      d.date,
      d.mentions,
      d.responses,
      d.citations,
      d.avg_position,
    ]),
  )
  return toCsv(PROMPT_CSV_COLUMNS, rows, options)
}

/** Columns of {@link competitorSeriesCsv}. */
export const COMPETITOR_CSV_COLUMNS = [
  'id',
  'name',
  'is_brand',
  'date',
  'mentions',
  'visibility',
  'sov',
  'avg_position',
  'sentiment',
] as const

/**
 * A competitor time series as CSV, one row per (entity, date), brand first as in the payload.
 * @example
 * await writeFile('competitors.csv', competitorSeriesCsv(await engine.computeCompetitorSeries({ domainId })))
 */
export function competitorSeriesCsv(payload: CompetitorSeriesPayload, options: CsvOptions = {}): string {
  const rows = payload.data.items.flatMap((e) =>
    e.series.map((d): Cell[] => [
      e.id,
      e.name,
      e.is_brand,
      d.date,
      d.mentions,
      d.visibility,
      d.sov,
      d.avg_position,
      d.sentiment,
    ]),
  )
  return toCsv(COMPETITOR_CSV_COLUMNS, rows, options)
}

/** Columns of {@link sentimentThemesCsv}. */
export const THEME_CSV_COLUMNS = ['id', 'name', 'sentiment', 'occurrences', 'created_at'] as const

/**
 * The sentiment themes as CSV, one row per theme, occurrences descending as in the payload.
 * @example
 * await writeFile('themes.csv', sentimentThemesCsv(await engine.computeSentimentThemes({ domainId })))
 */
export function sentimentThemesCsv(payload: SentimentThemesPayload, options: CsvOptions = {}): string {
  const rows = payload.data.items.map((t): Cell[] => [t.id, t.name, t.sentiment, t.occurrences, t.created_at])
  return toCsv(THEME_CSV_COLUMNS, rows, options)
}

/** Columns of {@link sentimentOverviewCsv}. */
export const OVERVIEW_CSV_COLUMNS = ['positive_percent', 'negative_percent', 'total_mentions'] as const

/**
 * The sentiment overview as a one-row CSV.
 * @example
 * sentimentOverviewCsv(overview) // 'positive_percent,negative_percent,total_mentions\r\n50,50,7\r\n'
 */
export function sentimentOverviewCsv(payload: SentimentOverviewPayload): string {
  const d = payload.data
  return toCsv(OVERVIEW_CSV_COLUMNS, [[d.positive_percent, d.negative_percent, d.total_mentions]])
}

/** Columns of {@link citedDomainsCsv}. */
export const CITED_DOMAIN_CSV_COLUMNS = [
  'domain',
  'frequency',
  'responses',
  'urls',
  'share',
  'is_brand',
  'competitor_id',
] as const

/**
 * The cited domains as CSV, one row per host, in payload order (most cited first).
 * @example
 * await writeFile('cited-domains.csv', citedDomainsCsv(await engine.computeCitedDomains({ domainId })))
 */
export function citedDomainsCsv(payload: CitedDomainsPayload, options: CsvOptions = {}): string {
  const rows = payload.data.items.map((d): Cell[] => [
    d.domain,
    d.frequency,
    d.responses,
    d.urls,
    d.share,
    d.is_brand,
    d.competitor_id,
  ])
  return toCsv(CITED_DOMAIN_CSV_COLUMNS, rows, options)
}

/** Columns of {@link citationsCsv}. */
export const CITATION_CSV_COLUMNS = [
  'url',
  'domain',
  'title',
  'page_type',
  'frequency',
  'responses',
  'prompt_count',
  'brand_mentions',
  'channels',
  'is_brand',
  'competitor_id',
  'first_seen',
  'last_seen',
] as const

/**
 * The cited pages as CSV, one row per URL, in payload order (channels joined by `;`).
 * @example
 * await writeFile('citations.csv', citationsCsv(await engine.computeCitations({ domainId })))
 */
export function citationsCsv(payload: CitationsPayload, options: CsvOptions = {}): string {
  const rows = payload.data.items.map((c): Cell[] => [
    c.url,
    c.domain,
    c.title,
    c.page_type,
    c.frequency,
    c.responses,
    c.prompt_count,
    c.brand_mentions,
    c.channels.join(';'),
    c.is_brand,
    c.competitor_id,
    c.first_seen,
    c.last_seen,
  ])
  return toCsv(CITATION_CSV_COLUMNS, rows, options)
}
