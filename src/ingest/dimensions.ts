/**
 * The dimension rows of one ingest call (teams, domains, prompts, competitors, themes, models): their
 * surrogate keys, their staging for the ingest steps, and the catalog update after COMMIT.
 */
import {
  BIGINT,
  BOOLEAN,
  DATE,
  DOUBLE,
  DuckDBDateValue,
  INTEGER,
  LIST,
  listValue,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api'
import type { Catalog, CompetitorRow, PromptRow, TeamRow, ThemeRow } from '../catalog.js'
import { ChunkWriter } from '../db/chunk-writer.js'
import { normalizeTags, normalizeTopic, siteHost, storedTimestamp, timestampMs } from '../schemas/records.js'
import { TimeSlice } from '../foundation/slice.js'
import type { RecordCollector } from './collector.js'
import type { Handles, Located } from './handles.js'

const DAY_MS = 86_400_000

/** Surrogate keys for the call's dimension rows: stored rows keep theirs, new ones get the next free. */
export function assignKeys(c: RecordCollector, cat: Catalog): KeyPlan {
  const domainKeys = new Map<string, number>()
  let nextDomain = cat.nextDomainKey
  for (const id of c.domains.keys()) domainKeys.set(id, cat.domains.get(id)?.key ?? nextDomain++)
  const keyOfDomain = (id: string) => domainKeys.get(id) ?? cat.domains.get(id)!.key

  const counts = new Map<number, { prompts: number; competitors: number; themes: number }>()
  const countsOf = (dk: number) => {
    let n = counts.get(dk)
    if (n === undefined) {
      const d = cat.domainsByKey[dk]
      n = {
        prompts: d?.prompts.length ?? 0,
        competitors: d?.competitors.length ?? 0,
        themes: d?.themes.length ?? 0,
      }
      counts.set(dk, n)
    }
    return n
  }
  const memberKeys = (
    map: Map<string, Located<{ domain_id: string }>>,
    stored: Map<string, { domainKey: number; idx: number }>,
    field: 'prompts' | 'competitors' | 'themes',
    firstIdx: number,
  ) => {
    const keys = new Map<string, { domainKey: number; idx: number }>()
    for (const [id, { rec }] of map) {
      const old = stored.get(id)
      if (old) {
        keys.set(id, old)
        continue
      }
      const domainKey = keyOfDomain(rec.domain_id.toLowerCase())
      const n = countsOf(domainKey)
      keys.set(id, { domainKey, idx: firstIdx + n[field]++ })
    }
    return keys
  }
  const promptKeys = memberKeys(c.prompts, cat.prompts, 'prompts', 0)
  const competitorKeys = memberKeys(c.competitors, cat.competitors, 'competitors', 1)
  const themeKeys = memberKeys(c.themes, cat.themes, 'themes', 0)

  const modelKeys = new Map<string, number>()
  let nextModel = cat.nextModelKey
  for (const m of c.modelH.ids) if (!cat.models.has(m)) modelKeys.set(m, nextModel++)

  const refOf = (
    kind: 'prompt' | 'competitor' | 'theme',
    keys: Map<string, { domainKey: number; idx: number }>,
    id: string,
  ) => {
    const stored = { prompt: cat.prompts, competitor: cat.competitors, theme: cat.themes }[kind]
    return (keys.get(id) ?? stored.get(id))!
  }
  return {
    domainKeys,
    keyOfDomain,
    promptKeys,
    competitorKeys,
    themeKeys,
    modelKeys,
    promptIdx: (id) => refOf('prompt', promptKeys, id).idx,
    entityIdx: (id) => refOf('competitor', competitorKeys, id).idx,
    themeIdx: (id) => refOf('theme', themeKeys, id).idx,
    modelKey: (m) => modelKeys.get(m) ?? cat.models.get(m)!,
  }
}

/** A record's created_at as staged: ms since the epoch (truncated to the millisecond), or null. */
const createdMs = (ts: string | null | undefined): number | null => (ts == null ? null : timestampMs(ts))

/**
 * Appends the rows of `items` to a staging table; none opens no appender (a round trip through the
 * thread pool, then a synchronous flush on the event loop: a 500-analysis call names no team,
 * domain or prompt records, and skips six of them). The loop turns while the appender opens; after
 * the flush only when filling and flushing held it for a slice (src/foundation/slice.ts):
 * under serving load every turn waits behind the requests' callbacks.
 */
async function stageRows<T>(
  conn: DuckDBConnection,
  table: string,
  types: readonly DuckDBType[],
  items: Iterable<T>,
  row: (item: T) => DuckDBValue[],
): Promise<void> {
  const all = [...items]
  if (all.length === 0) return
  const w = await ChunkWriter.open(conn, table, types)
  const slice = new TimeSlice()
  for (const item of all) w.push(...row(item))
  w.close()
  // The flush was synchronous: when it was long, requests waiting since are served now.
  await slice.breathe()
}

/** Writes the call's dimension rows, with their keys, into the staging tables (stg_teams, ...). */
export async function stageDimensions(
  conn: DuckDBConnection,
  c: RecordCollector,
  plan: KeyPlan,
): Promise<void> {
  await stageRows(conn, 'stg_teams', [VARCHAR, VARCHAR, VARCHAR, BOOLEAN], c.teams, ([id, { rec }]) => [
    id,
    rec.name,
    rec.plan,
    rec.developer_access,
  ])
  await stageRows(
    conn,
    'stg_domains',
    [INTEGER, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, DOUBLE],
    c.domains,
    ([id, { rec }]) => [
      plan.domainKeys.get(id)!,
      id,
      rec.team_id.toLowerCase(),
      rec.brand_name,
      rec.website,
      siteHost(rec.website),
      createdMs(rec.created_at),
    ],
  )
  await stageRows(
    conn,
    'stg_prompts',
    [INTEGER, INTEGER, VARCHAR, VARCHAR, BIGINT, DOUBLE, VARCHAR, LIST(VARCHAR)],
    c.prompts,
    ([id, { rec }]) => {
      const k = plan.promptKeys.get(id)!
      const esv = rec.estimated_search_volume === null ? null : BigInt(rec.estimated_search_volume)
      return [
        k.domainKey,
        k.idx,
        id,
        rec.text,
        esv,
        createdMs(rec.created_at),
        normalizeTopic(rec.topic),
        listValue(normalizeTags(rec.tags)),
      ]
    },
  )
  await stageRows(
    conn,
    'stg_competitors',
    [INTEGER, INTEGER, VARCHAR, VARCHAR, VARCHAR],
    c.competitors,
    ([id, { rec }]) => {
      const k = plan.competitorKeys.get(id)!
      return [k.domainKey, k.idx, id, rec.name, rec.website]
    },
  )
  await stageRows(
    conn,
    'stg_themes',
    [INTEGER, INTEGER, VARCHAR, VARCHAR, VARCHAR, BOOLEAN, VARCHAR, DATE],
    c.themes,
    ([id, { rec }]) => {
      const k = plan.themeKeys.get(id)!
      const created = new DuckDBDateValue(Math.floor(Date.parse(`${rec.created_at}T00:00:00Z`) / DAY_MS))
      return [k.domainKey, k.idx, id, rec.name, rec.custom_name, rec.archived, rec.sentiment, created]
    },
  )
  await stageRows(conn, 'stg_models', [INTEGER, VARCHAR], plan.modelKeys, ([m, key]) => [key, m])
}

/** Writes the handle -> key maps the ingest steps join (stg_domain_map, ...); none for an empty map. */
export async function stageMaps(conn: DuckDBConnection, c: RecordCollector, plan: KeyPlan): Promise<void> {
  const pairs = async (table: string, entries: readonly [number, number][]) =>
    stageRows(conn, table, [INTEGER, INTEGER], entries, (pair) => pair)
  const mapped = (handles: Handles, f: (id: string) => number) =>
    handles.ids.map((id, i): [number, number] => [handles.first + i, f(id)])
  await pairs('stg_domain_map', mapped(c.domainH, plan.keyOfDomain))
  await pairs('stg_prompt_map', mapped(c.promptH, plan.promptIdx))
  await pairs('stg_entity_map', [[0, 0], ...mapped(c.entityH, plan.entityIdx)])
  await pairs('stg_theme_map', mapped(c.themeH, plan.themeIdx))
  await pairs('stg_model_map', mapped(c.modelH, plan.modelKey))
}

/** Applies the call's dimension rows to the catalog; run right after COMMIT. */
export function applyToCatalog(c: RecordCollector, cat: Catalog, plan: KeyPlan): void {
  for (const [id, { rec }] of c.teams) {
    const team: TeamRow = { id, name: rec.name, plan: rec.plan, developer_access: rec.developer_access }
    cat.putTeam(team)
  }
  for (const [id, { rec }] of c.domains) {
    cat.putDomain({
      key: plan.domainKeys.get(id)!,
      id,
      team_id: rec.team_id.toLowerCase(),
      brand_name: rec.brand_name,
      website: rec.website,
      site_host: siteHost(rec.website),
      created_at: storedTimestamp(rec.created_at),
    })
  }
  for (const [id, { rec }] of c.prompts) {
    const k = plan.promptKeys.get(id)!
    const row: PromptRow = {
      id,
      idx: k.idx,
      text: rec.text,
      estimated_search_volume: rec.estimated_search_volume,
      created_at: storedTimestamp(rec.created_at),
      topic: normalizeTopic(rec.topic),
      tags: normalizeTags(rec.tags),
    }
    cat.putPrompt(k.domainKey, row)
  }
  for (const [id, { rec }] of c.competitors) {
    const k = plan.competitorKeys.get(id)!
    const row: CompetitorRow = { id, idx: k.idx, name: rec.name, website: rec.website }
    cat.putCompetitor(k.domainKey, row)
  }
  for (const [id, { rec }] of c.themes) {
    const k = plan.themeKeys.get(id)!
    const row: ThemeRow = {
      id,
      idx: k.idx,
      name: rec.name,
      custom_name: rec.custom_name,
      archived: rec.archived,
      sentiment: rec.sentiment,
      created_at: rec.created_at,
    }
    cat.putTheme(k.domainKey, row)
  }
  for (const [m, key] of plan.modelKeys) cat.putModel(m, key)
}

export interface KeyPlan {
  domainKeys: Map<string, number>
  keyOfDomain: (id: string) => number
  promptKeys: Map<string, { domainKey: number; idx: number }>
  competitorKeys: Map<string, { domainKey: number; idx: number }>
  themeKeys: Map<string, { domainKey: number; idx: number }>
  modelKeys: Map<string, number>
  promptIdx: (id: string) => number
  entityIdx: (id: string) => number
  themeIdx: (id: string) => number
  modelKey: (model: string) => number
}
