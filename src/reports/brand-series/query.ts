/**
 * The four brand time series (docs/API.md, "Brand time series"): visibility, mentions, citations,
 * citability.
 *
 * The dates are those of the competitor series (datesWithAnalyses over agg_channel_day: the UTC
 * dates of the window with an analysis passing the model filter). Per date the series read the
 * brand's rows of agg_entity_day (visibility, mentions) or agg_citation_day (citations,
 * citability: brand citation entries, all citation entries). A raw model id reads the same tables
 * computed for that model (rowsForModel).
 */
import type { BrandMetric } from '../../types.js'
import { datesWithAnalyses } from '../../queries/analysis-dates.js'
import { parseRequest, type QueryContext, type ReportScope } from '../../queries/context.js'
import { passes, rowsForModel, type FilteredRows } from '../../queries/model-filter.js'
import { bucketPositions, formatDay, rowRange } from '../../foundation/window.js'
import { brandSeriesParamsSchema } from './contract.js'
import type { BrandSeriesParams, BrandSeriesPayload, ValuePoint } from './contract.js'

export async function computeBrandSeries(
  base: QueryContext,
  params: BrandSeriesParams,
): Promise<BrandSeriesPayload> {
  const { p, scope, ctx } = parseRequest(base, brandSeriesParamsSchema, params)
  const { domain } = scope
  const source = rowsForModel(ctx, domain.key, p.model)
  const items = source === null ? [] : await seriesOf(source, scope, p.metric)
  return {
    data: { items },
    domain_id: domain.id,
    ...scope.echo,
    model: p.model,
    ...scope.granularityEcho,
    ...scope.segmentEcho,
    generated_at: scope.generatedAt,
  }
}

async function seriesOf(
  source: FilteredRows,
  scope: ReportScope,
  metric: BrandMetric,
): Promise<ValuePoint[]> {
  const f = source.filter
  const w = scope.window
  const dates = datesWithAnalyses(await source.rows('agg_channel_day'), w, f, scope.buckets)
  const n = dates.day.length
  if (n === 0) return []
  // Each window date's datapoint (its bucket's), -1 for a bucket without analyses.
  const dateIndex = bucketPositions(scope.buckets, dates.day)

  // Per date: the metric's numerator (brand) and, for the percentages, its denominator.
  const part = new Float64Array(n)
  const whole = new Float64Array(n)
  if (metric === 'visibility' || metric === 'mentions') {
    const t = await source.rows('agg_entity_day')
    const [from, to] = rowRange(t.day, w)
    for (let i = from; i < to; i++) {
      if (t.entity_idx[i]! !== 0 || !passes(f, t.channel[i]!)) continue
      const d = dateIndex[t.day[i]! - w.startDay]!
      if (d >= 0) part[d]! += t.mentions[i]!
    }
    whole.set(dates.analyses)
  } else {
    const t = await source.rows('agg_citation_day')
    const [from, to] = rowRange(t.day, w)
    for (let i = from; i < to; i++) {
      if (!passes(f, t.channel[i]!)) continue
      const d = dateIndex[t.day[i]! - w.startDay]!
      if (d < 0) continue
      part[d]! += t.brand_citations[i]!
      whole[d]! += t.citations[i]!
    }
  }
  const percentages = metric === 'visibility' || metric === 'citability'
  return dates.day.map((day, d) => ({
    date: formatDay(day),
    value: !percentages ? part[d]! : whole[d]! === 0 ? 0 : (part[d]! * 100) / whole[d]!,
  }))
}
