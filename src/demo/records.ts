/**
 * The one builder of input records, for the demo dataset (src/demo/dataset.ts), the tests
 * (through test/support/records.ts), the benchmark's generator and the scripts: one function per
 * record type, with valid defaults (one small domain, below) that any field of `over` replaces.
 * Extra fields are kept, so a test can build an invalid record on purpose. Generators of whole
 * datasets (src/demo/dataset.ts, test/support/generate.ts, bench/data/generator.ts,
 * test/support/arbitraries.ts) choose the values and build every record here.
 */
import type {
  AnalysisRecord,
  CompetitorRecord,
  DomainRecord,
  MentionInput,
  PromptRecord,
  TeamRecord,
  ThemeRecord,
} from '../index.js'

export const TEAM = '0a9c2f4e-1b7d-4c3a-9e8f-5d6b7a8c9d01'
export const DOMAIN = '5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c'
export const OTHER_DOMAIN = '6c1f7d2b-9a3e-4f4c-b8da-2e3f4a5b6c7d'
export const PROMPT = '11111111-1111-4111-8111-111111111111'
export const OTHER_PROMPT = '22222222-2222-4222-8222-222222222222'
export const COMPETITOR = 'c0000000-0000-4000-8000-00000000000a'
export const THEME = 'e0000000-0000-4000-8000-000000000001'
export const NOW = '2026-11-20T15:00:00Z'

export const team = (over: Partial<TeamRecord> = {}): TeamRecord => ({
  type: 'team',
  id: TEAM,
  name: 'Acme Team',
  plan: 'pro',
  developer_access: true,
  ...over,
})
export const domain = (over: Partial<DomainRecord> = {}): DomainRecord => ({
  type: 'domain',
  id: DOMAIN,
  team_id: TEAM,
  brand_name: 'Acme',
  website: 'www.acme.com',
  ...over,
})
export const prompt = (over: Partial<PromptRecord> = {}): PromptRecord => ({
  type: 'prompt',
  id: PROMPT,
  domain_id: DOMAIN,
  text: 'best project management tool',
  estimated_search_volume: 100,
  ...over,
})
export const competitor = (over: Partial<CompetitorRecord> = {}): CompetitorRecord => ({
  type: 'competitor',
  id: COMPETITOR,
  domain_id: DOMAIN,
  name: 'Globex',
  website: 'globex.com',
  ...over,
})
export const theme = (over: Partial<ThemeRecord> = {}): ThemeRecord => ({
  type: 'theme',
  id: THEME,
  domain_id: DOMAIN,
  name: 'Ease of use',
  custom_name: null,
  archived: false,
  sentiment: 'positive',
  created_at: '2026-10-01',
  ...over,
})
let counter = 0
/** An analysis with a fresh id unless one is given (defaults are built only when not given). */
export const analysis = (over: Partial<AnalysisRecord> = {}): AnalysisRecord => ({
  type: 'analysis',
  id: over.id ?? `a0000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`,
  domain_id: DOMAIN,
  prompt_id: PROMPT,
  channel: 'chatgpt',
  model: 'gpt-4o',
  answered_at: '2026-11-19T10:00:00Z',
  mentions: over.mentions ?? [{ entity_id: 'brand', position: 1, sentiment: 80 }],
  citations: over.citations ?? [{ url: 'https://www.acme.com/a' }],
  themes: over.themes ?? [{ theme_id: THEME, occurrences: 2 }],
  ...over,
})

/** A mention of `entity_id` (`brand` or a competitor id). */
export const mention = (
  entity_id: string,
  position: number | null = null,
  sentiment: number | null = null,
): MentionInput => ({ entity_id, position, sentiment })

/** A team, a domain, a prompt, a competitor and a theme: what an analysis needs. */
export const base = () => [team(), domain(), prompt(), competitor(), theme()]

/** Records as NDJSON: one JSON object per line, a final newline. */
export const toNdjson = (records: Iterable<unknown>): string => {
  let out = ''
  for (const r of records) out += `${JSON.stringify(r)}\n`
  return out
}
