/**
 * Golden cases discovered from folders: `fixtures/cases/<function>/<case>/{params.json,expected.json}`
 * over `fixtures/datasets/<name>.ndjson`.
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CompetitorSeriesParams, PromptSeriesParams, SentimentParams } from '../../src/types.js'
import { readJson } from './ndjson.js'

export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url))
export const FUNCTIONS = [
  'prompt-series',
  'competitor-series',
  'sentiment-overview',
  'sentiment-themes',
] as const
export type GoldenFunction = (typeof FUNCTIONS)[number]

/** params.json: the dataset's name and the function's parameters in their wire spelling. */
export interface GoldenParams {
  dataset: string
  domain_id: string
  days?: number
  limit?: number
  model?: string
  now: string
}

export interface GoldenCase {
  fn: GoldenFunction
  name: string
  dir: string
  params: GoldenParams
  /** Absent while a case is being written. */
  expectedPath: string
}

export function datasetPath(name: string): string {
  return join(FIXTURES, 'datasets', `${name}.ndjson`)
}

/** Every case folder, sorted by function then name. */
export function discoverCases(): GoldenCase[] {
  const cases: GoldenCase[] = []
  for (const fn of FUNCTIONS) {
    const root = join(FIXTURES, 'cases', fn)
    if (!existsSync(root)) continue
    for (const name of readdirSync(root).sort()) {
      const dir = join(root, name)
      cases.push({
        fn,
        name,
        dir,
        params: readJson<GoldenParams>(join(dir, 'params.json')),
        expectedPath: join(dir, 'expected.json'),
      })
    }
  }
  return cases
}

/** The function's parameters for a case (optional ones only when params.json has them). */
export function toParams(p: GoldenParams): PromptSeriesParams & CompetitorSeriesParams & SentimentParams {
  return {
    domainId: p.domain_id,
    now: p.now,
    ...(p.days === undefined ? {} : { days: p.days }),
    ...(p.limit === undefined ? {} : { limit: p.limit }),
    ...(p.model === undefined ? {} : { model: p.model }),
  }
}

/** The documented field order of every object in a payload. */
export const ENVELOPE: Record<GoldenFunction, string[]> = {
  'prompt-series': ['data', 'domain_id', 'days', 'limit', 'generated_at'],
  'competitor-series': ['data', 'domain_id', 'days', 'model', 'generated_at'],
  'sentiment-overview': ['data', 'domain_id', 'days', 'model', 'generated_at'],
  'sentiment-themes': ['data', 'domain_id', 'days', 'model', 'generated_at'],
}
export const ITEM: Record<GoldenFunction, string[] | null> = {
  'prompt-series': ['id', 'text', 'estimated_search_volume', 'series'],
  'competitor-series': [
    'id',
    'name',
    'website',
    'is_brand',
    'avg_mentions',
    'avg_position',
    'avg_visibility',
    'avg_sov',
    'avg_sentiment',
    'total_queries',
    'series',
  ],
  'sentiment-overview': null,
  'sentiment-themes': ['id', 'name', 'sentiment', 'occurrences', 'created_at'],
}
export const DATAPOINT: Record<GoldenFunction, string[] | null> = {
  'prompt-series': ['date', 'mentions', 'responses', 'citations', 'avg_position'],
  'competitor-series': ['date', 'mentions', 'visibility', 'sov', 'avg_position', 'sentiment'],
  'sentiment-overview': null,
  'sentiment-themes': null,
}

// ---------------------------------------------------------------------------------------------
// The endpoints of extensions.md (sections 3-7) and the ranges and buckets of section 9.

/**
 * Case folders of the extensions and the library function each one calls. The `-ranges` folders
 * hold cases of the first four functions with `start_date`/`end_date`/`granularity` (their echo
 * differs from the shapes of test/golden.test.ts); both runners run them.
 */
