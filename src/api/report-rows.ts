/**
 * @module The rows of the batch report (`visibility report`, its HTML page, the cluster's report
 * source): each section of the report is a row of the endpoint table, and the engine methods the
 * report calls are those rows' methods.
 */
import { REPORT_SECTION_ROWS } from '../foundation/vocabulary.js'
import { ENDPOINTS, type EndpointId } from './endpoints.js'

/** The row of the table with this id. */
export type EndpointRow<I extends EndpointId> = Extract<(typeof ENDPOINTS)[number], { readonly id: I }>

/** The engine method of the row with this id. */
export type MethodOf<I extends EndpointId> = EndpointRow<I>['method']

/**
 * The row of each section of the batch report (section names are the HTML report's inputs).
 * @example
 * methodOf(REPORT_ROWS.leaderboard) // 'computeModelLeaderboard'
 */
export const REPORT_ROWS = REPORT_SECTION_ROWS satisfies Record<string, EndpointId>

/** A section of the batch report. */
export type ReportSection = keyof typeof REPORT_ROWS

/**
 * The rows the HTML report draws on besides its sections: the breakdowns by country and topic
 * (the query) and the sample answer of each listed prompt (the answers listing).
 */
export const REPORT_EXTRA_ROWS = { breakdown: 'query', samples: 'answers' } as const satisfies Record<
  string,
  EndpointId
>

/** The row listing the domains the report covers (`--all`). */
const DOMAIN_LIST_ROW = 'domain-list' satisfies EndpointId

/** The engine methods of the batch report: its sections', the domain list's and the domain lookup. */
export type ReportMethod =
  | MethodOf<
      | (typeof REPORT_ROWS)[ReportSection]
      | (typeof REPORT_EXTRA_ROWS)[keyof typeof REPORT_EXTRA_ROWS]
      | typeof DOMAIN_LIST_ROW
    >
  | 'getDomain'

/**
 * The row of the table with this id.
 * @example
 * endpointById('prompt-series').path
 */
export function endpointById<I extends EndpointId>(id: I): EndpointRow<I> {
  const row = ENDPOINTS.find((e) => e.id === id)
  if (row === undefined) throw new Error(`no endpoint ${id}`)
  return row as EndpointRow<I>
}

/**
 * The engine method of the row with this id.
 * @example
 * methodOf('sentiment-overview') // 'computeSentimentOverview'
 */
export function methodOf<I extends EndpointId>(id: I): MethodOf<I> {
  return endpointById(id).method as MethodOf<I>
}

/**
 * The engine methods the batch report calls (a shard computes them for `visibility report
 * --cluster`): each section's row's, the domain list's, and `getDomain`.
 */
export const REPORT_METHODS: readonly ReportMethod[] = [
  ...new Set<ReportMethod>([
    ...Object.values(REPORT_ROWS).map((id) => methodOf(id)),
    ...Object.values(REPORT_EXTRA_ROWS).map((id) => methodOf(id)),
    methodOf(DOMAIN_LIST_ROW),
    'getDomain',
  ]),
]
