/**
 * The reference model: a small, deliberately naive implementation of semantics.md sections 1.3 and
 * 2-7 and of extensions.md sections 1, 3-7 and 9 in plain TypeScript (no DuckDB), used as the
 * oracle for golden cases and the differential property test. It trusts its input (records are
 * valid; validation is the engine's job) and favours being obviously right over being fast: every
 * query rescans every analysis.
 *
 * This file holds the four first reports; the other endpoints are in extensions.ts, the window and
 * buckets in buckets.ts, hosts in hosts.ts, arithmetic in numbers.ts, storage in store.ts.
 */
import type { DeletionCounts, AnalysisInputRecord } from '../../src/types.js'
import type { QueryParams, QueryPayload } from '../../src/reports/index.js'
import type {
  CompetitorDatapoint,
  CompetitorEntry,
  PromptDatapoint,
  PromptEntry,
  ThemeEntry,
} from '../../src/reports/index.js'
import { bucketOf, formatGeneratedAt, granularityEcho, resolveWindow, toMs, segmentEcho } from './buckets.js'
import type { Window } from './buckets.js'
import * as ext from './extensions.js'
import { answers } from './answers.js'
import type { AnswersParams, AnswersPayload } from '../../src/reports/index.js'
import { citesSite, websiteHost } from './hosts.js'
import { cmp, exactMean, mean, percent, sentimentPercent } from './numbers.js'
import { intParam, modelFilter } from './params.js'
import { applyCall, type CallRecord } from './deletions.js'
import { Store, storedRecords } from './store.js'
import { signals } from './signals.js'
import type { SignalsParams, SignalsPayload } from '../../src/reports/index.js'
import { query } from './query.js'
import type {
  BrandRankingsPayload,
  BrandSeriesParams,
  BrandSeriesPayload,
  CitationsParams,
  CitationsPayload,
  CitedDomainsPayload,
  CompetitorSeriesRangeParams,
  CompetitorSeriesRangePayload,
  ExtInputRecord,
  FanoutQueriesPayload,
  ListDomainsParams,
  ListDomainsPayload,
  ListPromptsParams,
  ListPromptsPayload,
  ModelLeaderboardParams,
  ModelLeaderboardPayload,
  PromptSeriesRangeParams,
  PromptSeriesRangePayload,
  ReportParams,
  SentimentOverviewRangePayload,
  SentimentRangeParams,
  SentimentSeriesParams,
  SentimentSeriesPayload,
  SentimentThemesRangePayload,
  ValidateParams,
  ValidatePayload,
} from './types.js'

export { formatGeneratedAt } from './buckets.js'
export { citesSite, websiteHost } from './hosts.js'
export { doubleToRatio, ratioToNumber } from './numbers.js'

export class ReferenceModel {
  private readonly store = new Store()

  /** Upserts valid records in order (the last one with an id wins; ids in any case). */
  ingest(records: readonly (AnalysisInputRecord | ExtInputRecord)[]): void {
    this.store.ingest(records)
  }

  /**
   * One call that may carry delete records (test/reference/deletions.ts): throws RefusedCall (and
   * changes nothing) where the engine must refuse it, else returns what the deletions removed.
   */
  ingestCall(records: readonly CallRecord[]): DeletionCounts {
    return applyCall(this.store, records)
  }

  /** The stored records, as input records in store order (what an engine rebuilt from them ingests). */
  storedRecords(): ExtInputRecord[] {
    return storedRecords(this.store)
  }

