/**
 * Peer: a hand-written single pass over typed arrays, all four reports.
 *
 * The store is columnar and in memory: one domain's analyses sorted by UTC day (so the window is a
 * binary search), mentions, citations and theme occurrences as CSR children of the analyses, ids and
 * hosts interned to small integers. Each report is one pass over the window's rows into flat
 * accumulators, then shaping. No caching between calls.
 *
 * Assumes valid input with unique ids (the generator's data); it does not implement upserts.
 */
import { type Channel } from '../../src/types.js'
import { CHANNELS } from '../../src/foundation/vocabulary.js'
import {
  dayOf,
  generatedAt,
  hostMatches,
  isoDate,
  modelFilter,
  percent1,
  urlHost,
  websiteHost,
  windowOf,
  type ModelParams,
  type PromptParams,
  type ReportFunctions,
} from '../lib/semantics.js'

class GrowI32 {
  a = new Int32Array(1024)
  n = 0
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2)
      b.set(this.a)
      this.a = b
    }
    this.a[this.n++] = v
  }
  done(): Int32Array {
    return this.a.slice(0, this.n)
  }
}

interface Theme {
  id: string
  name: string
  sentiment: 'positive' | 'negative'
  archived: boolean
  created_at: string
}

export interface CompetitorAcc {
  nA: Int32Array
  cnt: Int32Array
  posSum: Float64Array
  posN: Int32Array
  sentSum: Float64Array
  sentN: Int32Array
  /** Distinct prompts per entity. */
  tqs: Int32Array
}
export interface PromptAcc {
  resp: Int32Array
  ment: Int32Array
  cit: Int32Array
  posSum: Float64Array
  posN: Int32Array
  total: Float64Array
}

export class TypedArrayStore implements ReportFunctions {
  readonly name = 'typed-arrays'
  domainId = ''
  brandName = ''
  website: string | null = null
  prompts: { id: string; text: string; estimated_search_volume: number | null }[] = []
  competitors: { id: string; name: string; website: string | null }[] = []
  themes: Theme[] = []
  hosts: string[] = []
  models: string[] = []
  // Analyses (sorted by day).
  day = new Int32Array(0)
  prompt = new Int32Array(0)
  channel = new Uint8Array(0)
  model = new Int32Array(0)
  // CSR children: [xStart[i], xStart[i+1]) belong to analysis i.
  mStart = new Int32Array(1)
  mEntity = new Int32Array(0) // 0 = brand, 1..C = competitors
  mPos = new Int32Array(0) // 0 = null
  mSent = new Int32Array(0) // -1 = null
  cStart = new Int32Array(1)
  cHost = new Int32Array(0)
  tStart = new Int32Array(1)
  tTheme = new Int32Array(0)
  tOcc = new Int32Array(0)

