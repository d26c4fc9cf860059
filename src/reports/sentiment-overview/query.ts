/**
 * The sentiment overview: docs/API.md, "GET /api/v1/sentiment/overview". The window's themes
 * (src/queries/sentiment.ts), counted: the positive and negative shares and their occurrences.
 */
import type { QueryContext } from '../../queries/context.js'
import { percentOneDecimal, themesOfRequest } from '../../queries/sentiment.js'
import type { SentimentOverviewPayload, SentimentOverviewParams } from './contract.js'

export async function computeSentimentOverview(
  ctx: QueryContext,
  params: SentimentOverviewParams,
): Promise<SentimentOverviewPayload> {
  const { themes, envelope } = await themesOfRequest(ctx, params)
  let positive = 0
  let total = 0
  for (const t of themes) {
    if (t.theme.sentiment === 'positive') positive++
    total += t.occurrences
  }
  const n = themes.length
  const data = {
    positive_percent: percentOneDecimal(positive, n),
    negative_percent: percentOneDecimal(n - positive, n),
    total_mentions: total,
  }
  return { data, ...envelope }
}
