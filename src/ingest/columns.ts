/**
 * Staged rows of analyses in column batches: typed arrays for numbers, string arrays for text.
 * The same batches are filled in the ingest thread or in an NDJSON worker (their buffers are then
 * transferred, not copied), and appended to the staging tables a column at a time.
 */
import { citedUrl, matchHost, urlHost } from '../schemas/records.js'

/** Rows of one batch; nullable numbers use a marker: position 0 and sentiment NaN mean null. */
export interface AnalysisBatch {
  analyses: number
  seq: Int32Array
  id: string[]
  domainH: Int32Array
  promptH: Int32Array
  channel: Uint8Array
  modelH: Int32Array
  answeredMs: Float64Array
  day: Int32Array
  /** Upper case, or null. */
  country: (string | null)[]
  mentions: number
  mSeq: Int32Array
  mEntityH: Int32Array
  mPosition: Int32Array
  mSentiment: Float64Array
  mDomainH: Int32Array
  mPromptH: Int32Array
  mChannel: Uint8Array
  mDay: Int32Array
  citations: number
  cSeq: Int32Array
  /** The citation's URL: its entry in the call's citation dictionary. */
  cEntry: Int32Array
  cDomainH: Int32Array
  cDay: Int32Array
  /** The citation's 0-based position in its analysis's citations. */
  cOrd: Int32Array
  cTitle: (string | null)[]
  cPageType: (string | null)[]
  /**
   * The dictionary's entries first named in this batch, numbered on from the previous batch's
   * (`eFirst` is the first one's number): a cited URL as written, its host (compared form) and its
   * identity (`citedUrl`). Citations repeat their URL, so a call's citations carry a number each and
   * their URLs' texts travel and are appended once (1.5M citations of 64k URLs in the bench's L
   * file; bench/NOTES.md, "s20").
   */
  entries: number
  eFirst: number
  eUrl: string[]
  eHost: string[]
  eCited: string[]
  themes: number
  tSeq: Int32Array
  tThemeH: Int32Array
  tOccurrences: Int32Array
  tDomainH: Int32Array
  tChannel: Uint8Array
  tModelH: Int32Array
  tDay: Int32Array
  fanout: number
  fSeq: Int32Array
  /** The query's 0-based position in its analysis's fan-out queries. */
  fOrd: Int32Array
  /** Trimmed. */
  fQuery: string[]
  fDomainH: Int32Array
  fDay: Int32Array
  /**
   * Answer texts (analyses whose `response` is not null) as UTF-8, back to back in `rBytes`: text i
   * is `rBytes[rEnd[i - 1] ?? 0 .. rEnd[i]]`. One buffer a batch, transferred from a worker rather
   * than cloned as strings, and handed to DuckDB as bytes (no string on the ingest thread).
   */
  responses: number
  rSeq: Int32Array
  rDomainH: Int32Array
  rEnd: Int32Array
  rBytes: Uint8Array
}

const utf8 = new TextEncoder()
/** The citation dictionary's bound, in URLs (BatchBuilder). */
const MAX_URLS = 100_000

/**
 * Where validated analyses go, row by row: each analysis, then its mentions, citations, theme
 * occurrences and fan-out queries (which also carry the analysis's domain, prompt, channel, model and day, so that a
 * call without repeated ids needs no join back to its analyses).
 */
export interface StagingSink {
  analysis(
    seq: number,
    id: string,
    domainH: number,
    promptH: number,
    channel: number,
    modelH: number,
    ms: number,
    day: number,
    country: string | null,
  ): void
  mention(seq: number, entityH: number, position: number | null, sentiment: number | null): void
  /** A citation: its 0-based position in the analysis's citations, its URL as written, title, page type. */
  citation(seq: number, ord: number, url: string, title: string | null, pageType: string | null): void
  themeOcc(seq: number, themeH: number, occurrences: number): void
  fanoutQuery(seq: number, ord: number, query: string): void
  /** The analysis's answer text (only when not null). */
  response(seq: number, text: string): void
}

