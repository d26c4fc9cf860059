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
  citationLimitParam,
  daysParam,
  domainIdParam,
  limitParam,
  modelParam,
  querySchema,
  sentimentDomainIdParam,
  type ParamSet,
  type ParamValues,
} from '../schemas/params.js'
import {
  citationsPayloadSchema,
  citedDomainsPayloadSchema,
  fanoutQueriesPayloadSchema,
  sentimentSeriesPayloadSchema,
  competitorSeriesPayloadSchema,
  domainsPayloadSchema,
  promptSeriesPayloadSchema,
  sentimentOverviewPayloadSchema,
  sentimentThemesPayloadSchema,
} from '../schemas/payloads.js'
import type { ApiKeyInfo, Clock, Engine } from '../types.js'
import { listReadableDomains, type AccessClass } from './access.js'

/**
 * Which cache lifetime an endpoint's bodies get: `series` (default 5 minutes), `sentiment`
 * (default 1 hour), or `none` (never cached).
 */
export type CacheGroup = 'series' | 'sentiment' | 'none'

/** What a computation knows besides its parameters. */
export interface ComputeContext {
  /** The clock (the request time over HTTP). */
  now: Clock
  /** The key of the request; null for a local, trusted caller (CLI, stdio MCP). */
  caller: ApiKeyInfo | null
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

/** What the citations and cited-domains endpoints share: access class, cache group, parameters. */
const CITATION_LISTS = {
  access: 'series',
  cache: 'series',
  params: { domain_id: domainIdParam, days: daysParam, model: modelParam, limit: citationLimitParam },
} as const

/** The engine's parameters of a citations or cited-domains request. */
const citationArgs = (p: { domain_id: string; days: number; model: string; limit: number }, now: Clock) => ({
  domainId: p.domain_id,
  days: p.days,
  model: p.model,
  limit: p.limit,
  now,
})

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
    compute: (engine, _params, { now, caller }) => listReadableDomains(engine, caller, now),
  }),

  // Citations, cited domains, fan-out queries, sentiment over time (extensions sections 6, 7).
  defineEndpoint({
    id: 'citations',
    path: '/api/v1/citations',
    operationId: 'getCitations',
    summary: 'Cited pages',
    description:
      "The URLs cited by the AI answers of the window, most cited first: how often, by how many answers and prompts, on which channels and models, their latest title and page type, and whether the page is the brand's or a competitor's.",
    ...CITATION_LISTS,
    payload: citationsPayloadSchema,
    cli: 'citations',
    compute: (engine, p, { now }) => engine.citations(citationArgs(p, now)),
  }),
  defineEndpoint({
    id: 'cited-domains',
    path: '/api/v1/cited-domains',
    operationId: 'getCitedDomains',
    summary: 'Cited domains',
    description:
      'The hosts cited by the AI answers of the window, most cited first, with their share of all citations.',
    ...CITATION_LISTS,
    payload: citedDomainsPayloadSchema,
    cli: 'cited-domains',
    compute: (engine, p, { now }) => engine.citedDomains(citationArgs(p, now)),
  }),
  defineEndpoint({
    id: 'fanout-queries',
    path: '/api/v1/fanout-queries',
    operationId: 'getFanoutQueries',
    summary: 'Fan-out queries',
    description:
      'Per tracked prompt, the search queries the answer engines issued to answer it in the window, with how many answers issued each and on which channels.',
    access: 'series',
    cache: 'series',
    params: { domain_id: domainIdParam, days: daysParam, model: modelParam },
    payload: fanoutQueriesPayloadSchema,
    cli: 'fanout-queries',
    compute: (engine, p, { now }) =>
      engine.fanoutQueries({ domainId: p.domain_id, days: p.days, model: p.model, now }),
  }),
  defineEndpoint({
    id: 'sentiment-series',
    path: '/api/v1/sentiment/time-series',
    operationId: 'getSentimentTimeSeries',
    summary: 'Sentiment time series',
    description: `The sentiment overview per UTC date: the positive/negative split of the themes of that date and the mentions they cover. ${SENTIMENT_PLAN_NOTE}`,
    ...SENTIMENT,
    payload: sentimentSeriesPayloadSchema,
    cli: 'sentiment-series',
    compute: (engine, p, { now }) => engine.sentimentSeries(sentimentArgs(p, now)),
  }),
] as const

/** The id of a row of the table. */
export type EndpointId = (typeof ENDPOINTS)[number]['id']
