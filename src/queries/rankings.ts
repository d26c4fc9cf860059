/**
 * Brand rankings and the model leaderboard: extensions.md section 4.
 *
 * The rankings read, for the window and the model filter (rowsForModel: a raw model id takes the
 * slower path): agg_channel_day (A, the analyses), agg_entity_day (each entity's mentions),
 * agg_entity_prompts and agg_channel_prompts (prompt bitmasks: prompts_mentioned, total_prompts)
 * and agg_entity_prompt_pos (position sums per entity and prompt: avg_position, a mean per prompt
 * then over prompts). The leaderboard reads agg_channel_day and the brand's rows of
 * agg_entity_day per channel. Entity 0 is the brand, entity i the domain's competitor of index i.
 */
import type { DomainRow } from '../catalog.js'
import { brandReportParamsSchema, modelLeaderboardParamsSchema } from '../schemas/params.js'
import type {
  BrandRankingItem,
  BrandRankingsParams,
  BrandRankingsPayload,
  LeaderboardItem,
  ModelLeaderboardParams,
  ModelLeaderboardPayload,
} from '../types.js'
import { CHANNELS } from '../types.js'
import { compareText } from './compare.js'
import { parseRequest, type QueryContext } from './context.js'
import { ExactSum } from './exact-mean.js'
import { passes, rowsForModel, type FilteredRows } from './model-filter.js'
import { distinctPrompts } from './prompt-masks.js'
import { rowRange, type DayWindow } from './window.js'

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

export async function brandRankings(
  ctx: QueryContext,
  params: BrandRankingsParams,
): Promise<BrandRankingsPayload> {
  const { p, scope } = parseRequest(ctx, brandReportParamsSchema, params)
  const { domain, window, generatedAt } = scope
  const envelope = { domain_id: domain.id, days: p.days, model: p.model, generated_at: generatedAt }
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
  const [channelDay, entityDay, entityPrompts, channelPrompts, positions] = await Promise.all([
    source.rows('agg_channel_day'),
    source.rows('agg_entity_day'),
    source.rows('agg_entity_prompts'),
    source.rows('agg_channel_prompts'),
    source.rows('agg_entity_prompt_pos'),
  ])
  const out = emptyTotals(entities)

  let [from, to] = rowRange(channelDay.day, w)
  for (let i = from; i < to; i++)
    if (passes(f, channelDay.channel[i]!)) out.analyses += channelDay.analyses[i]!

  ;[from, to] = rowRange(entityDay.day, w)
  for (let i = from; i < to; i++) {
    const e = entityDay.entity_idx[i]!
    if (e < entities && passes(f, entityDay.channel[i]!)) out.mentions[e]! += entityDay.mentions[i]!
  }

  // Position sums per (entity, prompt) over the window, then per entity the mean of the prompts' means.
  const prompts = domain.prompts.length
  const posSum = new Float64Array(entities * prompts)
  const posCnt = new Float64Array(entities * prompts)
  ;[from, to] = rowRange(positions.day, w)
  const { channel, entity_idx, prompt_idx, pos_sum, pos_cnt } = positions
  for (let i = from; i < to; i++) {
    const e = entity_idx[i]!
    if (e >= entities || !passes(f, channel[i]!)) continue
    const at = e * prompts + prompt_idx[i]!
    posSum[at]! += pos_sum[i]!
    posCnt[at]! += pos_cnt[i]!
  }
  for (let e = 0; e < entities; e++) {
    const means = new ExactSum()
    let n = 0
    for (let at = e * prompts; at < (e + 1) * prompts; at++) {
      if (posCnt[at]! === 0) continue
      means.add(posSum[at]! / posCnt[at]!)
      n++
    }
    if (n > 0) out.avgPosition[e] = means.mean()
  }

  out.promptsMentioned = distinctPrompts(entityPrompts, w, f, entityPrompts.entity_idx, entities)
  out.totalPrompts = distinctPrompts(channelPrompts, w, f, null, 1)[0]!
  return out
}

export async function modelLeaderboard(
  ctx: QueryContext,
  params: ModelLeaderboardParams,
): Promise<ModelLeaderboardPayload> {
  const { p, scope } = parseRequest(ctx, modelLeaderboardParamsSchema, params)
  const { domain, window, generatedAt } = scope
  const [channelDay, entityDay] = await Promise.all([
    ctx.aggregates.rows('agg_channel_day', domain.key),
    ctx.aggregates.rows('agg_entity_day', domain.key),
  ])
  // Per channel (its number as stored: index in CHANNELS + 1).
  const size = CHANNELS.length + 1
  const analyses = new Float64Array(size)
  const mentions = new Float64Array(size)
  const posSum = new Float64Array(size)
  const posCnt = new Float64Array(size)
  let [from, to] = rowRange(channelDay.day, window)
  for (let i = from; i < to; i++) analyses[channelDay.channel[i]!]! += channelDay.analyses[i]!
  ;[from, to] = rowRange(entityDay.day, window)
  for (let i = from; i < to; i++) {
    if (entityDay.entity_idx[i]! !== 0) continue
    const c = entityDay.channel[i]!
    mentions[c]! += entityDay.mentions[i]!
    posSum[c]! += entityDay.pos_sum[i]!
    posCnt[c]! += entityDay.pos_cnt[i]!
  }
  const items: LeaderboardItem[] = []
  CHANNELS.forEach((model, i) => {
    const c = i + 1
    if (analyses[c]! === 0) return
    items.push({
      model,
      visibility: (mentions[c]! * 100) / analyses[c]!,
      avg_position: posCnt[c]! === 0 ? null : posSum[c]! / posCnt[c]!,
      mentions: mentions[c]!,
      responses: analyses[c]!,
    })
  })
  items.sort((a, b) => b.visibility - a.visibility || compareText(a.model, b.model))
  return { data: { items }, domain_id: domain.id, days: p.days, generated_at: generatedAt }
}
