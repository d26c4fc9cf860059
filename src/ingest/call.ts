/**
 * One ingest call: records are validated one by one (zod), staged column-wise into temp tables
 * inside a transaction, then checked for references once the whole call has been read (order
 * within a call does not matter), given surrogate keys, and merged into the store by the
 * sql/ingest/*.sql pipeline. The caller commits or rolls back.
 */
import {
  BIGINT,
  BOOLEAN,
  DATE,
  DOUBLE,
  DuckDBDateValue,
  INTEGER,
  UTINYINT,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBType,
} from '@duckdb/node-api'
import type { z } from 'zod'
import type { Catalog, CompetitorRow, PromptRow, TeamRow, ThemeRow } from '../catalog.js'
import { ChunkWriter } from '../db/chunk-writer.js'
import { sqlIds, sqlText } from '../db/sql.js'
import { IngestError, type RecordIssue } from '../errors.js'
import {
  matchHost,
  recordSchemas,
  siteHost,
  urlHost,
  type RecordType,
  type analysisSchema,
  type competitorSchema,
  type domainSchema,
  type promptSchema,
  type teamSchema,
  type themeSchema,
} from '../schemas/records.js'
import { isPlainValidAnalysis } from '../schemas/fast-analysis.js'
import { CHANNELS, type IngestResult } from '../types.js'

/** Where a record came from: a 1-based file line or a 0-based array index. */
export type RecordLocation = { line: number } | { index: number }

const MAX_ISSUES = 100
const DAY_MS = 86_400_000
const RECORD_TYPES = Object.keys(recordSchemas) as RecordType[]

type Team = z.infer<typeof teamSchema>
type Domain = z.infer<typeof domainSchema>
type Prompt = z.infer<typeof promptSchema>
type Competitor = z.infer<typeof competitorSchema>
type Theme = z.infer<typeof themeSchema>
type Analysis = z.infer<typeof analysisSchema>

interface Located<T> {
  rec: T
  loc: RecordLocation
  prefix: string
}
interface RefSite {
  loc: RecordLocation
  field: string
  prefix: string
}

/** Per-call integer handles for ids, so staged rows carry small integers instead of UUID strings. */
class Handles {
  readonly ids: string[] = []
  readonly #byId = new Map<string, number>()
  constructor(readonly first: number) {}
  get(id: string): number {
    let h = this.#byId.get(id)
    if (h === undefined) {
      h = this.first + this.ids.length
      this.ids.push(id)
      this.#byId.set(id, h)
    }
    return h
  }
}

/** References from analyses, grouped by (analysis domain, referenced id), with up to a few sites each. */
class RefTable {
  readonly #sites = new Map<string, { domainH: number; refH: number; sites: RefSite[] }>()
  add(domainH: number, refH: number, site: RefSite): void {
    const key = `${domainH}:${refH}`
    const entry = this.#sites.get(key)
    if (entry === undefined) this.#sites.set(key, { domainH, refH, sites: [site] })
    else if (entry.sites.length < MAX_ISSUES) entry.sites.push(site)
  }
  values() {
    return this.#sites.values()
  }
}

const ANALYSIS_TYPES: DuckDBType[] = [INTEGER, VARCHAR, INTEGER, INTEGER, UTINYINT, INTEGER, DOUBLE, INTEGER]
const MENTION_TYPES: DuckDBType[] = [INTEGER, INTEGER, INTEGER, DOUBLE]
const CITATION_TYPES: DuckDBType[] = [INTEGER, VARCHAR, VARCHAR]
const THEME_OCC_TYPES: DuckDBType[] = [INTEGER, INTEGER, INTEGER]

export interface StagedCall {
  result: IngestResult
  /** Applies the call's dimension rows to the catalog; run right after COMMIT. */
  applyToCatalog(): void
  /** The first analysis key free after this call. */
  nextAnalysisKey: number
  /** Domains whose aggregates this call changes. */
  affectedDomains: number[]
}

