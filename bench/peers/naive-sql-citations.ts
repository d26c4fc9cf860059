/**
 * Peer of the citations, cited-domains, fan-out and sentiment time series reports (extensions 6
 * and 7): naive DuckDB SQL over the naive peer's raw tables (bench/peers/naive-sql.ts: string ids,
 * no sort order, no precomputation beyond each citation's URL identity and host), one
 * straightforward GROUP BY statement per report, shaped into the payload in TS.
 */
import type { DuckDBValue } from '@duckdb/node-api'
import { generatedAt, hostMatches, percent1, websiteHost } from '../lib/semantics.js'
import { WINDOW_FILTER, type NaiveSql } from './naive-sql.js'

export interface ReportParams {
  domainId: string
  days: number
  model: string
  now: string
}
export interface ListParams extends ReportParams {
  limit: number
}

/** The four reports, as the engine and this peer expose them. */
export interface CitationFunctions {
  citations(p: ListParams): Promise<unknown>
  citedDomains(p: ListParams): Promise<unknown>
  fanoutQueries(p: ReportParams): Promise<unknown>
  sentimentSeries(p: ReportParams): Promise<unknown>
}
export type CitationFunctionName = keyof CitationFunctions

const ENTRIES = `
a AS (SELECT id, prompt_id, channel, model, answered_at FROM analyses WHERE ${WINDOW_FILTER}),
e AS (
  SELECT a.*, c.cited AS url, c.host, c.title, c.page_type, c.ord
  FROM a JOIN citations c ON c.analysis_id = a.id
)`

const CITATIONS_SQL = `
WITH ${ENTRIES},
brand AS (SELECT DISTINCT analysis_id FROM mentions WHERE entity_id = 'brand'),
g AS (
  SELECT url, any_value(host) AS host,
    max({'t': answered_at, 'id': id, 'o': ord, 'v': title}) FILTER (WHERE title IS NOT NULL) AS title,
    max({'t': answered_at, 'id': id, 'o': ord, 'v': page_type}) FILTER (WHERE page_type IS NOT NULL) AS page_type,
    count(*) AS frequency, count(DISTINCT id) AS responses, count(DISTINCT prompt_id) AS prompt_count,
    count(DISTINCT id) FILTER (WHERE id IN (SELECT analysis_id FROM brand)) AS brand_mentions,
    list_sort(list_distinct(list(channel))) AS channels, list_sort(list_distinct(list(model))) AS models,
    min(answered_at) AS first_seen, max(answered_at) AS last_seen
  FROM e GROUP BY url
)
SELECT url, host, title.v AS title, page_type.v AS page_type, CAST(frequency AS INTEGER) AS frequency,
  CAST(responses AS INTEGER) AS responses, CAST(prompt_count AS INTEGER) AS prompt_count,
  CAST(brand_mentions AS INTEGER) AS brand_mentions, channels, models,
  strftime(first_seen, '%Y-%m-%dT%H:%M:%S.%gZ') AS first_seen, strftime(last_seen, '%Y-%m-%dT%H:%M:%S.%gZ') AS last_seen,
  CAST(count(*) OVER () AS INTEGER) AS total
FROM g ORDER BY frequency DESC, url LIMIT CAST($limit AS INTEGER)
`

const CITED_DOMAINS_SQL = `
WITH ${ENTRIES}
SELECT host, CAST(count(*) AS INTEGER) AS frequency, CAST(count(DISTINCT id) AS INTEGER) AS responses,
  CAST(count(DISTINCT url) AS INTEGER) AS urls, count(*) * 100 / sum(count(*)) OVER () AS share,
  CAST(count(*) OVER () AS INTEGER) AS total
FROM e GROUP BY host ORDER BY frequency DESC, host LIMIT CAST($limit AS INTEGER)
`

const FANOUT_SQL = `
WITH a AS (SELECT id, prompt_id, channel FROM analyses WHERE ${WINDOW_FILTER}),
q AS (
  SELECT a.prompt_id, f.query, CAST(count(DISTINCT a.id) AS INTEGER) AS count,
    list_sort(list_distinct(list(a.channel))) AS channels
  FROM a JOIN fanout_queries f ON f.analysis_id = a.id
  GROUP BY a.prompt_id, f.query
)
SELECT q.prompt_id, p.text, q.query, q.count, q.channels
FROM q JOIN prompts p ON p.id = q.prompt_id
ORDER BY sum(q.count) OVER (PARTITION BY q.prompt_id) DESC, q.prompt_id, q.count DESC, q.query
`

