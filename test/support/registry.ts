/**
 * What each row of the endpoint table (src/api/endpoints.ts) runs, found by running the row: its
 * engine method (`compute<Name>`) and the report name derived from it (kebab-case, the golden
 * folder under fixtures/cases/). Test lists are built from this, never written by hand.
 */
import { ENDPOINTS, type Endpoint } from '../../src/api/endpoints.js'
import type { ApiKeyInfo } from '../../src/types.js'

/** A caller that reads everything, for rows that need one (the key check). */
const CALLER = {
  id: 'k',
  team_id: '00000000-0000-4000-8000-000000000001',
  scope_team_ids: [],
  allowed_domains: null,
} as unknown as ApiKeyInfo

/** The engine method a row calls, recorded by an engine that answers every method. */
export function engineMethodOf(row: Endpoint): string {
  const called: string[] = []
  const engine = new Proxy(
    {},
    {
      get(_target, prop) {
        return (...args: unknown[]) => {
          called.push(String(prop))
          return Promise.resolve({ data: { items: [], total: 0 }, args })
        }
      },
    },
  )
  const params = Object.fromEntries(Object.keys(row.params).map((name) => [name, undefined]))
  void row
    .compute(engine as never, params as never, {
      now: new Date(0),
      caller: CALLER,
      rateLimit: { limit: 1, remaining: 1, reset: 0 },
    })
    .catch(() => undefined)
  const method = called.find((m) => m.startsWith('compute'))
  if (method === undefined)
    throw new Error(`endpoint ${row.id} calls no compute method (${called.join(', ')})`)
  return method
}

/** `computeSentimentOverview` -> `sentiment-overview`. */
export function reportNameOf(method: string): string {
  return method
    .replace(/^compute/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
}

/** One entry per report of the table: its name, engine method and rows (the brand series: four). */
export interface Report {
  name: string
  method: string
  rows: Endpoint[]
}

/** The reports of the table, in table order. */
export function reports(): Report[] {
  const byName = new Map<string, Report>()
  for (const row of ENDPOINTS as readonly Endpoint[]) {
    const method = engineMethodOf(row)
    const name = reportNameOf(method)
    const report = byName.get(name) ?? { name, method, rows: [] }
    report.rows.push(row)
    byName.set(name, report)
  }
  return [...byName.values()]
}

/**
 * The parameters a row's payload echoes only when the request gave them (docs/API.md: "Date
 * ranges and buckets", "Segment filters", "GET /api/v1/query", "GET /api/v1/answers"); every
 * other parameter is always echoed.
 */
export function echoedWhenGiven(id: string): string[] {
  const everywhere = ['start_date', 'end_date', 'granularity', 'country', 'topic', 'tag']
  const byRow: Record<string, string[]> = {
    query: ['model'],
    answers: ['model', 'prompt_id', 'entity', 'cursor'],
  }
  return [...everywhere, ...(byRow[id] ?? [])]
}
