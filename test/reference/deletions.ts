/**
 * The reference model of delete records (docs/API.md, "Delete records"), naive and direct: a call's
 * deletions apply to what was stored before the call, then its upserts; a call that deletes an
 * entity and upserts it or anything under it is refused, as is one whose upserts refer to what
 * neither the store nor the call holds (semantics.md 1.3); ids not stored are counted.
 *
 * Cascades: a team takes its domains; a domain its prompts, competitors, themes and analyses; a
 * prompt its analyses; a competitor its mentions; a theme its occurrences; an analysis itself
 * (its mentions, citations and occurrences are part of it here).
 */
import { NO_DELETIONS } from '../../src/ingest/deletions.js'
import type { DeleteEntity, DeletionCounts } from '../../src/types.js'
import type { Store } from './store.js'
import type { ExtInputRecord } from './types.js'

export interface DeleteInput {
  type: 'delete'
  entity: DeleteEntity
  id: string
}
/** A record of a call: an upsert or a delete. */
export type CallRecord = ExtInputRecord | DeleteInput

/** The model refused a call (the engine must refuse it too); nothing changed. */
export class RefusedCall extends Error {
  override name = 'RefusedCall'
}

const lower = (id: string) => id.toLowerCase()
type Member = 'prompt' | 'competitor' | 'theme'

/** Everything a call's deletions take: the explicit ids and, from the store, what lies under them. */
function doomedBy(store: Store, deletes: DeleteInput[]) {
  const ids = (entity: DeleteEntity) => new Set(deletes.filter((d) => d.entity === entity).map((d) => d.id))
  const teams = ids('team')
  const domains = ids('domain')
  for (const d of store.domains.values()) if (teams.has(d.team_id)) domains.add(d.id)
  const members: Record<Member, Set<string>> = {
    prompt: ids('prompt'),
    competitor: ids('competitor'),
    theme: ids('theme'),
  }
  const stores = { prompt: store.prompts, competitor: store.competitors, theme: store.themes }
  for (const kind of ['prompt', 'competitor', 'theme'] as const)
    for (const m of stores[kind].values()) if (domains.has(m.domain_id)) members[kind].add(m.id)
  const analyses = ids('analysis')
  for (const a of store.analyses.values())
    if (domains.has(a.domain_id) || members.prompt.has(a.prompt_id)) analyses.add(a.id)
  return { teams, domains, members, analyses }
}

/** Why an upsert is refused under these deletions and this store, or null. */
function refusal(
  store: Store,
  call: ExtInputRecord[],
  doomed: ReturnType<typeof doomedBy>,
  r: ExtInputRecord,
) {
  const id = lower(r.id)
  const has = (type: string, x: string, stored: Map<string, unknown>) =>
    stored.has(x) || call.some((c) => c.type === type && lower(c.id) === x)
  const domainOf = (type: Member, x: string): string | undefined => {
    const inCall = call.filter((c) => c.type === type && lower(c.id) === x).at(-1) as
      { domain_id: string } | undefined
    const stored = { prompt: store.prompts, competitor: store.competitors, theme: store.themes }[type].get(x)
    return inCall ? lower(inCall.domain_id) : stored?.domain_id
  }
  switch (r.type) {
    case 'team':
      return doomed.teams.has(id) ? 'team deleted' : null
    case 'domain': {
      const team = lower(r.team_id)
      if (doomed.domains.has(id) || doomed.teams.has(team)) return 'domain or its team deleted'
      if (!has('team', team, store.teams)) return 'unknown team'
      const storedTeam = store.domains.get(id)?.team_id
      return storedTeam !== undefined && storedTeam !== team ? 'domain moves team' : null
    }
    case 'prompt':
    case 'competitor':
    case 'theme': {
      const domain = lower(r.domain_id)
      if (doomed.members[r.type].has(id) || doomed.domains.has(domain))
        return `${r.type} or its domain deleted`
      if (!has('domain', domain, store.domains)) return 'unknown domain'
      const stored = { prompt: store.prompts, competitor: store.competitors, theme: store.themes }[
        r.type
      ].get(id)
      return stored !== undefined && stored.domain_id !== domain ? `${r.type} moves domain` : null
    }
    case 'analysis': {
      const domain = lower(r.domain_id)
      const refs: [Member, string][] = [
        ['prompt', lower(r.prompt_id)],
        ...r.mentions
          .filter((m) => m.entity_id !== 'brand')
          .map((m): [Member, string] => ['competitor', lower(m.entity_id)]),
        ...r.themes.map((t): [Member, string] => ['theme', lower(t.theme_id)]),
      ]
      if (doomed.analyses.has(id) || doomed.domains.has(domain)) return 'analysis or its domain deleted'
      if (refs.some(([kind, x]) => doomed.members[kind].has(x))) return 'a referenced entity deleted'
      if (!has('domain', domain, store.domains)) return 'unknown domain'
      return refs.some(([kind, x]) => domainOf(kind, x) !== domain) ? 'unknown or foreign reference' : null
    }
  }
}

/**
 * One ingest call with delete records: refuses it (RefusedCall, the store unchanged) or applies the
 * deletions, then the upserts, and returns what the deletions removed.
 */
export function applyCall(store: Store, records: readonly CallRecord[]): DeletionCounts {
  const seen = new Map<string, DeleteInput>()
  for (const r of records)
    if (r.type === 'delete') seen.set(`${r.entity}:${lower(r.id)}`, { ...r, id: lower(r.id) })
  const deletes = [...seen.values()]
  const upserts = records.filter((r): r is ExtInputRecord => r.type !== 'delete')
  const doomed = doomedBy(store, deletes)
  for (const r of upserts) {
    const why = refusal(store, upserts, doomed, r)
    if (why !== null) throw new RefusedCall(`${r.type} ${r.id}: ${why}`)
  }

  const stored: Record<DeleteEntity, Map<string, unknown>> = {
    team: store.teams,
    domain: store.domains,
    prompt: store.prompts,
    competitor: store.competitors,
    theme: store.themes,
    analysis: store.analyses,
  }
  const counts: DeletionCounts = {
    ...NO_DELETIONS,
    not_found: deletes.filter((d) => !stored[d.entity].has(d.id)).length,
  }
  const drop = <T>(
    map: Map<string, T>,
    gone: Set<string>,
    count: 'teams' | 'domains' | 'prompts' | 'competitors' | 'themes' | 'analyses',
    each?: (v: T) => void,
  ) => {
    for (const [id, v] of [...map]) {
      if (!gone.has(id)) continue
      each?.(v)
      map.delete(id)
      counts[count]++
    }
  }
  drop(store.teams, doomed.teams, 'teams')
  drop(store.domains, doomed.domains, 'domains')
  drop(store.prompts, doomed.members.prompt, 'prompts')
  drop(store.competitors, doomed.members.competitor, 'competitors')
  drop(store.themes, doomed.members.theme, 'themes')
  drop(store.analyses, doomed.analyses, 'analyses', (a) => {
    counts.mentions += a.mentions.length
    counts.citations += a.citations.length
    counts.theme_occurrences += a.themes.length
  })
  for (const [id, a] of store.analyses) {
    const mentions = a.mentions.filter((m) => !doomed.members.competitor.has(m.entity_id))
    const themes = a.themes.filter((t) => !doomed.members.theme.has(t.theme_id))
    counts.mentions += a.mentions.length - mentions.length
    counts.theme_occurrences += a.themes.length - themes.length
    if (mentions.length !== a.mentions.length || themes.length !== a.themes.length)
      store.analyses.set(id, { ...a, mentions, themes })
  }
  store.ingest(upserts)
  return counts
}
