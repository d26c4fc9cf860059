/**
 * Brand rankings (docs/API.md, "GET /api/v1/brand-rankings"): the brand and its competitors ranked
 * over the window.
 *
 * For the window and the model filter (rowsForModel: a raw model id takes the slower path) the
 * rankings read agg_channel_day (A, the analyses), agg_channel_prompts (prompt bitmasks:
 * total_prompts) and agg_entity_prompt_day (per entity and prompt: mentions and position sums, so
 * mentions, prompts_mentioned and avg_position, a mean per prompt then over prompts; summed over
 * the window by entity-prompt-sums.ts). Entity 0 is the brand, entity i the domain's competitor of
 * index i.
 */
import type { DomainRow } from '../../catalog.js'
import { compareText } from '../../foundation/compare.js'
import { parseRequest, type QueryContext } from '../../queries/context.js'
import { ExactSum } from '../../queries/exact-mean.js'
import { passes, rowsForModel, type FilteredRows } from '../../queries/model-filter.js'
import { entityPromptSums } from '../../queries/entity-prompt-sums.js'
import { distinctPrompts } from '../../queries/prompt-masks.js'
import { rowRange, type DayWindow } from '../../foundation/window.js'
import { brandReportParamsSchema } from './contract.js'
import type { BrandRankingItem, BrandRankingsParams, BrandRankingsPayload } from './contract.js'

/** An entity's numbers over the window, before they are shaped into a row. */
interface EntityTotals {
  /** A: the window's analyses passing the filter. */
  analyses: number
  mentions: Float64Array
  /** Per entity, the mean over prompts of its mean position in that prompt; NaN when none. */
  avgPosition: Float64Array
  promptsMentioned: Float64Array
  totalPrompts: number
}

export async function computeBrandRankings(
  base: QueryContext,
  params: BrandRankingsParams,
): Promise<BrandRankingsPayload> {
  const { p, scope, ctx } = parseRequest(base, brandReportParamsSchema, params)
  const { domain, window, generatedAt } = scope
  const envelope = {
    domain_id: domain.id,
    ...scope.echo,
    model: p.model,
    ...scope.segmentEcho,
    generated_at: generatedAt,
  }
  const entities = domain.competitors.length + 1
  const source = rowsForModel(ctx, domain.key, p.model)
  const t = source === null ? emptyTotals(entities) : await entityTotals(source, domain, window, entities)
  if (domain.competitors.length === 0 && t.analyses === 0) return { data: { items: [] }, ...envelope }

  let sum = 0
  for (const m of t.mentions) sum += m
  const row = (e: number): BrandRankingItem => {
    const c = e === 0 ? undefined : domain.competitors[e - 1]!
    const mentions = t.mentions[e]!
    const avg = t.avgPosition[e]!
    return {
      id: c === undefined ? `user-brand-${domain.id}` : c.id,
      name: c === undefined ? domain.brand_name : c.name,
      website: c === undefined ? domain.website : c.website,
      is_brand: c === undefined,
      mentions,
      visibility: t.analyses === 0 ? 0 : (mentions * 100) / t.analyses,
      sov: sum === 0 ? 0 : (mentions * 100) / sum,
      avg_position: Number.isNaN(avg) ? null : avg,
      prompts_mentioned: t.promptsMentioned[e]!,
      total_prompts: t.totalPrompts,
    }
  }
  const competitors = domain.competitors.map((_, i) => row(i + 1))
  competitors.sort(
    (a, b) => b.mentions - a.mentions || compareText(a.name, b.name) || compareText(a.id, b.id),
  )
  return { data: { items: [row(0), ...competitors] }, ...envelope }
}

function emptyTotals(entities: number): EntityTotals {
  return {
    analyses: 0,
    mentions: new Float64Array(entities),
    avgPosition: new Float64Array(entities).fill(NaN),
    promptsMentioned: new Float64Array(entities),
    totalPrompts: 0,
  }
}

async function entityTotals(
  source: FilteredRows,
  domain: DomainRow,
  w: DayWindow,
  entities: number,
): Promise<EntityTotals> {
  const f = source.filter
  const [channelDay, entityPromptDay, channelPrompts] = await Promise.all([
    source.rows('agg_channel_day'),
    source.rows('agg_entity_prompt_day'),
    source.rows('agg_channel_prompts'),
  ])
  const out = emptyTotals(entities)
  const [from, to] = rowRange(channelDay.day, w)
  for (let i = from; i < to; i++)
    if (passes(f, channelDay.channel[i]!)) out.analyses += channelDay.analyses[i]!
  out.totalPrompts = distinctPrompts(channelPrompts, w, f, null, 1)[0]!

  // Per entity: its mentions and mentioned prompts, and the mean over prompts of its mean position
  // in each prompt (prompts without a position left out).
  const prompts = domain.prompts.length
  const sums = entityPromptSums(entityPromptDay, w, f, entities, prompts, source.kept)
  for (let e = 0; e < entities; e++) {
    const means = new ExactSum()
    let positioned = 0
    for (let at = e * prompts; at < (e + 1) * prompts; at++) {
      const mentions = sums.mentions[at]!
      if (mentions === 0) continue
      out.mentions[e]! += mentions
      out.promptsMentioned[e]! += 1
      if (sums.posCnt[at]! === 0) continue
      means.add(sums.posSum[at]! / sums.posCnt[at]!)
      positioned++
    }
    if (positioned > 0) out.avgPosition[e] = means.mean()
  }
  return out
}