  computePromptSeries(p: PromptSeriesRangeParams): PromptSeriesRangePayload {
    const domain = this.store.domain(p.domainId)
    const nowMs = toMs(p.now ?? new Date())
    const w = resolveWindow(p, nowMs, true)
    const limit = intParam('limit', p.limit, 25, 1, 100)
    const site = websiteHost(domain.website)
    const analyses = this.store.inWindow(domain.id, w)

    const ranked: { entry: PromptEntry; total: number }[] = []
    for (const prompt of this.store.promptsOf(domain.id)) {
      const own = analyses.filter((a) => a.prompt_id === prompt.id)
      const buckets = [...new Set(own.map((a) => bucketOf(a.date, w)))].sort(cmp)
      const series: PromptDatapoint[] = buckets.map((date) => {
        const that = own.filter((a) => bucketOf(a.date, w) === date)
        const brand = that.flatMap((a) => a.mentions.filter((m) => m.entity_id === 'brand'))
        const positions = brand.flatMap((m) => (m.position === null ? [] : [m.position]))
        return {
          date,
          mentions: brand.length,
          responses: that.length,
          citations: that.reduce((n, a) => n + a.citations.filter((c) => citesSite(c.url, site)).length, 0),
          avg_position: positions.length === 0 ? null : mean(positions),
        }
      })
      const total = series.reduce((n, d) => n + d.mentions, 0)
      if (total > 0) {
        ranked.push({
          entry: {
            id: prompt.id,
            text: prompt.text,
            estimated_search_volume: prompt.estimated_search_volume,
            series,
          },
          total,
        })
      }
    }
    ranked.sort((a, b) => b.total - a.total || cmp(a.entry.id, b.entry.id))
    return {
      data: { items: ranked.slice(0, limit).map((r) => r.entry) },
      domain_id: domain.id,
      ...w.echo,
      limit,
      ...granularityEcho(w),
      ...segmentEcho(w),
      generated_at: formatGeneratedAt(nowMs),
    }
  }

  computeCompetitorSeries(p: CompetitorSeriesRangeParams): CompetitorSeriesRangePayload {
    const domain = this.store.domain(p.domainId)
    const nowMs = toMs(p.now ?? new Date())
    const w = resolveWindow(p, nowMs, true)
    const { model, keep } = modelFilter(p.model, false)
    const analyses = this.store.inWindow(domain.id, w).filter(keep)
    const buckets = [...new Set(analyses.map((a) => bucketOf(a.date, w)))].sort(cmp)
    const competitors = this.store.competitorsOf(domain.id)
    const envelope = (items: CompetitorEntry[]): CompetitorSeriesRangePayload => ({
      data: { items },
      domain_id: domain.id,
      ...w.echo,
      model,
      ...granularityEcho(w),
      ...segmentEcho(w),
      generated_at: formatGeneratedAt(nowMs),
    })
    if (competitors.length === 0 && analyses.length === 0) return envelope([])
    const entityIds = ['brand', ...competitors.map((c) => c.id)]

    // Per bucket: the analyses and the sum of all entities' mentions (the share-of-voice denominator).
    const perBucket = buckets.map((date) => {
      const that = analyses.filter((a) => bucketOf(a.date, w) === date)
      const sum = that.reduce(
        (n, a) => n + a.mentions.filter((m) => entityIds.includes(m.entity_id)).length,
        0,
      )
      return { date, that, sum }
    })

    const entry = (
      entityId: string,
      head: Pick<CompetitorEntry, 'id' | 'name' | 'website' | 'is_brand'>,
    ): CompetitorEntry => {
      const series: CompetitorDatapoint[] = perBucket.map(({ date, that, sum }) => {
        const ms = that.flatMap((a) => a.mentions.filter((m) => m.entity_id === entityId))
        const positions = ms.flatMap((m) => (m.position === null ? [] : [m.position]))
        const sentiments = ms.flatMap((m) => (m.sentiment === null ? [] : [m.sentiment]))
        return {
          date,
          mentions: ms.length,
          visibility: percent(ms.length, that.length),
          sov: percent(ms.length, sum),
          avg_position: positions.length === 0 ? 0 : mean(positions),
          sentiment: sentiments.length === 0 ? 0 : exactMean(sentiments),
        }
      })
      const mentioning = analyses.filter((a) => a.mentions.some((m) => m.entity_id === entityId))
      const all = mentioning.flatMap((a) => a.mentions.filter((m) => m.entity_id === entityId))
      const positions = all.flatMap((m) => (m.position === null ? [] : [m.position]))
      const sentiments = all.flatMap((m) => (m.sentiment === null ? [] : [m.sentiment]))
      const empty = series.length === 0
      return {
        ...head,
        avg_mentions: empty ? 0 : mean(series.map((d) => d.mentions)),
        avg_position: positions.length === 0 ? 0 : mean(positions),
        avg_visibility: empty ? 0 : exactMean(series.map((d) => d.visibility)),
        avg_sov: empty ? 0 : exactMean(series.map((d) => d.sov)),
        avg_sentiment: sentiments.length === 0 ? 0 : exactMean(sentiments),
        total_queries: new Set(mentioning.map((a) => a.prompt_id)).size,
        series,
      }
    }

    const brand = entry('brand', {
      id: `user-brand-${domain.id}`,
      name: domain.brand_name,
      website: domain.website,
      is_brand: true,
    })
    const rows = competitors
      .map((c) => entry(c.id, { id: c.id, name: c.name, website: c.website, is_brand: false }))
      .sort((a, b) => b.avg_visibility - a.avg_visibility || cmp(a.name, b.name) || cmp(a.id, b.id))
    return envelope([brand, ...rows])
  }

