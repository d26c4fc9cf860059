/**
 * Peer: nodejs-polars. The heavy part of each report (window filter, join of child rows to the
 * window's analyses, group-by aggregation, distinct counts) runs in Polars over DataFrames built from
 * the typed-array store's columns (integer-keyed, so Polars gets the same head start as the typed
 * arrays); the small per-day result is shaped into the payload by the same TS code as the typed-array
 * peer. Loaded at run time: when the package or its native binary is missing, the peer is skipped.
 */
import {
  windowOf,
  websiteHost,
  hostMatches,
  type ModelParams,
  type PromptParams,
  type ReportFunctions,
} from '../lib/semantics.js'
import type { TypedArrayStore } from './typed-arrays.js'
import { stopwatch } from '../lib/timing.js'

// nodejs-polars has no usable ESM types entry for a dynamic import; keep the surface we use loose.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Pl = any
type Frame = any

function expand(start: Int32Array): Int32Array {
  const n = start.length - 1
  const out = new Int32Array(start[n] as number)
  for (let i = 0; i < n; i++) out.fill(i, start[i] as number, start[i + 1] as number)
  return out
}

export class PolarsPeer implements ReportFunctions {
  readonly name = 'nodejs-polars'
  private readonly A: Frame
  private readonly M: Frame
  private readonly C: Frame
  private readonly T: Frame

  constructor(
    private readonly pl: Pl,
    private readonly s: TypedArrayStore,
  ) {
    const n = s.day.length
    this.A = pl.DataFrame({
      aidx: Int32Array.from({ length: n }, (_, i) => i),
      day: s.day,
      prompt: s.prompt,
      channel: Int32Array.from(s.channel),
      model: s.model,
    })
    this.M = pl.DataFrame({ aidx: expand(s.mStart), entity: s.mEntity, pos: s.mPos, sent: s.mSent })
    this.C = pl.DataFrame({ aidx: expand(s.cStart), host: s.cHost })
    this.T = pl.DataFrame({ aidx: expand(s.tStart), theme: s.tTheme, occ: s.tOcc })
  }

  close(): void {}

  private window(p: { days: number; now: string; model?: string }): { frame: Frame; start: number } | null {
    const pl = this.pl
    const { start, end } = windowOf(p.now, p.days)
    let cond = pl.col('day').gtEq(start).and(pl.col('day').ltEq(end))
    const f = this.s.filterOf(p.model ?? 'all')
    if (f.model === -2) return null
    if (f.channel >= 0) cond = cond.and(pl.col('channel').eq(f.channel))
    if (f.model >= 0) cond = cond.and(pl.col('model').eq(f.model))
    return { frame: this.A.filter(cond), start }
  }

  computeCompetitorSeries(p: ModelParams): unknown {
    const pl = this.pl
    const D = p.days
    const E = this.s.competitors.length + 1
    const w = this.window(p)!
    const win = w.frame.select('aidx', 'day', 'prompt')
    const dates = win.groupBy('day').agg(pl.len().alias('n'))
    const j = this.M.join(win, { on: 'aidx' })
    const daily = j
      .groupBy(['day', 'entity'])
      .agg(
        pl.len().alias('n'),
        pl.col('pos').sum().alias('ps'),
        pl.col('pos').gt(0).sum().alias('pn'),
        pl.when(pl.col('sent').gtEq(0)).then(pl.col('sent')).otherwise(pl.lit(0)).sum().alias('ss'),
        pl.col('sent').gtEq(0).sum().alias('sn'),
      )
    const tq = j.groupBy('entity').agg(pl.col('prompt').nUnique().alias('tq'))
    const acc = {
      nA: new Int32Array(D),
      cnt: new Int32Array(E * D),
      posSum: new Float64Array(E * D),
      posN: new Int32Array(E * D),
      sentSum: new Float64Array(E * D),
      sentN: new Int32Array(E * D),
      tqs: new Int32Array(E),
    }
    const dd = dates.getColumn('day').toArray() as number[]
    const dn = dates.getColumn('n').toArray() as number[]
    for (let i = 0; i < dd.length; i++) acc.nA[(dd[i] as number) - w.start] = dn[i] as number
    const col = (name: string) => daily.getColumn(name).toArray() as number[]
    const [day, ent, n, ps, pn, ss, sn] = ['day', 'entity', 'n', 'ps', 'pn', 'ss', 'sn'].map(
      col,
    ) as number[][]
    for (let i = 0; i < day!.length; i++) {
      const k = ent![i]! * D + (day![i]! - w.start)
      acc.cnt[k] = n![i]!
      acc.posSum[k] = ps![i]!
      acc.posN[k] = pn![i]!
      acc.sentSum[k] = ss![i]!
      acc.sentN[k] = sn![i]!
    }
    const te = tq.getColumn('entity').toArray() as number[]
    const tv = tq.getColumn('tq').toArray() as number[]
    for (let i = 0; i < te.length; i++) acc.tqs[te[i]!] = tv[i]!
    return this.s.shapeCompetitors(p, w.start, acc)
  }

