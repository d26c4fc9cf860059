/**
 * @module The endpoint table: every read endpoint of the API, once, as plain data. The HTTP
 * service generates its routes and OpenAPI operations from it, the CLI its `compute`
 * subcommands, and an MCP server its tools (tool name = the snake_case operationId).
 *
 * Adding an endpoint = one row here + its parameter rules (src/schemas/params.ts, usually
 * reused) + its payload schema (src/schemas/payloads.ts) + its engine function.
 */
import type { z } from 'zod'
import {
  channelModelParam,
  daysParam,
  domainIdParam,
  limitParam,
  modelParam,
  pageParam,
  querySchema,
  sizeParam,
  sentimentDomainIdParam,
  type ParamSet,
  type ParamValues,
} from '../schemas/params.js'
import {
  brandRankingsPayloadSchema,
  brandSeriesPayloadSchema,
  competitorSeriesPayloadSchema,
  domainsPayloadSchema,
  modelLeaderboardPayloadSchema,
  promptListPayloadSchema,
  promptSeriesPayloadSchema,
  sentimentOverviewPayloadSchema,
  sentimentThemesPayloadSchema,
  validatePayloadSchema,
} from '../schemas/payloads.js'
import { ValidationError } from '../errors.js'
import { keyScopeOf } from '../key-scope.js'
import type { ApiKeyInfo, BrandMetric, Clock, Engine } from '../types.js'
import { listReadableDomains, type AccessClass } from './access.js'

/**
 * Which cache lifetime an endpoint's bodies get: `series` (default 5 minutes), `sentiment`
 * (default 1 hour), or `none` (never cached).
 */
export type CacheGroup = 'series' | 'sentiment' | 'none'

/** A key's rate-limit window after counting the request being answered. */
export interface RateLimitState {
  /** Requests allowed per window. */
  limit: number
  /** Requests left in the window. */
  remaining: number
  /** Unix epoch second at which the window ends. */
  reset: number
}

/** What a computation knows besides its parameters. */
export interface ComputeContext {
  /** The clock (the request time over HTTP). */
  now: Clock
  /** The key of the request; null for a local, trusted caller (CLI, stdio MCP). */
  caller: ApiKeyInfo | null
  /** The caller's rate-limit window, this request counted (HTTP); absent for a local caller. */
  rateLimit?: RateLimitState | null
}

/** One row of the table, as written. */
export interface EndpointDefinition<P extends ParamSet = ParamSet, R extends z.ZodType = z.ZodType> {
  /** Short stable id (route config, cache keys, logs). */
  readonly id: string
  /** GET path. */
  readonly path: string
  /** OpenAPI operationId, camelCase; its snake_case form names the MCP tool. */
  readonly operationId: string
  readonly summary: string
  readonly description?: string
  readonly access: AccessClass
  readonly cache: CacheGroup
  /** Parameters by wire name, in echo order. */
  readonly params: P
  /** The documented response body. */
  readonly payload: R
  /** Name of the `visibility compute` subcommand; none: not offered there. */
  readonly cli?: string
  /** Runs the engine function with the validated, normalized parameters. */
  compute(engine: Engine, params: ParamValues<P>, context: ComputeContext): Promise<z.output<R>>
}

/** A row with its query schema (built from the parameters' text forms). */
export interface Endpoint<
  P extends ParamSet = ParamSet,
  R extends z.ZodType = z.ZodType,
> extends EndpointDefinition<P, R> {
  /** Validates a query string (or CLI flags): first issue in parameter order wins. */
  readonly query: z.ZodType<ParamValues<P>>
}

/**
 * Completes a row: checks that parameter keys are their wire names and adds the query schema.
 * @example
 * defineEndpoint({ id: 'x', path: '/api/v1/x', operationId: 'getX', summary: 'X', access: 'none',
 *   cache: 'none', params: {}, payload: xPayloadSchema, compute: (engine) => engine.x() })
 */
export function defineEndpoint<const I extends string, P extends ParamSet, R extends z.ZodType>(
  definition: EndpointDefinition<P, R> & { readonly id: I },
): Endpoint<P, R> & { readonly id: I } {
  for (const [key, param] of Object.entries(definition.params)) {
    if (key !== param.name)
      throw new Error(`endpoint ${definition.id}: parameter ${key} is named ${param.name}`)
  }
  return { ...definition, query: querySchema(definition.params) }
}