/** Fills column batches and hands each full one to `flush` (and the last one on `end()`). */
export class BatchBuilder implements StagingSink {
  #b: AnalysisBatch
  #domainH = 0
  #promptH = 0
  #channel = 0
  #modelH = 0
  #day = 0
  /**
   * The call's citation dictionary: each cited URL's number (its host and identity are worked out
   * once, when it is added). Bounded: past MAX_URLS URLs it starts over, and a URL seen again gets
   * a new number (the same texts twice in the dictionary: every use joins by number). Keyed by URL
   * alone: with the title and page type in the key, L's 1.5M citations made 191k entries, all held
   * in the worker's heap (+40 MB of peak RSS; bench/NOTES.md, "s20").
   */
  #entries = new Map<string, number>()
  #nextEntry = 0
  /** The dictionary's bound in URLs (VA_CITATION_DICT_URLS: tests). */
  readonly #maxUrls = Number(process.env.VA_CITATION_DICT_URLS) || MAX_URLS
  constructor(
    readonly capacity: number,
    readonly flush: (batch: AnalysisBatch) => void,
  ) {
    this.#b = emptyBatch(capacity)
  }

  analysis(
    seq: number,
    id: string,
    domainH: number,
    promptH: number,
    channel: number,
    modelH: number,
    ms: number,
    day: number,
    country: string | null,
  ): void {
    const b = this.#b
    if (b.analyses === b.seq.length) {
      this.end()
      this.analysis(seq, id, domainH, promptH, channel, modelH, ms, day, country)
      return
    }
    const i = b.analyses++
    this.#domainH = domainH
    this.#promptH = promptH
    this.#channel = channel
    this.#modelH = modelH
    this.#day = day
    b.seq[i] = seq
    b.id.push(id)
    b.domainH[i] = domainH
    b.promptH[i] = promptH
    b.channel[i] = channel
    b.modelH[i] = modelH
    b.answeredMs[i] = ms
    b.day[i] = day
    b.country.push(country)
  }

  mention(seq: number, entityH: number, position: number | null, sentiment: number | null): void {
    const b = this.#b
    if (b.mentions === b.mSeq.length) {
      b.mSeq = grow(b.mSeq)
      b.mEntityH = grow(b.mEntityH)
      b.mPosition = grow(b.mPosition)
      b.mSentiment = grow(b.mSentiment)
      b.mDomainH = grow(b.mDomainH)
      b.mPromptH = grow(b.mPromptH)
      b.mChannel = grow(b.mChannel)
      b.mDay = grow(b.mDay)
    }
    const i = b.mentions++
    b.mSeq[i] = seq
    b.mEntityH[i] = entityH
    b.mPosition[i] = position ?? 0
    b.mSentiment[i] = sentiment ?? NaN
    b.mDomainH[i] = this.#domainH
    b.mPromptH[i] = this.#promptH
    b.mChannel[i] = this.#channel
    b.mDay[i] = this.#day
  }

  citation(seq: number, ord: number, url: string, title: string | null, pageType: string | null): void {
    const b = this.#b
    if (b.citations === b.cSeq.length) {
      b.cSeq = grow(b.cSeq)
      b.cEntry = grow(b.cEntry)
      b.cDomainH = grow(b.cDomainH)
      b.cDay = grow(b.cDay)
      b.cOrd = grow(b.cOrd)
    }
    const i = b.citations++
    b.cSeq[i] = seq
    b.cEntry[i] = this.#entry(url)
    b.cDomainH[i] = this.#domainH
    b.cDay[i] = this.#day
    b.cOrd[i] = ord
    b.cTitle.push(title)
    b.cPageType.push(pageType)
  }

  /** The number of `url`'s dictionary entry, added to the batch when new. */
  #entry(url: string): number {
    let n = this.#entries.get(url)
    if (n !== undefined) return n
    if (this.#entries.size >= this.#maxUrls) this.#entries.clear()
    n = this.#nextEntry++
    this.#entries.set(url, n)
    const b = this.#b
    if (b.entries++ === 0) b.eFirst = n
    b.eUrl.push(url)
    b.eHost.push(matchHost(urlHost(url)))
    b.eCited.push(citedUrl(url))
    return n
  }

  themeOcc(seq: number, themeH: number, occurrences: number): void {
    const b = this.#b
    if (b.themes === b.tSeq.length) {
      b.tSeq = grow(b.tSeq)
      b.tThemeH = grow(b.tThemeH)
      b.tOccurrences = grow(b.tOccurrences)
      b.tDomainH = grow(b.tDomainH)
      b.tChannel = grow(b.tChannel)
      b.tModelH = grow(b.tModelH)
      b.tDay = grow(b.tDay)
    }
    const i = b.themes++
    b.tSeq[i] = seq
    b.tThemeH[i] = themeH
    b.tOccurrences[i] = occurrences
    b.tDomainH[i] = this.#domainH
    b.tChannel[i] = this.#channel
    b.tModelH[i] = this.#modelH
    b.tDay[i] = this.#day
  }

