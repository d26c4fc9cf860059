/**
 * Sentiment time series: docs/API.md, "Citations, fan-out and sentiment over time", by the buckets of docs/API.md, "Date ranges and buckets" (a bucket of one date
 * by default).
 *
 * Reads agg_theme_day (per day, channel, model and theme: occurrences) for the window after the
 * model filter, like the overview (src/queries/sentiment.ts), and applies the overview's rule to
 * each UTC date on its own: the distinct non-archived themes that occurred that date, their
 * positive and negative percentages, and the sum of their occurrences. A date where no
 * non-archived theme occurred has no datapoint.
 */
import { parseRequest, type QueryContext } from '../../queries/context.js'
import { passes, resolveModelFilter } from '../../queries/model-filter.js'
import { percentOneDecimal } from '../../queries/sentiment.js'
import { formatDay, rowRange } from '../../foundation/window.js'
import { sentimentSeriesParamsSchema } from './contract.js'
import type { SentimentSeriesParams, SentimentSeriesPayload, SentimentSeriesPoint } from './contract.js'

export async function computeSentimentSeries(
  base: QueryContext,
  params: SentimentSeriesParams,
): Promise<SentimentSeriesPayload> {
  const { p, scope, ctx } = parseRequest(base, sentimentSeriesParamsSchema, params)
  const { domain, window, buckets } = scope
  const envelope = {
    domain_id: domain.id,
    ...scope.echo,
    model: p.model,
    ...scope.granularityEcho,
    ...scope.segmentEcho,
    generated_at: scope.generatedAt,
  }
  const filter = resolveModelFilter(ctx.catalog, p.model)
  if (filter === null) return { data: { items: [] }, ...envelope } // a raw model id never seen
  const themes = domain.themes
  const t = await ctx.aggregates.rows('agg_theme_day', domain.key)
  const [from, to] = rowRange(t.day, window)
  // The last bucket each theme was counted in: a theme counts once per bucket however many rows it has.
  const seenOn = new Float64Array(themes.length).fill(-Infinity)
  const items: SentimentSeriesPoint[] = []
  const bucketOf = (i: number) => buckets[t.day[i]! - window.startDay]!
  for (let i = from; i < to;) {
    const day = bucketOf(i)
    let positive = 0
    let distinct = 0
    let total = 0
    for (; i < to && bucketOf(i) === day; i++) {
      if (!passes(filter, t.channel[i]!, t.model_key[i]!)) continue
      const idx = t.theme_idx[i]!
      const theme = themes[idx]
      if (theme === undefined || theme.archived) continue
      total += t.occurrences[i]!
      if (seenOn[idx] !== day) {
        seenOn[idx] = day
        distinct++
        if (theme.sentiment === 'positive') positive++
      }
    }
    if (distinct === 0) continue
    items.push({
      date: formatDay(day),
      positive_percent: percentOneDecimal(positive, distinct),
      negative_percent: percentOneDecimal(distinct - positive, distinct),
      total_mentions: total,
    })
  }
  return { data: { items }, ...envelope }
}
