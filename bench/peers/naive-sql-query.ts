/**
 * Peer: naive DuckDB SQL for GET /api/v1/query (docs/API.md, "GET /api/v1/query"), over the raw
 * tables of the naive-sql peer (string ids, TIMESTAMPTZ, no order, no precomputation): one plain
 * statement of GROUP BYs over the dimensions (analyses per group, mentions and citations per group
 * and entity), the previous window's counts joined in, ordered and paged in SQL; the Wilson interval
 * and the p-value in TS (the reference model's, test/reference/query.ts). Written from the spec,
 * independently of src/.
 */
import type { DuckDBValue } from '@duckdb/node-api'
import { generatedAt, isoDate, windowOf } from '../lib/semantics.js'
import { pValueRef, wilsonInterval } from '../../test/reference/query.js'
import type { NaiveSql } from './naive-sql.js'
import { WINDOW_FILTER } from './naive-sql.js'

export type QueryDim = 'date' | 'channel' | 'model' | 'country' | 'prompt' | 'topic' | 'tag'

export interface NaiveQueryParams {
  domainId: string
  days: number
  now: string
  dimensions: QueryDim[]
  entity: 'all' | 'brand'
  compare?: 'none' | 'previous'
  minResponses?: number
  page?: number
  limit?: number
  country?: string
  topic?: string
  tag?: string
}

/** Each dimension's value over `a` (the window's analyses) and `p` (their prompts), and its field. */
const DIM: Record<QueryDim, { sql: string; field: string }> = {
  date: { sql: `strftime(CAST(a.answered_at AS DATE), '%Y-%m-%d')`, field: 'date' },
  channel: { sql: 'a.channel', field: 'channel' },
  model: { sql: 'a.model', field: 'model' },
  country: { sql: 'a.country', field: 'country' },
  prompt: { sql: 'a.prompt_id', field: 'prompt_id' },
  topic: { sql: 'p.topic', field: 'topic' },
  tag: { sql: 't.tag', field: 'tag' },
}

const SITE = (col: string): string =>
  `regexp_replace(lower(regexp_extract(${col}, '^(?:[a-zA-Z][a-zA-Z0-9+.-]*://)?(?:[^@/?#]*@)?([^:/?#]+)', 1)), '^www[.]', '')`