  /** Builds the store for one domain from a record stream (other domains' records are skipped). */
  static build(records: Iterable<unknown>, domainId: string): TypedArrayStore {
    const s = new TypedArrayStore()
    s.domainId = domainId
    const promptIdx = new Map<string, number>()
    const compIdx = new Map<string, number>()
    const themeIdx = new Map<string, number>()
    const hostIdx = new Map<string, number>()
    const modelIdx = new Map<string, number>()
    const intern = (m: Map<string, number>, list: string[], k: string): number => {
      let i = m.get(k)
      if (i === undefined) {
        i = list.length
        list.push(k)
        m.set(k, i)
      }
      return i
    }
    // Analyses reference prompts/competitors/themes by id; ids are resolved after the stream ends.
    const promptIds: string[] = []
    const compRefs: string[] = []
    const themeRefs: string[] = []
    const day = new GrowI32(),
      prm = new GrowI32(),
      ch = new GrowI32(),
      mdl = new GrowI32()
    const mCount = new GrowI32(),
      mEnt = new GrowI32(),
      mPos = new GrowI32(),
      mSent = new GrowI32()
    const cCount = new GrowI32(),
      cHost = new GrowI32()
    const tCount = new GrowI32(),
      tTheme = new GrowI32(),
      tOcc = new GrowI32()
    const promptRecs = new Map<string, { id: string; text: string; estimated_search_volume: number | null }>()
    const compRecs = new Map<string, { id: string; name: string; website: string | null }>()
    const themeRecs = new Map<string, Theme>()
    const chIndex = new Map<string, number>(CHANNELS.map((c, i) => [c, i]))
    for (const raw of records) {
      const r = raw as Record<string, unknown> & { type: string }
      if (r.type === 'domain') {
        if ((r.id as string).toLowerCase() === domainId) {
          s.brandName = r.brand_name as string
          s.website = r.website as string | null
        }
        continue
      }
      if (r.type === 'team' || (r.domain_id as string).toLowerCase() !== domainId) continue
      const id = (r.id as string).toLowerCase()
      switch (r.type) {
        case 'prompt':
          promptRecs.set(id, {
            id,
            text: r.text as string,
            estimated_search_volume: r.estimated_search_volume as number | null,
          })
          break
        case 'competitor':
          compRecs.set(id, { id, name: r.name as string, website: r.website as string | null })
          break
        case 'theme':
          themeRecs.set(id, {
            id,
            name: (r.custom_name as string | null) ?? (r.name as string),
            sentiment: r.sentiment as 'positive' | 'negative',
            archived: r.archived as boolean,
            created_at: r.created_at as string,
          })
          break
        case 'analysis': {
          day.push(dayOf(r.answered_at as string))
          prm.push(intern(promptIdx, promptIds, (r.prompt_id as string).toLowerCase()))
          ch.push(chIndex.get(r.channel as string) ?? 255)
          mdl.push(intern(modelIdx, s.models, r.model as string))
          const ms = r.mentions as { entity_id: string; position: number | null; sentiment: number | null }[]
          mCount.push(ms.length)
          for (const m of ms) {
            const e = m.entity_id === 'brand' ? -1 : intern(compIdx, compRefs, m.entity_id.toLowerCase())
            mEnt.push(e)
            mPos.push(m.position ?? 0)
            mSent.push(m.sentiment ?? -1)
          }
          const cs = r.citations as { url: string }[]
          cCount.push(cs.length)
          for (const c of cs) cHost.push(intern(hostIdx, s.hosts, urlHost(c.url)))
          const ts = r.themes as { theme_id: string; occurrences: number }[]
          tCount.push(ts.length)
          for (const t of ts) {
            tTheme.push(intern(themeIdx, themeRefs, t.theme_id.toLowerCase()))
            tOcc.push(t.occurrences)
          }
          break
        }
      }
    }
    // Entity tables in a canonical order; remap the references interned during the stream.
    s.prompts = [...promptRecs.values()]
    s.competitors = [...compRecs.values()]
    s.themes = [...themeRecs.values()]
    const pMap = Int32Array.from(promptIds, (id) => s.prompts.findIndex((p) => p.id === id))
    const cMap = Int32Array.from(compRefs, (id) => s.competitors.findIndex((c) => c.id === id) + 1)
    const tMap = Int32Array.from(themeRefs, (id) => s.themes.findIndex((t) => t.id === id))
    // Sort analyses by day (counting sort, stable) and lay the children out in that order.
    const n = day.n
    const dayA = day.done()
    let minDay = Infinity
    let maxDay = -Infinity
    for (let i = 0; i < n; i++) {
      const d = dayA[i] as number
      if (d < minDay) minDay = d
      if (d > maxDay) maxDay = d
    }
    const span = n === 0 ? 0 : maxDay - minDay + 1
    const bucket = new Int32Array(span + 1)
    for (let i = 0; i < n; i++) bucket[(dayA[i] as number) - minDay + 1]!++
    for (let k = 1; k <= span; k++) bucket[k]! += bucket[k - 1] as number
    const order = new Int32Array(n)
    for (let i = 0; i < n; i++) order[bucket[(dayA[i] as number) - minDay]!++] = i
    const prefix = (counts: Int32Array): Int32Array => {
      const p = new Int32Array(counts.length + 1)
      for (let i = 0; i < counts.length; i++) p[i + 1] = (p[i] as number) + (counts[i] as number)
      return p
    }
    const mc = mCount.done(),
      cc = cCount.done(),
      tc = tCount.done()
    const mOff = prefix(mc),
      cOff = prefix(cc),
      tOff = prefix(tc)
    s.day = new Int32Array(n)
    s.prompt = new Int32Array(n)
    s.channel = new Uint8Array(n)
    s.model = new Int32Array(n)
    s.mStart = new Int32Array(n + 1)
    s.cStart = new Int32Array(n + 1)
    s.tStart = new Int32Array(n + 1)
    s.mEntity = new Int32Array(mEnt.n)
    s.mPos = new Int32Array(mEnt.n)
    s.mSent = new Int32Array(mEnt.n)
    s.cHost = new Int32Array(cHost.n)
    s.tTheme = new Int32Array(tTheme.n)
    s.tOcc = new Int32Array(tTheme.n)
    const prmA = prm.done(),
      chA = ch.done(),
      mdlA = mdl.done()
    let mw = 0,
      cw = 0,
      tw = 0
    for (let k = 0; k < n; k++) {
      const i = order[k] as number
      s.day[k] = dayA[i] as number
      s.prompt[k] = pMap[prmA[i] as number] as number
      s.channel[k] = chA[i] as number
      s.model[k] = mdlA[i] as number
      for (let j = mOff[i] as number; j < (mOff[i + 1] as number); j++, mw++) {
        const e = mEnt.a[j] as number
        s.mEntity[mw] = e < 0 ? 0 : (cMap[e] as number)
        s.mPos[mw] = mPos.a[j] as number
        s.mSent[mw] = mSent.a[j] as number
      }
      s.mStart[k + 1] = mw
      for (let j = cOff[i] as number; j < (cOff[i + 1] as number); j++, cw++)
        s.cHost[cw] = cHost.a[j] as number
      s.cStart[k + 1] = cw
      for (let j = tOff[i] as number; j < (tOff[i + 1] as number); j++, tw++) {
        s.tTheme[tw] = tMap[tTheme.a[j] as number] as number
        s.tOcc[tw] = tOcc.a[j] as number
      }
      s.tStart[k + 1] = tw
    }
    return s
  }

