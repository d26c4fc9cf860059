/**
 * Competitor time series: docs/API.md, "GET /api/v1/competitor-time-series", by the buckets of docs/API.md, "Date ranges and buckets" (one date
 * each by default): a datapoint's counts are the bucket's sums, its percentages and means
 * recomputed from them.
 *
 * Reads three aggregate tables for the window, after the channel filter: agg_channel_day (the
 * dates and their analyses), agg_entity_day (per date and entity: mentions, position and sentiment
 * sums and counts) and agg_entity_prompts (the prompts mentioning each entity, as bitmasks, for
 * `total_queries`, prompt-masks.ts). Entity 0 is the brand, entity i the domain's competitor of index i.
 */
import type { AggregateRows } from '../../tables/aggregates.js'
import { datesWithAnalyses } from '../../queries/analysis-dates.js'
import { compareText } from '../../foundation/compare.js'
import { parseRequest, type QueryContext } from '../../queries/context.js'
import { ExactSum, addFixed, fixedMean } from '../../queries/exact-mean.js'
import { passes, resolveModelFilter, type ModelFilter } from '../../queries/model-filter.js'
import { distinctPrompts } from '../../queries/prompt-masks.js'
import { bucketPositions, formatDay, rowRange, type DayWindow } from '../../foundation/window.js'
import { competitorSeriesParamsSchema } from './contract.js'
import type { CompetitorEntry, CompetitorSeriesParams, CompetitorSeriesPayload } from './contract.js'

export async function computeCompetitorSeries(
  base: QueryContext,
  params: CompetitorSeriesParams,
): Promise<CompetitorSeriesPayload> {
  const { p, scope, ctx } = parseRequest(base, competitorSeriesParamsSchema, params)
  const { domain, window, buckets, generatedAt } = scope
  // The parameter schema admits only `all` and channel names, which always resolve.
  const filter = resolveModelFilter(ctx.catalog, p.model)!
  const [channelDay, entityDay, entityPrompts] = await Promise.all([
    ctx.aggregates.rows('agg_channel_day', domain.key),
    ctx.aggregates.rows('agg_entity_day', domain.key),
    ctx.aggregates.rows('agg_entity_prompts', domain.key),
  ])
  const envelope = {
    domain_id: domain.id,
    ...scope.echo,
    model: p.model,
    ...scope.granularityEcho,
    ...scope.segmentEcho,
    generated_at: generatedAt,
  }
  const competitors = domain.competitors
  const entities = competitors.length + 1

  const dates = datesWithAnalyses(channelDay, window, filter, buckets)
  const nDays = dates.day.length
  if (nDays === 0 && competitors.length === 0) return { data: { items: [] }, ...envelope }
  const s = entitySums(entityDay, window, filter, bucketPositions(buckets, dates.day), nDays, entities)
  const totalQueries = distinctPrompts(entityPrompts, window, filter, entityPrompts.entity_idx, entities)

  const entry = (e: number): CompetitorEntry => {
    const c = e === 0 ? undefined : competitors[e - 1]!
    const series: CompetitorEntry['series'] = []
    let sumMentions = 0
    const sumVisibility = new ExactSum()
    const sumSov = new ExactSum()
    let totalPos = 0
    let totalPosCnt = 0
    const totalSentHi = new Float64Array(1)
    const totalSentLo = new Float64Array(1)
    let totalSentCnt = 0
    for (let d = 0; d < nDays; d++) {
      const at = e * nDays + d
      const m = s.mentions[at]!
      const visibility = (m * 100) / dates.analyses[d]!
      const sov = s.daySum[d]! === 0 ? 0 : (m * 100) / s.daySum[d]!
      series.push({
        date: formatDay(dates.day[d]!),
        mentions: m,
        visibility,
        sov,
        avg_position: s.posCnt[at]! === 0 ? 0 : s.posSum[at]! / s.posCnt[at]!,
        sentiment: fixedMean(s.sentHi[at]!, s.sentLo[at]!, s.sentCnt[at]!),
      })
      sumMentions += m
      sumVisibility.add(visibility)
      sumSov.add(sov)
      totalPos += s.posSum[at]!
      totalPosCnt += s.posCnt[at]!
      addFixed(totalSentHi, totalSentLo, 0, s.sentHi[at]!, s.sentLo[at]!)
      totalSentCnt += s.sentCnt[at]!
    }
    return {
      id: c === undefined ? `user-brand-${domain.id}` : c.id,
      name: c === undefined ? domain.brand_name : c.name,
      website: c === undefined ? domain.website : c.website,
      is_brand: c === undefined,
      avg_mentions: nDays === 0 ? 0 : sumMentions / nDays,
      avg_position: totalPosCnt === 0 ? 0 : totalPos / totalPosCnt,
      avg_visibility: sumVisibility.mean(),
      avg_sov: sumSov.mean(),
      avg_sentiment: fixedMean(totalSentHi[0]!, totalSentLo[0]!, totalSentCnt),
      total_queries: nDays === 0 ? 0 : totalQueries[e]!,
      series,
    }
  }
  const rows = competitors.map((_, i) => entry(i + 1))
  rows.sort(
    (a, b) => b.avg_visibility - a.avg_visibility || compareText(a.name, b.name) || compareText(a.id, b.id),
  )
  return { data: { items: [entry(0), ...rows] }, ...envelope }
}

/**
 * Per (entity, datapoint) sums in flat arrays indexed entity * datapoints + datapoint, and per
 * datapoint all entities' mentions. `datePos`: each window date's datapoint (-1: none).
 */
function entitySums(
  t: AggregateRows<'agg_entity_day'>,
  w: DayWindow,
  f: ModelFilter,
  datePos: Int32Array,
  nDays: number,
  entities: number,
) {
  const size = entities * nDays
  const s = {
    mentions: new Float64Array(size),
    posSum: new Float64Array(size),
    posCnt: new Float64Array(size),
    sentHi: new Float64Array(size),
    sentLo: new Float64Array(size),
    sentCnt: new Float64Array(size),
    daySum: new Float64Array(nDays),
  }
  const [from, to] = rowRange(t.day, w)
  for (let i = from; i < to; i++) {
    const e = t.entity_idx[i]!
    if (e >= entities || !passes(f, t.channel[i]!)) continue // not an entity of the domain
    const d = datePos[t.day[i]! - w.startDay]!
    if (d < 0) continue
    const at = e * nDays + d
    s.mentions[at]! += t.mentions[i]!
    s.posSum[at]! += t.pos_sum[i]!
    s.posCnt[at]! += t.pos_cnt[i]!
    addFixed(s.sentHi, s.sentLo, at, t.sent_hi[i]!, t.sent_lo[i]!)
    s.sentCnt[at]! += t.sent_cnt[i]!
    s.daySum[d]! += t.mentions[i]!
  }
  return s
}