const SENTIMENT_PLAN_NOTE = 'Requires a Pro, Business or Enterprise plan.'

/** What the sentiment endpoints share: their access class, cache group and parameters. */
const SENTIMENT = {
  access: 'sentiment',
  cache: 'sentiment',
  params: { domain_id: sentimentDomainIdParam, days: daysParam, model: modelParam },
} as const

/** The engine's parameters of a sentiment endpoint. */
const sentimentArgs = (p: { domain_id: string; days: number; model: string }, now: Clock) => ({
  domainId: p.domain_id,
  days: p.days,
  model: p.model,
  now,
})

/** What the brand rankings and brand time series share: class, cache group and parameters. */
const BRAND_REPORT = {
  access: 'series',
  cache: 'series',
  params: { domain_id: domainIdParam, days: daysParam, model: modelParam },
} as const

/** The engine's parameters of a brand report. */
const brandArgs = (p: { domain_id: string; days: number; model: string }, now: Clock) => ({
  domainId: p.domain_id,
  days: p.days,
  model: p.model,
  now,
})

const METRIC_ID = {
  visibility: 'Visibility',
  mentions: 'Mentions',
  citations: 'Citations',
  citability: 'Citability',
} as const satisfies Record<BrandMetric, string>

/** One of the four brand time series: `/api/v1/<metric>-time-series`. */
function brandSeriesEndpoint<M extends BrandMetric>(metric: M, summary: string, value: string) {
  return defineEndpoint({
    id: `${metric}-series` as const,
    path: `/api/v1/${metric}-time-series`,
    operationId: `get${METRIC_ID[metric]}TimeSeries`,
    summary,
    description: `One value per UTC date with analyses in the window: ${value}.`,
    ...BRAND_REPORT,
    payload: brandSeriesPayloadSchema,
    cli: `${metric}-series`,
    compute: (engine, p, { now }) => engine.brandSeries({ ...brandArgs(p, now), metric }),
  })
}

/**
 * The endpoints, in the order of the OpenAPI document.
 * @example
 * const overview = ENDPOINTS.find((e) => e.id === 'overview')!
 * const params = overview.query.parse({ domain_id: id, days: '7' })
 * const payload = await overview.compute(engine, params, { now: new Date(), caller: null })
 */