export const EXT_FOLDERS = {
  'key-check': 'computeKeyCheck',
  'domain-list': 'computeDomainList',
  'prompt-list': 'computePromptList',
  'brand-rankings': 'computeBrandRankings',
  'model-leaderboard': 'computeModelLeaderboard',
  'brand-series': 'computeBrandSeries',
  citations: 'computeCitations',
  'cited-domains': 'computeCitedDomains',
  'fanout-queries': 'computeFanoutQueries',
  'sentiment-series': 'computeSentimentSeries',
  'prompt-series-ranges': 'computePromptSeries',
  'competitor-series-ranges': 'computeCompetitorSeries',
  'sentiment-overview-ranges': 'computeSentimentOverview',
  'sentiment-themes-ranges': 'computeSentimentThemes',
} as const
export type ExtFolder = keyof typeof EXT_FOLDERS
export type ExtFunction = (typeof EXT_FOLDERS)[ExtFolder]

/** params.json of an extension case: wire spelling, plus `why` (what the case checks). */
export interface ExtGoldenParams {
  dataset: string
  why: string
  now: string
  domain_id?: string
  days?: number
  limit?: number
  model?: string
  page?: number
  size?: number
  start_date?: string
  end_date?: string
  granularity?: string
  /** brand-series: which of the four series. */
  metric?: string
  /** key-check, domain-list: what the API key says. */
  key?: { team_id: string; scope_team_ids: string[]; allowed_domains: string[] | null }
  /** key-check: the rate-limit window after counting the request. */
  rate_limit?: { limit_per_minute: number; used: number; reset_at: string }
}

export interface ExtGoldenCase {
  folder: ExtFolder
  fn: ExtFunction
  name: string
  dir: string
  params: ExtGoldenParams
  expectedPath: string
}

/** Every extension case folder, sorted by folder then name (files beside the cases, e.g. README.md, skipped). */
export function discoverExtCases(): ExtGoldenCase[] {
  const cases: ExtGoldenCase[] = []
  for (const folder of Object.keys(EXT_FOLDERS) as ExtFolder[]) {
    const root = join(FIXTURES, 'cases', folder)
    if (!existsSync(root)) continue
    const names = readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
    for (const name of names) {
      const dir = join(root, name)
      cases.push({
        folder,
        fn: EXT_FOLDERS[folder],
        name,
        dir,
        params: readJson<ExtGoldenParams>(join(dir, 'params.json')),
        expectedPath: join(dir, 'expected.json'),
      })
    }
  }
  return cases
}

/** The scalar parameters of params.json (wire spelling) and their library names. */
export const PARAM_NAMES: Record<string, string> = {
  domain_id: 'domainId',
  days: 'days',
  start_date: 'startDate',
  end_date: 'endDate',
  model: 'model',
  limit: 'limit',
  page: 'page',
  size: 'size',
  granularity: 'granularity',
  metric: 'metric',
  now: 'now',
  key: 'key',
  rate_limit: 'rateLimit',
}

/**
 * The library parameters of an extension case, in camelCase (optional ones only when params.json
 * has them): `domain_id` -> `domainId`, `start_date` -> `startDate`, `key.scope_team_ids` ->
 * `key.scopeTeamIds`, ...
 */
export function toExtParams(p: ExtGoldenParams): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [wire, name] of Object.entries(PARAM_NAMES)) {
    const value = p[wire as keyof ExtGoldenParams]
    if (value !== undefined && typeof value !== 'object') out[name] = value
  }
  if (p.key !== undefined) {
    out.key = {
      teamId: p.key.team_id,
      scopeTeamIds: p.key.scope_team_ids,
      allowedDomains: p.key.allowed_domains,
    }
  }
  if (p.rate_limit !== undefined) {
    const r = p.rate_limit
    out.rateLimit = { limitPerMinute: r.limit_per_minute, used: r.used, resetAt: r.reset_at }
  }
  return out
}

/** A documented object shape: its keys in order, and the shapes of nested objects or list items. */
export interface Shape {
  keys: string[]
  fields?: Record<string, Shape>
  /** For a list field: the shape of each item. */
  items?: Record<string, Shape>
}

const page = (item: Shape): Shape => ({
  keys: ['items', 'total', 'page', 'size', 'total_pages'],
  items: { items: item },
})
const list = (item: Shape, extra: string[] = []): Shape => ({
  keys: ['items', ...extra],
  items: { items: item },
})

