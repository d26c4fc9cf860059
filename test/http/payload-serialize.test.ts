/**
 * The schema-compiled serializer (src/http/payload-serialize.ts) writes JSON.stringify's text, byte
 * for byte, for every payload that passes its check: each row's payloads from a generated store,
 * then the same payloads with their strings and numbers replaced at random (any UTF-16 code unit:
 * controls, quotes, backslashes, U+2028, lone surrogates; doubles of every magnitude, -0, integers
 * near 2^53), kept when they still pass the row's check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { payloadCheck } from '../../src/http/payload-check.js'
import { payloadSerializer } from '../../src/http/payload-serialize.js'
import { openEngine, type Engine } from '../../src/index.js'
import { dimRecords, makeAnalyses, makeDims, rng } from '../support/generate.js'

const NOW = new Date('2026-04-01T12:00:00Z')
const ROWS = ENDPOINTS as readonly Endpoint[]
let engine: Engine
let domains: string[]
let key: Awaited<ReturnType<Engine['createApiKey']>>

beforeAll(async () => {
  const dims = makeDims(27, { teams: 1, domainsPerTeam: 2, promptsPerDomain: 5, competitorsPerDomain: 3 })
  for (const prompt of dims.prompts) prompt.text += ' "q" \\ — ação 🚀'
  engine = await openEngine()
  await engine.ingest([...dimRecords(dims), ...makeAnalyses(27, dims, 1, 600)])
  domains = dims.domains.map((d) => d.id)
  key = await engine.createApiKey({ teamId: dims.teams[0]!.id })
})

afterAll(async () => {
  await engine?.close()
})

/** A random string: mostly code units that JSON escapes or that need care. */
function randomString(r: () => number): string {
  const special = [
    0x00, 0x08, 0x0a, 0x1f, 0x22, 0x5c, 0x2f, 0x7f, 0x2028, 0x2029, 0xd800, 0xdbff, 0xdc00, 0xdfff,
  ]
  const n = Math.floor(r() * 60)
  let s = ''
  for (let i = 0; i < n; i++) {
    const x = r()
    if (x < 0.3) s += String.fromCharCode(special[Math.floor(r() * special.length)]!)
    else if (x < 0.4) s += '🚀'
    else s += String.fromCharCode(x < 0.8 ? 0x20 + Math.floor(r() * 95) : Math.floor(r() * 0x10000))
  }
  return s
}

function randomNumber(r: () => number, old: number): number {
  const x = r()
  if (Number.isInteger(old) && x < 0.5) return Math.floor((r() - 0.5) * 2 ** (r() * 54))
  if (x < 0.6) return -0
  if (x < 0.7) return Number.MAX_SAFE_INTEGER - Math.floor(r() * 3)
  return (r() - 0.5) * 10 ** Math.floor(r() * 60 - 30)
}

/** The paths of the string and number leaves of `value`. */
function leaves(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = []) {
  if (typeof value === 'string' || typeof value === 'number') out.push(path)
  else if (Array.isArray(value)) value.forEach((v, i) => leaves(v, [...path, i], out))
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) leaves(v, [...path, k], out)
  return out
}

/** A copy of `value` with one string or number leaf (of `paths`) replaced at random. */
function mutate(value: unknown, paths: (string | number)[][], r: () => number): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>
  const path = paths[Math.floor(r() * paths.length)]!
  if (path.length === 0) return copy
  let at = copy
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>
  const last = path.at(-1)!
  const old = at[last]
  at[last] = typeof old === 'string' ? randomString(r) : randomNumber(r, old as number)
  return copy
}

const seen = { rows: 0, mutated: 0 }

describe('the schema-compiled serializer writes what JSON.stringify writes', () => {
  for (const row of ROWS) {
    it(row.id, async () => {
      const r = rng(row.id.length * 97 + row.path.length)
      const serialize = payloadSerializer(row.payload)
      const check = payloadCheck(row.payload)
      const payloads: unknown[] = []
      // A window given by days, and by dates (optional keys of the payload, between required ones).
      const windows = [
        { days: 7 },
        { days: 90 },
        { days: 365 },
        { start_date: '2026-02-10', end_date: '2026-03-31' },
      ]
      for (const [i, window] of windows.entries()) {
        const params = Object.fromEntries(
          // /query's dimensions in an order other than its schema's (its rows keep the request's).
          Object.entries({
            domain_id: domains[i % 2]!,
            ...window,
            limit: 25,
            dimensions: 'country,channel',
          }).filter(([k]) => k in row.params),
        )
        const parsed = row.query.safeParse(
          Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
        )
        if (!parsed.success) continue
        const caller = (await engine.verifyApiKey(key.key))!
        try {
          payloads.push(
            await row.compute(engine, parsed.data as never, { now: NOW, caller, rateLimit: null }),
          )
        } catch {
          // a row whose parameters need more than these (the checks of the row itself) is skipped here
        }
      }
      if (payloads.length > 0) seen.rows++
      for (const payload of payloads) {
        expect(check(payload)).toBeNull()
        expect(serialize(payload)).toBe(JSON.stringify(payload))
        const paths = leaves(payload)
        for (let i = 0; i < 200; i++) {
          const m = mutate(payload, paths, r)
          if (check(m) !== null) continue
          seen.mutated++
          expect(serialize(m)).toBe(JSON.stringify(m))
        }
      }
    })
  }
  it('covered most rows and many mutated payloads', () => {
    expect(seen.rows).toBeGreaterThanOrEqual(15)
    expect(seen.mutated).toBeGreaterThan(1000)
  })
})
