/**
 * Peer: naive DuckDB SQL for the signals (docs/API.md, "GET /api/v1/signals"). Its own in-memory
 * DuckDB instance with plain raw tables (string UUID ids, TIMESTAMPTZ, no sort order, no
 * precomputation), loaded from the generator through appenders, and one straightforward statement:
 * the analyses of both periods joined to their prompt's topic, one row per (analysis, segment),
 * GROUP BY segment for n1/n2 and GROUP BY (segment, entity) over the mentions for k1/k2. The test,
 * the thresholds, the ids and the order are written out in TS from the definition, independently
 * of src/ (only the channel list and stdlib's erfc are shared).
 */
import { createHash } from 'node:crypto'
import erfc from '@stdlib/math-base-special-erfc'
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api'
import { generatedAt, isoDate, windowOf } from '../lib/semantics.js'

const SCHEMA = `
SET TimeZone = 'UTC';
CREATE TABLE domains (id VARCHAR, brand_name VARCHAR);
CREATE TABLE prompts (id VARCHAR, domain_id VARCHAR, topic VARCHAR);
CREATE TABLE competitors (id VARCHAR, domain_id VARCHAR, name VARCHAR);
CREATE TABLE analyses_raw (id VARCHAR, domain_id VARCHAR, prompt_id VARCHAR, channel VARCHAR,
  answered_at VARCHAR, country VARCHAR);
CREATE TABLE mentions (analysis_id VARCHAR, entity_id VARCHAR);
`

/** Per (segment, entity): the analyses of each period and those mentioning the entity. */
const COUNTS_SQL = `
WITH a AS (
  SELECT a.id, a.channel, upper(a.country) AS country, trim(p.topic) AS topic,
    CASE WHEN CAST(a.answered_at AS DATE) >= CAST($current_start AS DATE) THEN 1 ELSE 0 END AS period
  FROM analyses a JOIN prompts p ON p.id = a.prompt_id
  WHERE a.domain_id = $domain_id
    AND CAST(a.answered_at AS DATE) BETWEEN CAST($baseline_start AS DATE) AND CAST($current_end AS DATE)
),
seg AS (
  SELECT id, period, 'all' AS kind, NULL::VARCHAR AS value FROM a
  UNION ALL SELECT id, period, 'channel', channel FROM a
  UNION ALL SELECT id, period, 'country', country FROM a WHERE country IS NOT NULL
  UNION ALL SELECT id, period, 'topic', topic FROM a WHERE topic IS NOT NULL
),
n AS (
  SELECT kind, value, count(*) FILTER (WHERE period = 0) AS n1, count(*) FILTER (WHERE period = 1) AS n2
  FROM seg GROUP BY kind, value
),
entities AS (
  SELECT 'brand' AS entity_id UNION ALL SELECT id FROM competitors WHERE domain_id = $domain_id
),
k AS (
  SELECT s.kind, s.value, m.entity_id,
    count(*) FILTER (WHERE s.period = 0) AS k1, count(*) FILTER (WHERE s.period = 1) AS k2
  FROM seg s JOIN mentions m ON m.analysis_id = s.id
  GROUP BY s.kind, s.value, m.entity_id
)
SELECT n.kind, n.value, e.entity_id, CAST(n.n1 AS INTEGER) AS n1, CAST(n.n2 AS INTEGER) AS n2,
  CAST(coalesce(k.k1, 0) AS INTEGER) AS k1, CAST(coalesce(k.k2, 0) AS INTEGER) AS k2
FROM n CROSS JOIN entities e
LEFT JOIN k ON k.kind = n.kind AND k.value IS NOT DISTINCT FROM n.value AND k.entity_id = e.entity_id
`

const Z = 1.959963984540054

/** Wilson score interval at 95%, in percent (exactly 0 at k = 0, 100 at k = n). */
function wilson(k: number, n: number): [number, number] {
  const p = k / n
  const center = (p + (Z * Z) / (2 * n)) / (1 + (Z * Z) / n)
  const half = (Z * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n))) / (1 + (Z * Z) / n)
  return [k === 0 ? 0 : Math.max(0, center - half) * 100, k === n ? 100 : Math.min(1, center + half) * 100]
}

/** Two-sided pooled two-proportion z-test; null when the pooled proportion is 0 or 1. */
function pValue(k1: number, n1: number, k2: number, n2: number): number | null {
  const P = (k1 + k2) / (n1 + n2)
  if (P === 0 || P === 1) return null
  const z = (k2 / n2 - k1 / n1) / Math.sqrt(P * (1 - P) * (1 / n1 + 1 / n2))
  return erfc(Math.abs(z) / Math.SQRT2)
}