/** The statement for a list of dimensions (the group columns g0, g1, g2). */
function statement(dims: QueryDim[], entity: 'all' | 'brand', compare: boolean): string {
  const g = dims.map((_, i) => `g${i}`)
  const cols = dims.map((d, i) => `${DIM[d].sql} AS g${i}`)
  const tagJoin = dims.includes('tag') ? 'LEFT JOIN prompt_tags t ON t.prompt_id = a.prompt_id' : ''
  // The analyses of a window that pass the filters, one row per group they belong to.
  const grouped = (start: string, end: string) => `
    SELECT a.id${cols.map((c) => `, ${c}`).join('')}
    FROM (SELECT * FROM analyses WHERE ${WINDOW_FILTER.replaceAll('$start', start).replaceAll('$end', end)}) a
    LEFT JOIN prompts p ON p.id = a.prompt_id ${tagJoin}
    WHERE ($country = '' OR a.country = $country) AND ($topic = '' OR p.topic = $topic)
      AND ($tag = '' OR EXISTS (SELECT 1 FROM prompt_tags f WHERE f.prompt_id = a.prompt_id AND f.tag = $tag))`
  const on = (x: string, y: string) => g.map((c) => ` AND ${x}.${c} IS NOT DISTINCT FROM ${y}.${c}`).join('')
  const list = (x: string) => g.map((c) => `${x}.${c}, `).join('')
  const by = g.length === 0 ? '' : `GROUP BY ${g.join(', ')}`
  return `
WITH a AS (${grouped('$start', '$end')}),
ents AS (
  SELECT 'brand' AS entity_id, (SELECT CASE WHEN website IS NULL OR website = '' THEN NULL ELSE ${SITE('website')} END
    FROM domains WHERE id = $domain_id) AS w
  ${entity === 'all' ? `UNION ALL SELECT id, CASE WHEN website IS NULL OR website = '' THEN NULL ELSE ${SITE('website')} END FROM competitors WHERE domain_id = $domain_id` : ''}
),
every AS (
  SELECT 'brand' AS entity_id UNION ALL SELECT id FROM competitors WHERE domain_id = $domain_id
),
groups AS (SELECT ${list('a')}count(*) AS n FROM a ${by}),
ct AS (SELECT ${list('a')}count(*) AS total FROM a JOIN citations c ON c.analysis_id = a.id ${by}),
m AS (
  SELECT ${list('a')}m.entity_id, count(DISTINCT a.id) AS k, sum(m.position) AS ps, count(m.position) AS pc,
    sum(m.sentiment) AS ss, count(m.sentiment) AS sc
  FROM a JOIN mentions m ON m.analysis_id = a.id
  WHERE m.entity_id IN (SELECT entity_id FROM every)
  GROUP BY ${[...g, 'm.entity_id'].join(', ')}
),
sov AS (SELECT ${list('m')}sum(k) AS sov_total FROM m ${by}),
ec AS (
  SELECT ${list('a')}e.entity_id, count(*) AS cit
  FROM a JOIN citations c ON c.analysis_id = a.id
  JOIN ents e ON e.w IS NOT NULL AND (c.host = e.w OR ends_with(c.host, '.' || e.w))
  GROUP BY ${[...g, 'e.entity_id'].join(', ')}
)${
    compare
      ? `,
pa AS (${grouped('$pstart', '$pend')}),
pgroups AS (SELECT ${list('pa')}count(*) AS n FROM pa ${by}),
pm AS (
  SELECT ${list('pa')}m.entity_id, count(DISTINCT pa.id) AS k
  FROM pa JOIN mentions m ON m.analysis_id = pa.id
  GROUP BY ${[...g.map((c) => `pa.${c}`), 'm.entity_id'].join(', ')}
)`
      : ''
  }
SELECT ${list('gr')}e.entity_id, CAST(gr.n AS INTEGER) AS n, CAST(coalesce(m.k, 0) AS INTEGER) AS k,
  CAST(coalesce(m.ps, 0) AS DOUBLE) AS ps, CAST(coalesce(m.pc, 0) AS INTEGER) AS pc,
  CAST(coalesce(m.ss, 0) AS DOUBLE) AS ss, CAST(coalesce(m.sc, 0) AS INTEGER) AS sc,
  CAST(coalesce(sov.sov_total, 0) AS INTEGER) AS sov_total, CAST(coalesce(ct.total, 0) AS INTEGER) AS ct,
  CAST(coalesce(ec.cit, 0) AS INTEGER) AS cit,
  ${compare ? 'CAST(coalesce(pg.n, 0) AS INTEGER) AS pn, CAST(coalesce(pm.k, 0) AS INTEGER) AS pk,' : ''}
  CAST(count(*) OVER () AS INTEGER) AS total
FROM groups gr CROSS JOIN ents e
LEFT JOIN m ON m.entity_id = e.entity_id${on('m', 'gr')}
LEFT JOIN sov ON true${on('sov', 'gr')}
LEFT JOIN ct ON true${on('ct', 'gr')}
LEFT JOIN ec ON ec.entity_id = e.entity_id${on('ec', 'gr')}
${compare ? `LEFT JOIN pgroups pg ON true${on('pg', 'gr')} LEFT JOIN pm ON pm.entity_id = e.entity_id${on('pm', 'gr')}` : ''}
WHERE gr.n >= $min
ORDER BY ${[...g.map((c) => `gr.${c} NULLS LAST`), `e.entity_id <> 'brand'`, 'e.entity_id'].join(', ')}
LIMIT $limit OFFSET $offset
`
}

