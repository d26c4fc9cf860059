/**
 * Peer: naive DuckDB SQL. Its own in-memory DuckDB instance with plain raw tables (string UUID ids,
 * TIMESTAMPTZ, no sort order, no precomputation), loaded from the generator through appenders, and
 * one straightforward GROUP BY statement per report over the raw rows, shaped into the payload in TS.
 */
import {
  DuckDBInstance,
  type DuckDBAppender,
  type DuckDBConnection,
  type DuckDBValue,
} from '@duckdb/node-api'
import { CHANNELS } from '../../src/foundation/vocabulary.js'
import {
  citedHost,
  citedUrl,
  generatedAt,
  isoDate,
  modelFilter,
  percent1,
  windowOf,
  type ModelParams,
  type PromptParams,
  type ReportFunctions,
} from '../lib/semantics.js'

const SCHEMA = `
SET TimeZone = 'UTC';
CREATE TABLE domains (id VARCHAR, team_id VARCHAR, brand_name VARCHAR, website VARCHAR);
CREATE TABLE prompts (id VARCHAR, domain_id VARCHAR, text VARCHAR, estimated_search_volume INTEGER, topic VARCHAR);
CREATE TABLE prompt_tags (prompt_id VARCHAR, tag VARCHAR);
CREATE TABLE competitors (id VARCHAR, domain_id VARCHAR, name VARCHAR, website VARCHAR);
CREATE TABLE themes (id VARCHAR, domain_id VARCHAR, name VARCHAR, custom_name VARCHAR, archived BOOLEAN,
  sentiment VARCHAR, created_at DATE);
CREATE TABLE analyses_raw (id VARCHAR, domain_id VARCHAR, prompt_id VARCHAR, channel VARCHAR, model VARCHAR,
  answered_at VARCHAR, country VARCHAR);
CREATE TABLE mentions (analysis_id VARCHAR, entity_id VARCHAR, position INTEGER, sentiment INTEGER);
CREATE TABLE citations (analysis_id VARCHAR, url VARCHAR, title VARCHAR, page_type VARCHAR, ord INTEGER,
  cited VARCHAR, host VARCHAR);
CREATE TABLE theme_occurrences (analysis_id VARCHAR, theme_id VARCHAR, occurrences INTEGER);
CREATE TABLE fanout_queries (analysis_id VARCHAR, ord INTEGER, query VARCHAR);
`

/** The window and model filter of a report over the raw analyses (also bench/peers/naive-sql-rankings.ts). */
export const WINDOW_FILTER = `domain_id = $domain_id
    AND CAST(answered_at AS DATE) BETWEEN CAST($start AS DATE) AND CAST($end AS DATE)
    AND ($kind = 'all' OR ($kind = 'channel' AND channel = $model) OR ($kind = 'model' AND model = $model))`

const COMPETITOR_SQL = `
WITH a AS (
  SELECT id, prompt_id, CAST(answered_at AS DATE) AS d FROM analyses WHERE ${WINDOW_FILTER}
),
dates AS (SELECT d, count(*) AS n FROM a GROUP BY d),
entities AS (
  SELECT 'brand' AS entity_id UNION ALL SELECT id FROM competitors WHERE domain_id = $domain_id
),
m AS (
  SELECT a.d, a.prompt_id, m.entity_id, m.position, m.sentiment
  FROM a JOIN mentions m ON m.analysis_id = a.id
  WHERE m.entity_id IN (SELECT entity_id FROM entities)
),
daily AS (
  SELECT d, entity_id, count(*) AS mentions, sum(position) AS pos_sum, count(position) AS pos_n,
    sum(sentiment) AS sent_sum, count(sentiment) AS sent_n
  FROM m GROUP BY d, entity_id
),
grid AS (
  SELECT e.entity_id, dt.d, dt.n, coalesce(daily.mentions, 0) AS mentions,
    coalesce(daily.pos_sum, 0) AS pos_sum, coalesce(daily.pos_n, 0) AS pos_n,
    coalesce(daily.sent_sum, 0) AS sent_sum, coalesce(daily.sent_n, 0) AS sent_n
  FROM entities e CROSS JOIN dates dt
  LEFT JOIN daily ON daily.entity_id = e.entity_id AND daily.d = dt.d
),
scored AS (
  SELECT *, mentions / n * 100 AS visibility,
    CASE WHEN sum(mentions) OVER (PARTITION BY d) = 0 THEN 0
      ELSE mentions / sum(mentions) OVER (PARTITION BY d) * 100 END AS sov
  FROM grid
),
tq AS (SELECT entity_id, count(DISTINCT prompt_id) AS total_queries FROM m GROUP BY entity_id)
SELECT s.entity_id, strftime(s.d, '%Y-%m-%d') AS date, CAST(s.mentions AS INTEGER) AS mentions, s.visibility, s.sov,
  CASE WHEN s.pos_n = 0 THEN 0 ELSE s.pos_sum / s.pos_n END AS avg_position,
  CASE WHEN s.sent_n = 0 THEN 0 ELSE s.sent_sum / s.sent_n END AS sentiment,
  avg(s.mentions) OVER w AS avg_mentions, avg(s.visibility) OVER w AS avg_visibility, avg(s.sov) OVER w AS avg_sov,
  CASE WHEN sum(s.pos_n) OVER w = 0 THEN 0 ELSE sum(s.pos_sum) OVER w / sum(s.pos_n) OVER w END AS avg_position_all,
  CASE WHEN sum(s.sent_n) OVER w = 0 THEN 0 ELSE sum(s.sent_sum) OVER w / sum(s.sent_n) OVER w END AS avg_sentiment,
  CAST(coalesce(tq.total_queries, 0) AS INTEGER) AS total_queries
FROM scored s LEFT JOIN tq USING (entity_id)
WINDOW w AS (PARTITION BY s.entity_id)
ORDER BY s.entity_id, s.d
`

