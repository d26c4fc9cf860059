/**
 * Peer of the answers listing (docs/API.md, "GET /api/v1/answers"): naive DuckDB SQL. Its own
 * DuckDB file with plain raw tables (string UUID ids, TIMESTAMPTZ, the answer text on the analysis
 * row, no sort order, no index, no precomputation), loaded from the generator through appenders,
 * and one statement per page: the window's analyses `ORDER BY answered_at DESC, id DESC LIMIT
 * $limit OFFSET $offset`, each with its mentions, citations, themes and fan-out queries gathered by
 * correlated subqueries, shaped into the payload's items in TS. Independent of src/ on purpose.
 */
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api'
import { citedHost, citedUrl, isoDate, windowOf } from '../lib/semantics.js'

const SCHEMA = `
SET TimeZone = 'UTC';
CREATE TABLE teams (id VARCHAR, plan VARCHAR);
CREATE TABLE domains (id VARCHAR, team_id VARCHAR, brand_name VARCHAR);
CREATE TABLE prompts (id VARCHAR, domain_id VARCHAR, text VARCHAR);
CREATE TABLE competitors (id VARCHAR, domain_id VARCHAR, name VARCHAR);
CREATE TABLE themes (id VARCHAR, domain_id VARCHAR, name VARCHAR, custom_name VARCHAR, archived BOOLEAN,
  sentiment VARCHAR);
CREATE TABLE analyses_raw (id VARCHAR, domain_id VARCHAR, prompt_id VARCHAR, channel VARCHAR, model VARCHAR,
  country VARCHAR, answered_at VARCHAR, response VARCHAR);
CREATE TABLE mentions (analysis_id VARCHAR, entity_id VARCHAR, position INTEGER, sentiment DOUBLE);
CREATE TABLE citations (analysis_id VARCHAR, ord INTEGER, url VARCHAR, host VARCHAR, title VARCHAR,
  page_type VARCHAR);
CREATE TABLE theme_occurrences (analysis_id VARCHAR, theme_id VARCHAR, occurrences INTEGER);
CREATE TABLE fanout_queries (analysis_id VARCHAR, ord INTEGER, query VARCHAR);
`

const PAGE_SQL = `
WITH page AS (
  SELECT id, prompt_id, channel, model, country, answered_at, response
  FROM analyses
  WHERE domain_id = $domain_id
    AND CAST(answered_at AS DATE) BETWEEN CAST($start AS DATE) AND CAST($end AS DATE)
  ORDER BY answered_at DESC, id DESC
  LIMIT CAST($limit AS INTEGER) OFFSET CAST($offset AS INTEGER)
),
d AS (
  SELECT d.id, d.brand_name, t.plan NOT IN ('free', 'starter') AS with_themes
  FROM domains d JOIN teams t ON t.id = d.team_id WHERE d.id = $domain_id
)
SELECT page.id, page.prompt_id, p.text AS prompt_text, page.channel, page.model, page.country,
  epoch_ms(page.answered_at)::DOUBLE AS ms, page.response,
  (SELECT to_json(coalesce(list({'entity_id': e.entity_id, 'name': e.name, 'is_brand': e.is_brand,
      'position': e.position, 'sentiment': e.sentiment} ORDER BY e.position NULLS LAST, e.entity_id), []))
   FROM (SELECT CASE WHEN m.entity_id = 'brand' THEN 'user-brand-' || d.id ELSE m.entity_id END AS entity_id,
           CASE WHEN m.entity_id = 'brand' THEN d.brand_name ELSE c.name END AS name,
           m.entity_id = 'brand' AS is_brand, m.position, m.sentiment
         FROM mentions m LEFT JOIN competitors c ON c.id = m.entity_id
         WHERE m.analysis_id = page.id) e)::VARCHAR AS mentions,
  (SELECT to_json(coalesce(list({'url': c.url, 'domain': c.host, 'title': c.title, 'page_type': c.page_type}
      ORDER BY c.ord), []))
   FROM citations c WHERE c.analysis_id = page.id)::VARCHAR AS citations,
  (SELECT to_json(coalesce(list({'id': t.id, 'name': coalesce(t.custom_name, t.name), 'sentiment': t.sentiment,
      'occurrences': o.occurrences} ORDER BY t.id), []))
   FROM theme_occurrences o JOIN themes t ON t.id = o.theme_id
   WHERE o.analysis_id = page.id AND NOT t.archived AND d.with_themes)::VARCHAR AS themes,
  (SELECT to_json(coalesce(list(q.query ORDER BY q.ord), []))
   FROM fanout_queries q WHERE q.analysis_id = page.id)::VARCHAR AS fanout_queries
FROM page JOIN prompts p ON p.id = page.prompt_id CROSS JOIN d
ORDER BY page.answered_at DESC, page.id DESC
`

/** One page as the peer computes it: the payload's items, and whether an item follows the page. */
export interface PeerPage {
  items: Record<string, unknown>[]
  more: boolean
}

export class NaiveSqlAnswers {
  readonly name = 'naive-sql-offset'
  private constructor(
    readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
  ) {}

