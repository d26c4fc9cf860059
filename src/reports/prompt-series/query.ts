/**
 * Prompt time series: docs/API.md, "GET /api/v1/prompt-statistics-time-series", with the window and buckets of docs/API.md, "Date ranges and buckets".
 *
 * Reads agg_prompt_day (per day and prompt: responses, brand mentions, own-site citations, brand
 * position sum and count; computed at ingest, so the citation host rule lives in
 * sql/ingest/fill_agg_prompt_day.sql) for the window, ranks the prompts and shapes one series per
 * ranked prompt.
 */
import type { PromptRow } from '../../catalog.js'
import type { AggregateRows } from '../../tables/aggregates.js'
import { compareText } from '../../foundation/compare.js'
import { parseRequest, type QueryContext } from '../../queries/context.js'
import { formatDay, rowRange } from '../../foundation/window.js'
import { promptSeriesParamsSchema } from './contract.js'
import type { PromptEntry, PromptSeriesParams, PromptSeriesPayload } from './contract.js'

export async function computePromptSeries(
  base: QueryContext,
  params: PromptSeriesParams,
): Promise<PromptSeriesPayload> {
  const { p, scope, ctx } = parseRequest(base, promptSeriesParamsSchema, params)
  const { domain, window, buckets, generatedAt } = scope
  const rows = await ctx.aggregates.rows('agg_prompt_day', domain.key)
  const [from, to] = rowRange(rows.day, window)
  const ranked = rankPrompts(rows, from, to, domain.prompts, p.limit)

  // Rows are sorted by day, so appending each row to its prompt's entry keeps every series ascending;
  // a row of the same bucket as its prompt's last datapoint adds its counts to that datapoint, whose
  // avg_position is recomputed from the bucket's position sum and count.
  const entryOf: Array<PromptEntry | undefined> = new Array(domain.prompts.length)
  const lastBucket = new Float64Array(domain.prompts.length).fill(-Infinity)
  const posSum = new Float64Array(domain.prompts.length)
  const posCnt = new Float64Array(domain.prompts.length)
  const items = ranked.map((idx) => {
    const prompt = domain.prompts[idx]!
    const entry: PromptEntry = {
      id: prompt.id,
      text: prompt.text,
      estimated_search_volume: prompt.estimated_search_volume,
      series: [],
    }
    entryOf[idx] = entry
    return entry
  })
  const { day, prompt_idx, responses, mentions, citations, pos_sum, pos_cnt } = rows
  for (let i = from; i < to; i++) {
    const idx = prompt_idx[i]!
    const entry = entryOf[idx]
    if (entry === undefined) continue
    const bucket = buckets[day[i]! - window.startDay]!
    if (lastBucket[idx] !== bucket) {
      lastBucket[idx] = bucket
      posSum[idx] = 0
      posCnt[idx] = 0
      entry.series.push({
        date: formatDay(bucket),
        mentions: 0,
        responses: 0,
        citations: 0,
        avg_position: null,
      })
    }
    const point = entry.series[entry.series.length - 1]!
    point.mentions += mentions[i]!
    point.responses += responses[i]!
    point.citations += citations[i]!
    posSum[idx]! += pos_sum[i]!
    posCnt[idx]! += pos_cnt[i]!
    point.avg_position = posCnt[idx]! === 0 ? null : posSum[idx]! / posCnt[idx]!
  }
  return {
    data: { items },
    domain_id: domain.id,
    ...scope.echo,
    limit: p.limit,
    ...scope.granularityEcho,
    ...scope.segmentEcho,
    generated_at: generatedAt,
  }
}

/**
 * The ranking: prompts whose brand mentions over rows [from, to) total more than 0, by that total
 * descending, then by prompt id ascending; the first `limit` prompt indexes.
 */
export function rankPrompts(
  rows: AggregateRows<'agg_prompt_day'>,
  from: number,
  to: number,
  prompts: readonly PromptRow[],
  limit: number,
): number[] {
  const totals = new Float64Array(prompts.length)
  for (let i = from; i < to; i++) totals[rows.prompt_idx[i]!]! += rows.mentions[i]!
  const ranked: number[] = []
  totals.forEach((t, idx) => t > 0 && ranked.push(idx))
  ranked.sort((a, b) => totals[b]! - totals[a]! || compareText(prompts[a]!.id, prompts[b]!.id))
  return ranked.slice(0, limit)
}