export class IngestCall {
  readonly #conn: DuckDBConnection
  readonly #catalog: Catalog
  readonly #issues: RecordIssue[] = []
  #issueTotal = 0
  #seq = 0
  /** The call's analysis ids: when all are distinct, the SQL skips its de-duplication. */
  readonly #analysisIds = new Set<string>()

  readonly #teams = new Map<string, Located<Team>>()
  readonly #domains = new Map<string, Located<Domain>>()
  readonly #prompts = new Map<string, Located<Prompt>>()
  readonly #competitors = new Map<string, Located<Competitor>>()
  readonly #themes = new Map<string, Located<Theme>>()

  readonly #domainH = new Handles(0)
  readonly #promptH = new Handles(0)
  readonly #entityH = new Handles(1) // 0 is the brand
  readonly #themeH = new Handles(0)
  readonly #modelH = new Handles(0)
  readonly #domainRefs = new RefTable()
  readonly #promptRefs = new RefTable()
  readonly #entityRefs = new RefTable()
  readonly #themeRefs = new RefTable()

  #analyses!: ChunkWriter
  #mentions!: ChunkWriter
  #citations!: ChunkWriter
  #themeOcc!: ChunkWriter

  private constructor(conn: DuckDBConnection, catalog: Catalog) {
    this.#conn = conn
    this.#catalog = catalog
  }

  /** Opens the transaction and the staging tables. */
  static async begin(conn: DuckDBConnection, catalog: Catalog): Promise<IngestCall> {
    const call = new IngestCall(conn, catalog)
    await conn.run('BEGIN TRANSACTION')
    await conn.run(sqlText('schema/staging'))
    call.#analyses = await ChunkWriter.open(conn, 'stg_analyses', ANALYSIS_TYPES)
    call.#mentions = await ChunkWriter.open(conn, 'stg_mentions', MENTION_TYPES)
    call.#citations = await ChunkWriter.open(conn, 'stg_citations', CITATION_TYPES)
    call.#themeOcc = await ChunkWriter.open(conn, 'stg_theme_occ', THEME_OCC_TYPES)
    return call
  }

  get failed(): boolean {
    return this.#issueTotal > 0
  }

  /** Prefixed to every field named by an issue (the table name, for flat input). */
  fieldPrefix = ''

  /** Records a problem with one record. */
  issue(loc: RecordLocation, field: string, message: string): void {
    this.#issueTotal++
    if (this.#issues.length < MAX_ISSUES)
      this.#issues.push({ ...loc, field: this.fieldPrefix + field, message })
  }

  /** Validates one record and stages it. Never throws for bad input: problems become issues. */
  add(raw: unknown, loc: RecordLocation): void {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      this.issue(loc, 'record', 'must be a JSON object')
      return
    }
    const type = (raw as { type?: unknown }).type
    if (typeof type !== 'string' || !(RECORD_TYPES as string[]).includes(type)) {
      this.issue(
        loc,
        'type',
        type === undefined
          ? `is required (one of ${RECORD_TYPES.join(', ')})`
          : `unknown type ${JSON.stringify(type)}; expected one of ${RECORD_TYPES.join(', ')}`,
      )
      return
    }
    if (type === 'analysis' && isPlainValidAnalysis(raw as Record<string, unknown>)) {
      this.#addAnalysis(raw as Analysis, loc)
      return
    }
    const parsed = recordSchemas[type as RecordType].safeParse(raw)
    if (!parsed.success) {
      for (const zi of parsed.error.issues) this.#zodIssue(raw, loc, zi)
      return
    }
    const rec = parsed.data
    switch (rec.type) {
      case 'team':
        this.#teams.set(rec.id.toLowerCase(), { rec, loc, prefix: this.fieldPrefix })
        return
      case 'domain':
        this.#domains.set(rec.id.toLowerCase(), { rec, loc, prefix: this.fieldPrefix })
        return
      case 'prompt':
        this.#prompts.set(rec.id.toLowerCase(), { rec, loc, prefix: this.fieldPrefix })
        return
      case 'competitor':
        this.#competitors.set(rec.id.toLowerCase(), { rec, loc, prefix: this.fieldPrefix })
        return
      case 'theme':
        this.#themes.set(rec.id.toLowerCase(), { rec, loc, prefix: this.fieldPrefix })
        return
      case 'analysis':
        this.#addAnalysis(rec, loc)
        return
    }
  }

