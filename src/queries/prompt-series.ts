/**
 * Prompt time series: semantics.md section 4.
 *
 * Reads agg_prompt_day (per day and prompt: responses, brand mentions, own-site citations, brand
 * position sum and count; computed at ingest, so the citation host rule lives in
 * sql/ingest/fill_agg_prompt_day.sql) for the window, ranks the prompts and shapes one series per
 * ranked prompt.
 */
import type { PromptRow } from '../catalog.js'
import { promptSeriesParamsSchema } from '../schemas/params.js'
import type { AggregateRows } from '../tables/aggregates.js'
import type { PromptEntry, PromptSeriesParams, PromptSeriesPayload } from '../types.js'
import { compareText } from './compare.js'
import { parseRequest, type QueryContext } from './context.js'
import { formatDay, rowRange } from './window.js'

export async function computePromptSeries(
  ctx: QueryContext,
  params: PromptSeriesParams,
): Promise<PromptSeriesPayload> {
  const { p, scope } = parseRequest(ctx, promptSeriesParamsSchema, params)
  const { domain, window, generatedAt } = scope
  const rows = await ctx.aggregates.rows('agg_prompt_day', domain.key)
  const [from, to] = rowRange(rows.day, window)
  const ranked = rankPrompts(rows, from, to, domain.prompts, p.limit)

  // Rows are sorted by day, so appending each row to its prompt's entry keeps every series ascending.
  const entryOf: Array<PromptEntry | undefined> = new Array(domain.prompts.length)
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
    const entry = entryOf[prompt_idx[i]!]
    if (entry === undefined) continue
    entry.series.push({
      date: formatDay(day[i]!),
      mentions: mentions[i]!,
      responses: responses[i]!,
      citations: citations[i]!,
      avg_position: pos_cnt[i]! === 0 ? null : pos_sum[i]! / pos_cnt[i]!,
    })
  }
  return { data: { items }, domain_id: domain.id, days: p.days, limit: p.limit, generated_at: generatedAt }
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
