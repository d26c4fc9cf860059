/**
 * The reference model's storage: records upserted by lower-cased id (semantics.md section 1.3),
 * with the record additions of extensions section 1 (timestamps truncated to the millisecond,
 * fan-out queries trimmed, citation titles and page types, null or [] when absent). Re-ingesting an
 * analysis replaces the whole record, so its mentions, citations, themes and fan-out queries too.
 */
import type {
  AnalysisInputRecord,
  AnalysisRecord,
  CompetitorRecord,
  DomainRecord,
  PromptRecord,
  TeamRecord,
  ThemeRecord,
} from '../../src/types.js'
import { NotFoundError } from '../../src/errors.js'
import { storedTimestamp, utcDate } from './buckets.js'
import type { Window } from './buckets.js'
import type { ExtInputRecord } from './types.js'

export interface StoredDomain extends DomainRecord {
  created_at: string | null
}
export interface StoredPrompt extends PromptRecord {
  created_at: string | null
}
export interface StoredCitation {
  url: string
  title: string | null
  page_type: string | null
}
/** An analysis as stored: ids lower-cased, the instant and UTC date of `answered_at` precomputed. */
export interface StoredAnalysis extends Omit<AnalysisRecord, 'citations'> {
  citations: StoredCitation[]
  fanout_queries: string[]
  /** `answered_at` in ms since the epoch. */
  ms: number
  date: string
}

export class Store {
  readonly teams = new Map<string, TeamRecord>()
  readonly domains = new Map<string, StoredDomain>()
  readonly prompts = new Map<string, StoredPrompt>()
  readonly competitors = new Map<string, CompetitorRecord>()
  readonly themes = new Map<string, ThemeRecord>()
  readonly analyses = new Map<string, StoredAnalysis>()

  /** Upserts valid records in order (the last one with an id wins; ids in any case). */
  ingest(records: readonly (AnalysisInputRecord | ExtInputRecord)[]): void {
    for (const r of records as readonly ExtInputRecord[]) {
      const id = r.id.toLowerCase()
      switch (r.type) {
        case 'team':
          this.teams.set(id, { ...r, id })
          break
        case 'domain':
          this.domains.set(id, {
            ...r,
            id,
            team_id: r.team_id.toLowerCase(),
            created_at: r.created_at == null ? null : storedTimestamp(r.created_at),
          })
          break
        case 'prompt':
          this.prompts.set(id, {
            ...r,
            id,
            domain_id: r.domain_id.toLowerCase(),
            created_at: r.created_at == null ? null : storedTimestamp(r.created_at),
          })
          break
        case 'competitor':
          this.competitors.set(id, { ...r, id, domain_id: r.domain_id.toLowerCase() })
          break
        case 'theme':
          this.themes.set(id, { ...r, id, domain_id: r.domain_id.toLowerCase() })
          break
        case 'analysis': {
          const ms = Date.parse(storedTimestamp(r.answered_at))
          this.analyses.set(id, {
            ...r,
            id,
            domain_id: r.domain_id.toLowerCase(),
            prompt_id: r.prompt_id.toLowerCase(),
            mentions: r.mentions.map((m) => ({ ...m, entity_id: m.entity_id.toLowerCase() })),
            citations: r.citations.map((c) => ({
              url: c.url,
              title: c.title ?? null,
              page_type: c.page_type ?? null,
            })),
            themes: r.themes.map((t) => ({ ...t, theme_id: t.theme_id.toLowerCase() })),
            fanout_queries: (r.fanout_queries ?? []).map((q) => q.trim()),
            ms,
            date: utcDate(ms),
          })
          break
        }
      }
    }
  }

  domain(domainId: string): StoredDomain {
    const d = this.domains.get(domainId.toLowerCase())
    if (d === undefined) throw new NotFoundError('domain', domainId)
    return d
  }

  competitorsOf(domainId: string): CompetitorRecord[] {
    return [...this.competitors.values()].filter((c) => c.domain_id === domainId)
  }

  promptsOf(domainId: string): StoredPrompt[] {
    return [...this.prompts.values()].filter((p) => p.domain_id === domainId)
  }

  /**
   * The domain's analyses whose UTC date is in the window and that pass the window's segment
   * filters (segments.md section 2: the analysis's country, its prompt's topic, one of its prompt's
   * tags), in no particular order.
   */
  inWindow(domainId: string, w: Pick<Window, 'first' | 'last' | 'segment'>): StoredAnalysis[] {
    const seg = w.segment ?? {}
    const passes = (a: StoredAnalysis): boolean => {
      const ext = a as StoredAnalysis & { country?: string | null }
      if (seg.country !== undefined && (ext.country ?? '').toUpperCase() !== seg.country) return false
      if (seg.topic === undefined && seg.tag === undefined) return true
      const prompt = this.prompts.get(a.prompt_id) as
        (StoredPrompt & { topic?: string | null; tags?: string[] }) | undefined
      if (seg.topic !== undefined && (prompt?.topic ?? '').trim() !== seg.topic) return false
      if (seg.tag !== undefined && !(prompt?.tags ?? []).some((t) => t.trim() === seg.tag)) return false
      return true
    }
    return [...this.analyses.values()].filter(
      (a) => a.domain_id === domainId && a.date >= w.first && a.date <= w.last && passes(a),
    )
  }
}

/**
 * A store's records as input records, in its order (each map's insertion order): teams, domains,
 * prompts, competitors, themes, analyses. Ingested into an empty engine, they rebuild the store.
 */
export function storedRecords(store: Store): ExtInputRecord[] {
  const strip = <T extends { created_at?: string | null }>(r: T) => {
    const { created_at, ...rest } = r
    return created_at === null || created_at === undefined ? rest : r
  }
  return [
    ...store.teams.values(),
    ...[...store.domains.values()].map(strip),
    ...[...store.prompts.values()].map(strip),
    ...store.competitors.values(),
    ...store.themes.values(),
    ...[...store.analyses.values()].map(({ ms: _ms, date: _date, fanout_queries, citations, ...a }) => ({
      ...a,
      citations: citations.map((c) => ({
        url: c.url,
        ...(c.title === null ? {} : { title: c.title }),
        ...(c.page_type === null ? {} : { page_type: c.page_type }),
      })),
      ...(fanout_queries.length === 0 ? {} : { fanout_queries }),
    })),
  ] as ExtInputRecord[]
}