/** The documented shape of a case's payload (the echo depends on the range and granularity given). */
export function extShape(c: ExtGoldenCase): Shape {
  const p = c.params
  const window = p.start_date === undefined ? ['days'] : ['days', 'start_date', 'end_date']
  const granularity = p.granularity === undefined ? [] : ['granularity']
  const envelope = (data: Shape, params: string[]): Shape => ({
    keys: ['data', ...params, 'generated_at'],
    fields: { data },
  })
  const windowed = (data: Shape, after: string[] = ['model']): Shape =>
    envelope(data, ['domain_id', ...window, ...after])
  switch (c.folder) {
    case 'key-check':
      return envelope(
        {
          keys: [
            'team_id',
            'team_name',
            'plan',
            'developer_access',
            'scoped_team_ids',
            'allowed_domains',
            'rate_limit',
          ],
          fields: { rate_limit: { keys: ['limit_per_minute', 'remaining', 'reset_at'] } },
        },
        [],
      )
    case 'domain-list':
      return envelope(page({ keys: ['id', 'name', 'website', 'created_at'] }), [])
    case 'prompt-list':
      return envelope(page({ keys: ['id', 'text', 'estimated_search_volume', 'created_at'] }), [
        'domain_id',
        'page',
        'size',
      ])
    case 'brand-rankings':
      return windowed(
        list({
          keys: [
            'id',
            'name',
            'website',
            'is_brand',
            'mentions',
            'visibility',
            'sov',
            'avg_position',
            'prompts_mentioned',
            'total_prompts',
          ],
        }),
      )
    case 'model-leaderboard':
      return windowed(list({ keys: ['model', 'visibility', 'avg_position', 'mentions', 'responses'] }), [])
    case 'brand-series':
      return windowed(list({ keys: ['date', 'value'] }), ['model', ...granularity])
    case 'citations':
      return windowed(
        list(
          {
            keys: [
              'url',
              'domain',
              'title',
              'page_type',
              'frequency',
              'responses',
              'prompt_count',
              'brand_mentions',
              'channels',
              'models',
              'is_brand',
              'competitor_id',
              'first_seen',
              'last_seen',
            ],
          },
          ['total'],
        ),
        ['model', 'limit'],
      )
    case 'cited-domains':
      return windowed(
        list({ keys: ['domain', 'frequency', 'responses', 'urls', 'share', 'is_brand', 'competitor_id'] }, [
          'total',
        ]),
        ['model', 'limit'],
      )
    case 'fanout-queries':
      return windowed(
        list(
          {
            keys: ['id', 'text', 'fanout_queries'],
            items: { fanout_queries: { keys: ['query', 'count', 'channels'] } },
          },
          ['total'],
        ),
      )
    case 'sentiment-series':
      return windowed(list({ keys: ['date', 'positive_percent', 'negative_percent', 'total_mentions'] }), [
        'model',
        ...granularity,
      ])
    case 'prompt-series-ranges':
      return windowed(
        list({
          keys: ITEM['prompt-series'] ?? [],
          items: { series: { keys: DATAPOINT['prompt-series'] ?? [] } },
        }),
        ['limit', ...granularity],
      )
    case 'competitor-series-ranges':
      return windowed(
        list({
          keys: ITEM['competitor-series'] ?? [],
          items: { series: { keys: DATAPOINT['competitor-series'] ?? [] } },
        }),
        ['model', ...granularity],
      )
    case 'sentiment-overview-ranges':
      return windowed({ keys: ['positive_percent', 'negative_percent', 'total_mentions'] })
    case 'sentiment-themes-ranges':
      return windowed(list({ keys: ITEM['sentiment-themes'] ?? [] }))
  }
}

/** Every place where `value` departs from the shape's key order, as readable paths. */
export function shapeProblems(shape: Shape, value: unknown, path = '$'): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: not an object`]
  const got = Object.keys(value)
  const out =
    JSON.stringify(got) === JSON.stringify(shape.keys)
      ? []
      : [`${path}: ${got.join(',')} != ${shape.keys.join(',')}`]
  const obj = value as Record<string, unknown>
  for (const [k, s] of Object.entries(shape.fields ?? {}))
    out.push(...shapeProblems(s, obj[k], `${path}.${k}`))
  for (const [k, s] of Object.entries(shape.items ?? {})) {
    const xs = obj[k]
    if (!Array.isArray(xs)) out.push(`${path}.${k}: not a list`)
    else xs.forEach((x, i) => out.push(...shapeProblems(s, x, `${path}.${k}[${i}]`)))
  }
  return out
}
