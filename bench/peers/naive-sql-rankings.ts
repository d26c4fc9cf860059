/**
 * Peer: naive DuckDB SQL for the brand rankings, the model leaderboard and the four brand time
 * series (extensions.md sections 4-5), over the raw tables of the naive-sql peer (string ids,
 * TIMESTAMPTZ, no order, no precomputation): one straightforward statement per report, shaped into
 * the payload in TS. Written from the spec, independently of src/.
 */
import { CHANNELS } from '../../src/foundation/vocabulary.js'
import type { NaiveSql } from './naive-sql.js'
import { HOST, WINDOW_FILTER } from './naive-sql.js'
import { generatedAt } from '../lib/semantics.js'

export interface BrandReportParams {
  domainId: string
  days: number
  model: string
  now: string
}
export type BrandMetric = 'visibility' | 'mentions' | 'citations' | 'citability'

const RANKINGS_SQL = `
WITH a AS (SELECT id, prompt_id FROM analyses WHERE ${WINDOW_FILTER}),
entities AS (
  SELECT 'brand' AS entity_id UNION ALL SELECT id FROM competitors WHERE domain_id = $domain_id
),
m AS (
  SELECT a.prompt_id, m.entity_id, m.position
  FROM a JOIN mentions m ON m.analysis_id = a.id
  WHERE m.entity_id IN (SELECT entity_id FROM entities)
),
counts AS (SELECT entity_id, count(*) AS mentions, count(DISTINCT prompt_id) AS prompts FROM m GROUP BY entity_id),
per_prompt AS (
  SELECT entity_id, prompt_id, avg(position) AS p FROM m WHERE position IS NOT NULL GROUP BY entity_id, prompt_id
),
pos AS (SELECT entity_id, avg(p) AS avg_position FROM per_prompt GROUP BY entity_id)
SELECT e.entity_id, CAST(coalesce(c.mentions, 0) AS INTEGER) AS mentions,
  CAST(coalesce(c.prompts, 0) AS INTEGER) AS prompts_mentioned, pos.avg_position,
  CAST((SELECT count(*) FROM a) AS INTEGER) AS analyses,
  CAST((SELECT count(DISTINCT prompt_id) FROM a) AS INTEGER) AS total_prompts
FROM entities e LEFT JOIN counts c USING (entity_id) LEFT JOIN pos USING (entity_id)
`

const LEADERBOARD_SQL = `
WITH a AS (SELECT id, channel FROM analyses WHERE ${WINDOW_FILTER})
SELECT a.channel, CAST(count(*) AS INTEGER) AS responses, CAST(count(m.analysis_id) AS INTEGER) AS mentions,
  avg(m.position) AS avg_position
FROM a LEFT JOIN mentions m ON m.analysis_id = a.id AND m.entity_id = 'brand'
GROUP BY a.channel
`

/** Per date: analyses and brand-mentioning analyses (the visibility and mentions series). */
const MENTION_SERIES_SQL = `
WITH a AS (SELECT id, CAST(answered_at AS DATE) AS d FROM analyses WHERE ${WINDOW_FILTER}),
brand AS (SELECT analysis_id FROM mentions WHERE entity_id = 'brand')
SELECT strftime(a.d, '%Y-%m-%d') AS date, CAST(count(*) AS INTEGER) AS analyses,
  CAST(count(brand.analysis_id) AS INTEGER) AS mentions
FROM a LEFT JOIN brand ON brand.analysis_id = a.id
GROUP BY a.d
ORDER BY a.d
`

/** Per date with analyses: citation entries and brand citation entries (the citations and citability series). */
const CITATION_SERIES_SQL = `
WITH a AS (SELECT id, CAST(answered_at AS DATE) AS d FROM analyses WHERE ${WINDOW_FILTER}),
site AS (
  SELECT regexp_replace(lower(regexp_extract(website, '^(?:[a-zA-Z][a-zA-Z0-9+.-]*://)?(?:[^@/?#]*@)?([^:/?#]+)', 1)),
    '^www[.]', '') AS w
  FROM domains WHERE id = $domain_id AND website IS NOT NULL AND website <> ''
),
cited AS (SELECT a.d, ${HOST} AS host FROM a JOIN citations c ON c.analysis_id = a.id),
cit AS (
  SELECT cited.d, count(*) AS total,
    count(*) FILTER (WHERE site.w IS NOT NULL AND (cited.host = site.w OR ends_with(cited.host, '.' || site.w))) AS own
  FROM cited LEFT JOIN site ON true
  GROUP BY cited.d
)
SELECT strftime(days.d, '%Y-%m-%d') AS date, CAST(coalesce(cit.total, 0) AS INTEGER) AS citations,
  CAST(coalesce(cit.own, 0) AS INTEGER) AS brand_citations
FROM (SELECT DISTINCT d FROM a) days LEFT JOIN cit USING (d)
ORDER BY days.d
`

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