/** A citation URL's host, lower case, a leading www. removed (also bench/peers/naive-sql-rankings.ts). */
export const HOST = `regexp_replace(lower(regexp_extract(url, '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^:/?#]+)', 1)), '^www[.]', '')`

const PROMPT_SQL = `
WITH a AS (
  SELECT id, prompt_id, CAST(answered_at AS DATE) AS d FROM analyses WHERE ${WINDOW_FILTER}
),
site AS (
  SELECT regexp_replace(lower(regexp_extract(website, '^(?:[a-zA-Z][a-zA-Z0-9+.-]*://)?(?:[^@/?#]*@)?([^:/?#]+)', 1)),
    '^www[.]', '') AS w
  FROM domains WHERE id = $domain_id AND website IS NOT NULL AND website <> ''
),
brand AS (SELECT analysis_id, position FROM mentions WHERE entity_id = 'brand'),
cited AS (SELECT a.id AS analysis_id, ${HOST} AS host FROM a JOIN citations c ON c.analysis_id = a.id),
own AS (
  SELECT cited.analysis_id, count(*) AS n FROM cited CROSS JOIN site
  WHERE cited.host = site.w OR ends_with(cited.host, '.' || site.w)
  GROUP BY cited.analysis_id
),
daily AS (
  SELECT a.prompt_id, a.d, count(*) AS responses, count(brand.analysis_id) AS mentions,
    coalesce(sum(own.n), 0) AS citations, avg(brand.position) AS avg_position
  FROM a LEFT JOIN brand ON brand.analysis_id = a.id LEFT JOIN own ON own.analysis_id = a.id
  GROUP BY a.prompt_id, a.d
),
top AS (
  SELECT prompt_id, sum(mentions) AS total FROM daily GROUP BY prompt_id HAVING sum(mentions) > 0
  ORDER BY total DESC, prompt_id LIMIT CAST($limit AS INTEGER)
)
SELECT p.id, p.text, p.estimated_search_volume, strftime(daily.d, '%Y-%m-%d') AS date,
  CAST(daily.mentions AS INTEGER) AS mentions, CAST(daily.responses AS INTEGER) AS responses,
  CAST(daily.citations AS INTEGER) AS citations, daily.avg_position
FROM daily JOIN top USING (prompt_id) JOIN prompts p ON p.id = daily.prompt_id
ORDER BY top.total DESC, p.id, daily.d
`

const THEMES_SQL = `
WITH a AS (SELECT id FROM analyses WHERE ${WINDOW_FILTER})
SELECT t.id, coalesce(t.custom_name, t.name) AS name, t.sentiment,
  CAST(sum(o.occurrences) AS INTEGER) AS occurrences, strftime(t.created_at, '%Y-%m-%d') AS created_at
FROM a JOIN theme_occurrences o ON o.analysis_id = a.id JOIN themes t ON t.id = o.theme_id
WHERE NOT t.archived AND t.domain_id = $domain_id
GROUP BY t.id, t.custom_name, t.name, t.sentiment, t.created_at
ORDER BY occurrences DESC, t.id
`

