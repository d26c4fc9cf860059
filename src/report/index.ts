/**
 * Reports from the payloads: CSV writers and the self-contained HTML page. Meant for a subpath
 * export (`visibility-analytics/report`), so the core entry stays free of rendering code.
 * @example
 * import { renderReportHtml, promptSeriesCsv } from 'visibility-analytics/report'
 */
export {
  citationsCsv,
  citedDomainsCsv,
  competitorSeriesCsv,
  csvField,
  promptSeriesCsv,
  sentimentOverviewCsv,
  sentimentThemesCsv,
  toCsv,
  CITATION_CSV_COLUMNS,
  CITED_DOMAIN_CSV_COLUMNS,
  COMPETITOR_CSV_COLUMNS,
  OVERVIEW_CSV_COLUMNS,
  PROMPT_CSV_COLUMNS,
  THEME_CSV_COLUMNS,
  type CsvOptions,
} from './csv.js'
export { renderReportHtml, modelLabel, type ReportDomain, type ReportInput } from './html.js'
