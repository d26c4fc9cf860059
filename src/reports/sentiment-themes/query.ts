/**
 * The sentiment themes: docs/API.md, "GET /api/v1/sentiment/themes". The window's themes
 * (src/queries/sentiment.ts), listed.
 */
import type { QueryContext } from '../../queries/context.js'
import { themesOfRequest } from '../../queries/sentiment.js'
import type { SentimentThemesPayload, SentimentThemesParams } from './contract.js'

export async function computeSentimentThemes(
  ctx: QueryContext,
  params: SentimentThemesParams,
): Promise<SentimentThemesPayload> {
  const { themes, envelope } = await themesOfRequest(ctx, params)
  const items = themes.map(({ theme, occurrences }) => ({
    id: theme.id,
    name: theme.custom_name ?? theme.name,
    sentiment: theme.sentiment,
    occurrences,
    created_at: theme.created_at,
  }))
  return { data: { items }, ...envelope }
}
