/**
 * Deletions: the delete records of an ingest call, and retention's prune. Both run one deletion
 * pass inside the caller's transaction, before any upsert of the call, built from the ingest
 * pipeline's own steps so that a table or aggregate added there is covered by construction:
 *
 *   resolve   the analyses to remove join stg_old (the analyses an upsert replaces) and their days
 *             stg_affected; a domain losing a prompt, competitor or theme has all its days affected
 *   replace   the ingest pipeline's `replace` steps: every child row of those analyses, then them
 *   delete    rows under deleted competitors and themes, the deleted dimension rows, the keys of
 *             deleted teams
 *   renumber  the members left in such a domain get dense local indexes again (prompt_idx,
 *             entity_idx, theme_idx), in their old order, in every table that carries one
 *   aggregates the ingest pipeline's `aggregates` steps: the affected days cleared and recomputed
 *
 * Afterwards the store holds exactly what it would hold had the deleted records never been
 * ingested (the local indexes included), so the catalog is read again from the transaction.
 */
import {
  DATE,
  DuckDBDateValue,
  INTEGER,
  UTINYINT,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api'
import { Catalog } from '../catalog.js'
import { ChunkWriter } from '../db/chunk-writer.js'
import { sqlText } from '../db/sql.js'
import type { DeleteEntity, DeleteRecord, DeletionCounts } from '../types.js'
import type { RecordCollector } from './collector.js'
import type { Located, RefSite } from './handles.js'
import { AFFECTED_DOMAINS_QUERY, INGEST_STEPS } from './pipeline.js'
import { memberReferences, siteIssue } from './references.js'

export type DeletionPhase = 'resolve' | 'replace' | 'delete' | 'renumber' | 'aggregates' | 'reset'

export interface DeletionStep {
  /** The step's SQL id (`delete/<name>` for its own steps, `ingest/<name>` for the pipeline's). */
  readonly sql: string
  readonly phase: DeletionPhase
  /** The count (a table name) the step's changed rows add to. */
  readonly counts?: string
}

/** How a pass finds the analyses it removes: the call's delete records, or a prune's cut-off date. */
export type Collect = { kind: 'deleted' } | { kind: 'expired'; before: string }

/** Replace steps whose rows are part of an analysis rather than a count of their own. */
const UNCOUNTED: ReadonlySet<string> = new Set(['delete_old_analysis_responses'])

const own = (name: string, phase: DeletionPhase, counts?: string): DeletionStep => ({
  sql: `delete/${name}`,
  phase,
  ...(counts === undefined ? {} : { counts }),
})
const fromPipeline = (phase: 'replace' | 'aggregates'): DeletionStep[] =>
  INGEST_STEPS.filter((s) => s.phase === phase).map((s) => ({
    sql: `ingest/${s.id}`,
    phase,
    // delete_old_<table> removes rows of <table>: that count (an answer text is counted with its
    // analysis: it has no count of its own).
    ...(phase === 'replace' && !UNCOUNTED.has(s.id) ? { counts: s.id.replace(/^delete_old_/, '') } : {}),
  }))

/**
 * Where each local index lives outside the aggregates: the tables renumbered when a domain loses
 * a member. A new table carrying prompt_idx, entity_idx or theme_idx joins this list with its
 * `delete/renumber_<table>_<column>.sql` (test/ingest/deletions.test.ts checks the list against the schema).
 */
export const LOCAL_INDEX_COLUMNS = {
  prompt_idx: ['prompts', 'analyses', 'mentions'],
  entity_idx: ['competitors', 'mentions'],
  theme_idx: ['themes', 'theme_occurrences'],
} as const

/** The steps after the collect step, in order. */
export const DELETION_STEPS: readonly DeletionStep[] = [
  { sql: 'ingest/affected_old', phase: 'resolve' },
  own('affected_members', 'resolve'),
  ...fromPipeline('replace'),
  own('delete_member_mentions', 'delete', 'mentions'),
  own('delete_member_theme_occurrences', 'delete', 'theme_occurrences'),
  own('delete_prompts', 'delete', 'prompts'),
  own('delete_competitors', 'delete', 'competitors'),
  own('delete_themes', 'delete', 'themes'),
  own('delete_texts', 'delete'),
  own('delete_domains', 'delete', 'domains'),
  own('delete_teams', 'delete', 'teams'),
  own('delete_api_keys', 'delete', 'api_keys'),
  own('renumber_map', 'renumber'),
  ...Object.entries(LOCAL_INDEX_COLUMNS).flatMap(([column, tables]) =>
    tables.map((t) => own(`renumber_${t}_${column}`, 'renumber')),
  ),
  ...fromPipeline('aggregates'),
]
/** The tables a prune reports: those the pipeline's replace steps delete from (analyses and below). */
export const PRUNED_TABLES: readonly string[] = fromPipeline('replace').flatMap((s) =>
  s.counts === undefined ? [] : [s.counts],
)

/** Run last: the staging tables emptied for the upserts of the same call. */
const RESET_STEPS: readonly DeletionStep[] = [own('reset_old', 'reset'), own('reset_affected', 'reset')]
/** The collect step of each kind of pass (run first). */
const COLLECT_STEPS: Record<Collect['kind'], DeletionStep> = {
  deleted: own('collect_deleted', 'resolve'),
  expired: own('collect_expired', 'resolve'),
}
/** Queries read before a call's pass. */
const QUERIES = { unknown: 'delete/unknown_analyses', conflicts: 'delete/conflicting_analyses' } as const

/** Every file of sql/delete, as run here: steps (with their phase) and queries. */
export const DELETION_SQL: ReadonlyArray<{ sql: string; phase: DeletionPhase | 'query' }> = [
  ...Object.values(COLLECT_STEPS),
  ...DELETION_STEPS.filter((s) => s.sql.startsWith('delete/')),
  ...RESET_STEPS,
  ...Object.values(QUERIES).map((sql) => ({ sql, phase: 'query' as const })),
]

const KIND = { prompt: 1, competitor: 2, theme: 3 } as const
type MemberEntity = keyof typeof KIND

/** The stored rows a call's delete records take, cascades resolved against the catalog. */
export interface DeletionPlan {
  /** Team ids deleted by the call (stored or not: an upsert of one is refused either way). */
  teamIds: Set<string>
  /** Domain ids deleted, explicitly or with their team. */
  domainIds: Set<string>
  /** Prompt, competitor and theme ids deleted, explicitly or with their domain. */
  memberIds: Record<MemberEntity, Set<string>>
  /** Stored teams to delete. */
  storedTeams: string[]
  /** Stored domains to delete, by key. */
  domainKeys: number[]
  /** Stored members deleted from domains that stay. */
  members: { kind: number; domainKey: number; idx: number }[]
  /** Analysis ids deleted explicitly. */
  analysisIds: string[]
  /** Delete records of teams, domains, prompts, competitors and themes that are not stored. */
  notFound: number
  /** The delete record behind each deleted domain key and `domainKey:promptIdx` (for messages). */
  origin: Map<string, Located<DeleteRecord>>
}

/** Resolves the call's delete records against the store (the catalog before the call). */
export function planDeletions(c: RecordCollector, cat: Catalog): DeletionPlan {
  const plan: DeletionPlan = {
    teamIds: new Set(),
    domainIds: new Set(),
    memberIds: { prompt: new Set(), competitor: new Set(), theme: new Set() },
    storedTeams: [],
    domainKeys: [],
    members: [],
    analysisIds: [],
    notFound: 0,
    origin: new Map(),
  }
  const byEntity = (entity: DeleteEntity) => [...c.deletes.values()].filter((d) => d.rec.entity === entity)
  const deleteDomain = (key: number, from: Located<DeleteRecord>) => {
    const d = cat.domainsByKey[key]!
    if (plan.domainIds.has(d.id)) return
    plan.domainIds.add(d.id)
    plan.domainKeys.push(key)
    plan.origin.set(String(key), from)
    for (const p of d.prompts) plan.memberIds.prompt.add(p.id)
    for (const m of d.competitors) plan.memberIds.competitor.add(m.id)
    for (const t of d.themes) plan.memberIds.theme.add(t.id)
  }
  for (const del of byEntity('team')) {
    plan.teamIds.add(del.rec.id)
    if (!cat.teams.has(del.rec.id)) {
      plan.notFound++
      continue
    }
    plan.storedTeams.push(del.rec.id)
    for (const d of cat.domains.values()) if (d.team_id === del.rec.id) deleteDomain(d.key, del)
  }
  for (const del of byEntity('domain')) {
    const d = cat.domains.get(del.rec.id)
    if (d === undefined) {
      plan.domainIds.add(del.rec.id)
      plan.notFound++
    } else deleteDomain(d.key, del)
  }
  const stored = { prompt: cat.prompts, competitor: cat.competitors, theme: cat.themes }
  for (const entity of ['prompt', 'competitor', 'theme'] as const) {
    for (const del of byEntity(entity)) {
      plan.memberIds[entity].add(del.rec.id)
      const ref = stored[entity].get(del.rec.id)
      if (ref === undefined) {
        plan.notFound++
        continue
      }
      if (plan.domainKeys.includes(ref.domainKey)) continue // taken with its domain
      plan.members.push({ kind: KIND[entity], domainKey: ref.domainKey, idx: ref.idx })
      if (entity === 'prompt') plan.origin.set(`${ref.domainKey}:${ref.idx}`, del)
    }
  }
  plan.analysisIds = byEntity('analysis').map((d) => d.rec.id)
  return plan
}

const REFUSED = 'a call cannot delete an entity and upsert it or anything under it: send them in two calls'

/**
 * Refuses the call's upserts that its deletions take (semantics: deletions apply first, so an
 * upsert of a deleted entity, or of anything under one, would be lost or orphaned): a deleted
 * team, domain, prompt, competitor or theme upserted, a domain of a deleted team, a member of a
 * deleted domain, and analyses referring to any of them. Issues name the upserted record.
 */
export function checkDeletionConflicts(c: RecordCollector, plan: DeletionPlan): void {
  const at = (site: RefSite, message: string) => siteIssue(c, site, message)
  for (const [id, { loc, prefix }] of c.teams) {
    if (plan.teamIds.has(id))
      at({ loc, prefix, field: 'id' }, `team ${id} is deleted by this call; ${REFUSED}`)
  }
  for (const [id, { loc, prefix, rec }] of c.domains) {
    const team = rec.team_id.toLowerCase()
    if (plan.domainIds.has(id))
      at({ loc, prefix, field: 'id' }, `domain ${id} is deleted by this call; ${REFUSED}`)
    else if (plan.teamIds.has(team))
      at({ loc, prefix, field: 'team_id' }, `team ${team} is deleted by this call; ${REFUSED}`)
  }
  const members = [
    ['prompt', c.prompts],
    ['competitor', c.competitors],
    ['theme', c.themes],
  ] as const
  for (const [entity, map] of members) {
    for (const [id, { loc, prefix, rec }] of map) {
      const domain = rec.domain_id.toLowerCase()
      if (plan.memberIds[entity].has(id))
        at({ loc, prefix, field: 'id' }, `${entity} ${id} is deleted by this call; ${REFUSED}`)
      else if (plan.domainIds.has(domain))
        at({ loc, prefix, field: 'domain_id' }, `domain ${domain} is deleted by this call; ${REFUSED}`)
    }
  }
  const domainIds = c.domainH.ids
  for (const { domainH, sites } of c.domainRefs.values()) {
    const domain = domainIds[domainH]!
    if (plan.domainIds.has(domain))
      for (const s of sites) at(s, `domain ${domain} is deleted by this call; ${REFUSED}`)
  }
  for (const { kind, domain, id, sites } of memberReferences(c)) {
    if (plan.domainIds.has(domain)) continue // reported on domain_id
    if (plan.memberIds[kind].has(id))
      for (const s of sites) at(s, `${kind} ${id} is deleted by this call; ${REFUSED}`)
  }
}

/** Creates the deletion staging tables and fills them from the plan (inside the transaction). */
export async function stageDeletions(conn: DuckDBConnection, plan: DeletionPlan | null): Promise<void> {
  await conn.run(sqlText('schema/staging_deletes'))
  if (plan === null) return
  const fill = async (table: string, types: DuckDBType[], rows: DuckDBValue[][]) => {
    const w = await ChunkWriter.open(conn, table, types)
    for (const r of rows) w.push(...r)
    w.close()
  }
  await fill(
    'del_teams',
    [VARCHAR],
    plan.storedTeams.map((id) => [id]),
  )
  await fill(
    'del_domains',
    [INTEGER],
    plan.domainKeys.map((k) => [k]),
  )
  await fill(
    'del_members',
    [UTINYINT, INTEGER, INTEGER],
    plan.members.map((m) => [m.kind, m.domainKey, m.idx]),
  )
  await fill(
    'del_analyses',
    [VARCHAR],
    plan.analysisIds.map((id) => [id]),
  )
}

/**
 * Refuses analyses the call upserts that its deletions take (by id, or stored under a deleted
 * domain or prompt). The staged analyses carry no line, so the issue names the delete record.
 */
export async function checkAnalysisConflicts(
  conn: DuckDBConnection,
  c: RecordCollector,
  plan: DeletionPlan,
): Promise<void> {
  const rows = (await conn.runAndReadAll(sqlText(QUERIES.conflicts))).getRowObjectsJS()
  for (const row of rows) {
    const id = String(row.id)
    const explicit = c.deletes.get(`analysis:${id}`)
    const from =
      explicit ??
      plan.origin.get(`${String(row.domain_key)}:${String(row.prompt_idx)}`) ??
      plan.origin.get(String(row.domain_key))!
    const what = explicit
      ? `analysis ${id}`
      : `${from.rec.entity} ${from.rec.id}, which holds analysis ${id},`
    siteIssue(c, { ...from, field: 'id' }, `${what} is deleted and upserted by this call; ${REFUSED}`)
  }
}

/** Analysis ids the plan deletes that are not stored (read before the pass). */
export async function unknownAnalyses(conn: DuckDBConnection): Promise<number> {
  const r = await conn.runAndReadAll(sqlText(QUERIES.unknown))
  return Number(r.getRows()[0]![0])
}

/** What a pass did: rows removed per table, and the domains whose aggregates it changed. */
export interface PassResult {
  counts: Record<string, number>
  affectedDomains: number[]
}

/**
 * Runs one deletion pass (the staging tables exist and are filled); the caller owns the
 * transaction. Leaves stg_old and stg_affected empty.
 */
export async function runDeletionPass(conn: DuckDBConnection, collect: Collect): Promise<PassResult> {
  const counts: Record<string, number> = {}
  const add = (name: string | undefined, n: number) => {
    if (name !== undefined) counts[name] = (counts[name] ?? 0) + n
  }
  const first = sqlText(COLLECT_STEPS[collect.kind].sql)
  if (collect.kind === 'expired') {
    const day = Math.floor(Date.parse(`${collect.before}T00:00:00Z`) / 86_400_000)
    await conn.run(first, { before: new DuckDBDateValue(day) }, { before: DATE })
  } else await conn.run(first)
  for (const s of DELETION_STEPS) add(s.counts, (await conn.run(sqlText(s.sql))).rowsChanged)
  const affected = await conn.runAndReadAll(sqlText(AFFECTED_DOMAINS_QUERY))
  for (const s of RESET_STEPS) await conn.run(sqlText(s.sql))
  return { counts, affectedDomains: affected.getRows().map((r) => r[0] as number) }
}

/** Deletion counts of a call that removed nothing. */
export const NO_DELETIONS: Readonly<DeletionCounts> = Object.freeze({
  teams: 0,
  domains: 0,
  prompts: 0,
  competitors: 0,
  themes: 0,
  analyses: 0,
  mentions: 0,
  citations: 0,
  theme_occurrences: 0,
  fanout_queries: 0,
  api_keys: 0,
  not_found: 0,
})

/** The counts of an ingest call's deletions: every table the pass reached, and the ids not stored. */
export function deletionCounts(pass: PassResult, notFound: number): DeletionCounts {
  return { ...NO_DELETIONS, ...pass.counts, not_found: notFound }
}

/**
 * The catalog read again inside the transaction after a pass. Keys are never handed out twice in
 * one process: a deleted domain's key or a dropped model's key stays unused.
 */
export async function reloadCatalog(conn: DuckDBConnection, old: Catalog): Promise<Catalog> {
  const cat = await Catalog.load(conn)
  cat.nextDomainKey = Math.max(cat.nextDomainKey, old.nextDomainKey)
  cat.nextModelKey = Math.max(cat.nextModelKey, old.nextModelKey)
  return cat
}