  fanoutQuery(seq: number, ord: number, query: string): void {
    const b = this.#b
    if (b.fanout === b.fSeq.length) {
      b.fSeq = grow(b.fSeq)
      b.fOrd = grow(b.fOrd)
      b.fDomainH = grow(b.fDomainH)
      b.fDay = grow(b.fDay)
    }
    const i = b.fanout++
    b.fSeq[i] = seq
    b.fOrd[i] = ord
    b.fDomainH[i] = this.#domainH
    b.fDay[i] = this.#day
    b.fQuery.push(query)
  }

  response(seq: number, text: string): void {
    const b = this.#b
    if (b.responses === b.rSeq.length) {
      b.rSeq = grow(b.rSeq)
      b.rDomainH = grow(b.rDomainH)
      b.rEnd = grow(b.rEnd)
    }
    const i = b.responses++
    const from = i === 0 ? 0 : b.rEnd[i - 1]!
    // A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate pair 4 for 2 units).
    if (b.rBytes.length - from < text.length * 3) {
      const bytes = new Uint8Array(Math.max(b.rBytes.length * 2, from + text.length * 3, 1 << 16))
      bytes.set(b.rBytes.subarray(0, from))
      b.rBytes = bytes
    }
    b.rSeq[i] = seq
    b.rDomainH[i] = this.#domainH
    b.rEnd[i] = from + utf8.encodeInto(text, b.rBytes.subarray(from)).written
  }

  /** Hands over what is buffered, if anything. */
  end(): void {
    const b = this.#b
    if (b.analyses === 0) return
    this.#b = emptyBatch(this.capacity)
    this.flush(b)
  }
}

/** The buffers of a batch, for `postMessage(batch, transferList(batch))`. */
export function transferList(b: AnalysisBatch): ArrayBuffer[] {
  const out: ArrayBuffer[] = []
  for (const v of Object.values(b)) if (ArrayBuffer.isView(v)) out.push(v.buffer as ArrayBuffer)
  return out
}

function emptyBatch(n: number): AnalysisBatch {
  return {
    analyses: 0,
    seq: new Int32Array(n),
    id: [],
    domainH: new Int32Array(n),
    promptH: new Int32Array(n),
    channel: new Uint8Array(n),
    modelH: new Int32Array(n),
    answeredMs: new Float64Array(n),
    day: new Int32Array(n),
    country: [],
    mentions: 0,
    mSeq: new Int32Array(n * 2),
    mEntityH: new Int32Array(n * 2),
    mPosition: new Int32Array(n * 2),
    mSentiment: new Float64Array(n * 2),
    mDomainH: new Int32Array(n * 2),
    mPromptH: new Int32Array(n * 2),
    mChannel: new Uint8Array(n * 2),
    mDay: new Int32Array(n * 2),
    citations: 0,
    cSeq: new Int32Array(n * 2),
    cEntry: new Int32Array(n * 2),
    cDomainH: new Int32Array(n * 2),
    cDay: new Int32Array(n * 2),
    cOrd: new Int32Array(n * 2),
    cTitle: [],
    cPageType: [],
    entries: 0,
    eFirst: 0,
    eUrl: [],
    eHost: [],
    eCited: [],
    themes: 0,
    tSeq: new Int32Array(n * 2),
    tThemeH: new Int32Array(n * 2),
    tOccurrences: new Int32Array(n * 2),
    tDomainH: new Int32Array(n * 2),
    tChannel: new Uint8Array(n * 2),
    tModelH: new Int32Array(n * 2),
    tDay: new Int32Array(n * 2),
    fanout: 0,
    fSeq: new Int32Array(n * 2),
    fOrd: new Int32Array(n * 2),
    fQuery: [],
    fDomainH: new Int32Array(n * 2),
    fDay: new Int32Array(n * 2),
    responses: 0,
    rSeq: new Int32Array(n),
    rDomainH: new Int32Array(n),
    rEnd: new Int32Array(n),
    rBytes: new Uint8Array(0),
  }
}

function grow<T extends Int32Array | Float64Array | Uint8Array>(a: T): T {
  const out = new (a.constructor as new (n: number) => T)(a.length * 2)
  out.set(a)
  return out
}