  get analyses(): number {
    return this.day.length
  }
  get mentionRows(): number {
    return this.mEntity.length
  }

  /** First analysis index with day >= d. */
  private lowerBound(d: number): number {
    let lo = 0
    let hi = this.day.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((this.day[mid] as number) < d) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Analysis filter for the model parameter: -1 keeps all; otherwise the value to compare. */
  filterOf(model: string): { channel: number; model: number } {
    const f = modelFilter(model)
    if (f.kind === 'all') return { channel: -1, model: -1 }
    if (f.kind === 'channel') return { channel: CHANNELS.indexOf(f.channel as Channel), model: -1 }
    const m = this.models.indexOf(f.model)
    return { channel: -1, model: m < 0 ? -2 : m }
  }

  computeCompetitorSeries(p: ModelParams): unknown {
    const { start, end } = windowOf(p.now, p.days)
    const D = p.days
    const E = this.competitors.length + 1
    const P = this.prompts.length
    const lo = this.lowerBound(start)
    const hi = this.lowerBound(end + 1)
    const f = this.filterOf(p.model)
    const nA = new Int32Array(D)
    const cnt = new Int32Array(E * D)
    const posSum = new Float64Array(E * D)
    const posN = new Int32Array(E * D)
    const sentSum = new Float64Array(E * D)
    const sentN = new Int32Array(E * D)
    const seen = new Uint8Array(E * P)
    const { day, prompt, channel, mStart, mEntity, mPos, mSent } = this
    for (let i = lo; i < hi; i++) {
      if (f.channel >= 0 && channel[i] !== f.channel) continue
      const di = (day[i] as number) - start
      nA[di]!++
      const pr = prompt[i] as number
      const jEnd = mStart[i + 1] as number
      for (let j = mStart[i] as number; j < jEnd; j++) {
        const e = mEntity[j] as number
        const k = e * D + di
        cnt[k]!++
        const pos = mPos[j] as number
        if (pos > 0) {
          posSum[k]! += pos
          posN[k]!++
        }
        const se = mSent[j] as number
        if (se >= 0) {
          sentSum[k]! += se
          sentN[k]!++
        }
        seen[e * P + pr] = 1
      }
    }
    const tqs = new Int32Array(E)
    for (let e = 0; e < E; e++) for (let pr = 0; pr < P; pr++) tqs[e]! += seen[e * P + pr] as number
    return this.shapeCompetitors(p, start, { nA, cnt, posSum, posN, sentSum, sentN, tqs })
  }

  /** Shapes the competitor payload from per-(entity, day) accumulators (index e * days + day). */
  shapeCompetitors(p: ModelParams, start: number, acc: CompetitorAcc): unknown {
    const D = p.days
    const E = this.competitors.length + 1
    const { nA, cnt, posSum, posN, sentSum, sentN, tqs } = acc
    const dates: number[] = []
    for (let di = 0; di < D; di++) if ((nA[di] as number) > 0) dates.push(di)
    const dayTotal = new Float64Array(D)
    for (let e = 0; e < E; e++) for (const di of dates) dayTotal[di]! += cnt[e * D + di] as number
    const items = []
    for (let e = 0; e < E; e++) {
      const series = []
      let sMent = 0,
        sVis = 0,
        sSov = 0,
        pS = 0,
        pN = 0,
        seS = 0,
        seN = 0
      for (const di of dates) {
        const k = e * D + di
        const m = cnt[k] as number
        const visibility = (m / (nA[di] as number)) * 100
        const tot = dayTotal[di] as number
        const sov = tot === 0 ? 0 : (m / tot) * 100
        const pn = posN[k] as number
        const sn = sentN[k] as number
        series.push({
          date: isoDate(start + di),
          mentions: m,
          visibility,
          sov,
          avg_position: pn === 0 ? 0 : (posSum[k] as number) / pn,
          sentiment: sn === 0 ? 0 : (sentSum[k] as number) / sn,
        })
        sMent += m
        sVis += visibility
        sSov += sov
        pS += posSum[k] as number
        pN += pn
        seS += sentSum[k] as number
        seN += sn
      }
      const tq = tqs[e] as number
      const n = dates.length
      const c = e === 0 ? null : this.competitors[e - 1]!
      items.push({
        id: c ? c.id : `user-brand-${this.domainId}`,
        name: c ? c.name : this.brandName,
        website: c ? c.website : this.website,
        is_brand: c === null,
        avg_mentions: n === 0 ? 0 : sMent / n,
        avg_position: pN === 0 ? 0 : pS / pN,
        avg_visibility: n === 0 ? 0 : sVis / n,
        avg_sov: n === 0 ? 0 : sSov / n,
        avg_sentiment: seN === 0 ? 0 : seS / seN,
        total_queries: tq,
        series,
      })
    }
    const [brand, ...rest] = items
    rest.sort(
      (a, b) =>
        b.avg_visibility - a.avg_visibility ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
        (a.id < b.id ? -1 : 1),
    )
    const out = this.competitors.length === 0 && dates.length === 0 ? [] : [brand, ...rest]
    return {
      data: { items: out },
      domain_id: this.domainId,
      days: p.days,
      model: p.model,
      generated_at: generatedAt(p.now),
    }
  }

  computePromptSeries(p: PromptParams): unknown {
    const { start, end } = windowOf(p.now, p.days)
    const D = p.days
    const P = this.prompts.length
    const lo = this.lowerBound(start)
    const hi = this.lowerBound(end + 1)
    const site = websiteHost(this.website)
    const own = new Uint8Array(this.hosts.length)
    if (site !== null)
      for (let h = 0; h < this.hosts.length; h++) own[h] = hostMatches(this.hosts[h] as string, site) ? 1 : 0
    const resp = new Int32Array(P * D)
    const ment = new Int32Array(P * D)
    const cit = new Int32Array(P * D)
    const posSum = new Float64Array(P * D)
    const posN = new Int32Array(P * D)
    const total = new Float64Array(P)
    const { day, prompt, mStart, mEntity, mPos, cStart, cHost } = this
    for (let i = lo; i < hi; i++) {
      const pr = prompt[i] as number
      const k = pr * D + ((day[i] as number) - start)
      resp[k]!++
      const jEnd = mStart[i + 1] as number
      for (let j = mStart[i] as number; j < jEnd; j++) {
        if (mEntity[j] === 0) {
          ment[k]!++
          total[pr]!++
          const pos = mPos[j] as number
          if (pos > 0) {
            posSum[k]! += pos
            posN[k]!++
          }
          break
        }
      }
      let c = 0
      const cEnd = cStart[i + 1] as number
      for (let j = cStart[i] as number; j < cEnd; j++) c += own[cHost[j] as number] as number
      cit[k]! += c
    }
    return this.shapePrompts(p, start, { resp, ment, cit, posSum, posN, total })
  }

  /** Shapes the prompt payload from per-(prompt, day) accumulators (index prompt * days + day). */
  shapePrompts(p: PromptParams, start: number, acc: PromptAcc): unknown {
    const D = p.days
    const P = this.prompts.length
    const { resp, ment, cit, posSum, posN, total } = acc
    const ranked: number[] = []
    for (let pr = 0; pr < P; pr++) if ((total[pr] as number) > 0) ranked.push(pr)
    const prompts = this.prompts
    ranked.sort(
      (a, b) => (total[b] as number) - (total[a] as number) || (prompts[a]!.id < prompts[b]!.id ? -1 : 1),
    )
    const items = ranked.slice(0, p.limit).map((pr) => {
      const series = []
      for (let di = 0; di < D; di++) {
        const k = pr * D + di
        if (resp[k] === 0) continue
        const pn = posN[k] as number
        series.push({
          date: isoDate(start + di),
          mentions: ment[k] as number,
          responses: resp[k] as number,
          citations: cit[k] as number,
          avg_position: pn === 0 ? null : (posSum[k] as number) / pn,
        })
      }
      const rec = prompts[pr]!
      return { id: rec.id, text: rec.text, estimated_search_volume: rec.estimated_search_volume, series }
    })
    return {
      data: { items },
      domain_id: this.domainId,
      days: p.days,
      limit: p.limit,
      generated_at: generatedAt(p.now),
    }
  }

  /** Occurrences per theme in the window (after the model filter). */
  private themeOccurrences(p: ModelParams): Float64Array {
    const { start, end } = windowOf(p.now, p.days)
    const lo = this.lowerBound(start)
    const hi = this.lowerBound(end + 1)
    const f = this.filterOf(p.model)
    const occ = new Float64Array(this.themes.length)
    if (f.model === -2) return occ
    const { channel, model, tStart, tTheme, tOcc } = this
    for (let i = lo; i < hi; i++) {
      if (f.channel >= 0 && channel[i] !== f.channel) continue
      if (f.model >= 0 && model[i] !== f.model) continue
      const jEnd = tStart[i + 1] as number
      for (let j = tStart[i] as number; j < jEnd; j++) occ[tTheme[j] as number]! += tOcc[j] as number
    }
    return occ
  }

  sentimentThemes(p: ModelParams): unknown {
    return this.shapeThemes(p, this.themeOccurrences(p))
  }

  /** Shapes the themes payload from occurrences per theme index. */
  shapeThemes(p: ModelParams, occ: Float64Array): unknown {
    const items = []
    for (let t = 0; t < this.themes.length; t++) {
      const th = this.themes[t]!
      const o = occ[t] as number
      if (th.archived || o === 0) continue
      items.push({
        id: th.id,
        name: th.name,
        sentiment: th.sentiment,
        occurrences: o,
        created_at: th.created_at,
      })
    }
    items.sort((a, b) => b.occurrences - a.occurrences || (a.id < b.id ? -1 : 1))
    return {
      data: { items },
      domain_id: this.domainId,
      days: p.days,
      model: p.model,
      generated_at: generatedAt(p.now),
    }
  }

  sentimentOverview(p: ModelParams): unknown {
    return this.shapeOverview(p, this.themeOccurrences(p))
  }

  /** Shapes the overview payload from occurrences per theme index. */
  shapeOverview(p: ModelParams, occ: Float64Array): unknown {
    let pos = 0,
      neg = 0,
      total = 0
    for (let t = 0; t < this.themes.length; t++) {
      const th = this.themes[t]!
      const o = occ[t] as number
      if (th.archived || o === 0) continue
      if (th.sentiment === 'positive') pos++
      else neg++
      total += o
    }
    return {
      data: {
        positive_percent: percent1(pos, pos + neg),
        negative_percent: percent1(neg, pos + neg),
        total_mentions: total,
      },
      domain_id: this.domainId,
      days: p.days,
      model: p.model,
      generated_at: generatedAt(p.now),
    }
  }

  /** The floor: sums the mention columns the competitor query reads over the window, nothing else. */
  scanMentionColumns(p: { days: number; now: string }): number {
    const { start, end } = windowOf(p.now, p.days)
    const lo = this.lowerBound(start)
    const hi = this.lowerBound(end + 1)
    const a = this.mStart[lo] as number
    const b = this.mStart[hi] as number
    const { mEntity, mPos, mSent, day, prompt } = this
    let s = 0
    for (let j = a; j < b; j++) s += (mEntity[j] as number) + (mPos[j] as number) + (mSent[j] as number)
    for (let i = lo; i < hi; i++) s += (day[i] as number) + (prompt[i] as number)
    return s
  }
}