const OVERVIEW_SQL = `
WITH a AS (SELECT id FROM analyses WHERE ${WINDOW_FILTER}),
th AS (
  SELECT t.id, t.sentiment, sum(o.occurrences) AS occurrences
  FROM a JOIN theme_occurrences o ON o.analysis_id = a.id JOIN themes t ON t.id = o.theme_id
  WHERE NOT t.archived AND t.domain_id = $domain_id
  GROUP BY t.id, t.sentiment
)
SELECT CAST(count(*) FILTER (WHERE sentiment = 'positive') AS INTEGER) AS pos,
  CAST(count(*) FILTER (WHERE sentiment = 'negative') AS INTEGER) AS neg,
  CAST(coalesce(sum(occurrences), 0) AS INTEGER) AS total
FROM th
`

type Row = Record<string, unknown>

export class NaiveSql implements ReportFunctions {
  readonly name = 'naive-sql'
  private constructor(
    readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
  ) {}

  /** Creates the instance and loads every record of the stream into the raw tables. */
  static async load(records: Iterable<unknown>): Promise<NaiveSql> {
    const instance = await DuckDBInstance.create(':memory:')
    const connection = await instance.connect()
    await connection.run(SCHEMA)
    const names = [
      'domains',
      'prompts',
      'prompt_tags',
      'competitors',
      'themes',
      'analyses_raw',
      'mentions',
      'citations',
      'theme_occurrences',
      'fanout_queries',
    ]
    const ap: Record<string, DuckDBAppender> = {}
    for (const n of names) ap[n] = await connection.createAppender(n)
    const put = (a: DuckDBAppender, vals: (string | number | boolean | null)[]): void => {
      for (const v of vals) {
        if (v === null) a.appendNull()
        else if (typeof v === 'string') a.appendVarchar(v)
        else if (typeof v === 'boolean') a.appendBoolean(v)
        else a.appendInteger(v)
      }
      a.endRow()
    }
    for (const raw of records) {
      const r = raw as Record<string, unknown> & { type: string }
      const s = (k: string): string => r[k] as string
      switch (r.type) {
        case 'domain':
          put(ap.domains!, [
            s('id').toLowerCase(),
            s('team_id').toLowerCase(),
            s('brand_name'),
            r.website as string | null,
          ])
          break
        case 'prompt':
          put(ap.prompts!, [
            s('id').toLowerCase(),
            s('domain_id').toLowerCase(),
            s('text'),
            r.estimated_search_volume as number | null,
            typeof r.topic === 'string' ? r.topic.trim() : null,
          ])
          // Tags as the record means them: trimmed, repeats removed.
          for (const tag of new Set(((r.tags ?? []) as string[]).map((t) => t.trim())))
            put(ap.prompt_tags!, [s('id').toLowerCase(), tag])
          break
        case 'competitor':
          put(ap.competitors!, [
            s('id').toLowerCase(),
            s('domain_id').toLowerCase(),
            s('name'),
            r.website as string | null,
          ])
          break
        case 'theme':
          put(ap.themes!, [
            s('id').toLowerCase(),
            s('domain_id').toLowerCase(),
            s('name'),
            r.custom_name as string | null,
            r.archived as boolean,
            s('sentiment'),
            s('created_at'),
          ])
          break
        case 'analysis': {
          const id = s('id').toLowerCase()
          put(ap.analyses_raw!, [
            id,
            s('domain_id').toLowerCase(),
            s('prompt_id').toLowerCase(),
            s('channel'),
            s('model'),
            s('answered_at'),
            typeof r.country === 'string' ? r.country.toUpperCase() : null,
          ])
          for (const m of r.mentions as {
            entity_id: string
            position: number | null
            sentiment: number | null
          }[]) {
            put(ap.mentions!, [
              id,
              m.entity_id === 'brand' ? 'brand' : m.entity_id.toLowerCase(),
              m.position,
              m.sentiment,
            ])
          }
          // A cited URL's identity and host are what the record means (WHATWG, as the spec says);
          // SQL has no URL parser, so they are computed here, once per citation, with the title.
          ;(r.citations as { url: string; title?: string | null; page_type?: string | null }[]).forEach(
            (c, i) => {
              const cited = citedUrl(c.url)
              put(ap.citations!, [
                id,
                c.url,
                c.title ?? null,
                c.page_type ?? null,
                i,
                cited,
                citedHost(cited),
              ])
            },
          )
          ;((r.fanout_queries ?? []) as string[]).forEach((q, i) =>
            put(ap.fanout_queries!, [id, i, q.trim()]),
          )
          for (const t of r.themes as { theme_id: string; occurrences: number }[]) {
            put(ap.theme_occurrences!, [id, t.theme_id.toLowerCase(), t.occurrences])
          }
          break
        }
      }
    }
    for (const n of names) ap[n]!.closeSync()
    await connection.run(
      'CREATE TABLE analyses AS SELECT * REPLACE (CAST(answered_at AS TIMESTAMPTZ) AS answered_at) FROM analyses_raw',
    )
    await connection.run('DROP TABLE analyses_raw')
    return new NaiveSql(instance, connection)
  }

