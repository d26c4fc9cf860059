/**
 * The model leaderboard (docs/API.md, "GET /api/v1/model-leaderboard"): the brand per channel over
 * the window, from agg_channel_day (the analyses per channel) and the brand's rows of
 * agg_entity_day per channel (entity 0 is the brand).
 */
import { CHANNELS } from '../../foundation/vocabulary.js'
import { compareText } from '../../foundation/compare.js'
import { parseRequest, type QueryContext } from '../../queries/context.js'
import { rowRange } from '../../foundation/window.js'
import { modelLeaderboardParamsSchema } from './contract.js'
import type { LeaderboardItem, ModelLeaderboardParams, ModelLeaderboardPayload } from './contract.js'

export async function computeModelLeaderboard(
  base: QueryContext,
  params: ModelLeaderboardParams,
): Promise<ModelLeaderboardPayload> {
  const { scope, ctx } = parseRequest(base, modelLeaderboardParamsSchema, params)
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
  return {
    data: { items },
    domain_id: domain.id,
    ...scope.echo,
    ...scope.segmentEcho,
    generated_at: generatedAt,
  }
}
