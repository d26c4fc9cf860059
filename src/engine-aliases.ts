/**
 * @module The deprecated engine method names (docs/API.md, "Deprecated names"), kept for one
 * release: a base class whose old names call the new ones, so an engine implements only the
 * `compute<Name>` methods.
 */
import type { DeprecatedEngineMethods, ReportMethods } from './types.js'

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
} as const satisfies { [K in keyof DeprecatedEngineMethods]: keyof ReportMethods }

/** The base class: its prototype gets each deprecated name (the static block). */
abstract class Aliases {
  static {
    for (const [old, method] of Object.entries(DEPRECATED_ENGINE_METHODS)) {
      Object.defineProperty(Aliases.prototype, old, {
        value(this: Record<string, (params: unknown) => unknown>, params: unknown) {
          return this[method]!(params)
        },
        writable: true,
        configurable: true,
      })
    }
  }
}

/**
 * The deprecated names of an engine's reports, each calling its `compute<Name>` method (the
 * subclass provides those).
 * @example
 * class MyEngine extends DeprecatedEngineAliases implements Engine { ... }
 */
export const DeprecatedEngineAliases = Aliases as abstract new () => DeprecatedEngineMethods
export type DeprecatedEngineAliases = DeprecatedEngineMethods