  /** The themes in the window with their occurrences, ordered by occurrences desc, then id. */
  private themesInWindow(p: SentimentRangeParams): {
    w: Window
    model: string
    nowMs: number
    domainId: string
    items: ThemeEntry[]
  } {
    const domain = this.store.domain(p.domainId)
    const nowMs = toMs(p.now ?? new Date())
    const w = resolveWindow(p, nowMs, false)
    const { model, keep } = modelFilter(p.model, true)
    const items = ext.themeTotals(this.store, domain.id, this.store.inWindow(domain.id, w).filter(keep))
    return { w, model, nowMs, domainId: domain.id, items }
  }

  computeSentimentOverview(p: SentimentRangeParams): SentimentOverviewRangePayload {
    const { w, model, nowMs, domainId, items } = this.themesInWindow(p)
    const P = items.filter((t) => t.sentiment === 'positive').length
    const T = items.length
    return {
      data: {
        positive_percent: sentimentPercent(P, T),
        negative_percent: sentimentPercent(T - P, T),
        total_mentions: items.reduce((n, t) => n + t.occurrences, 0),
      },
      domain_id: domainId,
      ...w.echo,
      model,
      ...segmentEcho(w),
      generated_at: formatGeneratedAt(nowMs),
    }
  }

  computeSentimentThemes(p: SentimentRangeParams): SentimentThemesRangePayload {
    const { w, model, nowMs, domainId, items } = this.themesInWindow(p)
    return {
      data: { items },
      domain_id: domainId,
      ...w.echo,
      model,
      ...segmentEcho(w),
      generated_at: formatGeneratedAt(nowMs),
    }
  }

  // Extensions sections 3-7: see extensions.ts.
  computeKeyCheck(p: ValidateParams): ValidatePayload {
    return ext.validate(this.store, p)
  }
  computeDomainList(p: ListDomainsParams): ListDomainsPayload {
    return ext.listDomains(this.store, p)
  }
  computePromptList(p: ListPromptsParams): ListPromptsPayload {
    return ext.listPrompts(this.store, p)
  }
  computeBrandRankings(p: ReportParams): BrandRankingsPayload {
    return ext.brandRankings(this.store, p)
  }
  computeModelLeaderboard(p: ModelLeaderboardParams): ModelLeaderboardPayload {
    return ext.modelLeaderboard(this.store, p)
  }
  computeBrandSeries(p: BrandSeriesParams): BrandSeriesPayload {
    return ext.brandSeries(this.store, p)
  }
  computeCitations(p: CitationsParams): CitationsPayload {
    return ext.citations(this.store, p)
  }
  computeCitedDomains(p: CitationsParams): CitedDomainsPayload {
    return ext.citedDomains(this.store, p)
  }
  computeFanoutQueries(p: ReportParams): FanoutQueriesPayload {
    return ext.fanoutQueries(this.store, p)
  }
  computeSentimentSeries(p: SentimentSeriesParams): SentimentSeriesPayload {
    return ext.sentimentSeries(this.store, p)
  }
  computeSignals(p: SignalsParams): SignalsPayload {
    return signals(this.store, p)
  }
  computeQuery(p: QueryParams): QueryPayload {
    return query(this.store, p)
  }
  computeAnswers(p: AnswersParams): AnswersPayload {
    return answers(this.store, p)
  }
}
