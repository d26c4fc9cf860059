/**
 * The in-memory catalog: dimension rows (teams, domains, prompts, competitors, themes, models) with
 * their surrogate keys. DuckDB holds the truth; the catalog is loaded at open and updated only
 * after a commit, while queries are held off (see Engine), so a payload never mixes two states.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import type { Plan } from './types.js'

export interface TeamRow {
  id: string
  name: string
  plan: Plan
  developer_access: boolean
}
export interface PromptRow {
  id: string
  idx: number
  text: string
  estimated_search_volume: number | null
  /** ISO 8601 UTC with milliseconds, or null. */
  created_at: string | null
  /** Trimmed, or null (docs/API.md, "Segment filters"). */
  topic: string | null
  /** Trimmed, distinct, sorted by UTF-16 code units. */
  tags: readonly string[]
}
export interface CompetitorRow {
  id: string
  idx: number
  name: string
  website: string | null
}
export interface ThemeRow {
  id: string
  idx: number
  name: string
  custom_name: string | null
  archived: boolean
  sentiment: 'positive' | 'negative'
  created_at: string
}
export interface DomainRow {
  key: number
  id: string
  team_id: string
  brand_name: string
  website: string | null
  site_host: string | null
  /** ISO 8601 UTC with milliseconds, or null. */
  created_at: string | null
  prompts: PromptRow[]
  competitors: CompetitorRow[]
  themes: ThemeRow[]
}

/** A stored timestamp (ms since the epoch, or null) as the payloads return it. */
const isoOfMs = (ms: unknown): string | null => (ms === null ? null : new Date(ms as number).toISOString())

/** Where a prompt, competitor or theme lives. */
export interface MemberRef {
  domainKey: number
  idx: number
}

export class Catalog {
  readonly teams = new Map<string, TeamRow>()
  readonly domains = new Map<string, DomainRow>()
  readonly domainsByKey: DomainRow[] = []
  readonly prompts = new Map<string, MemberRef>()
  readonly competitors = new Map<string, MemberRef>()
  readonly themes = new Map<string, MemberRef>()
  readonly models = new Map<string, number>()
  /** Raw model identifiers by model key. */
  readonly modelsByKey: string[] = []
  nextDomainKey = 0
  nextModelKey = 0

  static async load(conn: DuckDBConnection): Promise<Catalog> {
    const c = new Catalog()
    const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowsJS()
    for (const [id, name, plan, dev] of await rows(
      'SELECT id::VARCHAR, name, plan, developer_access FROM teams',
    )) {
      c.putTeam({
        id: id as string,
        name: name as string,
        plan: plan as Plan,
        developer_access: dev as boolean,
      })
    }
    for (const [key, id, team, brand, website, site, created] of await rows(
      'SELECT domain_key, id::VARCHAR, team_id::VARCHAR, brand_name, website, site_host, epoch_ms(created_at)::DOUBLE FROM domains ORDER BY domain_key',
    )) {
      c.putDomain({
        key: key as number,
        id: id as string,
        team_id: team as string,
        brand_name: brand as string,
        website: website as string | null,
        site_host: site as string | null,
        created_at: isoOfMs(created),
      })
    }
    for (const [dk, idx, id, text, esv, created, topic, tags] of await rows(
      'SELECT domain_key, prompt_idx, id::VARCHAR, text, estimated_search_volume::DOUBLE, epoch_ms(created_at)::DOUBLE, topic, coalesce(tags, []) FROM prompts',
    )) {
      c.putPrompt(dk as number, {
        id: id as string,
        idx: idx as number,
        text: text as string,
        estimated_search_volume: esv as number | null,
        created_at: isoOfMs(created),
        topic: topic as string | null,
        tags: [...(tags as string[])].sort(),
      })
    }
    for (const [dk, idx, id, name, website] of await rows(
      'SELECT domain_key, entity_idx, id::VARCHAR, name, website FROM competitors',
    )) {
      c.putCompetitor(dk as number, {
        id: id as string,
        idx: idx as number,
        name: name as string,
        website: website as string | null,
      })
    }
    for (const [dk, idx, id, name, custom, archived, sentiment, created] of await rows(
      "SELECT domain_key, theme_idx, id::VARCHAR, name, custom_name, archived, sentiment, strftime(created_at, '%Y-%m-%d') FROM themes",
    )) {
      c.putTheme(dk as number, {
        id: id as string,
        idx: idx as number,
        name: name as string,
        custom_name: custom as string | null,
        archived: archived as boolean,
        sentiment: sentiment as 'positive' | 'negative',
        created_at: created as string,
      })
    }
    for (const [key, model] of await rows('SELECT model_key, model FROM models'))
      c.putModel(model as string, key as number)
    return c
  }

  putTeam(t: TeamRow): void {
    this.teams.set(t.id, t)
  }

  putDomain(d: Omit<DomainRow, 'prompts' | 'competitors' | 'themes'>): void {
    const old = this.domainsByKey[d.key]
    const row: DomainRow = {
      ...d,
      prompts: old?.prompts ?? [],
      competitors: old?.competitors ?? [],
      themes: old?.themes ?? [],
    }
    this.domains.set(d.id, row)
    this.domainsByKey[d.key] = row
    this.nextDomainKey = Math.max(this.nextDomainKey, d.key + 1)
  }

  putPrompt(domainKey: number, p: PromptRow): void {
    this.domainsByKey[domainKey]!.prompts[p.idx] = p
    this.prompts.set(p.id, { domainKey, idx: p.idx })
  }

  putCompetitor(domainKey: number, c: CompetitorRow): void {
    this.domainsByKey[domainKey]!.competitors[c.idx - 1] = c
    this.competitors.set(c.id, { domainKey, idx: c.idx })
  }

  putTheme(domainKey: number, t: ThemeRow): void {
    this.domainsByKey[domainKey]!.themes[t.idx] = t
    this.themes.set(t.id, { domainKey, idx: t.idx })
  }

  putModel(model: string, key: number): void {
    this.models.set(model, key)
    this.modelsByKey[key] = model
    this.nextModelKey = Math.max(this.nextModelKey, key + 1)
  }
}
