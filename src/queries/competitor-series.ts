import { competitorSeriesParamsSchema } from '../schemas/params.js'
import {
  CHANNELS,
  type Channel,
  type CompetitorEntry,
  type CompetitorSeriesParams,
  type CompetitorSeriesPayload,
} from '../types.js'
import { ExactSum } from './exact-mean.js'
import { formatDay, num, parseParams, resolveWindow, type QueryContext } from './context.js'

/** Competitor time series (semantics.md section 5). */
export async function computeCompetitorSeries(
  ctx: QueryContext,
  params: CompetitorSeriesParams,
): Promise<CompetitorSeriesPayload> {
  const p = parseParams(competitorSeriesParamsSchema, params)
  const w = resolveWindow(ctx.catalog, p.domainId, p.days, p.now)
  const channel = p.model === 'all' ? 0 : CHANNELS.indexOf(p.model as Channel) + 1
  const [kind, day, entity, n1, n2, n3, n4, n5] = await ctx.run('queries/competitor_series', {
    domain_key: w.domain.key,
    start_day: w.startDay,
    end_day: w.endDay,
    channel,
  })
  const envelope = { domain_id: w.domain.id, days: p.days, model: p.model, generated_at: w.generatedAt }
  const competitors = w.domain.competitors
  const entityCount = competitors.length + 1

  // Dates with analyses, ascending, and their analysis counts.
  const dayRows: Array<[number, number]> = []
  for (let i = 0; i < kind!.length; i++) if (num(kind![i]!) === 0) dayRows.push([num(day![i]!), num(n1![i]!)])
  dayRows.sort((a, b) => a[0] - b[0])
  const nDays = dayRows.length
  if (nDays === 0 && competitors.length === 0) return { data: { items: [] }, ...envelope }
  const dayPos = new Map<number, number>()
  dayRows.forEach(([d], i) => dayPos.set(d, i))

  // Per (entity, date) sums, in flat typed arrays indexed entity * nDays + datePos.
  const size = entityCount * nDays
  const mentions = new Float64Array(size)
  const posSum = new Float64Array(size)
  const posCnt = new Float64Array(size)
  const sentSum = new Float64Array(size)
  const sentCnt = new Float64Array(size)
  const daySum = new Float64Array(nDays)
  const totalQueries = new Float64Array(entityCount)
  for (let i = 0; i < kind!.length; i++) {
    const k = num(kind![i]!)
    const e = num(entity![i]!)
    if (k === 2) {
      if (e < entityCount) totalQueries[e] = num(n1![i]!)
      continue
    }
    if (k !== 1 || e >= entityCount) continue
    const d = dayPos.get(num(day![i]!))
    if (d === undefined) continue
    const at = e * nDays + d
    mentions[at] = num(n1![i]!)
    posSum[at] = num(n2![i]!)
    posCnt[at] = num(n3![i]!)
    sentSum[at] = num(n4![i]!)
    sentCnt[at] = num(n5![i]!)
    daySum[d]! += num(n1![i]!)
  }

  const entry = (e: number): CompetitorEntry => {
    const c = e === 0 ? undefined : competitors[e - 1]!
    const series: CompetitorEntry['series'] = []
    let sumMentions = 0
    const sumVisibility = new ExactSum()
    const sumSov = new ExactSum()
    let totalPos = 0
    let totalPosCnt = 0
    let totalSent = 0
    let totalSentCnt = 0
    for (let d = 0; d < nDays; d++) {
      const at = e * nDays + d
      const m = mentions[at]!
      const visibility = (m * 100) / dayRows[d]![1]
      const sov = daySum[d]! === 0 ? 0 : (m * 100) / daySum[d]!
      series.push({
        date: formatDay(dayRows[d]![0]),
        mentions: m,
        visibility,
        sov,
        avg_position: posCnt[at]! === 0 ? 0 : posSum[at]! / posCnt[at]!,
        sentiment: sentCnt[at]! === 0 ? 0 : sentSum[at]! / sentCnt[at]!,
      })
      sumMentions += m
      sumVisibility.add(visibility)
      sumSov.add(sov)
      totalPos += posSum[at]!
      totalPosCnt += posCnt[at]!
      totalSent += sentSum[at]!
      totalSentCnt += sentCnt[at]!
    }
    return {
      id: c === undefined ? `user-brand-${w.domain.id}` : c.id,
      name: c === undefined ? w.domain.brand_name : c.name,
      website: c === undefined ? w.domain.website : c.website,
      is_brand: c === undefined,
      avg_mentions: nDays === 0 ? 0 : sumMentions / nDays,
      avg_position: totalPosCnt === 0 ? 0 : totalPos / totalPosCnt,
      avg_visibility: sumVisibility.mean(),
      avg_sov: sumSov.mean(),
      avg_sentiment: totalSentCnt === 0 ? 0 : totalSent / totalSentCnt,
      total_queries: nDays === 0 ? 0 : totalQueries[e]!,
      series,
    }
  }
  const rows = competitors.map((_, i) => entry(i + 1))
  rows.sort(
    (a, b) => b.avg_visibility - a.avg_visibility || compareText(a.name, b.name) || compareText(a.id, b.id),
  )
  return { data: { items: [entry(0), ...rows] }, ...envelope }
}

/** Orders strings by UTF-16 code units, the same in every locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
