/**
 * A small seeded generator of valid multi-tenant datasets for the reliability tests and scripts:
 * teams with plans, their domains, prompts, competitors and themes, then batches of analyses. The
 * same seed always gives the same records, byte for byte. Records are built by records.ts and
 * the numbers drawn from random.ts, like every other test-data generator.
 *
 * Analysis ids carry their batch number in the first UUID group (`0000000b-...` is batch 11), so a
 * test can count a batch's rows in the store with `id::VARCHAR[1:8]`.
 */
import {
  CHANNELS,
  type AnalysisRecord,
  type CompetitorRecord,
  type DomainRecord,
  type PromptRecord,
  type TeamRecord,
  type ThemeRecord,
} from '../../src/index.js'
import { rng, uuid } from './random.js'
import { analysis, competitor, domain, mention, prompt, team, theme } from './records.js'

export { rng, uuid } from './random.js'
export { toNdjson } from './records.js'

/** The id of analysis `n` of batch `batch`. */
export function analysisId(batch: number, n: number): string {
  return `${batch.toString(16).padStart(8, '0')}-aaaa-4000-8000-${n.toString(16).padStart(12, '0')}`
}

export interface Dims {
  teams: TeamRecord[]
  domains: DomainRecord[]
  prompts: PromptRecord[]
  competitors: CompetitorRecord[]
  themes: ThemeRecord[]
}

export interface DimsOptions {
  teams?: number
  domainsPerTeam?: number
  promptsPerDomain?: number
  competitorsPerDomain?: number
  themesPerDomain?: number
}

const PLANS = ['pro', 'business', 'enterprise'] as const

/** Teams (kind 0x7ea), domains (0xd0), prompts (0x9a), competitors (0xc0) and themes (0x7e). */
export function makeDims(seed: number, o: DimsOptions = {}): Dims {
  const r = rng(seed)
  const d: Dims = { teams: [], domains: [], prompts: [], competitors: [], themes: [] }
  let domainN = 0
  let promptN = 0
  let compN = 0
  let themeN = 0
  for (let t = 0; t < (o.teams ?? 2); t++) {
    const teamId = uuid(0x7ea, t)
    d.teams.push(team({ id: teamId, name: `Team ${t}`, plan: PLANS[t % 3]!, developer_access: true }))
    for (let k = 0; k < (o.domainsPerTeam ?? 2); k++) {
      const domainId = uuid(0xd0, domainN++)
      d.domains.push(
        domain({
          id: domainId,
          team_id: teamId,
          brand_name: `Brand ${domainN}`,
          website: `brand${domainN}.example.com`,
        }),
      )
      for (let p = 0; p < (o.promptsPerDomain ?? 8); p++) {
        d.prompts.push(
          prompt({
            id: uuid(0x9a, promptN++),
            domain_id: domainId,
            text: `best tool number ${promptN}`,
            estimated_search_volume: r() < 0.2 ? null : Math.floor(r() * 10000),
          }),
        )
      }
      for (let c = 0; c < (o.competitorsPerDomain ?? 4); c++) {
        d.competitors.push(
          competitor({
            id: uuid(0xc0, compN++),
            domain_id: domainId,
            name: `Rival ${compN}`,
            website: r() < 0.3 ? null : `rival${compN}.example.org`,
          }),
        )
      }
      for (let h = 0; h < (o.themesPerDomain ?? 5); h++) {
        d.themes.push(
          theme({
            id: uuid(0x7e, themeN++),
            domain_id: domainId,
            name: `Theme ${themeN}`,
            custom_name: r() < 0.2 ? `Renamed ${themeN}` : null,
            archived: r() < 0.1,
            sentiment: r() < 0.5 ? 'positive' : 'negative',
            created_at: '2026-01-01',
          }),
        )
      }
    }
  }
  return d
}

export function dimRecords(
  d: Dims,
): Array<TeamRecord | DomainRecord | PromptRecord | CompetitorRecord | ThemeRecord> {
  return [...d.teams, ...d.domains, ...d.prompts, ...d.competitors, ...d.themes]
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!

const MODELS = ['gpt-4o-2024-08-06', 'sonar-pro', 'gemini-2.0-flash', 'claude-3-5-sonnet', 'gpt-4o-mini']

/** One valid analysis of `domainId` (answered within `days` days before `end`). */
export function makeAnalysis(
  r: () => number,
  dims: Dims,
  domainId: string,
  id: string,
  end = Date.parse('2026-03-31T23:00:00Z'),
  days = 60,
): AnalysisRecord {
  const prompts = dims.prompts.filter((p) => p.domain_id === domainId)
  const comps = dims.competitors.filter((c) => c.domain_id === domainId)
  const themes = dims.themes.filter((t) => t.domain_id === domainId)
  const mentions = []
  if (r() < 0.6) {
    mentions.push(
      mention('brand', r() < 0.2 ? null : 1 + Math.floor(r() * 5), r() < 0.3 ? null : Math.round(r() * 100)),
    )
  }
  for (const c of comps) {
    if (r() < 0.35) {
      const position = r() < 0.2 ? null : 1 + Math.floor(r() * 5)
      mentions.push(mention(c.id, position, r() < 0.3 ? null : Math.round(r() * 1000) / 10))
    }
  }
  const citations = []
  const site = dims.domains.find((d) => d.id === domainId)?.website ?? 'x.example'
  for (let i = Math.floor(r() * 3); i > 0; i--) {
    citations.push({
      url:
        r() < 0.5
          ? `https://www.${site}/page/${Math.floor(r() * 100)}`
          : `https://other${Math.floor(r() * 9)}.example.net/`,
    })
  }
  const occurrences = []
  for (const t of themes)
    if (r() < 0.3) occurrences.push({ theme_id: t.id, occurrences: 1 + Math.floor(r() * 4) })
  const answeredAt = new Date(end - Math.floor(r() * days * 86_400_000)).toISOString()
  return analysis({
    id,
    domain_id: domainId,
    prompt_id: pick(r, prompts).id,
    channel: pick(r, CHANNELS),
    model: pick(r, MODELS),
    answered_at: answeredAt,
    mentions,
    citations,
    themes: occurrences,
  })
}

/** `n` analyses of batch `batch` spread over the domains of `dims`. */
export function makeAnalyses(seed: number, dims: Dims, batch: number, n: number): AnalysisRecord[] {
  const r = rng(seed * 7919 + batch)
  const out: AnalysisRecord[] = []
  for (let i = 0; i < n; i++) {
    const domainId = pick(r, dims.domains).id
    out.push(makeAnalysis(r, dims, domainId, analysisId(batch, i)))
  }
  return out
}
