/**
 * The reference model against the spec's worked example (semantics.md section 9): every one of the
 * six queries must give exactly the documented payload.
 */
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  ReferenceModel,
  citesSite,
  doubleToRatio,
  formatGeneratedAt,
  ratioToNumber,
  websiteHost,
} from './model.js'
import { readJson, readNdjson } from '../support/ndjson.js'

const dir = fileURLToPath(new URL('../../fixtures/spec-example/', import.meta.url))

interface Query {
  endpoint: 'prompts' | 'competitors' | 'overview' | 'themes'
  domain_id: string
  days: number
  limit?: number
  model?: string
  now: string
}

function run(model: ReferenceModel, q: Query): unknown {
  const base = { domainId: q.domain_id, days: q.days, now: q.now }
  switch (q.endpoint) {
    case 'prompts':
      return model.computePromptSeries({ ...base, ...(q.limit === undefined ? {} : { limit: q.limit }) })
    case 'competitors':
      return model.computeCompetitorSeries({ ...base, ...(q.model === undefined ? {} : { model: q.model }) })
    case 'overview':
      return model.computeSentimentOverview({ ...base, ...(q.model === undefined ? {} : { model: q.model }) })
    case 'themes':
      return model.computeSentimentThemes({ ...base, ...(q.model === undefined ? {} : { model: q.model }) })
  }
}

describe('reference model: the spec example', () => {
  const model = new ReferenceModel()
  model.ingest(readNdjson(`${dir}data.ndjson`))
  const queries = readJson<Query[]>(`${dir}queries.json`)
  const expected = readJson<unknown[]>(`${dir}expected.json`)

  it('has six queries and six payloads', () => {
    expect(queries).toHaveLength(6)
    expect(expected).toHaveLength(6)
  })
  queries.forEach((q, i) => {
    it(`query ${i}: ${q.endpoint} days=${q.days} model=${q.model ?? '-'}`, () => {
      // Round-trip through JSON: the payload must be exactly what the wire would carry.
      expect(JSON.parse(JSON.stringify(run(model, q)))).toStrictEqual(expected[i])
    })
  })
})

describe('reference model: helpers', () => {
  it('generated_at drops zero milliseconds only', () => {
    expect(formatGeneratedAt(Date.UTC(2026, 10, 20, 15))).toBe('2026-11-20T15:00:00Z')
    expect(formatGeneratedAt(Date.UTC(2026, 10, 20, 15, 0, 0, 123))).toBe('2026-11-20T15:00:00.123Z')
  })
  it('website host: bare host, URL, www., null', () => {
    expect(websiteHost('www.Acme.com')).toBe('acme.com')
    expect(websiteHost('https://WWW.acme.com/en')).toBe('acme.com')
    expect(websiteHost('acme.com')).toBe('acme.com')
    expect(websiteHost('acme.com:8080/en')).toBe('acme.com')
    expect(websiteHost(null)).toBeNull()
  })
  it('citation hosts: site, www., subdomain, look-alikes', () => {
    const site = websiteHost('acme.com')
    expect(citesSite('https://acme.com/x', site)).toBe(true)
    expect(citesSite('http://www.ACME.com', site)).toBe(true)
    expect(citesSite('https://blog.acme.com/post', site)).toBe(true)
    expect(citesSite('https://acme.com.evil.net/', site)).toBe(false)
    expect(citesSite('https://notacme.com/', site)).toBe(false)
    expect(citesSite('https://acme.com@evil.net/', site)).toBe(false)
    expect(citesSite('https://evil.net\\@acme.com/', site)).toBe(false)
    expect(citesSite('https://evil.net\\.acme.com/', site)).toBe(false)
    expect(citesSite('https://acme.com./', site)).toBe(true)
    expect(citesSite('https://acme.com/', null)).toBe(false)
  })
})

describe('reference model: exact rationals', () => {
  it('ratioToNumber agrees with one IEEE division for integer operands', () => {
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 40 }), fc.integer({ min: 1, max: 2 ** 40 }), (a, b) => {
        expect(ratioToNumber({ num: BigInt(a), den: BigInt(b) })).toBe(a / b)
      }),
      { numRuns: 2000 },
    )
  })
  it('doubleToRatio is exact and round-trips', () => {
    const half = doubleToRatio(0.5)
    expect(half.num * 2n).toBe(half.den)
    const hundred = doubleToRatio(100)
    expect(hundred.num).toBe(100n * hundred.den)
    fc.assert(
      fc.property(fc.double({ min: 1e-300, max: 1e6, noNaN: true }), (x) => {
        expect(ratioToNumber(doubleToRatio(x))).toBe(x)
      }),
      { numRuns: 2000 },
    )
  })
  it('ratioToNumber rounds ties to even', () => {
    expect(ratioToNumber({ num: 2n ** 53n + 1n, den: 1n })).toBe(2 ** 53)
    expect(ratioToNumber({ num: 2n ** 53n + 3n, den: 1n })).toBe(2 ** 53 + 4)
    expect(ratioToNumber({ num: 400n, den: 9n })).toBe(44.44444444444444)
  })
})
