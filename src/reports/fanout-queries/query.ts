/**
 * Fan-out queries: docs/API.md, "Citations, fan-out and sentiment over time".
 *
 * Reads the domain's per-(day, channel, model, prompt, query) rows for the window after the model
 * filter (src/tables/cited-index.ts): per (prompt, query), the analyses that emitted it (queries
 * are stored trimmed, so they compare exactly) and their channels. A prompt is listed when one of
 * its queries was emitted; its queries by count descending then UTF-16 order, the prompts by the sum
 * of their counts descending then id.
 */
import {
  fanoutRows,
  readByDay,
  sumByDay,
  TEXTS,
  type FanoutRows,
  type KeySums,
} from '../../tables/cited-index.js'
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
 * The (prompt, query) pairs emitted in the window (`key`, ascending, so each prompt's pairs are a
 * run as in `rows`), their analyses (`sum`) and the bits of their channels (`bits`, bit c-1 for
 * channel number c): from the rows of the window by day (a short window, or a raw model id), else
 * from the running sum of each group (one pair, one channel) the filter keeps.
 */
function countPairs(rows: FanoutRows, w: DayWindow, filter: ModelFilter): KeySums {
  const { groupStart, groupPair, groupChannel, pairPrompt, day, analysesBefore, byDay } = rows
  // A channel filter keeps or drops whole groups; a raw model id, rows.
  if (readByDay(byDay, w, filter.modelKey !== -1, groupPair.length)) {
    const mask = comboMask(rows.combos, filter)
    const bit = Int32Array.from(rows.combos.channel, (c) => 1 << (c - 1))
    return sumByDay(byDay, w, mask, pairPrompt.length, bit)
  }
  const out = { key: new Int32Array(pairPrompt.length), sum: new Float64Array(pairPrompt.length) }
  const bits = new Int32Array(pairPrompt.length)
  let j = -1
  for (let g = 0; g < groupPair.length; g++) {
    const channel = groupChannel[g]!
    if (filter.channel !== 0 && channel !== filter.channel) continue
    const end = groupStart[g + 1]!
    const from = segmentFrom(day, w, groupStart[g]!, end)
    const n = analysesBefore[segmentTo(day, w, from, end)]! - analysesBefore[from]!
    if (n === 0) continue
    // Groups are numbered by pair: a pair's groups come one after another.
    if (j < 0 || out.key[j] !== groupPair[g]) out.key[++j] = groupPair[g]!
    out.sum[j]! += n
    bits[j]! |= 1 << (channel - 1)
  }
  return { key: out.key.subarray(0, j + 1), sum: out.sum.subarray(0, j + 1), bits: bits.subarray(0, j + 1) }
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
  const counted = countPairs(rows, window, filter)
  const { key: pairs, sum: counts, bits: channels } = counted
  // Each prompt's pairs are a run (j: position in `counted`).
  const ranked: { item: FanoutPromptItem; sum: number }[] = []
  const rank = queries.rank
  const { pairPrompt, pairQuery } = rows
  const byCount = (a: number, b: number) =>
    counts[b]! - counts[a]! || rank[pairQuery[pairs[a]!]!]! - rank[pairQuery[pairs[b]!]!]!
  for (let start = 0; start < pairs.length;) {
    const idx = pairPrompt[pairs[start]!]!
    let end = start
    const list: number[] = []
    for (; end < pairs.length && pairPrompt[pairs[end]!] === idx; end++) list.push(end)
    start = end
    const prompt = domain.prompts[idx]
    if (list.length === 0 || prompt === undefined) continue
    list.sort(byCount)
    let sum = 0
    const fanout = list.map((q): FanoutQueryItem => {
      sum += counts[q]!
      return {
        query: queries.text[pairQuery[pairs[q]!]!]!,
        count: counts[q]!,
        channels: channelNames(channels[q]!),
      }
    })
    ranked.push({ item: { id: prompt.id, text: prompt.text, fanout_queries: fanout }, sum })
  }
  ranked.sort((a, b) => b.sum - a.sum || compareText(a.item.id, b.item.id))
  return { data: { items: ranked.map((r) => r.item), total: ranked.length }, ...envelope }
}
