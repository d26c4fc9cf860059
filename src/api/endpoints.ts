/**
 * @module The endpoint table: every read endpoint of the API, once, as plain data. The HTTP
 * service generates its routes and OpenAPI operations from it, the CLI its `compute`
 * subcommands, and the MCP server (src/mcp) its tools (tool name = the snake_case operationId).
 *
 * Adding an endpoint = one row here + its report folder, src/reports/<id>/ (docs/ARCHITECTURE.md,
 * "Adding a read endpoint"); its parameters come from the catalogue in src/schemas/params.ts.
 */
import { z } from 'zod'
import {
  answersEntityParam,
  answersLimitParam,
  checkedArgs,
  channelModelParam,
  countryParam,
  cursorParam,
  promptIdParam,
  tagParam,
  topicParam,
  citationLimitParam,
  domainIdParam,
  granularityParam,
  limitParam,
  givenModelParam,
  modelParam,
  normalizeWindowParams,
  pageParam,
  querySchema,
  SEGMENT_PARAMS,
  WINDOW_PARAMS,
  sizeParam,
  sentimentDomainIdParam,
  type ParamSet,
  type ParamValues,
} from '../schemas/params.js'
import {
  answersPayloadSchema,
  fitAnswers,
  type AnswersPayload,
  brandRankingsPayloadSchema,
  brandSeriesPayloadSchema,
  citationsPayloadSchema,
  citedDomainsPayloadSchema,
  fanoutQueriesPayloadSchema,
  sentimentSeriesPayloadSchema,
  competitorSeriesPayloadSchema,
  domainsPayloadSchema,
  modelLeaderboardPayloadSchema,
  promptListPayloadSchema,
  promptSeriesPayloadSchema,
  sentimentOverviewPayloadSchema,
  sentimentThemesPayloadSchema,
  SIGNAL_PARAMS,
  signalsPayloadSchema,
  validatePayloadSchema,
  compareParam,
  dimensionsParam,
  entityParam,
  minResponsesParam,
  queryLimitParam,
  queryPayloadSchema,
  queryRuleIssues,
} from '../reports/index.js'
import { payloadNames } from '../schemas/payloads.js'
import { ValidationError } from '../errors.js'
import { keyScopeOf } from '../key-scope.js'
import type { ApiKeyInfo, BrandMetric, Clock, Engine, Granularity } from '../types.js'
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

/** An engine method computing a report (`compute<Name>`). */
export type ComputeMethod = Extract<keyof Engine, `compute${string}`>

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
  /**
   * The report's one name (route config, cache keys, metrics labels, logs): its folder
   * src/reports/<id>/, its golden folder fixtures/cases/<id>/, its CLI name and its engine method
   * `compute<PascalCase(id)>`. Rows computing one report with a parameter fixed name it in `report`.
   */
  readonly id: string
  /**
   * The report this row computes when it is not the row's id: the four brand time series
   * (`<metric>-series`) are the report `brand-series` with `metric` fixed.
   */
  readonly report?: string
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
  /** Name of the `visibility compute` subcommand (the row's id); none: not offered there. */
  readonly cli?: string
  /**
   * Deprecated names of the subcommand, still accepted for one release (docs/API.md, "Deprecated
   * names"); the help lists only `cli`.
   */
  readonly cliAliases?: readonly string[]
  /**
   * true when the row answers about the caller's API key (the key check): offered only where a
   * request carries a key (REST, MCP over HTTP), not to a local reader (stdio MCP, the CLI).
   */
  readonly keyed?: boolean
  /**
   * What the MCP tool of this row answers and when an assistant should pick it (the tool's
   * description; default: the summary and description). Write it for a model choosing among
   * tools: the question it answers, the fields it returns, how to get its inputs.
   */
  readonly toolDescription?: string
  /**
   * The payload as the MCP tool returns it, when the REST body can outgrow a model's context (the
   * answers' texts, cut: docs/MCP.md); default: the REST body itself.
   */
  readonly toolPayload?: (payload: unknown) => unknown
  /**
   * The engine method `compute` calls (`compute<Name>`): what the batch report and the cluster call
   * for this row (test/api/registry.test.ts checks it against `compute`).
   */
  readonly method: ComputeMethod
  /** Runs the engine function with the validated, normalized parameters. */
  compute(engine: Engine, params: ParamValues<WithSegments<P>>, context: ComputeContext): Promise<z.output<R>>
}

