/**
 * A fast path for the hot record type. `isPlainValidAnalysis(x)` returns true only for analysis
 * records that `analysisSchema` accepts unchanged (a property test checks that it never says yes
 * where zod says no); for anything else it returns false and the caller runs zod, which then
 * produces the error messages. Well-formed files skip most of zod's per-field work.
 */
import { CHANNELS } from '../foundation/vocabulary.js'
import {
  ANSWERED_AT_RE,
  COUNTRY_RE,
  FANOUT_MAX_QUERIES,
  FANOUT_QUERY_MAX,
  MODEL_ID_RE,
  PAGE_TYPE_MAX,
  RESPONSE_MAX,
  TITLE_MAX,
  URL_RE,
} from './records.js'

const CHANNEL_SET = new Set<unknown>(CHANNELS)
const MAX_INT32 = 2_147_483_647

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Own enumerable string keys, as zod's strict objects count them (Object.keys: ~2x a for-in loop). */
const keyCount = (o: object): number => Object.keys(o).length

/** The same test as UUID_RE, by character codes (the regex is the hottest line of an ingest). */
function isUuid(v: unknown): boolean {
  if (typeof v !== 'string' || v.length !== 36) return false
  for (let i = 0; i < 36; i++) {
    const c = v.charCodeAt(i)
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false
    } else if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) return false
  }
  return true
}
const isIntIn = (v: unknown, min: number, max: number) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max
/** null, or a string of 1 to `max` characters (absent is handled by the caller). */
const isTextOrNull = (v: unknown, max: number) =>
  v === null || (typeof v === 'string' && v.length >= 1 && v.length <= max)

/** A citation: `url`, and optionally `title` and `page_type` (present keys never undefined). */
function isPlainCitation(c: unknown): boolean {
  if (!isObject(c)) return false
  const n = keyCount(c)
  if (!Object.hasOwn(c, 'url')) return false
  if (typeof c.url !== 'string' || c.url.length > 8192 || !URL_RE.test(c.url)) return false
  if (n === 1) return true
  let known = 1
  if (Object.hasOwn(c, 'title')) {
    if (!isTextOrNull(c.title, TITLE_MAX)) return false
    known++
  }
  if (Object.hasOwn(c, 'page_type')) {
    if (!isTextOrNull(c.page_type, PAGE_TYPE_MAX)) return false
    known++
  }
  return n === known
}

/** Fan-out queries: an array of at most 100 strings, each 1-500 characters once trimmed. */
function isPlainFanout(v: unknown): boolean {
  if (!Array.isArray(v) || v.length > FANOUT_MAX_QUERIES) return false
  for (const q of v as unknown[]) {
    if (typeof q !== 'string') return false
    const n = q.trim().length
    if (n < 1 || n > FANOUT_QUERY_MAX) return false
  }
  return true
}

/** The analysis fields that may be absent: fan-out queries, country and the answer's text. */
function optionalFieldsValid(r: Record<string, unknown>): number {
  let present = 0
  if (Object.hasOwn(r, 'fanout_queries')) {
    if (!isPlainFanout(r.fanout_queries)) return -1
    present++
  }
  if (Object.hasOwn(r, 'country')) {
    const c = r.country
    if (c !== null && !(typeof c === 'string' && COUNTRY_RE.test(c))) return -1
    present++
  }
  if (Object.hasOwn(r, 'response')) {
    const t = r.response
    if (t !== null && !(typeof t === 'string' && t.length <= RESPONSE_MAX)) return -1
    present++
  }
  return present
}

export function isPlainValidAnalysis(r: Record<string, unknown>): boolean {
  if (ANSWERED_AT_RE === undefined) return false
  const keys = keyCount(r)
  if (keys !== 10) {
    const optional = optionalFieldsValid(r)
    if (optional < 0 || keys !== 10 + optional) return false
  }
  if (r.type !== 'analysis' || !isUuid(r.id) || !isUuid(r.domain_id) || !isUuid(r.prompt_id)) return false
  if (!CHANNEL_SET.has(r.channel)) return false
  if (typeof r.model !== 'string' || !MODEL_ID_RE.test(r.model)) return false
  if (typeof r.answered_at !== 'string' || !ANSWERED_AT_RE.test(r.answered_at)) return false
  const { mentions, citations, themes } = r
  if (!Array.isArray(mentions) || !Array.isArray(citations) || !Array.isArray(themes)) return false
  for (const m of mentions as unknown[]) {
    if (!isObject(m) || keyCount(m) !== 3) return false
    if (m.entity_id !== 'brand' && !isUuid(m.entity_id)) return false
    if (m.position !== null && !isIntIn(m.position, 1, MAX_INT32)) return false
    const s = m.sentiment
    if (s !== null && !(typeof s === 'number' && Number.isFinite(s) && s >= 0 && s <= 100)) return false
  }
  for (const c of citations as unknown[]) if (!isPlainCitation(c)) return false
  for (const t of themes as unknown[]) {
    if (!isObject(t) || keyCount(t) !== 2) return false
    if (!isUuid(t.theme_id) || !isIntIn(t.occurrences, 1, MAX_INT32)) return false
  }
  return true
}
