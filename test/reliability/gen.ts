/**
 * A small seeded generator of valid input records (semantics.md section 1.1) for the reliability
 * tests and scripts: the same seed always gives the same records, byte for byte.
 *
 * Analysis ids carry their batch number in the first UUID group (`0000000b-...` is batch 11), so a
 * test can count a batch's rows in the store with `id::VARCHAR[1:8]`.
 */
import { CHANNELS } from '../../src/types.js'

/** mulberry32: a tiny deterministic PRNG in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0')

/** A UUID made of a 4-hex-digit kind tag and a counter, e.g. `uuid(0xd0, 3)`. */
export function uuid(kind: number, n: number): string {
  return `${hex(kind, 8)}-0000-4000-8000-${hex(n, 12)}`
}

/** The id of analysis `n` of batch `batch`. */
export function analysisId(batch: number, n: number): string {
  return `${hex(batch, 8)}-aaaa-4000-8000-${hex(n, 12)}`
}

export interface Dims {
  teams: Record<string, unknown>[]
  domains: Record<string, unknown>[]
  prompts: Record<string, unknown>[]
  competitors: Record<string, unknown>[]
  themes: Record<string, unknown>[]
}

export interface DimsOptions {
  teams?: number
  domainsPerTeam?: number
  promptsPerDomain?: number
  competitorsPerDomain?: number
  themesPerDomain?: number
}

/** Teams (kind 0x7ea), domains (0xd0), prompts (0x9a), competitors (0xc0) and themes (0x7e). */
export function makeDims(seed: number, o: DimsOptions = {}): Dims {
  const r = rng(seed)
  const plans = ['free', 'starter', 'pro', 'business', 'enterprise']
  const d: Dims = { teams: [], domains: [], prompts: [], competitors: [], themes: [] }
  let domainN = 0
  let promptN = 0
  let compN = 0
  let themeN = 0
  for (let t = 0; t < (o.teams ?? 2); t++) {
    const teamId = uuid(0x7ea, t)
    d.teams.push({
      type: 'team',
      id: teamId,
      name: `Team ${t}`,
      plan: plans[2 + (t % 3)],
      developer_access: true,
    })
    for (let k = 0; k < (o.domainsPerTeam ?? 2); k++) {
      const domainId = uuid(0xd0, domainN++)
      d.domains.push({
        type: 'domain',
        id: domainId,
        team_id: teamId,
        brand_name: `Brand ${domainN}`,
        website: `brand${domainN}.example.com`,
      })
      for (let p = 0; p < (o.promptsPerDomain ?? 8); p++) {
        d.prompts.push({
          type: 'prompt',
          id: uuid(0x9a, promptN++),
          domain_id: domainId,
          text: `best tool number ${promptN}`,
          estimated_search_volume: r() < 0.2 ? null : Math.floor(r() * 10000),
        })
      }
      for (let c = 0; c < (o.competitorsPerDomain ?? 4); c++) {
        d.competitors.push({
          type: 'competitor',
          id: uuid(0xc0, compN++),
          domain_id: domainId,
          name: `Rival ${compN}`,
          website: r() < 0.3 ? null : `rival${compN}.example.org`,
        })
      }
      for (let h = 0; h < (o.themesPerDomain ?? 5); h++) {
        d.themes.push({
          type: 'theme',
          id: uuid(0x7e, themeN++),
          domain_id: domainId,
          name: `Theme ${themeN}`,
          custom_name: r() < 0.2 ? `Renamed ${themeN}` : null,
          archived: r() < 0.1,
          sentiment: r() < 0.5 ? 'positive' : 'negative',
          created_at: '2026-01-01',
        })
      }
    }
  }
  return d
}

export function dimRecords(d: Dims): Record<string, unknown>[] {
  return [...d.teams, ...d.domains, ...d.prompts, ...d.competitors, ...d.themes]
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!

/** One valid analysis of `domain` (answered within `days` days before `end`). */
export function makeAnalysis(
  r: () => number,
  dims: Dims,
  domainId: string,
  id: string,
  end = Date.parse('2026-03-31T23:00:00Z'),
  days = 60,
): Record<string, unknown> {
  const prompts = dims.prompts.filter((p) => p.domain_id === domainId)
  const comps = dims.competitors.filter((c) => c.domain_id === domainId)
  const themes = dims.themes.filter((t) => t.domain_id === domainId)
  const mentions: Record<string, unknown>[] = []
  if (r() < 0.6)
    mentions.push({
      entity_id: 'brand',
      position: r() < 0.2 ? null : 1 + Math.floor(r() * 5),
      sentiment: r() < 0.3 ? null : Math.round(r() * 100),
    })
  for (const c of comps) {
    if (r() < 0.35)
      mentions.push({
        entity_id: c.id,
        position: r() < 0.2 ? null : 1 + Math.floor(r() * 5),
        sentiment: r() < 0.3 ? null : Math.round(r() * 1000) / 10,
      })
  }
  const citations: Record<string, unknown>[] = []
  const site = (dims.domains.find((d) => d.id === domainId)?.website as string | null) ?? 'x.example'
  for (let i = Math.floor(r() * 3); i > 0; i--) {
    citations.push({
      url:
        r() < 0.5
          ? `https://www.${site}/page/${Math.floor(r() * 100)}`
          : `https://other${Math.floor(r() * 9)}.example.net/`,
    })
  }
  const occ: Record<string, unknown>[] = []
  for (const t of themes) if (r() < 0.3) occ.push({ theme_id: t.id, occurrences: 1 + Math.floor(r() * 4) })
  const at = new Date(end - Math.floor(r() * days * 86_400_000)).toISOString()
  return {
    type: 'analysis',
    id,
    domain_id: domainId,
    prompt_id: pick(r, prompts).id,
    channel: pick(r, CHANNELS),
    model: pick(r, [
      'gpt-4o-2024-08-06',
      'sonar-pro',
      'gemini-2.0-flash',
      'claude-3-5-sonnet',
      'gpt-4o-mini',
    ]),
    answered_at: at,
    mentions,
    citations,
    themes: occ,
  }
}

/** `n` analyses of batch `batch` spread over the domains of `dims`. */
export function makeAnalyses(seed: number, dims: Dims, batch: number, n: number): Record<string, unknown>[] {
  const r = rng(seed * 7919 + batch)
  const out: Record<string, unknown>[] = []
  for (let i = 0; i < n; i++) {
    const domain = pick(r, dims.domains).id as string
    out.push(makeAnalysis(r, dims, domain, analysisId(batch, i)))
  }
  return out
}

export const toNdjson = (records: readonly unknown[]): string =>
  records.map((x) => JSON.stringify(x)).join('\n') + '\n'
