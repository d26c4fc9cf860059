/**
 * The reference model of GET /api/v1/signals (docs/API.md, "GET /api/v1/signals"), written from
 * the definition and nothing of the engine: it rescans the stored analyses for every segment and
 * entity, writes the Wilson interval and the pooled two-proportion z-test out again, and sorts the
 * result as documented. Trusts its input (valid records and parameters).
 */
import { createHash } from 'node:crypto'
import erfc from '@stdlib/math-base-special-erfc'
import type { Signal, SignalsParams, SignalsPayload } from '../../src/reports/index.js'
import { DAY_MS, formatGeneratedAt, toMs, utcDate } from './buckets.js'
import { cmp } from './numbers.js'
import type { Store, StoredAnalysis } from './store.js'

const Z = 1.959963984540054

/** Wilson score interval at 95%, in percent (docs/API.md: exactly 0 at k = 0, 100 at k = n). */
function wilsonInterval(k: number, n: number): [number, number] {
  const p = k / n
  const center = (p + (Z * Z) / (2 * n)) / (1 + (Z * Z) / n)
  const half = (Z * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n))) / (1 + (Z * Z) / n)
  return [k === 0 ? 0 : Math.max(0, center - half) * 100, k === n ? 100 : Math.min(1, center + half) * 100]
}

/** Two-sided pooled two-proportion z-test; null when either n is 0 or P is 0 or 1. */
function pValue(k1: number, n1: number, k2: number, n2: number): number | null {
  if (n1 === 0 || n2 === 0) return null
  const P = (k1 + k2) / (n1 + n2)
  if (P === 0 || P === 1) return null
  const z = (k2 / n2 - k1 / n1) / Math.sqrt(P * (1 - P) * (1 / n1 + 1 / n2))
  return erfc(Math.abs(z) / Math.sqrt(2))
}

/**
 * The documented fingerprint: the SHA-256 of the JSON array of what identifies a signal, its first
 * 16 bytes as a UUID with version 8 and the RFC 9562 variant.
 */
export function referenceSignalId(
  domainId: string,
  entityId: string,
  kind: string,
  value: string | null,
  window: number,
  endDate: string,
): string {
  const text = JSON.stringify(['visibility', domainId, entityId, kind, value, window, endDate])
  const hex = createHash('sha256').update(text).digest('hex').slice(0, 32).split('')
  hex[12] = '8'
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  const h = hex.join('')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

interface Segment {
  kind: 'all' | 'channel' | 'country' | 'topic'
  value: string | null
  has(a: StoredAnalysis): boolean
}

export function signals(store: Store, p: SignalsParams): SignalsPayload {
  const domain = store.domain(p.domainId)
  const window = p.window ?? 7
  const minResponses = p.minResponses ?? 30
  const minDelta = p.minDelta ?? 5
  const nowMs = toMs(p.now ?? new Date())
  const today = utcDate(nowMs)
  const dateBefore = (days: number) => utcDate(Date.parse(`${today}T00:00:00Z`) - days * DAY_MS)
  const current = { start: dateBefore(window - 1), end: today }
  const baseline = { start: dateBefore(2 * window - 1), end: dateBefore(window) }
  const inPeriod = (a: StoredAnalysis, w: { start: string; end: string }) =>
    a.date >= w.start && a.date <= w.end

  const analyses = [...store.analyses.values()].filter(
    (a) => a.domain_id === domain.id && (inPeriod(a, baseline) || inPeriod(a, current)),
  )
  const topicOf = (a: StoredAnalysis): string | null => {
    const t = (store.prompts.get(a.prompt_id) as { topic?: string | null } | undefined)?.topic
    return t == null ? null : t.trim()
  }
  const countryOf = (a: StoredAnalysis): string | null => {
    const c = (a as { country?: string | null }).country
    return c == null ? null : c.toUpperCase()
  }

  const segments: Segment[] = [{ kind: 'all', value: null, has: () => true }]
  const distinct = (values: (string | null)[]) =>
    [...new Set(values.filter((v): v is string => v !== null))].sort(cmp)
  for (const channel of distinct(analyses.map((a) => a.channel)))
    segments.push({ kind: 'channel', value: channel, has: (a) => a.channel === channel })
  for (const country of distinct(analyses.map(countryOf)))
    segments.push({ kind: 'country', value: country, has: (a) => countryOf(a) === country })
  for (const topic of distinct(analyses.map(topicOf)))
    segments.push({ kind: 'topic', value: topic, has: (a) => topicOf(a) === topic })

  const entities = [
    { key: 'brand', id: `user-brand-${domain.id}`, name: domain.brand_name, isBrand: true },
    ...store.competitorsOf(domain.id).map((c) => ({ key: c.id, id: c.id, name: c.name, isBrand: false })),
  ]

  const items: Signal[] = []
  for (const s of segments) {
    const before = analyses.filter((a) => inPeriod(a, baseline) && s.has(a))
    const after = analyses.filter((a) => inPeriod(a, current) && s.has(a))
    const n1 = before.length
    const n2 = after.length
    for (const e of entities) {
      const mentioning = (a: StoredAnalysis) => a.mentions.some((m) => m.entity_id === e.key)
      const k1 = before.filter(mentioning).length
      const k2 = after.filter(mentioning).length
      if (n1 < minResponses || n2 < minResponses) continue
      const v1 = (k1 * 100) / n1
      const v2 = (k2 * 100) / n2
      const delta = v2 - v1
      if (!(Math.abs(delta) >= minDelta - 1e-9)) continue
      const pv = pValue(k1, n1, k2, n2)
      if (pv === null || !(pv < 0.05)) continue
      items.push({
        id: referenceSignalId(domain.id, e.id, s.kind, s.value, window, current.end),
        metric: 'visibility',
        entity_id: e.id,
        entity_name: e.name,
        is_brand: e.isBrand,
        segment: { kind: s.kind, value: s.value },
        baseline: {
          start_date: baseline.start,
          end_date: baseline.end,
          responses: n1,
          mentions: k1,
          visibility: v1,
          visibility_ci: wilsonInterval(k1, n1),
        },
        current: {
          start_date: current.start,
          end_date: current.end,
          responses: n2,
          mentions: k2,
          visibility: v2,
          visibility_ci: wilsonInterval(k2, n2),
        },
        visibility_delta: delta,
        direction: delta > 0 ? 'up' : 'down',
        p_value: pv,
        tier: pv < 0.001 ? 'high' : pv < 0.01 ? 'confident' : 'worth_a_look',
      })
    }
  }
  items.sort(
    (a, b) =>
      a.p_value - b.p_value || Math.abs(b.visibility_delta) - Math.abs(a.visibility_delta) || cmp(a.id, b.id),
  )
  return {
    data: { items },
    domain_id: domain.id,
    window,
    min_responses: minResponses,
    min_delta: minDelta,
    generated_at: formatGeneratedAt(nowMs),
  }
}
