/**
 * The generators themselves: every dataset is valid by semantics.md section 1.3 (checked here by a
 * small independent checker, so the differential test never feeds the engine bad records), and
 * the datasets reach the interesting cases often enough.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CHANNELS } from '../../src/foundation/vocabulary.js'
import type { AnalysisInputRecord } from '../../src/types.js'
import { ReferenceModel } from './model.js'
import { datasetArb, paramsFor, queryArb } from '../support/arbitraries.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i

/** Problems of one ingest call given what is already stored (ids lower-cased), or []. */
function problems(stored: Map<string, AnalysisInputRecord>, call: AnalysisInputRecord[]): string[] {
  const all = new Map(stored)
  for (const r of call) all.set(r.id.toLowerCase(), r)
  const out: string[] = []
  const domainOf = (id: string, type: string): string | undefined => {
    const r = all.get(id.toLowerCase())
    return r !== undefined && r.type === type && 'domain_id' in r ? r.domain_id.toLowerCase() : undefined
  }
  for (const r of call) {
    if (!UUID.test(r.id)) out.push(`bad id ${r.id}`)
    if (r.type === 'domain' && all.get(r.team_id.toLowerCase())?.type !== 'team')
      out.push(`domain ${r.id}: team`)
    if (r.type === 'prompt' || r.type === 'competitor' || r.type === 'theme') {
      if (all.get(r.domain_id.toLowerCase())?.type !== 'domain') out.push(`${r.type} ${r.id}: domain`)
    }
    if (r.type !== 'analysis') continue
    const d = r.domain_id.toLowerCase()
    if (all.get(d)?.type !== 'domain') out.push(`analysis ${r.id}: domain`)
    if (domainOf(r.prompt_id, 'prompt') !== d) out.push(`analysis ${r.id}: prompt`)
    if (!(CHANNELS as readonly string[]).includes(r.channel)) out.push(`analysis ${r.id}: channel`)
    if (Number.isNaN(new Date(r.answered_at).getTime())) out.push(`analysis ${r.id}: answered_at`)
    const entities = r.mentions.map((m) => m.entity_id.toLowerCase())
    if (new Set(entities).size !== entities.length) out.push(`analysis ${r.id}: duplicate entity`)
    for (const e of entities)
      if (e !== 'brand' && domainOf(e, 'competitor') !== d) out.push(`analysis ${r.id}: ${e}`)
    for (const m of r.mentions) {
      if (m.position !== null && (!Number.isInteger(m.position) || m.position < 1)) out.push('position')
      if (m.sentiment !== null && (!Number.isInteger(m.sentiment) || m.sentiment < 0 || m.sentiment > 100)) {
        out.push('sentiment')
      }
    }
    const themes = r.themes.map((t) => t.theme_id.toLowerCase())
    if (new Set(themes).size !== themes.length) out.push(`analysis ${r.id}: duplicate theme`)
    for (const t of themes) if (domainOf(t, 'theme') !== d) out.push(`analysis ${r.id}: theme ${t}`)
    for (const c of r.citations) if (!/^https?:$/.test(new URL(c.url).protocol)) out.push(`url ${c.url}`)
  }
  return out
}

describe('arbitraries', () => {
  it('generate valid datasets, call by call', () => {
    fc.assert(
      fc.property(datasetArb, (ds) => {
        const stored = new Map<string, AnalysisInputRecord>()
        for (const call of ds.calls) {
          expect(problems(stored, call)).toEqual([])
          for (const r of call) stored.set(r.id.toLowerCase(), r)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('reach non-empty results, ties, upper-case ids and duplicates often enough', () => {
    const stats = { prompts: 0, competitors: 0, themes: 0, upper: 0, duplicates: 0, runs: 0 }
    fc.assert(
      fc.property(datasetArb, queryArb, (ds, q) => {
        const model = new ReferenceModel()
        model.ingest(ds.records)
        const p = paramsFor(ds, q)
        stats.runs++
        if (model.computePromptSeries(p.prompt).data.items.length > 0) stats.prompts++
        if (model.computeCompetitorSeries(p.competitor).data.items.some((i) => i.series.length > 0))
          stats.competitors++
        if (model.computeSentimentThemes(p.sentiment).data.items.length > 0) stats.themes++
        if (ds.records.some((r) => r.id !== r.id.toLowerCase())) stats.upper++
        const ids = ds.records.map((r) => r.id.toLowerCase())
        if (new Set(ids).size < ids.length) stats.duplicates++
      }),
      { numRuns: 300 },
    )
    for (const k of ['prompts', 'competitors', 'themes', 'upper', 'duplicates'] as const) {
      expect(stats[k], `${k}: coverage ${JSON.stringify(stats)}`).toBeGreaterThan(stats.runs / 10)
    }
  })
})
