import { promptSeriesParamsSchema } from '../schemas/params.js'
import type { PromptEntry, PromptSeriesParams, PromptSeriesPayload } from '../types.js'
import { formatDay, num, parseParams, resolveWindow, type QueryContext } from './context.js'

/** Prompt time series (semantics.md section 4). */
export async function computePromptSeries(
  ctx: QueryContext,
  params: PromptSeriesParams,
): Promise<PromptSeriesPayload> {
  const p = parseParams(promptSeriesParamsSchema, params)
  const w = resolveWindow(ctx.catalog, p.domainId, p.days, p.now)
  const [rank, idx, day, responses, mentions, citations, posSum, posCnt] = await ctx.run(
    'queries/prompt_series',
    {
      domain_key: w.domain.key,
      start_day: w.startDay,
      end_day: w.endDay,
      limit: p.limit,
    },
  )
  const items: PromptEntry[] = []
  let current = -1
  let entry: PromptEntry | undefined
  const n = rank!.length
  for (let i = 0; i < n; i++) {
    const r = num(rank![i]!)
    if (r !== current) {
      current = r
      const prompt = w.domain.prompts[num(idx![i]!)]!
      entry = {
        id: prompt.id,
        text: prompt.text,
        estimated_search_volume: prompt.estimated_search_volume,
        series: [],
      }
      items.push(entry)
    }
    const pc = num(posCnt![i]!)
    entry!.series.push({
      date: formatDay(num(day![i]!)),
      mentions: num(mentions![i]!),
      responses: num(responses![i]!),
      citations: num(citations![i]!),
      avg_position: pc === 0 ? null : num(posSum![i]!) / pc,
    })
  }
  return {
    data: { items },
    domain_id: w.domain.id,
    days: p.days,
    limit: p.limit,
    generated_at: w.generatedAt,
  }
}
