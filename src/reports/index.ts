/**
 * @module The registry of report modules: each report is one folder, src/reports/<id>/, whose
 * `query.ts` exports its computation `compute<Name>` and whose `contract.ts` its library
 * parameters' schema, its payload schema and their types. `REPORTS` lists the computations: the
 * engine offers one method per entry (src/engine.ts) and the `Engine` interface types them from it
 * (`ReportMethods` below), so adding a report edits this file, not the engine nor src/types.ts.
 */
import type { QueryContext } from '../queries/context.js'
import { computeBrandRankings } from './brand-rankings/query.js'
import { computeBrandSeries } from './brand-series/query.js'
import { computeCitations } from './citations/query.js'
import { computeCitedDomains } from './cited-domains/query.js'
import { computeCompetitorSeries } from './competitor-series/query.js'
import { computeDomainList } from './domain-list/query.js'
import { computeFanoutQueries } from './fanout-queries/query.js'
import { computeKeyCheck } from './key-check/query.js'
import { computeModelLeaderboard } from './model-leaderboard/query.js'
import { computePromptList } from './prompt-list/query.js'
import { computePromptSeries } from './prompt-series/query.js'
import { computeSentimentOverview } from './sentiment-overview/query.js'
import { computeSentimentSeries } from './sentiment-series/query.js'
import { computeSentimentThemes } from './sentiment-themes/query.js'
import { computeSignals } from './signals/query.js'
import { computeQuery } from './query/query.js'
import { computeAnswers } from './answers/query.js'

export * from './brand-rankings/contract.js'
export * from './brand-series/contract.js'
export * from './citations/contract.js'
export * from './cited-domains/contract.js'
export * from './competitor-series/contract.js'
export * from './domain-list/contract.js'
export * from './fanout-queries/contract.js'
export * from './key-check/contract.js'
export * from './model-leaderboard/contract.js'
export * from './prompt-list/contract.js'
export * from './prompt-series/contract.js'
export * from './sentiment-overview/contract.js'
export * from './sentiment-series/contract.js'
export * from './sentiment-themes/contract.js'
export * from './signals/contract.js'
export * from './query/contract.js'
export * from './answers/contract.js'

/** A report's computation: the state of one committed snapshot and the library parameters. */
export type ReportFunction = (ctx: QueryContext, ...params: never[]) => Promise<unknown>

/**
 * Every report's computation by its engine method name, `compute<Name>`, where `<Name>` is the
 * PascalCase of its folder's name (test/api/registry.test.ts checks both).
 */
export const REPORTS = {
  computePromptSeries,
  computeCompetitorSeries,
  computeSentimentOverview,
  computeSentimentThemes,
  computeKeyCheck,
  computeDomainList,
  computePromptList,
  computeBrandRankings,
  computeModelLeaderboard,
  computeBrandSeries,
  computeCitations,
  computeCitedDomains,
  computeFanoutQueries,
  computeSentimentSeries,
  computeSignals,
  computeQuery,
  computeAnswers,
} as const satisfies Record<`compute${string}`, ReportFunction>

/** The engine method of each report: its computation without the context. */
export type ReportMethodsOf<R> = {
  -readonly [K in keyof R]: R[K] extends (ctx: QueryContext, ...params: infer A) => infer T
    ? (...params: A) => T
    : never
}

declare module '../types.js' {
  // The Engine's report methods, derived from the registry above.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- its members come from REPORTS
  interface ReportMethods extends ReportMethodsOf<typeof REPORTS> {}
}
