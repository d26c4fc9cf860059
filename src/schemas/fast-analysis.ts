/**
 * A fast path for the hot record type. `isPlainValidAnalysis(x)` returns true only for analysis
 * records that `analysisSchema` accepts unchanged (a property test checks that it never says yes
 * where zod says no); for anything else it returns false and the caller runs zod, which then
 * produces the error messages. Well-formed files skip most of zod's per-field work.
 */
import { CHANNELS } from '../types.js'
import { ANSWERED_AT_RE, MODEL_ID_RE, URL_RE } from './records.js'

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

export function isPlainValidAnalysis(r: Record<string, unknown>): boolean {
  if (ANSWERED_AT_RE === undefined) return false
  if (keyCount(r) !== 10) return false
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
  for (const c of citations as unknown[]) {
    if (!isObject(c) || keyCount(c) !== 1) return false
    if (typeof c.url !== 'string' || c.url.length > 8192 || !URL_RE.test(c.url)) return false
  }
  for (const t of themes as unknown[]) {
    if (!isObject(t) || keyCount(t) !== 2) return false
    if (!isUuid(t.theme_id) || !isIntIn(t.occurrences, 1, MAX_INT32)) return false
  }
  return true
}