/**
 * A row's parameters as served: a row with `days` takes the segment filters too, after every other
 * parameter (docs/API.md, "Segment filters"); `defineEndpoint` adds them, so no row lists them.
 */
export type WithSegments<P extends ParamSet> = P extends { readonly days: unknown }
  ? P & typeof SEGMENT_PARAMS
  : P

/** `params` with the segment filters after them when it has `days`. */
function withSegments<P extends ParamSet>(params: P): WithSegments<P> {
  return ('days' in params ? { ...params, ...SEGMENT_PARAMS } : params) as WithSegments<P>
}

/** A row with its query schema (built from the parameters' text forms). */
export interface Endpoint<
  P extends ParamSet = ParamSet,
  R extends z.ZodType = z.ZodType,
> extends EndpointDefinition<P, R> {
  /**
   * Validates a query string: first issue in parameter order wins, then the rules between the
   * window's parameters; the result is normalized (`normalize`).
   */
  readonly query: z.ZodType<ParamValues<P>>
  /**
   * Values each valid on its own (tool arguments, CLI flags) after the window's rules: only the
   * row's parameters, `days` set (a range's length or the default); a ValidationError naming the
   * parameter otherwise. What the cache is keyed by and `compute` takes.
   */
  normalize(values: ParamValues<P>): ParamValues<P>
}

/** The exact payload of each payload schema, with the parameters it was made for. */
const exactPayloads = new WeakMap<z.ZodType, { params: ParamSet; payload: z.ZodType }>()

/**
 * The row's payload with each echo field narrowed to its parameter's `echo` schema (`days` 1-365,
 * `limit` as the row bounds it, ...) and registered under the body's component name: what the
 * route checks before sending and what the OpenAPI document shows. Rows sharing a payload schema
 * share the result, and must echo the same parameters.
 */
function exactPayload<R extends z.ZodType>(id: string, payload: R, params: ParamSet): R {
  const seen = exactPayloads.get(payload)
  if (seen !== undefined) {
    const same = Object.keys(params).every((name) => seen.params[name]?.echo === params[name]?.echo)
    if (!same) throw new Error(`endpoint ${id}: its payload schema is shared with other parameters`)
    return seen.payload as R
  }
  if (!(payload instanceof z.ZodObject)) return payload
  const echoes: Record<string, z.ZodType> = {}
  for (const param of Object.values(params)) {
    if (param.echo !== undefined && param.name in payload.shape) echoes[param.name] = param.echo
  }
  const name = payloadNames.get(payload)?.id
  const exact = payload.extend(echoes)
  const registered = name === undefined ? exact : exact.meta({ id: name })
  exactPayloads.set(payload, { params, payload: registered })
  return registered as unknown as R
}

/**
 * Completes a row: checks that parameter keys are their wire names, narrows the payload's echo
 * fields to the parameters' bounds and adds the query schema.
 * @example
 * defineEndpoint({ id: 'x', path: '/api/v1/x', operationId: 'getX', summary: 'X', access: 'none',
 *   cache: 'none', params: {}, payload: xPayloadSchema, method: 'computeX',
 *   compute: (engine) => engine.computeX() })
 */
export function defineEndpoint<
  const I extends string,
  const M extends ComputeMethod,
  P extends ParamSet,
  R extends z.ZodType,
>(
  definition: EndpointDefinition<P, R> & { readonly id: I; readonly method: M },
): Endpoint<WithSegments<P>, R> & { readonly id: I; readonly method: M } {
  for (const [key, param] of Object.entries(definition.params)) {
    if (key !== param.name)
      throw new Error(`endpoint ${definition.id}: parameter ${key} is named ${param.name}`)
  }
  const params = withSegments(definition.params)
  const payload = exactPayload(definition.id, definition.payload, params)
  return {
    ...definition,
    params,
    payload,
    query: querySchema(params),
    normalize: (values) => normalizeWindowParams(params, values),
  } as Endpoint<WithSegments<P>, R> & { readonly id: I; readonly method: M }
}

