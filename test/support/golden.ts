/**
 * Golden cases discovered from folders: `fixtures/cases/<report>/<case>/{params.json,expected.json}`
 * over `fixtures/datasets/<name>.ndjson`. The report is a report of the endpoint table (its name is
 * its engine method's, test/support/registry.ts); a `<report>-ranges` folder holds its cases with
 * `start_date`/`end_date`/`granularity`. Key order is the payload schema's (`payloadProblems`).
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { readJson } from './ndjson.js'
import { reports, type Report } from './registry.js'

export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url))

export function datasetPath(name: string): string {
  return join(FIXTURES, 'datasets', `${name}.ndjson`)
}

/** params.json of a case: wire spelling, plus `why` (what the case checks). */
export interface GoldenParams {
  dataset: string
  why?: string
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
  /** The segment filters; query: its parameters; answers: entity too. */
  dimensions?: string
  entity?: string
  compare?: string
  country?: string
  topic?: string
  tag?: string
  /** answers: the filters and the cursor (docs/API.md, "GET /api/v1/answers"). */
  prompt_id?: string
  cursor?: string
  /** brand-series: which of the four series. */
  metric?: string
  /** key-check, domain-list: what the API key says. */
  key?: { team_id: string; scope_team_ids: string[]; allowed_domains: string[] | null }
  /** key-check: the rate-limit window after counting the request. */
  rate_limit?: { limit_per_minute: number; used: number; reset_at: string }
  /** signals: the period length and the thresholds (query: min_responses too). */
  window?: number
  min_responses?: number
  min_delta?: number
}

export interface GoldenCase {
  /** The case's folder under fixtures/cases/ (the report's name, or it with `-ranges`). */
  folder: string
  /** The report of the endpoint table the case computes. */
  report: Report
  name: string
  dir: string
  params: GoldenParams
  expectedPath: string
}

/** The case folders of fixtures/cases/, each with its report (a folder of no report: an error). */
export function caseFolders(): Array<{ folder: string; report: Report }> {
  const byName = new Map(reports().map((r) => [r.name, r]))
  return readdirSync(join(FIXTURES, 'cases'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((folder) => {
      const report = byName.get(folder.replace(/-ranges$/, ''))
      if (report === undefined)
        throw new Error(`fixtures/cases/${folder}/ is no report of the endpoint table`)
      return { folder, report }
    })
}

/** Every case, sorted by folder then name (files beside the cases, e.g. README.md, skipped). */
export function discoverCases(): GoldenCase[] {
  const cases: GoldenCase[] = []
  for (const { folder, report } of caseFolders()) {
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
        report,
        name,
        dir,
        params: readJson<GoldenParams>(join(dir, 'params.json')),
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
  country: 'country',
  topic: 'topic',
  tag: 'tag',
  metric: 'metric',
  now: 'now',
  key: 'key',
  rate_limit: 'rateLimit',
  window: 'window',
  min_responses: 'minResponses',
  min_delta: 'minDelta',
  // GET /api/v1/query (`dimensions` as its comma-separated text).
  dimensions: 'dimensions',
  entity: 'entity',
  compare: 'compare',
  // GET /api/v1/answers.
  prompt_id: 'promptId',
  cursor: 'cursor',
}

/**
 * The library parameters of a case, in camelCase (optional ones only when params.json
 * has them): `domain_id` -> `domainId`, `start_date` -> `startDate`, `key.scope_team_ids` ->
 * `key.scopeTeamIds`, ...
 */
export function toExtParams(p: GoldenParams): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [wire, name] of Object.entries(PARAM_NAMES)) {
    const value = p[wire as keyof GoldenParams]
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

/** The schema inside optional, nullable, default and pipe wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema
  for (let i = 0; i < 20; i++) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault)
      s = s.unwrap() as z.ZodType
    else if (s instanceof z.ZodPipe) s = s.out as z.ZodType
    else return s
  }
  return s
}

/**
 * Every place where `value` departs from `schema`: what the schema refuses, and each object whose
 * keys are not in the order of its schema's shape (the documented order: an optional key, when
 * present, at its place; a key the shape lacks is out of order), as readable paths.
 * @example
 * payloadProblems(endpointById('prompt-series').payload, payload) // [] or ['$.data.items[0]: id,text != ...']
 */
export function payloadProblems(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value)
  const refused = parsed.success ? [] : parsed.error.issues.map((i) => `$.${i.path.join('.')}: ${i.message}`)
  return [...refused, ...keyOrderProblems(schema, value)]
}

/** Every object of `value` whose keys are not in its schema's shape order, as readable paths. */
export function keyOrderProblems(schema: z.ZodType, value: unknown, path = '$'): string[] {
  const s = unwrap(schema)
  if (s instanceof z.ZodArray) {
    if (!Array.isArray(value)) return []
    return value.flatMap((x, i) => keyOrderProblems(s.element as z.ZodType, x, `${path}[${i}]`))
  }
  if (!(s instanceof z.ZodObject) || value === null || typeof value !== 'object' || Array.isArray(value))
    return []
  const shape = s.shape as Record<string, z.ZodType>
  const got = Object.keys(value)
  const want = Object.keys(shape).filter((k) => k in value)
  const out =
    JSON.stringify(got) === JSON.stringify(want) ? [] : [`${path}: ${got.join(',')} != ${want.join(',')}`]
  for (const k of want)
    out.push(...keyOrderProblems(shape[k]!, (value as Record<string, unknown>)[k], `${path}.${k}`))
  return out
}
