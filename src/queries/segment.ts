/**
 * The segment filters (docs/API.md, "Segment filters"): `country`, `topic` and `tag` keep the
 * analyses of that country, of the prompts with that topic, of the prompts with that tag. Every
 * number of a report is then computed over "the analyses in the window that pass every given
 * filter", so a report runs its usual code on aggregate rows of the segment's analyses only.
 *
 * Those rows come from the raw tables (sql/queries/segment/load_<table>.sql: the aggregate tables'
 * columns, computed over the analyses that pass the filters) and are kept in the aggregate store
 * per (domain, segment) like the domain's own rows, until a commit changes the domain. A report
 * sees them through a QueryContext whose `aggregates` is the segment's source ({@link withSegment}):
 * its `rows`, `modelRows` and `derived` answer for the segment, so no report filters by hand.
 */
import type { ReadPool, QueryValues } from '../db/read-pool.js'
import {
  AGGREGATE_TABLES,
  namedColumns,
  type AggregateRows,
  type AggregateSource,
  type AggregateTable,
  type Derived,
  type ModelTable,
} from '../tables/aggregates.js'
import type { QueryContext } from './context.js'

/** The segment filters of a request, normalized (country upper case, topic and tag trimmed). */
export interface SegmentParams {
  country?: string | undefined
  topic?: string | undefined
  tag?: string | undefined
}

/** The echo of the filters given, in their order (after every other parameter). */
export type SegmentEcho = { country?: string; topic?: string; tag?: string }

/**
 * The filters' echo: only those given, in the order country, topic, tag.
 * @example
 * segmentEcho({ tag: 'b', country: 'DE' }) // { country: 'DE', tag: 'b' }
 */
export function segmentEcho(p: SegmentParams): SegmentEcho {
  const out: SegmentEcho = {}
  if (p.country !== undefined) out.country = p.country
  if (p.topic !== undefined) out.topic = p.topic
  if (p.tag !== undefined) out.tag = p.tag
  return out
}

/** Whether a request gives any segment filter. */
export function hasSegment(p: SegmentParams): boolean {
  return p.country !== undefined || p.topic !== undefined || p.tag !== undefined
}

/**
 * The context a report computes with: `ctx` itself without filters, else one whose aggregate rows
 * are those of the analyses that pass them.
 * @example
 * const c = withSegment(ctx, { country: 'DE' })
 * await c.aggregates.rows('agg_channel_day', domain.key) // Germany's analyses per (day, channel)
 */
export function withSegment(ctx: QueryContext, p: SegmentParams): QueryContext {
  if (!hasSegment(p)) return ctx
  return { catalog: ctx.catalog, aggregates: segmentSource(ctx.aggregates, p) }
}

/** The tables' load queries that have a segment form (sql/queries/segment/). */
const SEGMENT_QUERIES = new Set([
  ...Object.keys(AGGREGATE_TABLES).map((t) => `queries/load_${t}`),
  'queries/load_agg_cited_url',
  'queries/load_agg_cited_host',
  'queries/load_agg_fanout',
])

type Pool = Pick<ReadPool, 'loadColumns' | 'loadStrings'>

/** The filters as the segment queries take them ('' for a filter not given). */
function segmentValues(p: SegmentParams): QueryValues {
  return { country: p.country ?? '', topic: p.topic ?? '', tag: p.tag ?? '' }
}

/**
 * A pool whose aggregate load queries read the segment's analyses only: the tables' load queries in
 * their segment form, and a query that takes the filters itself (its values name `country`, as the
 * /query facts' do: its SQL selects from `segment_analyses`) with the segment's filters.
 */
function segmentPool(pool: Pool, values: QueryValues): Pool {
  const map = (id: string, given: QueryValues): [string, QueryValues] =>
    SEGMENT_QUERIES.has(id)
      ? [`queries/segment/${id.slice('queries/'.length)}`, { model_key: -1, ...given, ...values }]
      : 'country' in given
        ? [id, { ...given, ...values }]
        : [id, given]
  return {
    loadColumns: ((id: string, given: QueryValues, columns: readonly string[], arrays?: never[]) => {
      const [qid, v] = map(id, given)
      return arrays === undefined
        ? pool.loadColumns(qid, v, columns)
        : pool.loadColumns(qid, v, columns, arrays)
    }) as Pool['loadColumns'],
    loadStrings: (id, given, columns) => pool.loadStrings(...map(id, given), columns),
  }
}

/** The aggregate source of one segment of the analyses, kept by `base` under names that say it. */
function segmentSource(base: AggregateSource, p: SegmentParams): AggregateSource {
  const values = segmentValues(p)
  const key = JSON.stringify([values.country, values.topic, values.tag])
  const table = <T extends AggregateTable>(t: T, modelKey: number): Derived<AggregateRows<T>> => ({
    name: `${t}#${modelKey}@${key}`,
    async build(pool, domainKey) {
      const arrays = await pool.loadColumns(
        `queries/segment/load_${t}`,
        { domain_key: domainKey, model_key: modelKey, ...values },
        AGGREGATE_TABLES[t],
      )
      const rows = namedColumns(t, arrays)
      return { value: rows, rows: rows.day.length }
    },
  })
  const source: AggregateSource = {
    keepsRows: base.keepsRows,
    rows: (t, domainKey) => base.segmented(table(t, -1), domainKey),
    modelRows: <T extends ModelTable>(t: T, domainKey: number, modelKey: number) =>
      base.segmented(table(t, modelKey), domainKey),
    derived: <T>(d: Derived<T>, domainKey: number) =>
      d.analysisFree === true
        ? base.derived(d, domainKey)
        : base.segmented<T>(
            {
              name: `${d.name}@${key}`,
              build: (pool, dk) => d.build(segmentPool(pool, values), dk, source),
            },
            domainKey,
          ),
    segmented: (d, domainKey) => base.segmented(d, domainKey),
  }
  return source
}