  computePromptSeries(p: PromptParams): unknown {
    const pl = this.pl
    const D = p.days
    const P = this.s.prompts.length
    const w = this.window({ ...p, model: 'all' })!
    const site = websiteHost(this.s.website)
    const ownHosts: number[] = []
    if (site !== null) this.s.hosts.forEach((h, i) => hostMatches(h, site) && ownHosts.push(i))
    const brand = this.M.filter(pl.col('entity').eq(0)).select('aidx', 'pos')
    let j = w.frame.select('aidx', 'day', 'prompt').join(brand, { on: 'aidx', how: 'left' })
    if (ownHosts.length > 0) {
      const own = this.C.filter(pl.col('host').isIn(ownHosts)).groupBy('aidx').agg(pl.len().alias('c'))
      j = j.join(own, { on: 'aidx', how: 'left' })
    } else j = j.withColumns(pl.lit(0).alias('c'))
    const daily = j
      .groupBy(['prompt', 'day'])
      .agg(
        pl.len().alias('resp'),
        pl.col('pos').isNotNull().sum().alias('ment'),
        pl.col('c').sum().alias('cit'),
        pl.col('pos').sum().alias('ps'),
        pl.col('pos').gt(0).sum().alias('pn'),
      )
    const acc = {
      resp: new Int32Array(P * D),
      ment: new Int32Array(P * D),
      cit: new Int32Array(P * D),
      posSum: new Float64Array(P * D),
      posN: new Int32Array(P * D),
      total: new Float64Array(P),
    }
    const col = (name: string) => daily.getColumn(name).toArray() as (number | null)[]
    const [pr, day, resp, ment, cit, ps, pn] = ['prompt', 'day', 'resp', 'ment', 'cit', 'ps', 'pn'].map(
      col,
    ) as number[][]
    for (let i = 0; i < pr!.length; i++) {
      const k = pr![i]! * D + (day![i]! - w.start)
      acc.resp[k] = resp![i]!
      acc.ment[k] = ment![i]!
      acc.cit[k] = cit![i] ?? 0
      acc.posSum[k] = ps![i] ?? 0
      acc.posN[k] = pn![i] ?? 0
      acc.total[pr![i]!]! += ment![i]!
    }
    return this.s.shapePrompts(p, w.start, acc)
  }

  private occurrences(p: ModelParams): Float64Array {
    const pl = this.pl
    const occ = new Float64Array(this.s.themes.length)
    const w = this.window(p)
    if (!w) return occ
    const g = this.T.join(w.frame.select('aidx'), { on: 'aidx' })
      .groupBy('theme')
      .agg(pl.col('occ').sum().alias('o'))
    const t = g.getColumn('theme').toArray() as number[]
    const o = g.getColumn('o').toArray() as number[]
    for (let i = 0; i < t.length; i++) occ[t[i]!] = o[i]!
    return occ
  }

  sentimentThemes(p: ModelParams): unknown {
    return this.s.shapeThemes(p, this.occurrences(p))
  }
  sentimentOverview(p: ModelParams): unknown {
    return this.s.shapeOverview(p, this.occurrences(p))
  }
}

/** Imports nodejs-polars and builds the peer; `error` says why not when it cannot. */
export async function loadPolarsPeer(
  store: TypedArrayStore,
): Promise<{ peer: PolarsPeer | null; ms: number; error?: string }> {
  const specifier = 'nodejs-polars'
  try {
    const mod = (await import(specifier)) as { default?: Pl }
    const pl = mod.default ?? mod
    const { ms, value } = await stopwatch(() => new PolarsPeer(pl, store))
    return { peer: value, ms }
  } catch (e) {
    return {
      peer: null,
      ms: 0,
      error: e instanceof Error ? (e.message.split('\n')[0] ?? e.message) : String(e),
    }
  }
}
