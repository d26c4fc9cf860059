/**
 * The aggregate cache: one domain's daily aggregate rows (the agg_* tables, computed by DuckDB in
 * the ingest transaction) held column-wise in Float64Arrays, sorted by day. It answers the same
 * query ids with the same columns as sql/queries/*.sql, so the compute functions cannot tell the
 * two sources apart (a test checks they agree), but a window becomes two binary searches and one
 * tight loop instead of a DuckDB plan.
 *
 * Entries are loaded on first use per (domain, table) and dropped for the domains a commit touches,
 * while queries are held off by the engine's readers-writer lock, so an entry never outlives the
 * snapshot it was read from.
 */

/** Columns of one aggregate table for one domain; column 0 is the day, ascending. */
export type Columns = Float64Array[]

export type AggregateTable =
  'agg_prompt_day' | 'agg_channel_day' | 'agg_entity_day' | 'agg_entity_prompts' | 'agg_theme_day'

export type Loader = (table: AggregateTable, domainKey: number) => Promise<Columns>

/** First index whose day is >= `day` (days ascending). */
function lowerBound(days: Float64Array, day: number): number {
  let lo = 0
  let hi = days.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (days[mid]! < day) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The [from, to) row range of a window of days. */
function windowRange(days: Float64Array, start: number, end: number): [number, number] {
  return [lowerBound(days, start), lowerBound(days, end + 1)]
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  x = (x + (x >>> 4)) & 0x0f0f0f0f
  return Math.imul(x, 0x01010101) >>> 24
}

interface Entry {
  columns: Promise<Columns>
  rows: number
}

export class AggregateCache {
  readonly #entries = new Map<string, Entry>()
  #rows = 0

  /**
   * @param load reads one domain's rows of one table.
   * @param maxRows rows kept in all (least recently used entries go first).
   * @param promptOrder the rank of a prompt id among a domain's prompts (for tie-breaks).
   */
  constructor(
    readonly load: Loader,
    readonly maxRows: number,
    readonly promptOrder: (domainKey: number, promptIdx: number) => string,
  ) {}

  get cachedRows(): number {
    return this.#rows
  }

  /** Drops every entry of these domains. */
  invalidate(domainKeys: Iterable<number>): void {
    for (const dk of domainKeys) {
      for (const table of TABLES) {
        const key = `${dk}:${table}`
        const e = this.#entries.get(key)
        if (e) {
          this.#rows -= e.rows
          this.#entries.delete(key)
        }
      }
    }
  }

  clear(): void {
    this.#entries.clear()
    this.#rows = 0
  }

  async #table(table: AggregateTable, domainKey: number): Promise<Columns> {
    const key = `${domainKey}:${table}`
    let e = this.#entries.get(key)
    if (e) {
      this.#entries.delete(key) // re-insert: most recently used last
      this.#entries.set(key, e)
      return e.columns
    }
    const entry: Entry = { columns: this.load(table, domainKey), rows: 0 }
    this.#entries.set(key, entry)
    try {
      const cols = await entry.columns
      entry.rows = cols[0]?.length ?? 0
    } catch (err) {
      this.#entries.delete(key)
      throw err
    }
    if (this.#entries.get(key) === entry) {
      this.#rows += entry.rows
      this.#evict()
    }
    e = entry
    return e.columns
  }

  #evict(): void {
    for (const [key, e] of this.#entries) {
      if (this.#rows <= this.maxRows || this.#entries.size <= 1) return
      this.#rows -= e.rows
      this.#entries.delete(key)
    }
  }

  /** Answers a query id of sql/queries with the same columns, or undefined when it has no memory form. */
  run(id: string, v: Record<string, number>): Promise<ArrayLike<number>[]> | undefined {
    switch (id) {
      case 'queries/prompt_series':
        return this.#promptSeries(v)
      case 'queries/competitor_series':
        return this.#competitorSeries(v)
      case 'queries/theme_occurrences':
        return this.#themeOccurrences(v)
      default:
        return undefined
    }
  }

  async #promptSeries(v: Record<string, number>): Promise<ArrayLike<number>[]> {
    const [day, prompt, responses, mentions, citations, posSum, posCnt] = await this.#table(
      'agg_prompt_day',
      v.domain_key!,
    )
    const [from, to] = windowRange(day!, v.start_day!, v.end_day!)
    let maxPrompt = -1
    for (let i = from; i < to; i++) if (prompt![i]! > maxPrompt) maxPrompt = prompt![i]!
    const totals = new Float64Array(maxPrompt + 1)
    for (let i = from; i < to; i++) totals[prompt![i]!]! += mentions![i]!
    const ranked: number[] = []
    totals.forEach((t, p) => t > 0 && ranked.push(p))
    const order = (p: number) => this.promptOrder(v.domain_key!, p)
    ranked.sort((a, b) => totals[b]! - totals[a]! || (order(a) < order(b) ? -1 : 1))
    // Rows are sorted by day, so bucketing them by rank keeps each prompt's days ascending.
    const rankOf = new Int32Array(maxPrompt + 1)
    const top = ranked.slice(0, v.limit!)
    top.forEach((p, i) => (rankOf[p] = i + 1))
    const buckets: number[][] = top.map(() => [])
    for (let i = from; i < to; i++) {
      const r = rankOf[prompt![i]!]!
      if (r > 0) buckets[r - 1]!.push(i)
    }
    const rows = buckets.flat()
    const n = rows.length
    const pick = (col: Float64Array) => {
      const out = new Float64Array(n)
      for (let k = 0; k < n; k++) out[k] = col[rows[k]!]!
      return out
    }
    const ranks = new Float64Array(n)
    for (let k = 0; k < n; k++) ranks[k] = rankOf[prompt![rows[k]!]!]!
    return [
      ranks,
      pick(prompt!),
      pick(day!),
      pick(responses!),
      pick(mentions!),
      pick(citations!),
      pick(posSum!),
      pick(posCnt!),
    ]
  }

  async #competitorSeries(v: Record<string, number>): Promise<ArrayLike<number>[]> {
    const dk = v.domain_key!
    const channel = v.channel!
    const [chDay, chChannel, chAnalyses] = await this.#table('agg_channel_day', dk)
    const [eDay, eChannel, eEntity, eMentions, ePosSum, ePosCnt, eSentSum, eSentCnt] = await this.#table(
      'agg_entity_day',
      dk,
    )
    const [bDay, bChannel, bEntity, bChunk, bLo, bHi] = await this.#table('agg_entity_prompts', dk)
    const out: number[][] = [[], [], [], [], [], [], [], []]
    const emit = (kind: number, day: number, entity: number, n1: number, n2 = 0, n3 = 0, n4 = 0, n5 = 0) => {
      out[0]!.push(kind)
      out[1]!.push(day)
      out[2]!.push(entity)
      out[3]!.push(n1)
      out[4]!.push(n2)
      out[5]!.push(n3)
      out[6]!.push(n4)
      out[7]!.push(n5)
    }

    // kind 0: analyses per day (rows are sorted by day, so a running group suffices).
    let [from, to] = windowRange(chDay!, v.start_day!, v.end_day!)
    for (let i = from; i < to;) {
      const d = chDay![i]!
      let sum = 0
      let seen = false
      for (; i < to && chDay![i] === d; i++) {
        if (channel === 0 || chChannel![i] === channel) {
          sum += chAnalyses![i]!
          seen = true
        }
      }
      if (seen) emit(0, d, -1, sum)
    }

    // kind 1: per (day, entity) sums; entities are small integers, so accumulate in flat arrays.
    ;[from, to] = windowRange(eDay!, v.start_day!, v.end_day!)
    let maxEntity = -1
    for (let i = from; i < to; i++) if (eEntity![i]! > maxEntity) maxEntity = eEntity![i]!
    const width = maxEntity + 1
    const sums = new Float64Array(5 * width)
    const touched = new Uint8Array(width)
    for (let i = from; i < to;) {
      const d = eDay![i]!
      sums.fill(0)
      touched.fill(0)
      for (; i < to && eDay![i] === d; i++) {
        if (channel !== 0 && eChannel![i] !== channel) continue
        const at = 5 * eEntity![i]!
        touched[eEntity![i]!] = 1
        sums[at]! += eMentions![i]!
        sums[at + 1]! += ePosSum![i]!
        sums[at + 2]! += ePosCnt![i]!
        sums[at + 3]! += eSentSum![i]!
        sums[at + 4]! += eSentCnt![i]!
      }
      for (let e = 0; e < width; e++) {
        if (touched[e])
          emit(1, d, e, sums[5 * e]!, sums[5 * e + 1]!, sums[5 * e + 2]!, sums[5 * e + 3]!, sums[5 * e + 4]!)
      }
    }

    // kind 2: distinct prompts per entity: OR the masks per (entity, chunk), then count bits.
    ;[from, to] = windowRange(bDay!, v.start_day!, v.end_day!)
    const masks = new Map<number, number[]>() // entity -> [lo0, hi0, lo1, hi1, ...]
    for (let i = from; i < to; i++) {
      if (channel !== 0 && bChannel![i] !== channel) continue
      const e = bEntity![i]!
      let m = masks.get(e)
      if (m === undefined) masks.set(e, (m = []))
      const c = 2 * bChunk![i]!
      while (m.length <= c + 1) m.push(0)
      m[c] = (m[c]! | bLo![i]!) >>> 0
      m[c + 1] = (m[c + 1]! | bHi![i]!) >>> 0
    }
    for (const [e, m] of masks) {
      let n = 0
      for (const word of m) n += popcount32(word)
      emit(2, 0, e, n)
    }
    return out
  }

  async #themeOccurrences(v: Record<string, number>): Promise<ArrayLike<number>[]> {
    const [day, channel, model, theme, occurrences] = await this.#table('agg_theme_day', v.domain_key!)
    const [from, to] = windowRange(day!, v.start_day!, v.end_day!)
    let maxTheme = -1
    for (let i = from; i < to; i++) if (theme![i]! > maxTheme) maxTheme = theme![i]!
    const sums = new Float64Array(maxTheme + 1)
    const seen = new Uint8Array(maxTheme + 1)
    for (let i = from; i < to; i++) {
      if (v.channel !== 0 && channel![i] !== v.channel) continue
      if (v.model_key !== -1 && model![i] !== v.model_key) continue
      sums[theme![i]!]! += occurrences![i]!
      seen[theme![i]!] = 1
    }
    const ids: number[] = []
    const values: number[] = []
    seen.forEach((s, t) => {
      if (s) {
        ids.push(t)
        values.push(sums[t]!)
      }
    })
    return [ids, values]
  }
}

const TABLES: AggregateTable[] = [
  'agg_prompt_day',
  'agg_channel_day',
  'agg_entity_day',
  'agg_entity_prompts',
  'agg_theme_day',
]
