import { sentimentParamsSchema } from '../schemas/params.js'
import type { ThemeRow } from '../catalog.js'
import {
  CHANNELS,
  type Channel,
  type SentimentOverviewPayload,
  type SentimentParams,
  type SentimentThemesPayload,
} from '../types.js'
import { num, parseParams, resolveWindow, type QueryContext, type Window } from './context.js'
import { compareText } from './competitor-series.js'

interface ThemeCount {
  theme: ThemeRow
  occurrences: number
}

/** The non-archived themes with occurrences in the window after the model filter, ordered. */
async function themesInWindow(ctx: QueryContext, w: Window, model: string): Promise<ThemeCount[]> {
  let channel = 0
  let modelKey = -1
  if (model !== 'all') {
    const c = CHANNELS.indexOf(model as Channel)
    if (c >= 0) channel = c + 1
    else {
      const key = ctx.catalog.models.get(model)
      if (key === undefined) return [] // an identifier never seen: the empty result
      modelKey = key
    }
  }
  const [idx, occ] = await ctx.run('queries/theme_occurrences', {
    domain_key: w.domain.key,
    start_day: w.startDay,
    end_day: w.endDay,
    channel,
    model_key: modelKey,
  })
  const out: ThemeCount[] = []
  for (let i = 0; i < idx!.length; i++) {
    const theme = w.domain.themes[num(idx![i]!)]
    const occurrences = num(occ![i]!)
    if (theme === undefined || theme.archived || occurrences <= 0) continue
    out.push({ theme, occurrences })
  }
  out.sort((a, b) => b.occurrences - a.occurrences || compareText(a.theme.id, b.theme.id))
  return out
}

/** Sentiment themes (semantics.md section 6). */
export async function sentimentThemes(
  ctx: QueryContext,
  params: SentimentParams,
): Promise<SentimentThemesPayload> {
  const p = parseParams(sentimentParamsSchema, params)
  const w = resolveWindow(ctx.catalog, p.domainId, p.days, p.now)
  const themes = await themesInWindow(ctx, w, p.model)
  return {
    data: {
      items: themes.map(({ theme, occurrences }) => ({
        id: theme.id,
        name: theme.custom_name ?? theme.name,
        sentiment: theme.sentiment,
        occurrences,
        created_at: theme.created_at,
      })),
    },
    domain_id: w.domain.id,
    days: p.days,
    model: p.model,
    generated_at: w.generatedAt,
  }
}

/** round(1000 * part / total) / 10 with halves up, in exact integer arithmetic. */
export function percentOneDecimal(part: number, total: number): number {
  return total === 0 ? 0 : Math.floor((2000 * part + total) / (2 * total)) / 10
}

/** Sentiment overview (semantics.md section 6). */
export async function sentimentOverview(
  ctx: QueryContext,
  params: SentimentParams,
): Promise<SentimentOverviewPayload> {
  const p = parseParams(sentimentParamsSchema, params)
  const w = resolveWindow(ctx.catalog, p.domainId, p.days, p.now)
  const themes = await themesInWindow(ctx, w, p.model)
  let positive = 0
  let total = 0
  for (const t of themes) {
    if (t.theme.sentiment === 'positive') positive++
    total += t.occurrences
  }
  const n = themes.length
  return {
    data: {
      positive_percent: percentOneDecimal(positive, n),
      negative_percent: percentOneDecimal(n - positive, n),
      total_mentions: total,
    },
    domain_id: w.domain.id,
    days: p.days,
    model: p.model,
    generated_at: w.generatedAt,
  }
}
