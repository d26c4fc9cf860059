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