type Row = Record<string, unknown>

export class NaiveSqlQuery {
  constructor(readonly sql: NaiveSql) {}

  async query(p: NaiveQueryParams): Promise<unknown> {
    const domainId = p.domainId.toLowerCase()
    const compare = p.compare === 'previous'
    const page = p.page ?? 1
    const limit = p.limit ?? 1000
    const { start, end } = windowOf(p.now, p.days)
    const values: Record<string, DuckDBValue> = {
      ...this.sql.windowParams({ ...p, model: 'all' }),
      country: p.country ?? '',
      topic: p.topic ?? '',
      tag: p.tag ?? '',
      min: p.minResponses ?? 0,
      limit,
      offset: (page - 1) * limit,
    }
    if (compare) {
      values.pstart = isoDate(start - p.days)
      values.pend = isoDate(end - p.days)
    }
    const [dom] = await this.sql.rows('SELECT brand_name FROM domains WHERE id = $id', { id: domainId })
    const comps = await this.sql.rows('SELECT id, name FROM competitors WHERE domain_id = $id', {
      id: domainId,
    })
    const names = new Map<string, string>(comps.map((c) => [c.id as string, c.name as string]))
    const rows = await this.sql.rows(statement(p.dimensions, p.entity, compare), values)
    const total = rows.length === 0 ? 0 : (rows[0]!.total as number)
    const items = rows.map((r: Row) => {
      const out: Row = {}
      p.dimensions.forEach((d, i) => (out[DIM[d].field] = r[`g${i}`] ?? null))
      const brand = r.entity_id === 'brand'
      const n = r.n as number
      const k = r.k as number
      const pc = r.pc as number
      const sc = r.sc as number
      const sovTotal = r.sov_total as number
      const ct = r.ct as number
      const cit = r.cit as number
      const visibility = (k / n) * 100
      Object.assign(out, {
        entity_id: brand ? `user-brand-${domainId}` : r.entity_id,
        entity_name: brand ? dom?.brand_name : names.get(r.entity_id as string),
        is_brand: brand,
        responses: n,
        mentions: k,
        visibility,
        visibility_ci: wilsonInterval(k, n),
        sov: sovTotal === 0 ? 0 : (k / sovTotal) * 100,
        sov_total: sovTotal,
        position_sum: r.ps,
        position_count: pc,
        avg_position: pc === 0 ? null : (r.ps as number) / pc,
        sentiment_sum: r.ss,
        sentiment_count: sc,
        avg_sentiment: sc === 0 ? null : (r.ss as number) / sc,
        citations: cit,
        citations_total: ct,
        citability: ct === 0 ? 0 : (cit / ct) * 100,
      })
      if (compare) {
        const n1 = r.pn as number
        const k1 = r.pk as number
        const before = n1 === 0 ? 0 : (k1 / n1) * 100
        const pValue = pValueRef(k1, n1, k, n)
        out.previous = {
          responses: n1,
          mentions: k1,
          visibility: before,
          visibility_ci: wilsonInterval(k1, n1),
        }
        out.change = {
          visibility_delta: visibility - before,
          p_value: pValue,
          significant: pValue !== null && pValue < 0.05,
        }
      }
      return out
    })
    return {
      data: { items, total, page, limit, total_pages: Math.max(1, Math.ceil(total / limit)) },
      domain_id: domainId,
      days: p.days,
      dimensions: p.dimensions,
      entity: p.entity,
      compare: p.compare ?? 'none',
      min_responses: p.minResponses ?? 0,
      page,
      limit,
      ...(p.country === undefined ? {} : { country: p.country }),
      ...(p.topic === undefined ? {} : { topic: p.topic }),
      ...(p.tag === undefined ? {} : { tag: p.tag }),
      generated_at: generatedAt(p.now),
    }
  }
}
