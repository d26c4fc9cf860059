/**
 * Sentiment overview and sentiment themes: docs/API.md, "GET /api/v1/sentiment/overview".
 *
 * Both read agg_theme_day (per day, channel, model and theme: occurrences) for the window after the
 * model filter (a channel or a raw model id), keep the non-archived themes that occurred, and shape
 * them: the themes endpoint lists them, the overview counts them.
 */
import type { ThemeRow } from '../catalog.js'
import { sentimentParamsSchema } from '../schemas/params.js'
import type { SentimentParams } from '../types.js'
import { compareText } from '../foundation/compare.js'
import { parseRequest, type QueryContext, type ReportScope } from './context.js'
import { passes, resolveModelFilter } from './model-filter.js'
import { rowRange } from '../foundation/window.js'

interface ThemeCount {
  theme: ThemeRow
  occurrences: number
}

/** The themes in the window: not archived, occurring after the model filter; ordered. */
async function themesInWindow(ctx: QueryContext, scope: ReportScope, model: string): Promise<ThemeCount[]> {
  const filter = resolveModelFilter(ctx.catalog, model)
  if (filter === null) return [] // a raw model id never seen: the empty result
  const themes = scope.domain.themes
  const t = await ctx.aggregates.rows('agg_theme_day', scope.domain.key)
  const [from, to] = rowRange(t.day, scope.window)
  const sums = new Float64Array(themes.length)
  for (let i = from; i < to; i++) {
    if (passes(filter, t.channel[i]!, t.model_key[i]!)) sums[t.theme_idx[i]!]! += t.occurrences[i]!
  }
  const out: ThemeCount[] = []
  sums.forEach((occurrences, idx) => {
    const theme = themes[idx]
    if (theme !== undefined && !theme.archived && occurrences > 0) out.push({ theme, occurrences })
  })
  out.sort((a, b) => b.occurrences - a.occurrences || compareText(a.theme.id, b.theme.id))
  return out
}

/** What both reports start from: the parameters checked, the themes in the window, the envelope. */
export async function themesOfRequest(base: QueryContext, params: SentimentParams) {
  const { p, scope, ctx } = parseRequest(base, sentimentParamsSchema, params)
  const envelope = {
    domain_id: scope.domain.id,
    ...scope.echo,
    model: p.model,
    ...scope.segmentEcho,
    generated_at: scope.generatedAt,
  }
  return { themes: await themesInWindow(ctx, scope, p.model), envelope }
}

/** round(1000 * part / total) / 10 with halves up, in exact integer arithmetic. */
export function percentOneDecimal(part: number, total: number): number {
  return total === 0 ? 0 : Math.floor((2000 * part + total) / (2 * total)) / 10
}