export class NaiveSqlRankings {
  readonly name = 'naive-sql'
  constructor(readonly sql: NaiveSql) {}

  async brandRankings(p: BrandReportParams): Promise<unknown> {
    const domainId = p.domainId.toLowerCase()
    const [dom] = await this.sql.rows('SELECT brand_name, website FROM domains WHERE id = $id', {
      id: domainId,
    })
    const comps = await this.sql.rows('SELECT id, name, website FROM competitors WHERE domain_id = $id', {
      id: domainId,
    })
    const rows = await this.sql.rows(RANKINGS_SQL, this.sql.windowParams(p))
    const byEntity = new Map(rows.map((r) => [r.entity_id as string, r]))
    const analyses = (rows[0]?.analyses as number | undefined) ?? 0
    const sum = rows.reduce((n, r) => n + (r.mentions as number), 0)
    const item = (entityId: string, id: string, name: string, website: string | null) => {
      const r = byEntity.get(entityId)!
      const mentions = r.mentions as number
      return {
        id,
        name,
        website,
        is_brand: entityId === 'brand',
        mentions,
        visibility: analyses === 0 ? 0 : (mentions * 100) / analyses,
        sov: sum === 0 ? 0 : (mentions * 100) / sum,
        avg_position: (r.avg_position as number | null) ?? null,
        prompts_mentioned: r.prompts_mentioned as number,
        total_prompts: r.total_prompts as number,
      }
    }
    const others = comps
      .map((c) => item(c.id as string, c.id as string, c.name as string, c.website as string | null))
      .sort((a, b) => b.mentions - a.mentions || cmp(a.name, b.name) || cmp(a.id, b.id))
    const items =
      comps.length === 0 && analyses === 0
        ? []
        : [
            item(
              'brand',
              `user-brand-${domainId}`,
              dom?.brand_name as string,
              (dom?.website ?? null) as string | null,
            ),
            ...others,
          ]
    return {
      data: { items },
      domain_id: domainId,
      days: p.days,
      model: p.model,
      generated_at: generatedAt(p.now),
    }
  }

  async modelLeaderboard(p: Omit<BrandReportParams, 'model'>): Promise<unknown> {
    const rows = await this.sql.rows(LEADERBOARD_SQL, this.sql.windowParams({ ...p, model: 'all' }))
    const items = rows
      .map((r) => ({
        model: r.channel as string,
        visibility: ((r.mentions as number) * 100) / (r.responses as number),
        avg_position: (r.avg_position as number | null) ?? null,
        mentions: r.mentions as number,
        responses: r.responses as number,
      }))
      .filter((i) => (CHANNELS as readonly string[]).includes(i.model))
      .sort((a, b) => b.visibility - a.visibility || cmp(a.model, b.model))
    return {
      data: { items },
      domain_id: p.domainId.toLowerCase(),
      days: p.days,
      generated_at: generatedAt(p.now),
    }
  }

  async brandSeries(p: BrandReportParams & { metric: BrandMetric }): Promise<unknown> {
    const citations = p.metric === 'citations' || p.metric === 'citability'
    const rows = await this.sql.rows(
      citations ? CITATION_SERIES_SQL : MENTION_SERIES_SQL,
      this.sql.windowParams(p),
    )
    const items = rows.map((r) => {
      const value = {
        visibility: () => ((r.mentions as number) * 100) / (r.analyses as number),
        mentions: () => r.mentions as number,
        citations: () => r.brand_citations as number,
        citability: () =>
          (r.citations as number) === 0 ? 0 : ((r.brand_citations as number) * 100) / (r.citations as number),
      }[p.metric]()
      return { date: r.date as string, value }
    })
    return {
      data: { items },
      domain_id: p.domainId.toLowerCase(),
      days: p.days,
      model: p.model,
      generated_at: generatedAt(p.now),
    }
  }
}