  async close(): Promise<void> {
    this.connection.closeSync()
    this.instance.closeSync()
  }

  /**
   * The bucket of every series statement (extensions section 9; bench/suites/buckets.ts): `day`, or
   * each analysis's UTC date truncated to its ISO week or month (DuckDB's date_trunc), the window's
   * first date at the earliest. The statements group by that date as they group by the day.
   */
  granularity: 'day' | 'week' | 'month' = 'day'

  async rows(sql: string, values: Record<string, DuckDBValue>): Promise<Row[]> {
    const text =
      this.granularity === 'day'
        ? sql
        : sql.replaceAll(
            'CAST(answered_at AS DATE) AS d',
            `GREATEST(CAST(date_trunc('${this.granularity}', CAST(answered_at AS DATE)) AS DATE), CAST($start AS DATE)) AS d`,
          )
    const reader = await this.connection.runAndReadAll(text, values)
    return reader.getRowObjectsJS() as Row[]
  }

  /** The bound parameters of WINDOW_FILTER for a request (also bench/peers/naive-sql-rankings.ts). */
  windowParams(p: {
    domainId: string
    days: number
    now: string
    model?: string
  }): Record<string, DuckDBValue> {
    const { start, end } = windowOf(p.now, p.days)
    const f = modelFilter(p.model)
    return {
      domain_id: p.domainId.toLowerCase(),
      start: isoDate(start),
      end: isoDate(end),
      kind: f.kind,
      model: f.kind === 'channel' ? f.channel : f.kind === 'model' ? f.model : '',
    }
  }