export const ENDPOINTS = [
  defineEndpoint({
    id: 'prompts',
    path: '/api/v1/prompt-statistics-time-series',
    operationId: 'getPromptTimeSeries',
    summary: 'Prompt statistics time series',
    description:
      'The top tracked prompts ranked by total mentions over the window, each with a daily series.',
    access: 'series',
    cache: 'series',
    params: { domain_id: domainIdParam, days: daysParam, limit: limitParam },
    payload: promptSeriesPayloadSchema,
    cli: 'prompts',
    compute: (engine, p, { now }) =>
      engine.computePromptSeries({ domainId: p.domain_id, days: p.days, limit: p.limit, now }),
  }),
  defineEndpoint({
    id: 'competitors',
    path: '/api/v1/competitor-time-series',
    operationId: 'getCompetitorTimeSeries',
    summary: 'Competitor time series',
    description:
      'Daily visibility, share of voice, mentions, position and sentiment of the brand and each tracked competitor.',
    access: 'series',
    cache: 'series',
    params: { domain_id: domainIdParam, days: daysParam, model: channelModelParam },
    payload: competitorSeriesPayloadSchema,
    cli: 'competitors',
    compute: (engine, p, { now }) =>
      engine.computeCompetitorSeries({ domainId: p.domain_id, days: p.days, model: p.model, now }),
  }),
  defineEndpoint({
    id: 'overview',
    path: '/api/v1/sentiment/overview',
    operationId: 'getSentimentOverview',
    summary: 'Sentiment overview',
    description: `The positive/negative split of sentiment themes and the mentions they cover. ${SENTIMENT_PLAN_NOTE}`,
    ...SENTIMENT,
    payload: sentimentOverviewPayloadSchema,
    cli: 'sentiment-overview',
    compute: (engine, p, { now }) => engine.sentimentOverview(sentimentArgs(p, now)),
  }),
  defineEndpoint({
    id: 'themes',
    path: '/api/v1/sentiment/themes',
    operationId: 'getSentimentThemes',
    summary: 'Sentiment themes',
    description: `The sentiment themes of the window, each tagged positive or negative. ${SENTIMENT_PLAN_NOTE}`,
    ...SENTIMENT,
    payload: sentimentThemesPayloadSchema,
    cli: 'sentiment-themes',
    compute: (engine, p, { now }) => engine.sentimentThemes(sentimentArgs(p, now)),
  }),
  defineEndpoint({
    id: 'domains',
    path: '/api/v1/domains',
    operationId: 'listDomains',
    summary: 'Domains this key can access',
    access: 'none',
    cache: 'none',
    params: {},
    payload: domainsPayloadSchema,
    cli: 'domains',
    compute: (engine, _params, { now, caller }) => listReadableDomains(engine, caller, now),
  }),
  // Listings, rankings and brand time series (extensions 3-5).
  defineEndpoint({
    id: 'validate',
    path: '/api/v1/validate',
    operationId: 'getValidate',
    summary: 'Check the API key',
    description:
      "The key's team, plan, scope and allowlist, and its rate-limit window after counting this request.",
    access: 'none',
    cache: 'none',
    params: {},
    payload: validatePayloadSchema,
    compute: (engine, _params, { now, caller, rateLimit }) => {
      if (caller === null || rateLimit == null) {
        throw new ValidationError([{ path: 'key', message: 'validate needs an API key and its rate limit.' }])
      }
      return engine.validate({
        key: keyScopeOf(caller),
        rateLimit: {
          limitPerMinute: rateLimit.limit,
          used: rateLimit.limit - rateLimit.remaining,
          resetAt: new Date(rateLimit.reset * 1000),
        },
        now,
      })
    },
  }),
  defineEndpoint({
    id: 'prompt-list',
    path: '/api/v1/prompts',
    operationId: 'listPrompts',
    summary: 'Prompts of a domain',
    description: 'The tracked prompts of the domain, newest first, one page at a time.',
    access: 'series',
    cache: 'series',
    params: { domain_id: domainIdParam, page: pageParam, size: sizeParam },
    payload: promptListPayloadSchema,
    cli: 'prompt-list',
    compute: (engine, p, { now }) =>
      engine.listPrompts({ domainId: p.domain_id, page: p.page, size: p.size, now }),
  }),
  defineEndpoint({
    id: 'brand-rankings',
    path: '/api/v1/brand-rankings',
    operationId: 'getBrandRankings',
    summary: 'Brand rankings',
    description:
      'The brand and every competitor over the window: mentions, visibility, share of voice, position and prompts.',
    ...BRAND_REPORT,
    payload: brandRankingsPayloadSchema,
    cli: 'brand-rankings',
    compute: (engine, p, { now }) => engine.brandRankings(brandArgs(p, now)),
  }),
  defineEndpoint({
    id: 'model-leaderboard',
    path: '/api/v1/model-leaderboard',
    operationId: 'getModelLeaderboard',
    summary: 'Model leaderboard',
    description: "The brand's visibility and position on each channel with analyses in the window.",
    access: 'series',
    cache: 'series',
    params: { domain_id: domainIdParam, days: daysParam },
    payload: modelLeaderboardPayloadSchema,
    cli: 'model-leaderboard',
    compute: (engine, p, { now }) => engine.modelLeaderboard({ domainId: p.domain_id, days: p.days, now }),
  }),
  brandSeriesEndpoint(
    'visibility',
    'Brand visibility time series',
    'brand-mentioning analyses / analyses * 100',
  ),
  brandSeriesEndpoint('mentions', 'Brand mentions time series', 'brand-mentioning analyses'),
  brandSeriesEndpoint('citations', 'Brand citations time series', "citations of the brand's site"),
  brandSeriesEndpoint(
    'citability',
    'Brand citability time series',
    "citations of the brand's site / all citations * 100",
  ),
] as const

/** The id of a row of the table. */
export type EndpointId = (typeof ENDPOINTS)[number]['id']
