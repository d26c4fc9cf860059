/**
 * @module The deprecated engine method names (docs/API.md, "Deprecated names"), kept for one
 * release: a base class whose old names call the new ones, so an engine implements only the
 * `compute<Name>` methods.
 */
import type {
  BrandRankingsParams,
  BrandRankingsPayload,
  BrandSeriesParams,
  BrandSeriesPayload,
  CitationsParams,
  CitationsPayload,
  CitedDomainsParams,
  CitedDomainsPayload,
  DeprecatedEngineMethods,
  FanoutQueriesParams,
  FanoutQueriesPayload,
  ListDomainsParams,
  ListDomainsPayload,
  ListPromptsParams,
  ListPromptsPayload,
  ModelLeaderboardParams,
  ModelLeaderboardPayload,
  SentimentParams,
  SentimentOverviewPayload,
  SentimentSeriesParams,
  SentimentSeriesPayload,
  SentimentThemesPayload,
  ValidateParams,
  ValidatePayload,
} from './types.js'

/** Each deprecated method name and the name it calls. */
export const DEPRECATED_ENGINE_METHODS = {
  sentimentOverview: 'computeSentimentOverview',
  sentimentThemes: 'computeSentimentThemes',
  validate: 'computeKeyCheck',
  listDomains: 'computeDomainList',
  listPrompts: 'computePromptList',
  brandRankings: 'computeBrandRankings',
  modelLeaderboard: 'computeModelLeaderboard',
  brandSeries: 'computeBrandSeries',
  citations: 'computeCitations',
  citedDomains: 'computeCitedDomains',
  fanoutQueries: 'computeFanoutQueries',
  sentimentSeries: 'computeSentimentSeries',
} as const satisfies Record<keyof DeprecatedEngineMethods, string>

/**
 * The deprecated names of an engine's reports, each calling its `compute<Name>` method.
 * @example
 * class MyEngine extends DeprecatedEngineAliases implements Engine { ... }
 */
export abstract class DeprecatedEngineAliases implements DeprecatedEngineMethods {
  abstract computeSentimentOverview(params: SentimentParams): Promise<SentimentOverviewPayload>
  abstract computeSentimentThemes(params: SentimentParams): Promise<SentimentThemesPayload>
  abstract computeKeyCheck(params: ValidateParams): Promise<ValidatePayload>
  abstract computeDomainList(params?: ListDomainsParams): Promise<ListDomainsPayload>
  abstract computePromptList(params: ListPromptsParams): Promise<ListPromptsPayload>
  abstract computeBrandRankings(params: BrandRankingsParams): Promise<BrandRankingsPayload>
  abstract computeModelLeaderboard(params: ModelLeaderboardParams): Promise<ModelLeaderboardPayload>
  abstract computeBrandSeries(params: BrandSeriesParams): Promise<BrandSeriesPayload>
  abstract computeCitations(params: CitationsParams): Promise<CitationsPayload>
  abstract computeCitedDomains(params: CitedDomainsParams): Promise<CitedDomainsPayload>
  abstract computeFanoutQueries(params: FanoutQueriesParams): Promise<FanoutQueriesPayload>
  abstract computeSentimentSeries(params: SentimentSeriesParams): Promise<SentimentSeriesPayload>

  /** @deprecated Use `computeSentimentOverview`. */
  sentimentOverview(params: SentimentParams): Promise<SentimentOverviewPayload> {
    return this.computeSentimentOverview(params)
  }
  /** @deprecated Use `computeSentimentThemes`. */
  sentimentThemes(params: SentimentParams): Promise<SentimentThemesPayload> {
    return this.computeSentimentThemes(params)
  }
  /** @deprecated Use `computeKeyCheck`. */
  validate(params: ValidateParams): Promise<ValidatePayload> {
    return this.computeKeyCheck(params)
  }
  /** @deprecated Use `computeDomainList`. */
  listDomains(params?: ListDomainsParams): Promise<ListDomainsPayload> {
    return this.computeDomainList(params)
  }
  /** @deprecated Use `computePromptList`. */
  listPrompts(params: ListPromptsParams): Promise<ListPromptsPayload> {
    return this.computePromptList(params)
  }
  /** @deprecated Use `computeBrandRankings`. */
  brandRankings(params: BrandRankingsParams): Promise<BrandRankingsPayload> {
    return this.computeBrandRankings(params)
  }
  /** @deprecated Use `computeModelLeaderboard`. */
  modelLeaderboard(params: ModelLeaderboardParams): Promise<ModelLeaderboardPayload> {
    return this.computeModelLeaderboard(params)
  }
  /** @deprecated Use `computeBrandSeries`. */
  brandSeries(params: BrandSeriesParams): Promise<BrandSeriesPayload> {
    return this.computeBrandSeries(params)
  }
  /** @deprecated Use `computeCitations`. */
  citations(params: CitationsParams): Promise<CitationsPayload> {
    return this.computeCitations(params)
  }
  /** @deprecated Use `computeCitedDomains`. */
  citedDomains(params: CitedDomainsParams): Promise<CitedDomainsPayload> {
    return this.computeCitedDomains(params)
  }
  /** @deprecated Use `computeFanoutQueries`. */
  fanoutQueries(params: FanoutQueriesParams): Promise<FanoutQueriesPayload> {
    return this.computeFanoutQueries(params)
  }
  /** @deprecated Use `computeSentimentSeries`. */
  sentimentSeries(params: SentimentSeriesParams): Promise<SentimentSeriesPayload> {
    return this.computeSentimentSeries(params)
  }
}