  /** Opens the peer's file; when `records` are given, creates its tables and loads them first. */
  static async open(path: string, records?: Iterable<unknown>): Promise<NaiveSqlAnswers> {
    const instance = await DuckDBInstance.create(path)
    const connection = await instance.connect()
    await connection.run("SET TimeZone = 'UTC'")
    if (records !== undefined) await load(connection, records)
    return new NaiveSqlAnswers(instance, connection)
  }

  /** Page `page` (1-based) of `limit` answers over the `days` ending on `now`'s UTC date. */
  async page(p: {
    domainId: string
    days: number
    now: string
    limit: number
    page: number
  }): Promise<PeerPage> {
    const { start, end } = windowOf(p.now, p.days)
    const reader = await this.connection.runAndReadAll(PAGE_SQL, {
      domain_id: p.domainId.toLowerCase(),
      start: isoDate(start),
      end: isoDate(end),
      // One row more than the page: whether another page follows.
      limit: p.limit + 1,
      offset: (p.page - 1) * p.limit,
    })
    const rows = reader.getRowObjectsJS() as Record<string, unknown>[]
    const items = rows.slice(0, p.limit).map((r) => ({
      id: r.id,
      prompt_id: r.prompt_id,
      prompt_text: r.prompt_text,
      channel: r.channel,
      model: r.model,
      country: r.country ?? null,
      answered_at: new Date(Number(r.ms)).toISOString(),
      response: r.response ?? null,
      mentions: JSON.parse(String(r.mentions)) as unknown[],
      citations: JSON.parse(String(r.citations)) as unknown[],
      themes: JSON.parse(String(r.themes)) as unknown[],
      fanout_queries: JSON.parse(String(r.fanout_queries)) as unknown[],
    }))
    return { items, more: rows.length > p.limit }
  }

  close(): void {
    this.connection.closeSync()
    this.instance.closeSync()
  }
}

/** Loads the records (ids lower case, country upper case, queries trimmed, as records mean them). */
async function load(connection: DuckDBConnection, records: Iterable<unknown>): Promise<void> {
  await connection.run(SCHEMA)
  const names = [
    'teams',
    'domains',
    'prompts',
    'competitors',
    'themes',
    'analyses_raw',
    'mentions',
    'citations',
    'theme_occurrences',
    'fanout_queries',
  ] as const
  const ap = {} as Record<(typeof names)[number], DuckDBAppender>
  for (const n of names) ap[n] = await connection.createAppender(n)
  const put = (a: DuckDBAppender, vals: (string | number | boolean | null | undefined)[]): void => {
    for (const v of vals) {
      if (v === null || v === undefined) a.appendNull()
      else if (typeof v === 'string') a.appendVarchar(v)
      else if (typeof v === 'boolean') a.appendBoolean(v)
      else a.appendDouble(v)
    }
    a.endRow()
  }
  const low = (s: unknown): string => String(s).toLowerCase()
  for (const raw of records) {
    const r = raw as Record<string, unknown> & { type: string }
    switch (r.type) {
      case 'team':
        put(ap.teams, [low(r.id), r.plan as string])
        break
      case 'domain':
        put(ap.domains, [low(r.id), low(r.team_id), r.brand_name as string])
        break
      case 'prompt':
        put(ap.prompts, [low(r.id), low(r.domain_id), r.text as string])
        break
      case 'competitor':
        put(ap.competitors, [low(r.id), low(r.domain_id), r.name as string])
        break
      case 'theme':
        put(ap.themes, [
          low(r.id),
          low(r.domain_id),
          r.name as string,
          r.custom_name as string | null,
          r.archived as boolean,
          r.sentiment as string,
        ])
        break
      case 'analysis': {
        const id = low(r.id)
        const country = r.country as string | null | undefined
        put(ap.analyses_raw, [
          id,
          low(r.domain_id),
          low(r.prompt_id),
          r.channel as string,
          r.model as string,
          country == null ? null : country.trim().toUpperCase(),
          r.answered_at as string,
          r.response as string | null | undefined,
        ])
        for (const m of r.mentions as {
          entity_id: string
          position: number | null
          sentiment: number | null
        }[])
          put(ap.mentions, [
            id,
            m.entity_id === 'brand' ? 'brand' : low(m.entity_id),
            m.position,
            m.sentiment,
          ])
        ;(r.citations as { url: string; title?: string | null; page_type?: string | null }[]).forEach(
          (c, i) => put(ap.citations, [id, i, c.url, citedHost(citedUrl(c.url)), c.title, c.page_type]),
        )
        for (const t of r.themes as { theme_id: string; occurrences: number }[])
          put(ap.theme_occurrences, [id, low(t.theme_id), t.occurrences])
        ;((r.fanout_queries ?? []) as string[]).forEach((q, i) => put(ap.fanout_queries, [id, i, q.trim()]))
        break
      }
    }
  }
  for (const n of names) ap[n].closeSync()
  await connection.run(
    'CREATE TABLE analyses AS SELECT * REPLACE (CAST(answered_at AS TIMESTAMPTZ) AS answered_at) FROM analyses_raw',
  )
  await connection.run('DROP TABLE analyses_raw')
  await connection.run('CHECKPOINT')
}
