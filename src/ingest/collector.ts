/**
 * The validating half of an ingest call, free of DuckDB: every record is checked (a fast path for
 * well-formed analyses, zod otherwise), problems become issues, dimension records are kept by id
 * (the last one wins), and analyses go to a staging sink with per-call integer handles instead of
 * UUID strings. It runs in the ingest thread or in an NDJSON worker; `state()` carries what it
 * learned back to the ingest call as plain data.
 */
import type { z } from 'zod'
import type { RecordIssue } from '../errors.js'
import {
  recordSchemas,
  type RecordType,
  type analysisSchema,
  type competitorSchema,
  type domainSchema,
  type promptSchema,
  type teamSchema,
  type themeSchema,
} from '../schemas/records.js'
import { isPlainValidAnalysis } from '../schemas/fast-analysis.js'
import { CHANNELS } from '../foundation/vocabulary.js'
import type { DeleteRecord } from '../types.js'
import type { StagingSink } from './columns.js'
import { Handles, MAX_ISSUES, RefTable, type Located, type RecordLocation, type RefEntry } from './handles.js'

const DAY_MS = 86_400_000
const RECORD_TYPES = Object.keys(recordSchemas) as RecordType[]
export type Team = z.infer<typeof teamSchema>
export type Domain = z.infer<typeof domainSchema>
export type Prompt = z.infer<typeof promptSchema>
export type Competitor = z.infer<typeof competitorSchema>
export type Theme = z.infer<typeof themeSchema>
type Analysis = z.infer<typeof analysisSchema>

/** What a collector learned, as structured-clonable data. */
export interface CollectorState {
  issues: RecordIssue[]
  issueTotal: number
  seq: number
  teams: Map<string, Located<Team>>
  domains: Map<string, Located<Domain>>
  prompts: Map<string, Located<Prompt>>
  competitors: Map<string, Located<Competitor>>
  themes: Map<string, Located<Theme>>
  /** Delete records by `entity:id` (a repeated one counts once). */
  deletes: Map<string, Located<DeleteRecord>>
  handles: { domain: string[]; prompt: string[]; entity: string[]; theme: string[]; model: string[] }
  refs: { domain: RefEntry[]; prompt: RefEntry[]; entity: RefEntry[]; theme: RefEntry[] }
}

export class RecordCollector {
  readonly issues: RecordIssue[]
  issueTotal: number
  /** Analyses staged so far; the next one's ordinal. */
  seq: number

  readonly teams: Map<string, Located<Team>>
  readonly domains: Map<string, Located<Domain>>
  readonly prompts: Map<string, Located<Prompt>>
  readonly competitors: Map<string, Located<Competitor>>
  readonly themes: Map<string, Located<Theme>>
  readonly deletes: Map<string, Located<DeleteRecord>>

  readonly domainH: Handles
  readonly promptH: Handles
  readonly entityH: Handles // 0 is the brand
  readonly themeH: Handles
  readonly modelH: Handles
  readonly domainRefs: RefTable
  readonly promptRefs: RefTable
  readonly entityRefs: RefTable
  readonly themeRefs: RefTable

  /** Prefixed to every field named by an issue (the table name, for flat input). */
  fieldPrefix = ''

  constructor(
    readonly sink: StagingSink,
    state?: CollectorState,
  ) {
    this.issues = state?.issues ?? []
    this.issueTotal = state?.issueTotal ?? 0
    this.seq = state?.seq ?? 0
    this.teams = state?.teams ?? new Map()
    this.domains = state?.domains ?? new Map()
    this.prompts = state?.prompts ?? new Map()
    this.competitors = state?.competitors ?? new Map()
    this.themes = state?.themes ?? new Map()
    this.deletes = state?.deletes ?? new Map()
    this.domainH = new Handles(0, state?.handles.domain)
    this.promptH = new Handles(0, state?.handles.prompt)
    this.entityH = new Handles(1, state?.handles.entity)
    this.themeH = new Handles(0, state?.handles.theme)
    this.modelH = new Handles(0, state?.handles.model)
    this.domainRefs = new RefTable(state?.refs.domain)
    this.promptRefs = new RefTable(state?.refs.prompt)
    this.entityRefs = new RefTable(state?.refs.entity)
    this.themeRefs = new RefTable(state?.refs.theme)
  }

  get failed(): boolean {
    return this.issueTotal > 0
  }

  state(): CollectorState {
    return {
      issues: this.issues,
      issueTotal: this.issueTotal,
      seq: this.seq,
      teams: this.teams,
      domains: this.domains,
      prompts: this.prompts,
      competitors: this.competitors,
      themes: this.themes,
      deletes: this.deletes,
      handles: {
        domain: this.domainH.ids,
        prompt: this.promptH.ids,
        entity: this.entityH.ids,
        theme: this.themeH.ids,
        model: this.modelH.ids,
      },
      refs: {
        domain: [...this.domainRefs.values()],
        prompt: [...this.promptRefs.values()],
        entity: [...this.entityRefs.values()],
        theme: [...this.themeRefs.values()],
      },
    }
  }

  /** Records a problem with one record. */
  issue(loc: RecordLocation, field: string, message: string): void {
    this.issueTotal++
    if (this.issues.length < MAX_ISSUES)
      this.issues.push({
        ...loc,
        field: bounded(this.fieldPrefix + field, 200),
        message: bounded(message, 500),
      })
  }

