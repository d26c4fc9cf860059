/**
 * One ingest call: records are validated one by one (collector.ts), staged column-wise into temp tables
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
import type { Catalog, CompetitorRow, PromptRow, TeamRow, ThemeRow } from '../catalog.js'
import { ChunkWriter, type NullMarker } from '../db/chunk-writer.js'
import { sqlIds, sqlText } from '../db/sql.js'
import { IngestError } from '../errors.js'
import { siteHost } from '../schemas/records.js'
import type { IngestResult } from '../types.js'
import { BatchBuilder, type AnalysisBatch } from './columns.js'
import {
  RecordCollector,
  type CollectorState,
  type Handles,
  type Located,
  type RecordLocation,
  type RefSite,
} from './collector.js'

export type { RecordLocation } from './collector.js'

const DAY_MS = 86_400_000
const BATCH_ROWS = 2048
const NO_NULLS: NullMarker[] = []
const MENTION_NULLS: NullMarker[] = ['none', 'none', 'zero', 'nan']

const ANALYSIS_TYPES: DuckDBType[] = [INTEGER, VARCHAR, INTEGER, INTEGER, UTINYINT, INTEGER, DOUBLE, INTEGER]
const MENTION_TYPES: DuckDBType[] = [INTEGER, INTEGER, INTEGER, DOUBLE, INTEGER, INTEGER, UTINYINT, INTEGER]
const CITATION_TYPES: DuckDBType[] = [INTEGER, VARCHAR, VARCHAR, INTEGER, INTEGER]
const THEME_OCC_TYPES: DuckDBType[] = [INTEGER, INTEGER, INTEGER, INTEGER, UTINYINT, INTEGER, INTEGER]
/** For a call whose analysis ids are all distinct: steps without the de-duplication joins. */
const UNIQUE_STEPS: Record<string, string> = {
  'ingest/01_final_analyses': 'ingest/final_analyses_unique',
  'ingest/22_insert_mentions': 'ingest/insert_mentions_unique',
  'ingest/23_insert_citations': 'ingest/insert_citations_unique',
  'ingest/24_insert_theme_occurrences': 'ingest/insert_theme_occurrences_unique',
}

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
  #c: RecordCollector
  readonly #sink: BatchBuilder

  #analyses!: ChunkWriter
  #mentions!: ChunkWriter
  #citations!: ChunkWriter
  #themeOcc!: ChunkWriter

  private constructor(conn: DuckDBConnection, catalog: Catalog) {
    this.#conn = conn
    this.#catalog = catalog
    this.#sink = new BatchBuilder(BATCH_ROWS, (b) => this.addBatch(b))
    this.#c = new RecordCollector(this.#sink)
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
    return this.#c.failed
  }

  /** Prefixed to every field named by an issue (the table name, for flat input). */
  get fieldPrefix(): string {
    return this.#c.fieldPrefix
  }
  set fieldPrefix(prefix: string) {
    this.#c.fieldPrefix = prefix
  }

  /** Records a problem with one record. */
  issue(loc: RecordLocation, field: string, message: string): void {
    this.#c.issue(loc, field, message)
  }

  /** Validates one record and stages it. Never throws for bad input: problems become issues. */
  add(raw: unknown, loc: RecordLocation): void {
    this.#c.add(raw, loc)
  }

  /** Appends a batch of analyses validated elsewhere (an NDJSON worker). */
  addBatch(b: AnalysisBatch): void {
    this.#analyses.appendColumns(
      [b.seq, b.id, b.domainH, b.promptH, b.channel, b.modelH, b.answeredMs, b.day],
      b.analyses,
      NO_NULLS,
    )
    this.#mentions.appendColumns(
      [b.mSeq, b.mEntityH, b.mPosition, b.mSentiment, b.mDomainH, b.mPromptH, b.mChannel, b.mDay],
      b.mentions,
      MENTION_NULLS,
    )
    this.#citations.appendColumns([b.cSeq, b.cUrl, b.cHost, b.cDomainH, b.cDay], b.citations, NO_NULLS)
    this.#themeOcc.appendColumns(
      [b.tSeq, b.tThemeH, b.tOccurrences, b.tDomainH, b.tChannel, b.tModelH, b.tDay],
      b.themes,
      NO_NULLS,
    )
  }

  /**
   * Takes over the state of a collector that ran elsewhere (an NDJSON worker that sent its
   * analyses through `addBatch`), in place of this call's own.
   */
  adopt(state: CollectorState): void {
    this.#c = new RecordCollector(this.#sink, state)
  }

  /** Checks references, assigns keys and merges the staged rows into the store (not committed). */
  async stage(nextAnalysisKey: number): Promise<StagedCall> {
    if (process.env.VA_TRACE_INGEST) {
      const c = process.cpuUsage()
      process.stderr.write(`stage start: process cpu ${((c.user + c.system) / 1000).toFixed(0)} ms\n`)
    }
    this.#checkReferences()
    this.#sink.end()
    if (this.failed) throw new IngestError(this.#c.issues, this.#c.issueTotal)
    for (const w of [this.#analyses, this.#mentions, this.#citations, this.#themeOcc]) w.close()

    const plan = this.#assignKeys()
    await this.#stageDimensions(plan)
    await this.#stageMaps(plan)

    const changed: Record<string, number> = {}
    const unique = this.#c.uniqueIds
    for (const id of sqlIds('ingest').filter((i) => /\/\d\d_/.test(i))) {
      const step = unique ? (UNIQUE_STEPS[id] ?? id) : id
      const values = /(01_final|_unique)/.test(step) ? { base: nextAnalysisKey } : undefined
      const t0 = performance.now()
      const c0 = process.cpuUsage()
      const r = await this.#conn.run(sqlText(step), values, values ? { base: BIGINT } : undefined)
      changed[id] = r.rowsChanged
      if (process.env.VA_TRACE_INGEST) {
        const c = process.cpuUsage(c0)
        process.stderr.write(
          `${step} ${(performance.now() - t0).toFixed(1)} ms wall ${((c.user + c.system) / 1000).toFixed(1)} ms cpu\n`,
        )
      }
    }
    const result: IngestResult = {
      teams: this.#c.teams.size,
      domains: this.#c.domains.size,
      prompts: this.#c.prompts.size,
      competitors: this.#c.competitors.size,
      themes: this.#c.themes.size,
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
      nextAnalysisKey: nextAnalysisKey + this.#c.seq,
    }
  }

  /** Closes the writers after a failure; the caller rolls back. */
  abandon(): void {
    for (const w of [this.#analyses, this.#mentions, this.#citations, this.#themeOcc]) w?.abandon()
  }

  /** The domain id a prompt/competitor/theme id belongs to, from this call or the store. */
  #memberDomain(kind: 'prompt' | 'competitor' | 'theme', id: string): string | undefined {
    const inCall = { prompt: this.#c.prompts, competitor: this.#c.competitors, theme: this.#c.themes }[
      kind
    ].get(id)
    if (inCall) return inCall.rec.domain_id.toLowerCase()
    const ref = {
      prompt: this.#catalog.prompts,
      competitor: this.#catalog.competitors,
      theme: this.#catalog.themes,
    }[kind].get(id)
    return ref === undefined ? undefined : this.#catalog.domainsByKey[ref.domainKey]!.id
  }

  #domainExists(id: string): boolean {
    return this.#c.domains.has(id) || this.#catalog.domains.has(id)
  }

  #siteIssue(site: RefSite, message: string): void {
    const prefix = this.fieldPrefix
    this.fieldPrefix = site.prefix
    this.issue(site.loc, site.field, message)
    this.fieldPrefix = prefix
  }

  #checkReferences(): void {
    const cat = this.#catalog
    for (const [id, { rec, loc, prefix }] of this.#c.domains) {
      const team = rec.team_id.toLowerCase()
      const storedTeam = cat.domains.get(id)?.team_id
      if (!this.#c.teams.has(team) && !cat.teams.has(team)) {
        this.#siteIssue(
          { loc, field: 'team_id', prefix },
          `team ${team} exists neither in the store nor in this call`,
        )
      } else if (storedTeam !== undefined && storedTeam !== team) {
        // Moving a domain would hand its whole history to the other team's keys at once.
        this.#siteIssue(
          { loc, field: 'team_id', prefix },
          `the domain is stored under team ${storedTeam}; its team cannot change`,
        )
      }
    }
    const members = [
      ['prompt', this.#c.prompts, cat.prompts],
      ['competitor', this.#c.competitors, cat.competitors],
      ['theme', this.#c.themes, cat.themes],
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
    const domainIds = this.#c.domainH.ids
    for (const { domainH, sites } of this.#c.domainRefs.values()) {
      const domain = domainIds[domainH]!
      if (!this.#domainExists(domain)) {
        for (const s of sites)
          this.issue(s.loc, s.field, `domain ${domain} exists neither in the store nor in this call`)
      }
    }
    const checks = [
      ['prompt', this.#c.promptRefs, this.#c.promptH],
      ['competitor', this.#c.entityRefs, this.#c.entityH],
      ['theme', this.#c.themeRefs, this.#c.themeH],
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
    for (const id of this.#c.domains.keys()) domainKeys.set(id, cat.domains.get(id)?.key ?? nextDomain++)
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
    const promptKeys = memberKeys(this.#c.prompts, cat.prompts, 'prompts', 0)
    const competitorKeys = memberKeys(this.#c.competitors, cat.competitors, 'competitors', 1)
    const themeKeys = memberKeys(this.#c.themes, cat.themes, 'themes', 0)

    const modelKeys = new Map<string, number>()
    let nextModel = cat.nextModelKey
    for (const m of this.#c.modelH.ids) if (!cat.models.has(m)) modelKeys.set(m, nextModel++)

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
    for (const [id, { rec }] of this.#c.teams) teams.push(id, rec.name, rec.plan, rec.developer_access)
    teams.close()
    const domains = await ChunkWriter.open(conn, 'stg_domains', [
      INTEGER,
      VARCHAR,
      VARCHAR,
      VARCHAR,
      VARCHAR,
      VARCHAR,
    ])
    for (const [id, { rec }] of this.#c.domains) {
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
    for (const [id, { rec }] of this.#c.prompts) {
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
    for (const [id, { rec }] of this.#c.competitors) {
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
    for (const [id, { rec }] of this.#c.themes) {
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
    await pairs('stg_domain_map', mapped(this.#c.domainH, plan.keyOfDomain))
    await pairs('stg_prompt_map', mapped(this.#c.promptH, plan.promptIdx))
    await pairs('stg_entity_map', [[0, 0], ...mapped(this.#c.entityH, plan.entityIdx)])
    await pairs('stg_theme_map', mapped(this.#c.themeH, plan.themeIdx))
    await pairs('stg_model_map', mapped(this.#c.modelH, plan.modelKey))
  }

  #apply(plan: KeyPlan): void {
    const cat = this.#catalog
    for (const [id, { rec }] of this.#c.teams) {
      const team: TeamRow = { id, name: rec.name, plan: rec.plan, developer_access: rec.developer_access }
      cat.putTeam(team)
    }
    for (const [id, { rec }] of this.#c.domains) {
      cat.putDomain({
        key: plan.domainKeys.get(id)!,
        id,
        team_id: rec.team_id.toLowerCase(),
        brand_name: rec.brand_name,
        website: rec.website,
        site_host: siteHost(rec.website),
      })
    }
    for (const [id, { rec }] of this.#c.prompts) {
      const k = plan.promptKeys.get(id)!
      const row: PromptRow = {
        id,
        idx: k.idx,
        text: rec.text,
        estimated_search_volume: rec.estimated_search_volume,
      }
      cat.putPrompt(k.domainKey, row)
    }
    for (const [id, { rec }] of this.#c.competitors) {
      const k = plan.competitorKeys.get(id)!
      const row: CompetitorRow = { id, idx: k.idx, name: rec.name, website: rec.website }
      cat.putCompetitor(k.domainKey, row)
    }
    for (const [id, { rec }] of this.#c.themes) {
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