/** The window's values of a normalized request (wire names), with the segment filters. */
interface WindowValues {
  days: number | undefined
  start_date?: string | undefined
  end_date?: string | undefined
  granularity?: Granularity | undefined
  country?: string | undefined
  topic?: string | undefined
  tag?: string | undefined
}

/**
 * The engine's window parameters of a normalized request: `days`, or the range; `granularity`
 * and the segment filters when given (the engine echoes only what it is given).
 */
function windowArgs(p: WindowValues) {
  const range =
    p.start_date !== undefined && p.end_date !== undefined
      ? { startDate: p.start_date, endDate: p.end_date }
      : p.days === undefined
        ? {}
        : { days: p.days }
  return {
    ...range,
    ...(p.granularity === undefined ? {} : { granularity: p.granularity }),
    ...(p.country === undefined ? {} : { country: p.country }),
    ...(p.topic === undefined ? {} : { topic: p.topic }),
    ...(p.tag === undefined ? {} : { tag: p.tag }),
  }
}

const SENTIMENT_PLAN_NOTE = 'Requires a Pro, Business or Enterprise plan.'

/** What the sentiment endpoints share: their access class, cache group and parameters. */
const SENTIMENT = {
  access: 'sentiment',
  cache: 'sentiment',
  params: { domain_id: sentimentDomainIdParam, ...WINDOW_PARAMS, model: modelParam },
} as const

/**
 * The engine's parameters of a request with domain_id, the window and model (sentiment, brand
 * reports); `extra`: what the row fixes. Checked when the request was (`checkedArgs`).
 */
const modelReportArgs = <E extends object = object>(
  p: WindowValues & { domain_id: string; model: string },
  now: Clock,
  extra: E = {} as E,
) => checkedArgs(p, { domainId: p.domain_id, ...windowArgs(p), model: p.model, now, ...extra })

/** What the brand rankings and brand time series share: class, cache group and parameters. */
const BRAND_REPORT = {
  access: 'series',
  cache: 'series',
  params: { domain_id: domainIdParam, ...WINDOW_PARAMS, model: modelParam },
} as const

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
    params: { ...BRAND_REPORT.params, granularity: granularityParam },
    payload: brandSeriesPayloadSchema,
    cli: `${metric}-series`,
    report: 'brand-series',
    method: 'computeBrandSeries',
    compute: (engine, p, { now }) => engine.computeBrandSeries(modelReportArgs(p, now, { metric })),
  })
}

/** What the citations and cited-domains endpoints share: access class, cache group, parameters. */
const CITATION_LISTS = {
  access: 'series',
  cache: 'series',
  params: { domain_id: domainIdParam, ...WINDOW_PARAMS, model: modelParam, limit: citationLimitParam },
} as const

/** The engine's parameters of a citations or cited-domains request (checked when it was). */
const citationArgs = (p: WindowValues & { domain_id: string; model: string; limit: number }, now: Clock) =>
  checkedArgs(p, { domainId: p.domain_id, ...windowArgs(p), model: p.model, limit: p.limit, now })

/**
 * A row with the rules between its parameters (`rules`: issues of the values each valid on its
 * own), checked after the parameters' own rules: in its query schema (a 400 before the domain
 * check) and when values are normalized (tools, CLI flags).
 */
function withRules<E extends Endpoint>(
  row: E,
  rules: (values: Record<string, unknown>) => { path: string; message: string }[],
): E {
  return {
    ...row,
    query: row.query.transform((values, ctx) => {
      for (const issue of rules(values as Record<string, unknown>))
        ctx.addIssue({ code: 'custom', message: issue.message, path: [issue.path] })
      return values
    }),
    normalize: (values) => {
      const out = row.normalize(values)
      const issues = rules(out as Record<string, unknown>)
      if (issues.length > 0) throw new ValidationError(issues)
      return out
    },
  }
}

/**
 * The endpoints, in the order of the OpenAPI document.
 * @example
 * const overview = ENDPOINTS.find((e) => e.id === 'sentiment-overview')!
 * const params = overview.query.parse({ domain_id: id, days: '7' })
 * const payload = await overview.compute(engine, params, { now: new Date(), caller: null })
 */
