/**
 * Tiny inline datasets for the rules tests (test/rules*.test.ts): one team, domain D (website
 * acme.com unless told) with prompts P1-P3, the competitors and themes a test names, analyses
 * built from a time and mentions, and a fresh in-memory engine per dataset (`withEngine`; every
 * test of an engine opened in memory uses it or `withOpenEngine`).
 */
import { openEngine } from '../../src/index.js'
import type { AnalysisInputRecord, AnalysisRecord, Engine, MentionInput } from '../../src/index.js'
import { analysis as buildAnalysis, competitor, domain, prompt, team } from './records.js'

export const NOW = '2026-11-20T15:00:00Z'
export const TEAM = '7ea00000-0000-4000-8000-000000000001'
export const D = 'd0000000-0000-4000-8000-000000000001'
export const D2 = 'd0000000-0000-4000-8000-000000000002'
export const P1 = 'f0000000-0000-4000-8000-000000000001'
export const P2 = 'f0000000-0000-4000-8000-000000000002'
export const P3 = 'f0000000-0000-4000-8000-000000000003'
export const C1 = 'c0000000-0000-4000-8000-000000000001'
export const C2 = 'c0000000-0000-4000-8000-000000000002'
export const C3 = 'c0000000-0000-4000-8000-000000000003'
export const T1 = 'e0000000-0000-4000-8000-000000000001'
export const T2 = 'e0000000-0000-4000-8000-000000000002'
export const T3 = 'e0000000-0000-4000-8000-000000000003'

/** Analysis id number `n` (a test that names its analyses). */
export const analysisId = (n: number): string => `a0000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`

let serial = 0
/** A fresh analysis id. */
export const aid = (): string => analysisId(++serial)

/** A team, domain D (website acme.com) with prompts P1-P3, competitors and themes as given. */
export function base(
  opts: { website?: string | null; competitors?: [string, string][]; themes?: AnalysisInputRecord[] } = {},
): AnalysisInputRecord[] {
  return [
    team({ id: TEAM, name: 'Team' }),
    domain({ id: D, team_id: TEAM, website: opts.website === undefined ? 'acme.com' : opts.website }),
    ...[P1, P2, P3].map((id, i) =>
      prompt({ id, domain_id: D, text: `prompt ${i + 1}`, estimated_search_volume: null }),
    ),
    ...(opts.competitors ?? []).map(([id, name]) => competitor({ id, domain_id: D, name, website: null })),
    ...(opts.themes ?? []),
  ]
}

/** An analysis of D's prompt P1 on chatgpt (model gpt-5) at `at`, with these mentions and no citations or themes. */
export function analysis(
  at: string,
  mentions: MentionInput[] = [],
  extra: Partial<AnalysisRecord> = {},
): AnalysisRecord {
  return buildAnalysis({
    id: aid(),
    domain_id: D,
    prompt_id: P1,
    model: 'gpt-5',
    answered_at: at,
    mentions,
    citations: [],
    themes: [],
    ...extra,
  })
}

/** Runs `fn` on a fresh, empty in-memory engine, closed afterwards whatever `fn` does. */
export async function withOpenEngine<T>(fn: (e: Engine) => Promise<T>): Promise<T> {
  const engine = await openEngine()
  try {
    return await fn(engine)
  } finally {
    await engine.close()
  }
}

/** Runs `fn` on a fresh in-memory engine holding `records`. */
export async function withEngine<T>(
  records: Parameters<Engine['ingest']>[0],
  fn: (e: Engine) => Promise<T>,
): Promise<T> {
  return withOpenEngine(async (engine) => {
    await engine.ingest(records)
    return fn(engine)
  })
}