  #zodIssue(raw: object, loc: RecordLocation, zi: z.core.$ZodIssue): void {
    if (zi.code === 'unrecognized_keys') {
      for (const key of zi.keys) this.issue(loc, fieldPath([...zi.path, key]), 'unknown field')
      return
    }
    const field = fieldPath(zi.path)
    const missing = valueAt(raw, zi.path) === undefined
    this.issue(loc, field, missing ? 'is required' : zi.message)
  }

  #addAnalysis(a: Analysis, loc: RecordLocation): void {
    const ms = Date.parse(a.answered_at)
    if (!Number.isFinite(ms)) {
      this.issue(loc, 'answered_at', 'must be an ISO 8601 timestamp with Z or an offset')
      return
    }
    const seen = new Set<string>()
    let bad = false
    a.mentions.forEach((m, i) => {
      const id = m.entity_id.toLowerCase()
      if (seen.has(id)) {
        this.issue(loc, `mentions[${i}].entity_id`, `${id} appears twice in this analysis's mentions`)
        bad = true
      }
      seen.add(id)
    })
    seen.clear()
    a.themes.forEach((t, i) => {
      const id = t.theme_id.toLowerCase()
      if (seen.has(id)) {
        this.issue(loc, `themes[${i}].theme_id`, `${id} appears twice in this analysis's themes`)
        bad = true
      }
      seen.add(id)
    })
    if (bad) return

    const domainH = this.#domainH.get(a.domain_id.toLowerCase())
    const promptH = this.#promptH.get(a.prompt_id.toLowerCase())
    this.#domainRefs.add(domainH, domainH, { loc, field: 'domain_id', prefix: this.fieldPrefix })
    this.#promptRefs.add(domainH, promptH, { loc, field: 'prompt_id', prefix: this.fieldPrefix })
    const entityHs = a.mentions.map((m, i) => {
      if (m.entity_id === 'brand') return 0
      const h = this.#entityH.get(m.entity_id.toLowerCase())
      this.#entityRefs.add(domainH, h, { loc, field: `mentions[${i}].entity_id`, prefix: this.fieldPrefix })
      return h
    })
    const themeHs = a.themes.map((t, i) => {
      const h = this.#themeH.get(t.theme_id.toLowerCase())
      this.#themeRefs.add(domainH, h, { loc, field: `themes[${i}].theme_id`, prefix: this.fieldPrefix })
      return h
    })
    if (this.failed) return // keep validating, stop staging

    const seq = this.#seq++
    const channel = CHANNELS.indexOf(a.channel) + 1
    const id = a.id.toLowerCase()
    this.#analysisIds.add(id)
    this.#analyses.push(
      seq,
      id,
      domainH,
      promptH,
      channel,
      this.#modelH.get(a.model),
      ms,
      Math.floor(ms / DAY_MS),
    )
    a.mentions.forEach((m, i) => this.#mentions.push(seq, entityHs[i]!, m.position, m.sentiment))
    for (const c of a.citations) this.#citations.push(seq, c.url, matchHost(urlHost(c.url)))
    a.themes.forEach((t, i) => this.#themeOcc.push(seq, themeHs[i]!, t.occurrences))
  }

  /** Checks references, assigns keys and merges the staged rows into the store (not committed). */
  async stage(nextAnalysisKey: number): Promise<StagedCall> {
    if (process.env.VA_TRACE_INGEST) {
      const c = process.cpuUsage()
      process.stderr.write(`stage start: process cpu ${((c.user + c.system) / 1000).toFixed(0)} ms\n`)
    }
    this.#checkReferences()
    if (this.failed) throw new IngestError(this.#issues, this.#issueTotal)
    for (const w of [this.#analyses, this.#mentions, this.#citations, this.#themeOcc]) w.close()

    const plan = this.#assignKeys()
    await this.#stageDimensions(plan)
    await this.#stageMaps(plan)

    const changed: Record<string, number> = {}
    const unique = this.#analysisIds.size === this.#seq
    for (let id of sqlIds('ingest').filter((i) => /\/\d\d_/.test(i))) {
      const values = id === 'ingest/01_final_analyses' ? { base: nextAnalysisKey } : undefined
      if (unique && id === 'ingest/01_final_analyses') id = 'ingest/final_analyses_unique'
      const t0 = performance.now()
      const c0 = process.cpuUsage()
      const r = await this.#conn.run(sqlText(id), values, values ? { base: BIGINT } : undefined)
      changed[id] = r.rowsChanged
      if (process.env.VA_TRACE_INGEST) {
        const c = process.cpuUsage(c0)
        process.stderr.write(
          `${id} ${(performance.now() - t0).toFixed(1)} ms wall ${((c.user + c.system) / 1000).toFixed(1)} ms cpu\n`,
        )
      }
    }
    const result: IngestResult = {
      teams: this.#teams.size,
      domains: this.#domains.size,
      prompts: this.#prompts.size,
      competitors: this.#competitors.size,
      themes: this.#themes.size,
      analyses: changed['ingest/21_insert_analyses'] ?? 0,
      mentions: changed['ingest/22_insert_mentions'] ?? 0,
      citations: changed['ingest/23_insert_citations'] ?? 0,
      theme_occurrences: changed['ingest/24_insert_theme_occurrences'] ?? 0,
    }
    const affected = await this.#conn.runAndReadAll(sqlText('ingest/affected_domains'))
    return {
      result,
      affectedDomains: affected.getRows().map((r) => r[0] as number),
      applyToCatalog: () => this.#apply(plan),
      nextAnalysisKey: nextAnalysisKey + this.#seq,
    }
  }

  /** Closes the writers after a failure; the caller rolls back. */
  abandon(): void {
    for (const w of [this.#analyses, this.#mentions, this.#citations, this.#themeOcc]) w?.abandon()
  }

  /** The domain id a prompt/competitor/theme id belongs to, from this call or the store. */
  #memberDomain(kind: 'prompt' | 'competitor' | 'theme', id: string): string | undefined {
    const inCall = { prompt: this.#prompts, competitor: this.#competitors, theme: this.#themes }[kind].get(id)
    if (inCall) return inCall.rec.domain_id.toLowerCase()
    const ref = {
      prompt: this.#catalog.prompts,
      competitor: this.#catalog.competitors,
      theme: this.#catalog.themes,
    }[kind].get(id)
    return ref === undefined ? undefined : this.#catalog.domainsByKey[ref.domainKey]!.id
  }

  #domainExists(id: string): boolean {
    return this.#domains.has(id) || this.#catalog.domains.has(id)
  }

  #siteIssue(site: RefSite, message: string): void {
    const prefix = this.fieldPrefix
    this.fieldPrefix = site.prefix
    this.issue(site.loc, site.field, message)
    this.fieldPrefix = prefix
  }

  #checkReferences(): void {
    const cat = this.#catalog
    for (const { rec, loc, prefix } of this.#domains.values()) {
      const team = rec.team_id.toLowerCase()
      if (!this.#teams.has(team) && !cat.teams.has(team)) {
        this.#siteIssue(
          { loc, field: 'team_id', prefix },
          `team ${team} exists neither in the store nor in this call`,
        )
      }
    }
    const members = [
      ['prompt', this.#prompts, cat.prompts],
      ['competitor', this.#competitors, cat.competitors],
      ['theme', this.#themes, cat.themes],
    ] as const
    for (const [kind, map, stored] of members) {
      for (const [id, { rec, loc, prefix }] of map) {
        const domain = rec.domain_id.toLowerCase()
        const site = { loc, field: 'domain_id', prefix }
        if (!this.#domainExists(domain)) {
          this.#siteIssue(site, `domain ${domain} exists neither in the store nor in this call`)
          continue
        }
        const ref = stored.get(id)
        const storedDomain = ref && cat.domainsByKey[ref.domainKey]!.id
        if (storedDomain !== undefined && storedDomain !== domain) {
          this.issue(
            loc,
            'domain_id',
            `the ${kind} is stored under domain ${storedDomain}; its domain cannot change`,
          )
        }
      }
    }
    const domainIds = this.#domainH.ids
    for (const { domainH, sites } of this.#domainRefs.values()) {
      const domain = domainIds[domainH]!
      if (!this.#domainExists(domain)) {
        for (const s of sites)
          this.issue(s.loc, s.field, `domain ${domain} exists neither in the store nor in this call`)
      }
    }
    const checks = [
      ['prompt', this.#promptRefs, this.#promptH],
      ['competitor', this.#entityRefs, this.#entityH],
      ['theme', this.#themeRefs, this.#themeH],
    ] as const
    for (const [kind, refs, handles] of checks) {
      for (const { domainH, refH, sites } of refs.values()) {
        const domain = domainIds[domainH]!
        const id = handles.ids[refH - handles.first]!
        const owner = this.#memberDomain(kind, id)
        let message: string | undefined
        if (owner === undefined) message = `${kind} ${id} exists neither in the store nor in this call`
        else if (owner !== domain)
          message = `${kind} ${id} belongs to domain ${owner}, not to the analysis's domain ${domain}`
        if (message !== undefined) for (const s of sites) this.#siteIssue(s, message)
      }
    }
  }

  #assignKeys(): KeyPlan {
    const cat = this.#catalog
    const domainKeys = new Map<string, number>()
    let nextDomain = cat.nextDomainKey
    for (const id of this.#domains.keys()) domainKeys.set(id, cat.domains.get(id)?.key ?? nextDomain++)
    const keyOfDomain = (id: string) => domainKeys.get(id) ?? cat.domains.get(id)!.key

    const counts = new Map<number, { prompts: number; competitors: number; themes: number }>()
    const countsOf = (dk: number) => {
      let c = counts.get(dk)
      if (c === undefined) {
        const d = cat.domainsByKey[dk]
        c = {
          prompts: d?.prompts.length ?? 0,
          competitors: d?.competitors.length ?? 0,
          themes: d?.themes.length ?? 0,
        }
        counts.set(dk, c)
      }
      return c
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
        const c = countsOf(domainKey)
        keys.set(id, { domainKey, idx: firstIdx + c[field]++ })
      }
      return keys
    }
    const promptKeys = memberKeys(this.#prompts, cat.prompts, 'prompts', 0)
    const competitorKeys = memberKeys(this.#competitors, cat.competitors, 'competitors', 1)
    const themeKeys = memberKeys(this.#themes, cat.themes, 'themes', 0)

    const modelKeys = new Map<string, number>()
    let nextModel = cat.nextModelKey
    for (const m of this.#modelH.ids) if (!cat.models.has(m)) modelKeys.set(m, nextModel++)

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

  async #stageDimensions(plan: KeyPlan): Promise<void> {
    const conn = this.#conn
    const teams = await ChunkWriter.open(conn, 'stg_teams', [VARCHAR, VARCHAR, VARCHAR, BOOLEAN])
    for (const [id, { rec }] of this.#teams) teams.push(id, rec.name, rec.plan, rec.developer_access)
    teams.close()
    const domains = await ChunkWriter.open(conn, 'stg_domains', [
      INTEGER,
      VARCHAR,
      VARCHAR,
      VARCHAR,
      VARCHAR,
      VARCHAR,
    ])
    for (const [id, { rec }] of this.#domains) {
      domains.push(
        plan.domainKeys.get(id)!,
        id,
        rec.team_id.toLowerCase(),
        rec.brand_name,
        rec.website,
        siteHost(rec.website),
      )
    }
    domains.close()
    const prompts = await ChunkWriter.open(conn, 'stg_prompts', [INTEGER, INTEGER, VARCHAR, VARCHAR, BIGINT])
    for (const [id, { rec }] of this.#prompts) {
      const k = plan.promptKeys.get(id)!
      const esv = rec.estimated_search_volume === null ? null : BigInt(rec.estimated_search_volume)
      prompts.push(k.domainKey, k.idx, id, rec.text, esv)
    }
    prompts.close()
    const comps = await ChunkWriter.open(conn, 'stg_competitors', [
      INTEGER,
      INTEGER,
      VARCHAR,
      VARCHAR,
      VARCHAR,
    ])
    for (const [id, { rec }] of this.#competitors) {
      const k = plan.competitorKeys.get(id)!
      comps.push(k.domainKey, k.idx, id, rec.name, rec.website)
    }
    comps.close()
    const themes = await ChunkWriter.open(conn, 'stg_themes', [
      INTEGER,
      INTEGER,
      VARCHAR,
      VARCHAR,
      VARCHAR,
      BOOLEAN,
      VARCHAR,
      DATE,
    ])
    for (const [id, { rec }] of this.#themes) {
      const k = plan.themeKeys.get(id)!
      const created = new DuckDBDateValue(Math.floor(Date.parse(`${rec.created_at}T00:00:00Z`) / DAY_MS))
      themes.push(k.domainKey, k.idx, id, rec.name, rec.custom_name, rec.archived, rec.sentiment, created)
    }
    themes.close()
    const models = await ChunkWriter.open(conn, 'stg_models', [INTEGER, VARCHAR])
    for (const [m, key] of plan.modelKeys) models.push(key, m)
    models.close()
  }

  async #stageMaps(plan: KeyPlan): Promise<void> {
    const conn = this.#conn
    const pairs = async (table: string, entries: Iterable<[number, number]>) => {
      const w = await ChunkWriter.open(conn, table, [INTEGER, INTEGER])
      for (const [h, v] of entries) w.push(h, v)
      w.close()
    }
    const mapped = (handles: Handles, f: (id: string) => number) =>
      handles.ids.map((id, i): [number, number] => [handles.first + i, f(id)])
    await pairs('stg_domain_map', mapped(this.#domainH, plan.keyOfDomain))
    await pairs('stg_prompt_map', mapped(this.#promptH, plan.promptIdx))
    await pairs('stg_entity_map', [[0, 0], ...mapped(this.#entityH, plan.entityIdx)])
    await pairs('stg_theme_map', mapped(this.#themeH, plan.themeIdx))
    await pairs('stg_model_map', mapped(this.#modelH, plan.modelKey))
  }

  #apply(plan: KeyPlan): void {
    const cat = this.#catalog
    for (const [id, { rec }] of this.#teams) {
      const team: TeamRow = { id, name: rec.name, plan: rec.plan, developer_access: rec.developer_access }
      cat.putTeam(team)
    }
    for (const [id, { rec }] of this.#domains) {
      cat.putDomain({
        key: plan.domainKeys.get(id)!,
        id,
        team_id: rec.team_id.toLowerCase(),
        brand_name: rec.brand_name,
        website: rec.website,
        site_host: siteHost(rec.website),
      })
    }
    for (const [id, { rec }] of this.#prompts) {
      const k = plan.promptKeys.get(id)!
      const row: PromptRow = {
        id,
        idx: k.idx,
        text: rec.text,
        estimated_search_volume: rec.estimated_search_volume,
      }
      cat.putPrompt(k.domainKey, row)
    }
    for (const [id, { rec }] of this.#competitors) {
      const k = plan.competitorKeys.get(id)!
      const row: CompetitorRow = { id, idx: k.idx, name: rec.name, website: rec.website }
      cat.putCompetitor(k.domainKey, row)
    }
    for (const [id, { rec }] of this.#themes) {
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
}

interface KeyPlan {
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

function fieldPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`
    else out += out === '' ? String(p) : `.${String(p)}`
  }
  return out === '' ? 'record' : out
}

function valueAt(obj: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = obj
  for (const p of path) {
    if (typeof v !== 'object' || v === null) return undefined
    v = (v as Record<PropertyKey, unknown>)[p]
  }
  return v
}