  async computeCompetitorSeries(p: ModelParams): Promise<unknown> {
    const domainId = p.domainId.toLowerCase()
    if (p.model !== 'all' && !(CHANNELS as readonly string[]).includes(p.model))
      throw new Error('invalid model')
    const [dom] = await this.rows('SELECT brand_name, website FROM domains WHERE id = $id', { id: domainId })
    const comps = await this.rows('SELECT id, name, website FROM competitors WHERE domain_id = $id', {
      id: domainId,
    })
    const rows = await this.rows(COMPETITOR_SQL, this.windowParams(p))
    const byEntity = new Map<string, Row[]>()
    for (const r of rows) {
      const k = r.entity_id as string
      let list = byEntity.get(k)
      if (!list) byEntity.set(k, (list = []))
      list.push(r)
    }
    const entry = (id: string, entityId: string, name: string, website: string | null, isBrand: boolean) => {
      const rs = byEntity.get(entityId) ?? []
      const first = rs[0]
      return {
        id,
        name,
        website,
        is_brand: isBrand,
        avg_mentions: first ? (first.avg_mentions as number) : 0,
        avg_position: first ? (first.avg_position_all as number) : 0,
        avg_visibility: first ? (first.avg_visibility as number) : 0,
        avg_sov: first ? (first.avg_sov as number) : 0,
        avg_sentiment: first ? (first.avg_sentiment as number) : 0,
        total_queries: first ? (first.total_queries as number) : 0,
        series: rs.map((r) => ({
          date: r.date as string,
          mentions: r.mentions as number,
          visibility: r.visibility as number,
          sov: r.sov as number,
          avg_position: r.avg_position as number,
          sentiment: r.sentiment as number,
        })),
      }
    }
    const competitors = comps
      .map((c) => entry(c.id as string, c.id as string, c.name as string, c.website as string | null, false))
      .sort(
        (a, b) =>
          b.avg_visibility - a.avg_visibility ||
          (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
          (a.id < b.id ? -1 : 1),
      )
    const brand = entry(
      `user-brand-${domainId}`,
      'brand',
      dom?.brand_name as string,
      (dom?.website ?? null) as string | null,
      true,
    )
    const items = comps.length === 0 && rows.length === 0 ? [] : [brand, ...competitors]
    return {
      data: { items },
      domain_id: domainId,
      days: p.days,
      model: p.model,
      generated_at: generatedAt(p.now),
    }
  }

  async computePromptSeries(p: PromptParams): Promise<unknown> {
    const rows = await this.rows(PROMPT_SQL, { ...this.windowParams(p), limit: p.limit })
    const items: { id: string; text: string; estimated_search_volume: number | null; series: unknown[] }[] =
      []
    for (const r of rows) {
      let last = items[items.length - 1]
      if (!last || last.id !== r.id) {
        last = {
          id: r.id as string,
          text: r.text as string,
          estimated_search_volume: r.estimated_search_volume as number | null,
          series: [],
        }
        items.push(last)
      }
      last.series.push({
        date: r.date,
        mentions: r.mentions,
        responses: r.responses,
        citations: r.citations,
        avg_position: r.avg_position ?? null,
      })
    }
    return {
      data: { items },
      domain_id: p.domainId.toLowerCase(),
      days: p.days,
      limit: p.limit,
      generated_at: generatedAt(p.now),
    }
  }

  async sentimentThemes(p: ModelParams): Promise<unknown> {
    const rows = await this.rows(THEMES_SQL, this.windowParams(p))
    const items = rows.map((r) => ({
      id: r.id,
      name: r.name,
      sentiment: r.sentiment,
      occurrences: r.occurrences,
      created_at: r.created_at,
    }))
    return {
      data: { items },
      domain_id: p.domainId.toLowerCase(),
      days: p.days,
      model: p.model,
      generated_at: generatedAt(p.now),
    }
  }

  async sentimentOverview(p: ModelParams): Promise<unknown> {
    const [r] = await this.rows(OVERVIEW_SQL, this.windowParams(p))
    const pos = (r?.pos as number) ?? 0
    const neg = (r?.neg as number) ?? 0
    return {
      data: {
        positive_percent: percent1(pos, pos + neg),
        negative_percent: percent1(neg, pos + neg),
        total_mentions: (r?.total as number) ?? 0,
      },
      domain_id: p.domainId.toLowerCase(),
      days: p.days,
      model: p.model,
      generated_at: generatedAt(p.now),
    }
  }

  /** Integer domain keys of the floor table (set by `buildFloorTable`). */
  floorKeys = new Map<string, number>()

  /** The floor in DuckDB: a scan-only SUM over the mention columns the competitor query touches. */
  async scanMentionColumns(p: { domainId: string; days: number; now: string }): Promise<number> {
    const { start, end } = windowOf(p.now, p.days)
    const key = this.floorKeys.get(p.domainId.toLowerCase()) ?? -1
    const [r] = await this.rows(FLOOR_SQL, { domain_key: key, start_day: start, end_day: end })
    return Number(r?.s ?? 0)
  }
}

/**
 * Floor query: the same columns the competitor report needs, summed, no join and no grouping, on a
 * columnar copy sorted by (domain, day) with integer keys (bound as INTEGER so the zone maps prune):
 * what a perfect layout of the raw mention rows would have to read at minimum.
 */
const FLOOR_SQL = `
SELECT sum(entity) + sum(coalesce(position, 0)) + sum(coalesce(sentiment, 0)) + sum(prompt) + sum(day) AS s
FROM floor_mentions
WHERE domain = CAST($domain_key AS INTEGER)
  AND day BETWEEN CAST($start_day AS INTEGER) AND CAST($end_day AS INTEGER)
`

/** Builds the floor table (sorted, integer-keyed mention columns) in the naive peer's instance. */
export async function buildFloorTable(peer: NaiveSql): Promise<void> {
  await peer.connection.run(`
    CREATE OR REPLACE TABLE floor_domains AS
    SELECT id AS domain_id, CAST(row_number() OVER (ORDER BY id) AS INTEGER) AS domain FROM domains`)
  await peer.connection.run(`
    CREATE OR REPLACE TABLE floor_mentions AS
    SELECT fd.domain, CAST(CAST(a.answered_at AS DATE) - DATE '1970-01-01' AS INTEGER) AS day,
      CAST(dense_rank() OVER (ORDER BY a.prompt_id) AS INTEGER) AS prompt,
      CAST(dense_rank() OVER (ORDER BY m.entity_id) AS SMALLINT) AS entity,
      CAST(m.position AS SMALLINT) AS position, CAST(m.sentiment AS TINYINT) AS sentiment
    FROM analyses a JOIN mentions m ON m.analysis_id = a.id JOIN floor_domains fd ON fd.domain_id = a.domain_id
    ORDER BY fd.domain, day`)
  const rows = await peer.rows('SELECT domain_id, domain FROM floor_domains', {})
  peer.floorKeys = new Map(rows.map((r) => [r.domain_id as string, r.domain as number]))
}