export const ENDPOINTS = [
  defineEndpoint({
    id: 'prompt-series',
    path: '/api/v1/prompt-statistics-time-series',
    operationId: 'getPromptTimeSeries',
    summary: 'Prompt statistics time series',
    description:
      'The top tracked prompts ranked by total mentions over the window, each with a daily series.',
    access: 'series',
    cache: 'series',
    params: { domain_id: domainIdParam, ...WINDOW_PARAMS, limit: limitParam, granularity: granularityParam },
    payload: promptSeriesPayloadSchema,
    cli: 'prompt-series',
    cliAliases: ['prompts'],
    toolDescription:
      'Which tracked prompts (the questions people ask AI assistants) bring up the brand, and how often, day by day. ' +
      'Prompts are ranked by the number of AI answers mentioning the brand over the window (prompts with no mention are left out); ' +
      'each has a daily series of responses (AI answers analysed), mentions (answers mentioning the brand), citations ' +
      "(answers' citations of the brand's website) and avg_position (mean rank of the brand in the answers, 1 = named first). " +
      'All AI models together. Use it for "which questions is my brand recommended for", top prompts, prompt-level trends.',
    method: 'computePromptSeries',
    compute: (engine, p, { now }) =>
      engine.computePromptSeries(
        checkedArgs(p, { domainId: p.domain_id, ...windowArgs(p), limit: p.limit, now }),
      ),
  }),
  defineEndpoint({
    id: 'competitor-series',
    path: '/api/v1/competitor-time-series',
    operationId: 'getCompetitorTimeSeries',
    summary: 'Competitor time series',
    description:
      'Daily visibility, share of voice, mentions, position and sentiment of the brand and each tracked competitor.',
    access: 'series',
    cache: 'series',
    params: {
      domain_id: domainIdParam,
      ...WINDOW_PARAMS,
      model: channelModelParam,
      granularity: granularityParam,
    },
    payload: competitorSeriesPayloadSchema,
    cli: 'competitor-series',
    cliAliases: ['competitors'],
    toolDescription:
      'How visible the brand is in AI answers over time, next to each tracked competitor. One item per entity: the brand ' +
      'first (is_brand true, id user-brand-<domain_id>), then the competitors; each with a daily series (visibility = % of ' +
      "that day's AI answers mentioning it, sov = share of voice: its % of all entity mentions that day, mentions, " +
      'avg_position, sentiment) and window averages (avg_visibility, avg_sov, avg_mentions, avg_position, avg_sentiment, ' +
      'total_queries). model narrows to one AI assistant (chatgpt, perplexity, gemini, claude, copilot, google-ai-overviews, ' +
      'google-ai-mode). To compare periods (this month versus last month), take a window covering both (days=60 or more) ' +
      "and average the brand's daily visibility over each period's dates. Use it for brand visibility, share of voice, " +
      'competitor benchmarks, trends per AI assistant.',
    method: 'computeCompetitorSeries',
    compute: (engine, p, { now }) => engine.computeCompetitorSeries(modelReportArgs(p, now)),
  }),
  defineEndpoint({
    id: 'sentiment-overview',
    path: '/api/v1/sentiment/overview',
    operationId: 'getSentimentOverview',
    summary: 'Sentiment overview',
    description: `The positive/negative split of sentiment themes and the mentions they cover. ${SENTIMENT_PLAN_NOTE}`,
    ...SENTIMENT,
    payload: sentimentOverviewPayloadSchema,
    cli: 'sentiment-overview',
    toolDescription:
      'How positively AI answers talk about the brand over the window: positive_percent and negative_percent (the shares ' +
      "of the window's sentiment themes tagged positive and negative) and total_mentions (the sum of the themes' " +
      'occurrences). model narrows to an AI assistant or a raw model id. Use it for "what is the sentiment about my ' +
      'brand"; for the themes themselves use get_sentiment_themes. Requires a Pro, Business or Enterprise plan.',
    method: 'computeSentimentOverview',
    compute: (engine, p, { now }) => engine.computeSentimentOverview(modelReportArgs(p, now)),
  }),
  defineEndpoint({
    id: 'sentiment-themes',
    path: '/api/v1/sentiment/themes',
    operationId: 'getSentimentThemes',
    summary: 'Sentiment themes',
    description: `The sentiment themes of the window, each tagged positive or negative. ${SENTIMENT_PLAN_NOTE}`,
    ...SENTIMENT,
    payload: sentimentThemesPayloadSchema,
    cli: 'sentiment-themes',
    toolDescription:
      'Which themes (topics such as pricing or support) AI answers associate with the brand over the window, each tagged ' +
      'positive or negative, with its number of occurrences, most frequent first. model narrows to an AI assistant or a raw ' +
      'model id. Use it for "why is sentiment negative", strengths and weaknesses as AI assistants describe them. ' +
      'Requires a Pro, Business or Enterprise plan.',
    method: 'computeSentimentThemes',
    compute: (engine, p, { now }) => engine.computeSentimentThemes(modelReportArgs(p, now)),
  }),
  defineEndpoint({
    id: 'domain-list',
    path: '/api/v1/domains',
    operationId: 'listDomains',
    summary: 'Domains this key can access',
    access: 'none',
    cache: 'none',
    params: {},
    payload: domainsPayloadSchema,
    toolDescription:
      'The domains (brands and their websites) this key can read, with their ids. Call it first: every other tool needs a ' +
      'domain_id from this list; when the user names a brand, match it to name or website. Items: id, name, ' +
      'website, created_at.',
    cli: 'domain-list',
    cliAliases: ['domains'],
    method: 'computeDomainList',
    compute: (engine, _params, { now, caller }) => listReadableDomains(engine, caller, now),
  }),
  // Listings, rankings and brand time series (docs/API.md, "Listings", "Rankings", "Brand time series").
  defineEndpoint({
    id: 'key-check',
    path: '/api/v1/validate',
    operationId: 'getValidate',
    summary: 'Check the API key',
    description:
      "The key's team, plan, scope and allowlist, and its rate-limit window after counting this request.",
    access: 'none',
    cache: 'none',
    keyed: true,
    params: {},
    payload: validatePayloadSchema,
    method: 'computeKeyCheck',
    compute: (engine, _params, { now, caller, rateLimit }) => {
      if (caller === null || rateLimit == null) {
        throw new ValidationError([{ path: 'key', message: 'validate needs an API key and its rate limit.' }])
      }
      return engine.computeKeyCheck({
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
    description:
      'The tracked prompts of the domain (with that topic or tag when given), newest first, one page at a time.',
    access: 'series',
    cache: 'series',
    params: {
      domain_id: domainIdParam,
      page: pageParam,
      size: sizeParam,
      topic: SEGMENT_PARAMS.topic,
      tag: SEGMENT_PARAMS.tag,
    },
    payload: promptListPayloadSchema,
    cli: 'prompt-list',
    method: 'computePromptList',
    compute: (engine, p, { now }) =>
      engine.computePromptList({
        domainId: p.domain_id,
        page: p.page,
        size: p.size,
        ...(p.topic === undefined ? {} : { topic: p.topic }),
        ...(p.tag === undefined ? {} : { tag: p.tag }),
        now,
      }),
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
    method: 'computeBrandRankings',
    compute: (engine, p, { now }) => engine.computeBrandRankings(modelReportArgs(p, now)),
  }),
  defineEndpoint({
    id: 'model-leaderboard',
    path: '/api/v1/model-leaderboard',
    operationId: 'getModelLeaderboard',
    summary: 'Model leaderboard',
    description: "The brand's visibility and position on each channel with analyses in the window.",
    access: 'series',
    cache: 'series',
    params: { domain_id: domainIdParam, ...WINDOW_PARAMS },
    payload: modelLeaderboardPayloadSchema,
    cli: 'model-leaderboard',
    method: 'computeModelLeaderboard',
    compute: (engine, p, { now }) =>
      engine.computeModelLeaderboard(checkedArgs(p, { domainId: p.domain_id, ...windowArgs(p), now })),
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

  // Citations, cited domains, fan-out queries, sentiment over time (docs/API.md, "Citations, fan-out and sentiment over time").
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
    method: 'computeCitations',
    compute: (engine, p, { now }) => engine.computeCitations(citationArgs(p, now)),
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
    method: 'computeCitedDomains',
    compute: (engine, p, { now }) => engine.computeCitedDomains(citationArgs(p, now)),
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
    params: { domain_id: domainIdParam, ...WINDOW_PARAMS, model: modelParam },
    payload: fanoutQueriesPayloadSchema,
    cli: 'fanout-queries',
    method: 'computeFanoutQueries',
    compute: (engine, p, { now }) => engine.computeFanoutQueries(modelReportArgs(p, now)),
  }),
  defineEndpoint({
    id: 'sentiment-series',
    path: '/api/v1/sentiment/time-series',
    operationId: 'getSentimentTimeSeries',
    summary: 'Sentiment time series',
    description: `The sentiment overview per UTC date: the positive/negative split of the themes of that date and the mentions they cover. ${SENTIMENT_PLAN_NOTE}`,
    ...SENTIMENT,
    params: { ...SENTIMENT.params, granularity: granularityParam },
    payload: sentimentSeriesPayloadSchema,
    cli: 'sentiment-series',
    method: 'computeSentimentSeries',
    compute: (engine, p, { now }) => engine.computeSentimentSeries(modelReportArgs(p, now)),
  }),
  // Signals (docs/API.md, "GET /api/v1/signals").
  defineEndpoint({
    id: 'signals',
    path: '/api/v1/signals',
    operationId: 'getSignals',
    summary: 'Signals: statistically tested changes of visibility',
    description:
      'The changes of visibility of the brand and each competitor, overall and per channel, country and topic, between the last `window` days and the `window` days before, that pass the two-proportion z-test (p < 0.05) and the thresholds, most certain first, each with a stable id and a confidence tier.',
    access: 'series',
    cache: 'series',
    params: SIGNAL_PARAMS,
    payload: signalsPayloadSchema,
    cli: 'signals',
    toolDescription:
      'What changed and is worth knowing: the moves of visibility (the % of AI answers mentioning an entity) of the brand ' +
      'and of each competitor, overall (segment kind all) and per channel (AI assistant), country and prompt topic, between ' +
      'the last `window` days (default 7, ending today) and the `window` days before, kept only when the change is ' +
      'statistically significant (two-proportion z-test, p_value < 0.05), at least min_delta percentage points (default 5) ' +
      'and each period has at least min_responses answers (default 30). Each item: entity, segment, baseline and current ' +
      '(dates, responses, mentions, visibility with its 95% interval), visibility_delta, direction up/down, p_value and ' +
      'tier (high: p < 0.001, confident: p < 0.01, worth_a_look: p < 0.05), most certain first. An empty list means no ' +
      'change passed the test: say so rather than reading noise into the numbers. Use it for "what changed", "is this ' +
      'drop real", alerts and weekly summaries.',
    method: 'computeSignals',
    compute: (engine, p, { now }) =>
      engine.computeSignals({
        domainId: p.domain_id,
        window: p.window,
        minResponses: p.min_responses,
        minDelta: p.min_delta,
        now,
      }),
  }),
  // The analyst's question (docs/API.md, "GET /api/v1/query").
  withRules(
    defineEndpoint({
      id: 'query',
      path: '/api/v1/query',
      operationId: 'queryVisibility',
      summary: 'Visibility by dimensions, with confidence intervals',
      description:
        'The analyses of the window grouped by up to three dimensions (date, channel, model, country, prompt, topic, tag): per group and entity the responses and mentions, visibility with its 95% Wilson interval, share of voice, position, sentiment and citations; optionally the change against the previous window with its p-value.',
      access: 'series',
      cache: 'series',
      params: {
        domain_id: domainIdParam,
        ...WINDOW_PARAMS,
        dimensions: dimensionsParam,
        entity: entityParam,
        compare: compareParam,
        min_responses: minResponsesParam,
        page: pageParam,
        limit: queryLimitParam,
        granularity: granularityParam,
        model: givenModelParam,
      },
      payload: queryPayloadSchema,
      cli: 'query',
      toolDescription:
        'Answers "how visible is the brand (or a competitor) in AI answers, broken down by what I choose", with the ' +
        'numbers behind each percentage and how far they can be trusted. dimensions: up to 3 of date, channel, model, ' +
        'country, prompt, topic, tag (e.g. ["country","channel"]; none = one overall row). entity: brand (default), all ' +
        '(the brand and every competitor, one row each: for share-of-voice and competitor comparisons) or a competitor ' +
        'id. Each row: the dimension values, entity_id/entity_name/is_brand, responses (AI answers in the group), mentions ' +
        '(answers naming the entity), visibility (% of answers naming it) with visibility_ci (95% interval: a wide interval ' +
        'means few answers, do not over-read it), sov (share of voice), avg_position (1 = named first), avg_sentiment ' +
        '(0-100), citations of its website and citability. compare=previous adds previous (the same group over the ' +
        'previous window of equal length) and change {visibility_delta, p_value, significant}: only call a change real ' +
        'when significant is true. Filters: model, country (ISO code), topic, tag; min_responses drops thin groups; ' +
        'days or start_date/end_date. Use it for "which countries/topics/assistants are we weak in", "did this week ' +
        'really change", per-prompt or per-tag breakdowns; get domain_id from list_domains.',
      method: 'computeQuery',
      compute: (engine, p, { now }) =>
        engine.computeQuery({
          domainId: p.domain_id,
          ...windowArgs(p),
          dimensions: p.dimensions,
          entity: p.entity,
          compare: p.compare,
          minResponses: p.min_responses,
          page: p.page,
          limit: p.limit,
          ...(p.model === undefined ? {} : { model: p.model }),
          ...(p.country === undefined ? {} : { country: p.country }),
          ...(p.topic === undefined ? {} : { topic: p.topic }),
          ...(p.tag === undefined ? {} : { tag: p.tag }),
          now,
        }),
    }),
    queryRuleIssues,
  ),
  // The answers behind the numbers (docs/API.md, "GET /api/v1/answers").
  defineEndpoint({
    id: 'answers',
    path: '/api/v1/answers',
    operationId: 'listAnswers',
    summary: 'AI answers',
    description:
      'The AI answers of the window, newest first, with their text, mentions, citations, themes and fan-out queries; one page at a time (pass next_cursor as cursor).',
    access: 'series',
    cache: 'series',
    params: {
      domain_id: domainIdParam,
      ...WINDOW_PARAMS,
      limit: answersLimitParam,
      model: givenModelParam,
      prompt_id: promptIdParam,
      entity: answersEntityParam,
      country: countryParam,
      topic: topicParam,
      tag: tagParam,
      cursor: cursorParam,
    },
    payload: answersPayloadSchema,
    cli: 'answers',
    toolDescription:
      'Read the AI answers themselves (the text an assistant such as ChatGPT or Perplexity gave to a tracked prompt), ' +
      'newest first, to see WHY a number moved: each item has the answer text (response), the prompt, channel, model, ' +
      'country, answered_at, the entities it mentions (position, sentiment), its citations (url, domain), themes and ' +
      'fan-out queries. Narrow with prompt_id (from list_prompts), entity (brand or a competitor id from ' +
      'get_competitor_time_series), model, country, topic, tag and the window (days). Pages: limit answers a call ' +
      '(default 20); when next_cursor is not null, call again with the same arguments and cursor=next_cursor for the ' +
      'next page. The answer texts of one call share a budget of 40,000 characters (2,000 each at limit 20): a longer ' +
      'text is cut and ends with "[... N more characters]"; ask for fewer answers (limit 5) to read more of each.',
    toolPayload: (payload) => fitAnswers(payload as AnswersPayload),
    method: 'computeAnswers',
    compute: (engine, p, { now }) =>
      engine.computeAnswers({
        domainId: p.domain_id,
        ...windowArgs(p),
        limit: p.limit,
        model: p.model,
        promptId: p.prompt_id,
        entity: p.entity,
        country: p.country,
        topic: p.topic,
        tag: p.tag,
        cursor: p.cursor,
        now,
      }),
  }),
] as const

/** The id of a row of the table. */
export type EndpointId = (typeof ENDPOINTS)[number]['id']