/** The documented fingerprint: SHA-256 of the JSON array, first 16 bytes, version 8, RFC 9562 variant. */
function fingerprint(parts: (string | number | null)[]): string {
  const b = createHash('sha256')
    .update(JSON.stringify(['visibility', ...parts]))
    .digest()
    .subarray(0, 16)
  b[6] = (b[6]! & 0x0f) | 0x80
  b[8] = (b[8]! & 0x3f) | 0x80
  const h = b.toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

export interface SignalsPeerParams {
  domainId: string
  window: number
  minResponses: number
  minDelta: number
  now: string
}

interface CountRow {
  kind: string
  value: string | null
  entity_id: string
  n1: number
  n2: number
  k1: number
  k2: number
}

export class NaiveSqlSignals {
  readonly name = 'naive-sql'
  private constructor(
    readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
  ) {}

  /** Creates the instance and loads the records the signals read (domains, prompts, competitors, analyses). */
  static async load(records: Iterable<unknown>): Promise<NaiveSqlSignals> {
    const instance = await DuckDBInstance.create(':memory:')
    const connection = await instance.connect()
    await connection.run(SCHEMA)
    const names = ['domains', 'prompts', 'competitors', 'analyses_raw', 'mentions'] as const
    const ap = {} as Record<(typeof names)[number], DuckDBAppender>
    for (const n of names) ap[n] = await connection.createAppender(n)
    const put = (a: DuckDBAppender, vals: (string | null)[]): void => {
      for (const v of vals) {
        if (v === null) a.appendNull()
        else a.appendVarchar(v)
      }
      a.endRow()
    }
    const lower = (v: unknown): string => (v as string).toLowerCase()
    for (const raw of records) {
      const r = raw as Record<string, unknown> & { type: string }
      if (r.type === 'domain') put(ap.domains, [lower(r.id), r.brand_name as string])
      else if (r.type === 'prompt')
        put(ap.prompts, [lower(r.id), lower(r.domain_id), (r.topic as string | null | undefined) ?? null])
      else if (r.type === 'competitor')
        put(ap.competitors, [lower(r.id), lower(r.domain_id), r.name as string])
      else if (r.type === 'analysis') {
        const id = lower(r.id)
        put(ap.analyses_raw, [
          id,
          lower(r.domain_id),
          lower(r.prompt_id),
          r.channel as string,
          r.answered_at as string,
          (r.country as string | null | undefined) ?? null,
        ])
        for (const m of r.mentions as { entity_id: string }[])
          put(ap.mentions, [id, m.entity_id === 'brand' ? 'brand' : m.entity_id.toLowerCase()])
      }
    }
    for (const n of names) ap[n].closeSync()
    await connection.run(
      'CREATE TABLE analyses AS SELECT * REPLACE (CAST(answered_at AS TIMESTAMPTZ) AS answered_at) FROM analyses_raw',
    )
    await connection.run('DROP TABLE analyses_raw')
    return new NaiveSqlSignals(instance, connection)
  }

  async close(): Promise<void> {
    this.connection.closeSync()
    this.instance.closeSync()
  }

  async computeSignals(p: SignalsPeerParams): Promise<unknown> {
    const domainId = p.domainId.toLowerCase()
    const current = windowOf(p.now, p.window)
    const baseline = { start: current.start - p.window, end: current.start - 1 }
    const rows = async (sql: string, values: Record<string, string>) =>
      (await this.connection.runAndReadAll(sql, values)).getRowObjectsJS() as unknown[]
    const [dom] = (await rows('SELECT brand_name FROM domains WHERE id = $id', { id: domainId })) as {
      brand_name: string
    }[]
    const names = new Map(
      (
        (await rows('SELECT id, name FROM competitors WHERE domain_id = $id', { id: domainId })) as {
          id: string
          name: string
        }[]
      ).map((c) => [c.id, c.name]),
    )
    const counts = (await rows(COUNTS_SQL, {
      domain_id: domainId,
      baseline_start: isoDate(baseline.start),
      current_start: isoDate(current.start),
      current_end: isoDate(current.end),
    })) as CountRow[]
    const period = (days: { start: number; end: number }, n: number, k: number) => ({
      start_date: isoDate(days.start),
      end_date: isoDate(days.end),
      responses: n,
      mentions: k,
      visibility: (k * 100) / n,
      visibility_ci: wilson(k, n),
    })
    const items = []
    for (const c of counts) {
      if (c.n1 < p.minResponses || c.n2 < p.minResponses) continue
      const delta = (c.k2 * 100) / c.n2 - (c.k1 * 100) / c.n1
      if (!(Math.abs(delta) >= p.minDelta - 1e-9)) continue
      const pv = pValue(c.k1, c.n1, c.k2, c.n2)
      if (pv === null || !(pv < 0.05)) continue
      const isBrand = c.entity_id === 'brand'
      const entityId = isBrand ? `user-brand-${domainId}` : c.entity_id
      items.push({
        id: fingerprint([domainId, entityId, c.kind, c.value, p.window, isoDate(current.end)]),
        metric: 'visibility',
        entity_id: entityId,
        entity_name: isBrand ? dom!.brand_name : names.get(c.entity_id)!,
        is_brand: isBrand,
        segment: { kind: c.kind, value: c.value },
        baseline: period(baseline, c.n1, c.k1),
        current: period(current, c.n2, c.k2),
        visibility_delta: delta,
        direction: delta > 0 ? 'up' : 'down',
        p_value: pv,
        tier: pv < 0.001 ? 'high' : pv < 0.01 ? 'confident' : 'worth_a_look',
      })
    }
    items.sort(
      (x, y) =>
        x.p_value - y.p_value ||
        Math.abs(y.visibility_delta) - Math.abs(x.visibility_delta) ||
        compareText(x.id, y.id),
    )
    return {
      data: { items },
      domain_id: domainId,
      window: p.window,
      min_responses: p.minResponses,
      min_delta: p.minDelta,
      generated_at: generatedAt(p.now),
    }
  }
}