const SENTIMENT_SERIES_SQL = `
WITH a AS (SELECT id, CAST(answered_at AS DATE) AS d FROM analyses WHERE ${WINDOW_FILTER}),
th AS (
  SELECT a.d, t.id, t.sentiment, sum(o.occurrences) AS occurrences
  FROM a JOIN theme_occurrences o ON o.analysis_id = a.id JOIN themes t ON t.id = o.theme_id
  WHERE NOT t.archived AND t.domain_id = $domain_id
  GROUP BY a.d, t.id, t.sentiment
)
SELECT strftime(d, '%Y-%m-%d') AS date,
  CAST(count(*) FILTER (WHERE sentiment = 'positive') AS INTEGER) AS pos,
  CAST(count(*) FILTER (WHERE sentiment = 'negative') AS INTEGER) AS neg,
  CAST(sum(occurrences) AS INTEGER) AS total
FROM th GROUP BY d ORDER BY d
`

type Row = Record<string, unknown>

/** The peer: the naive instance's raw tables, one statement per report. */
export class NaiveSqlCitations implements CitationFunctions {
  constructor(readonly peer: NaiveSql) {}

  #params(p: ReportParams): Record<string, DuckDBValue> {
    return this.peer.windowParams(p)
  }

  #echo(p: ReportParams) {
    return { domain_id: p.domainId.toLowerCase(), days: p.days, model: p.model }
  }

  /** is_brand and competitor_id of a host (the domain's website; competitors by id). */
  async #owners(
    domainId: string,
  ): Promise<(host: string) => { is_brand: boolean; competitor_id: string | null }> {
    const [dom] = await this.peer.rows('SELECT website FROM domains WHERE id = $id', { id: domainId })
    const comps = await this.peer.rows(
      'SELECT id, website FROM competitors WHERE domain_id = $id ORDER BY id',
      {
        id: domainId,
      },
    )
    const site = websiteHost((dom?.website ?? null) as string | null)
    const sites = comps.map((c) => ({ id: c.id as string, site: websiteHost(c.website as string | null) }))
    return (host) => ({
      is_brand: site !== null && hostMatches(host, site),
      competitor_id: sites.find((c) => c.site !== null && hostMatches(host, c.site))?.id ?? null,
    })
  }

  async citations(p: ListParams): Promise<unknown> {
    const rows = await this.peer.rows(CITATIONS_SQL, { ...this.#params(p), limit: p.limit })
    const owners = await this.#owners(p.domainId.toLowerCase())
    const items = rows.map((r: Row) => ({
      url: r.url,
      domain: r.host,
      title: r.title ?? null,
      page_type: r.page_type ?? null,
      frequency: r.frequency,
      responses: r.responses,
      prompt_count: r.prompt_count,
      brand_mentions: r.brand_mentions,
      channels: r.channels,
      models: r.models,
      ...owners(r.host as string),
      first_seen: r.first_seen,
      last_seen: r.last_seen,
    }))
    const total = (rows[0]?.total as number | undefined) ?? 0
    return { data: { items, total }, ...this.#echo(p), limit: p.limit, generated_at: generatedAt(p.now) }
  }

  async citedDomains(p: ListParams): Promise<unknown> {
    const rows = await this.peer.rows(CITED_DOMAINS_SQL, { ...this.#params(p), limit: p.limit })
    const owners = await this.#owners(p.domainId.toLowerCase())
    const items = rows.map((r: Row) => ({
      domain: r.host,
      frequency: r.frequency,
      responses: r.responses,
      urls: r.urls,
      share: r.share,
      ...owners(r.host as string),
    }))
    const total = (rows[0]?.total as number | undefined) ?? 0
    return { data: { items, total }, ...this.#echo(p), limit: p.limit, generated_at: generatedAt(p.now) }
  }

  async fanoutQueries(p: ReportParams): Promise<unknown> {
    const rows = await this.peer.rows(FANOUT_SQL, this.#params(p))
    const items: { id: string; text: string; fanout_queries: unknown[] }[] = []
    for (const r of rows) {
      let last = items[items.length - 1]
      if (last === undefined || last.id !== r.prompt_id) {
        last = { id: r.prompt_id as string, text: r.text as string, fanout_queries: [] }
        items.push(last)
      }
      last.fanout_queries.push({ query: r.query, count: r.count, channels: r.channels })
    }
    return { data: { items, total: items.length }, ...this.#echo(p), generated_at: generatedAt(p.now) }
  }

  async sentimentSeries(p: ReportParams): Promise<unknown> {
    const rows = await this.peer.rows(SENTIMENT_SERIES_SQL, this.#params(p))
    const items = rows.map((r) => {
      const [pos, neg] = [r.pos as number, r.neg as number]
      return {
        date: r.date,
        positive_percent: percent1(pos, pos + neg),
        negative_percent: percent1(neg, pos + neg),
        total_mentions: r.total,
      }
    })
    return { data: { items }, ...this.#echo(p), generated_at: generatedAt(p.now) }
  }
}