  /** Validates one record and stages it. Never throws for bad input: problems become issues. */
  add(raw: unknown, loc: RecordLocation): void {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      this.issue(loc, 'record', 'must be a JSON object')
      return
    }
    const type = (raw as { type?: unknown }).type
    if (type === 'analysis' && isPlainValidAnalysis(raw as Record<string, unknown>)) {
      this.#addAnalysis(raw as Analysis, loc)
      return
    }
    if (typeof type !== 'string' || !(RECORD_TYPES as string[]).includes(type)) {
      this.issue(
        loc,
        'type',
        type === undefined
          ? `is required (one of ${RECORD_TYPES.join(', ')})`
          : `unknown type ${describeValue(type)}; expected one of ${RECORD_TYPES.join(', ')}`,
      )
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
        this.teams.set(rec.id.toLowerCase(), { rec, loc, prefix: this.fieldPrefix })
        return
      case 'domain':
        this.domains.set(rec.id.toLowerCase(), { rec, loc, prefix: this.fieldPrefix })
        return
      case 'prompt':
        this.prompts.set(rec.id.toLowerCase(), { rec, loc, prefix: this.fieldPrefix })
        return
      case 'competitor':
        this.competitors.set(rec.id.toLowerCase(), { rec, loc, prefix: this.fieldPrefix })
        return
      case 'theme':
        this.themes.set(rec.id.toLowerCase(), { rec, loc, prefix: this.fieldPrefix })
        return
      case 'analysis':
        this.#addAnalysis(rec, loc)
        return
      case 'delete': {
        const id = rec.id.toLowerCase()
        this.deletes.set(`${rec.entity}:${id}`, { rec: { ...rec, id }, loc, prefix: this.fieldPrefix })
        return
      }
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
    const { mentions, themes } = a
    let bad = false
    const entityIds: string[] = []
    for (let i = 0; i < mentions.length; i++) {
      const id = mentions[i]!.entity_id.toLowerCase()
      if (entityIds.includes(id)) {
        this.issue(loc, `mentions[${i}].entity_id`, `${id} appears twice in this analysis's mentions`)
        bad = true
      }
      entityIds.push(id)
    }
    const themeIds: string[] = []
    for (let i = 0; i < themes.length; i++) {
      const id = themes[i]!.theme_id.toLowerCase()
      if (themeIds.includes(id)) {
        this.issue(loc, `themes[${i}].theme_id`, `${id} appears twice in this analysis's themes`)
        bad = true
      }
      themeIds.push(id)
    }
    if (bad) return

    const prefix = this.fieldPrefix
    const domainH = this.domainH.get(a.domain_id.toLowerCase())
    const promptH = this.promptH.get(a.prompt_id.toLowerCase())
    this.domainRefs.add(domainH, domainH, { loc, field: 'domain_id', prefix })
    this.promptRefs.add(domainH, promptH, { loc, field: 'prompt_id', prefix })
    const entityHs: number[] = []
    for (let i = 0; i < mentions.length; i++) {
      if (mentions[i]!.entity_id === 'brand') {
        entityHs.push(0)
        continue
      }
      const h = this.entityH.get(entityIds[i]!)
      this.entityRefs.add(domainH, h, { loc, field: `mentions[${i}].entity_id`, prefix })
      entityHs.push(h)
    }
    const themeHs: number[] = []
    for (let i = 0; i < themes.length; i++) {
      const h = this.themeH.get(themeIds[i]!)
      this.themeRefs.add(domainH, h, { loc, field: `themes[${i}].theme_id`, prefix })
      themeHs.push(h)
    }
    if (this.failed) return // keep validating, stop staging

    const seq = this.seq++
    const id = a.id.toLowerCase()
    const sink = this.sink
    sink.analysis(
      seq,
      id,
      domainH,
      promptH,
      CHANNELS.indexOf(a.channel) + 1,
      this.modelH.get(a.model),
      ms,
      Math.floor(ms / DAY_MS),
      a.country == null ? null : a.country.toUpperCase(),
    )
    for (let i = 0; i < mentions.length; i++) {
      const m = mentions[i]!
      sink.mention(seq, entityHs[i]!, m.position, m.sentiment)
    }
    const citations = a.citations
    for (let i = 0; i < citations.length; i++) {
      const c = citations[i]!
      sink.citation(seq, i, c.url, c.title ?? null, c.page_type ?? null)
    }
    for (let i = 0; i < themes.length; i++) sink.themeOcc(seq, themeHs[i]!, themes[i]!.occurrences)
    const fanout = a.fanout_queries
    if (fanout !== undefined)
      for (let i = 0; i < fanout.length; i++) sink.fanoutQuery(seq, i, fanout[i]!.trim())
    if (a.response != null) sink.response(seq, a.response)
  }
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

/** Cuts text that echoes input, so an error stays readable whatever the record held. */
function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} characters)`
}

/** A short description of a bad `type` value: the string itself (bounded), else its kind. */
function describeValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(bounded(v, 60))
  if (Array.isArray(v)) return 'an array'
  return v === null ? 'null' : `a ${typeof v}`
}
