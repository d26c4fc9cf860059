/**
 * Fan-out queries: docs/API.md, "Citations, fan-out and sentiment over time".
 *
 * Reads the domain's per-(day, channel, model, prompt, query) rows for the window after the model
 * filter (src/tables/cited-index.ts): per (prompt, query), the analyses that emitted it (queries
 * are stored trimmed, so they compare exactly) and their channels. A prompt is listed when one of
 * its queries was emitted; its queries by count descending then UTF-16 order, the prompts by the sum
 * of their counts descending then id.
 */
import { byDayRange, fanoutRows, readByDay, TEXTS, type FanoutRows } from '../../tables/cited-index.js'
import { compareText } from '../../foundation/compare.js'
import { parseRequest, type QueryContext } from '../../queries/context.js'
import { channelNames, comboMask, resolveModelFilter, type ModelFilter } from '../../queries/model-filter.js'
import { segmentFrom, segmentTo, type DayWindow } from '../../foundation/window.js'
import { fanoutQueriesParamsSchema } from './contract.js'
import type {
  FanoutPromptItem,
  FanoutQueriesParams,
  FanoutQueriesPayload,
  FanoutQueryItem,
} from './contract.js'

/**
 * Adds to each (prompt, query) pair its analyses in the window and the bits of their channels (bit
 * c-1 for channel number c): from the rows of the window by day (a short window, or a raw model
 * id), else from the running sum of each group (one pair, one channel) the filter keeps.
 */
function countPairs(
  rows: FanoutRows,
  w: DayWindow,
  filter: ModelFilter,
  counts: Float64Array,
  channels: Int32Array,
): void {
  const { groupStart, groupPair, groupChannel, day, analysesBefore, byDay } = rows
  // A channel filter keeps or drops whole groups; a raw model id, rows.
  if (readByDay(byDay, w, filter.modelKey !== -1, groupPair.length)) {
    const mask = comboMask(rows.combos, filter)
    const bit = Int32Array.from(rows.combos.channel, (c) => 1 << (c - 1))
    const [from, to] = byDayRange(byDay, w)
    const { key, combo, count } = byDay
    for (let i = from; i < to; i++) {
      const c = combo[i]!
      if (mask[c] === 0) continue
      counts[key[i]!]! += count[i]!
      channels[key[i]!]! |= bit[c]!
    }
    return
  }
  for (let g = 0; g < groupPair.length; g++) {
    const channel = groupChannel[g]!
    if (filter.channel !== 0 && channel !== filter.channel) continue
    const end = groupStart[g + 1]!
    const from = segmentFrom(day, w, groupStart[g]!, end)
    const n = analysesBefore[segmentTo(day, w, from, end)]! - analysesBefore[from]!
    if (n === 0) continue
    counts[groupPair[g]!]! += n
    channels[groupPair[g]!]! |= 1 << (channel - 1)
  }
}

export async function computeFanoutQueries(
  base: QueryContext,
  params: FanoutQueriesParams,
): Promise<FanoutQueriesPayload> {
  const { p, scope, ctx } = parseRequest(base, fanoutQueriesParamsSchema, params)
  const { domain, window } = scope
  const envelope = {
    domain_id: domain.id,
    ...scope.echo,
    model: p.model,
    ...scope.segmentEcho,
    generated_at: scope.generatedAt,
  }
  const filter = resolveModelFilter(ctx.catalog, p.model)
  if (filter === null) return { data: { items: [], total: 0 }, ...envelope }
  const [queries, rows] = await Promise.all([
    ctx.aggregates.derived(TEXTS.queries, domain.key),
    ctx.aggregates.derived(fanoutRows, domain.key),
  ])
  const nPairs = rows.pairPrompt.length
  const counts = new Float64Array(nPairs)
  const channels = new Int32Array(nPairs)
  countPairs(rows, window, filter, counts, channels)
  // Pairs are numbered by (prompt, query): each prompt's pairs are a run.
  const ranked: { item: FanoutPromptItem; sum: number }[] = []
  const rank = queries.rank
  const { pairPrompt, pairQuery } = rows
  const byCount = (a: number, b: number) =>
    counts[b]! - counts[a]! || rank[pairQuery[a]!]! - rank[pairQuery[b]!]!
  for (let start = 0; start < nPairs;) {
    const idx = pairPrompt[start]!
    let end = start
    const list: number[] = []
    for (; end < nPairs && pairPrompt[end] === idx; end++) if (counts[end]! > 0) list.push(end)
    start = end
    const prompt = domain.prompts[idx]
    if (list.length === 0 || prompt === undefined) continue
    list.sort(byCount)
    let sum = 0
    const fanout = list.map((q): FanoutQueryItem => {
      sum += counts[q]!
      return { query: queries.text[pairQuery[q]!]!, count: counts[q]!, channels: channelNames(channels[q]!) }
    })
    ranked.push({ item: { id: prompt.id, text: prompt.text, fanout_queries: fanout }, sum })
  }
  ranked.sort((a, b) => b.sum - a.sum || compareText(a.item.id, b.item.id))
  return { data: { items: ranked.map((r) => r.item), total: ranked.length }, ...envelope }
}
