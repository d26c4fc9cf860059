/**
 * The HTTP conventions (docs/HTTP.md) on every GET route of the service, the routes taken from the
 * endpoint table and the fixed paths (never listed here): gzip and br bodies decode to the plain
 * JSON; a weak ETag on every 200 and 304 on If-None-Match, counted by the rate limit and carrying
 * the contract headers; CORS preflights answered without a key for the listed origins only; HEAD
 * with the GET's status and headers and no body; CSV on every list route, parsed back to the JSON
 * payload's values; errors stay JSON.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { parse } from 'csv-parse/sync'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { seedDemo, type DemoDomain } from '../../src/demo/index.js'
import { CSV_TYPE, LIST_SEPARATOR } from '../../src/http/csv.js'
import { API_PATHS, buildServer } from '../../src/http/index.js'
import { COMPRESS_THRESHOLD, corsOriginsFrom, EXPOSED_HEADERS } from '../../src/http/plugins/conventions.js'
import { loadConfig } from '../../src/http/config.js'
import { CSV_LAYOUTS, FORMAT_DETAIL } from '../../src/http/plugins/endpoints.js'
import { DOC_PATHS } from '../../src/http/plugins/docs.js'
import { openEngine, type Engine } from '../../src/index.js'
import { bearer } from './helpers.js'

const NOW = Date.parse('2026-11-20T15:00:30Z')
const rows = ENDPOINTS as readonly Endpoint[]
const ALLOWED_ORIGIN = 'https://app.example.com'
const OTHER_ORIGIN = 'https://evil.example.net'

type Json = Record<string, unknown>

describe('HTTP conventions on every GET route', () => {
  let engine: Engine
  let app: FastifyInstance
  let key: string
  let domain: DemoDomain
  /** Every GET route: each table row with its required parameters, then the fixed public ones. */
  let routes: Array<{ id: string; url: string; keyed: boolean; row: Endpoint | null }>

  beforeAll(async () => {
    engine = await openEngine()
    const seeded = await seedDemo(engine, { now: new Date(NOW), days: 14 })
    domain = seeded.domains.find((d) => d.plan === 'enterprise')!
    key = (await engine.createApiKey({ teamId: domain.teamId })).key
    app = await buildServer({
      engine,
      logger: false,
      clock: () => NOW,
      rateLimit: { limit: 100_000, windowSeconds: 60 },
      corsOrigins: [ALLOWED_ORIGIN],
    })
    routes = [
      ...rows.map((row) => ({
        id: row.id,
        url: 'domain_id' in row.params ? `${row.path}?domain_id=${domain.id}` : row.path,
        keyed: true,
        row,
      })),
      ...Object.entries(DOC_PATHS).map(([id, url]) => ({ id, url, keyed: false, row: null })),
    ]
  })
  afterAll(async () => {
    await app.close()
    await engine.close()
  })

  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    app.inject({ method, url, headers: { ...bearer(key), ...headers } })

  /** The payload without what differs between two requests of one key (the key check's window). */
  const stable = (body: Json): Json => {
    const copy = structuredClone(body) as { data?: { rate_limit?: Json } }
    delete copy.data?.rate_limit?.remaining
    return copy as Json
  }

  function expectContract(res: LightMyRequestResponse, counted: boolean): void {
    expect(res.headers['x-request-id']).toMatch(/\S/)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    if (counted) {
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
        expect(res.headers[name], name).toMatch(/^\d+$/)
    }
  }

  it('the routes: every table row and the fixed GET paths, each answering 200 with a key', async () => {
    expect(routes.map((r) => r.url).every((u) => Object.values(API_PATHS).includes(u.split('?')[0]!))).toBe(
      true,
    )
    for (const route of routes) expect((await get(route.url)).statusCode, route.id).toBe(200)
  })

  it('gzip and br: above the threshold the body is compressed and decodes to the plain JSON', async () => {
    let compressed = 0
    for (const route of routes) {
      const plain = await get(route.url)
      expect(plain.headers['content-encoding'], route.id).toBeUndefined()
      for (const [encoding, decode] of [
        ['gzip', gunzipSync],
        ['br', brotliDecompressSync],
      ] as const) {
        const res = await get(route.url, { 'accept-encoding': encoding })
        expect(res.statusCode, route.id).toBe(200)
        expectContract(res, route.keyed)
        if (plain.rawPayload.length < COMPRESS_THRESHOLD) {
          expect(res.headers['content-encoding'], route.id).toBeUndefined()
          expect(stable(res.json())).toEqual(stable(plain.json()))
          continue
        }
        compressed += 1
        expect(res.headers['content-encoding'], `${route.id} ${encoding}`).toBe(encoding)
        expect(String(res.headers.vary)).toMatch(/accept-encoding/i)
        expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length)
        const decoded = JSON.parse(decode(res.rawPayload).toString('utf8')) as Json
        expect(stable(decoded), `${route.id} ${encoding}`).toEqual(stable(plain.json()))
      }
    }
    // Not vacuous: several bodies of the demo are above the threshold.
    expect(compressed).toBeGreaterThanOrEqual(4)
  })

  it('ETag on every 200, 304 on If-None-Match with the contract and rate-limit headers', async () => {
    for (const route of routes) {
      const first = await get(route.url)
      const etag = first.headers.etag as string
      expect(etag, route.id).toMatch(/^W\/".+"$/)
      const again = await get(route.url, { 'if-none-match': etag, 'x-request-id': `etag-${route.id}` })
      if (route.row?.keyed) {
        // The key check's body changes with every counted request: a new tag, a full answer.
        expect(again.statusCode, route.id).toBe(200)
        expect(again.headers.etag).not.toBe(etag)
        continue
      }
      expect(again.statusCode, route.id).toBe(304)
      expect(again.rawPayload.length).toBe(0)
      expect(again.headers.etag).toBe(etag)
      expect(again.headers['x-request-id']).toBe(`etag-${route.id}`)
      expectContract(again, route.keyed)
      // A list of tags, one of them matching, is a match too; a stale tag gets the body.
      const listed = await get(route.url, { 'if-none-match': `W/"stale", ${etag}` })
      expect(listed.statusCode).toBe(304)
      const stale = await get(route.url, { 'if-none-match': 'W/"stale"' })
      expect(stale.statusCode).toBe(200)
      expect(stale.headers.etag).toBe(etag)
    }
    // An error is never a 304 and has no tag, whatever If-None-Match says.
    for (const route of routes.filter((r) => r.keyed)) {
      const refused = await app.inject({ url: route.url, headers: { 'if-none-match': '*' } })
      expect([refused.statusCode, refused.headers.etag], route.id).toEqual([401, undefined])
    }
    const invalid = routes.find((r) => r.row?.access === 'series')!
    const bad = await get(`${invalid.url}&days=0`, { 'if-none-match': '*' })
    expect([bad.statusCode, bad.headers.etag]).toEqual([400, undefined])
    // Compressed or not, one body has one (weak) tag.
    const big = routes.find((r) => r.id === 'prompt-series')!
    const gz = await get(big.url, { 'accept-encoding': 'gzip' })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gz.headers.etag).toBe((await get(big.url)).headers.etag)
  })

  it('a 304 is counted by the rate limit: the limit answers 429 after 304s', async () => {
    const limited = await buildServer({
      engine,
      logger: false,
      clock: () => NOW,
      rateLimit: { limit: 3, windowSeconds: 60 },
    })
    try {
      const url = routes.find((r) => r.row?.access === 'series')!.url
      const headers = bearer(key)
      const first = await limited.inject({ url, headers })
      expect([first.statusCode, first.headers['x-ratelimit-remaining']]).toEqual([200, '2'])
      const conditional = { ...headers, 'if-none-match': first.headers.etag as string }
      const second = await limited.inject({ url, headers: conditional })
      expect([second.statusCode, second.headers['x-ratelimit-remaining']]).toEqual([304, '1'])
      const third = await limited.inject({ url, headers: conditional })
      expect([third.statusCode, third.headers['x-ratelimit-remaining']]).toEqual([304, '0'])
      const fourth = await limited.inject({ url, headers: conditional })
      expect(fourth.statusCode).toBe(429)
      expect(fourth.headers['retry-after']).toMatch(/^\d+$/)
      expect(fourth.json()).toEqual({ detail: expect.any(String) })
    } finally {
      await limited.close()
    }
  })

  it('HEAD on every GET route: the same status and headers, no body; 401 without a key', async () => {
    for (const route of routes) {
      const full = await get(route.url)
      const head = await get(route.url, {}, 'HEAD')
      expect(head.statusCode, route.id).toBe(200)
      expect(head.rawPayload.length, route.id).toBe(0)
      for (const name of ['content-type', 'content-length', 'etag', 'x-cache', 'x-ratelimit-limit']) {
        if (route.row?.keyed && name !== 'content-type' && name !== 'x-ratelimit-limit') continue
        expect(head.headers[name], `${route.id} ${name}`).toBe(full.headers[name])
      }
      expectContract(head, route.keyed)
      if (route.keyed) {
        const anonymous = await app.inject({ method: 'HEAD', url: route.url })
        expect(anonymous.statusCode, route.id).toBe(401)
        expect(anonymous.rawPayload.length).toBe(0)
      }
    }
  })

  it('CORS: a preflight of a listed origin is answered without a key; other origins get no grant', async () => {
    for (const route of routes) {
      const preflight = {
        origin: ALLOWED_ORIGIN,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization, x-request-id',
      }
      const ok = await app.inject({ method: 'OPTIONS', url: route.url, headers: preflight })
      expect(ok.statusCode, route.id).toBe(204)
      expect(ok.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN)
      expect(String(ok.headers['access-control-allow-headers'])).toMatch(/authorization/i)
      expect(String(ok.headers['access-control-allow-methods'])).toMatch(/GET/)
      expectContract(ok, false)
      const denied = await app.inject({
        method: 'OPTIONS',
        url: route.url,
        headers: { ...preflight, origin: OTHER_ORIGIN },
      })
      expect(denied.statusCode, route.id).toBe(405)
      expect(denied.headers['access-control-allow-origin']).toBeUndefined()
      expect(denied.json()).toEqual({ detail: 'Method not allowed.' })
      // The actual request: the grant and the exposed contract headers.
      const res = await get(route.url, { origin: ALLOWED_ORIGIN })
      expect(res.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN)
      const exposed = String(res.headers['access-control-expose-headers']).toLowerCase().split(/,\s*/)
      expect(exposed).toEqual(expect.arrayContaining(EXPOSED_HEADERS.map((h) => h.toLowerCase())))
      expect(String(res.headers.vary)).toMatch(/origin/i)
      const other = await get(route.url, { origin: OTHER_ORIGIN })
      expect(other.headers['access-control-allow-origin']).toBeUndefined()
    }
  })

  it('CORS is off by default: a preflight is a 405 without a grant', async () => {
    const plain = await buildServer({ engine, logger: false, clock: () => NOW })
    try {
      for (const route of routes) {
        const res = await plain.inject({
          method: 'OPTIONS',
          url: route.url,
          headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'GET' },
        })
        expect(res.statusCode, route.id).toBe(405)
        expect(res.headers['access-control-allow-origin']).toBeUndefined()
      }
    } finally {
      await plain.close()
    }
  })

  /** A cell of the CSV read back as the JSON value it stands for (the type of `like`). */
  function decodeCell(cell: string, like: unknown): unknown {
    if (like === null || like === undefined) return cell === '' ? like : cell
    // A list of objects is a JSON cell (the answers listing's mentions, citations, themes).
    if (Array.isArray(like) && (cell.startsWith('[') || like.some((e) => typeof e === 'object')))
      return JSON.parse(cell) as unknown
    if (Array.isArray(like)) return cell === '' ? [] : cell.split(LIST_SEPARATOR)
    // Strict: an empty or malformed cell stays a string, so it never equals the JSON value.
    if (typeof like === 'number') return /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(cell) ? Number(cell) : cell
    if (typeof like === 'boolean') return cell === 'true' ? true : cell === 'false' ? false : cell
    return cell
  }

  /** The items of `payload` rebuilt from CSV records (grouped by the item columns). */
  function itemsFromCsv(records: Array<Record<string, string>>, columns: string[], items: Json[]): Json[] {
    const nested = columns.filter((c) => c.includes('.'))
    const prefix = nested[0]?.split('.')[0]
    const itemColumns = columns.filter((c) => !c.includes('.'))
    const out: Json[] = []
    let row = 0
    for (const item of items) {
      const rebuilt: Json = {}
      const first = records[row]!
      for (const c of itemColumns) rebuilt[c] = decodeCell(first[c]!, item[c])
      if (prefix === undefined) {
        row += 1
      } else {
        const elements = (item[prefix] as Json[] | undefined) ?? []
        const count = Math.max(1, elements.length)
        rebuilt[prefix] = elements.map((element, i) => {
          const record = records[row + i]!
          for (const c of itemColumns) expect(record[c], `${c} repeated`).toBe(first[c])
          return Object.fromEntries(
            nested.map((c) => {
              const field = c.slice(prefix.length + 1)
              return [field, decodeCell(record[c]!, element[field])]
            }),
          )
        })
        row += count
      }
      out.push(rebuilt)
    }
    expect(row).toBe(records.length)
    return out
  }

  it('CSV: every list route, by format=csv and by Accept, parses back to the JSON payload', async () => {
    const lists = rows.filter((row) => CSV_LAYOUTS.has(row.id))
    // The list routes are exactly those whose JSON payload has a data.items array.
    const withItems: string[] = []
    for (const route of routes.filter((r) => r.row !== null)) {
      const body = (await get(route.url)).json() as { data?: { items?: unknown } }
      // The query's rows have the fields its `dimensions` name, in their order: no fixed CSV
      // columns, so JSON only (docs/HTTP.md, "CSV").
      if (Array.isArray(body.data?.items) && route.id !== 'query') withItems.push(route.id)
    }
    expect(lists.map((r) => r.id).sort()).toEqual(withItems.sort())
    let nestedRows = 0
    for (const row of lists) {
      const route = routes.find((r) => r.id === row.id)!
      const json = (await get(route.url)).json() as { data: { items: Json[] } }
      expect(json.data.items.length, `${row.id} has items in the demo`).toBeGreaterThan(0)
      const sep = route.url.includes('?') ? '&' : '?'
      const byParam = await get(`${route.url}${sep}format=csv`)
      const byAccept = await get(route.url, { accept: 'text/csv' })
      for (const res of [byParam, byAccept]) {
        expect(res.statusCode, row.id).toBe(200)
        expect(res.headers['content-type']).toBe(CSV_TYPE)
        expect(res.headers.etag).toMatch(/^W\//)
        expectContract(res, true)
      }
      expect(byAccept.body).toBe(byParam.body)
      const columns = CSV_LAYOUTS.get(row.id)!.columns
      const records = parse(byParam.body, { columns: true, skip_empty_lines: true }) as Array<
        Record<string, string>
      >
      expect(Object.keys(records[0]!)).toEqual(columns)
      if (CSV_LAYOUTS.get(row.id)!.nested === null && columns.some((c) => c.includes('.'))) {
        // Nested objects flattened with dotted names (the signals): one row per item.
        expect(records.length, row.id).toBe(json.data.items.length)
        continue
      }
      if (columns.some((c) => c.includes('.'))) nestedRows += records.length - json.data.items.length
      const itemColumns = columns.filter((c) => !c.includes('.'))
      const prefix = columns.find((c) => c.includes('.'))?.split('.')[0]
      const expected = json.data.items.map((item) =>
        Object.fromEntries(Object.entries(item).filter(([k]) => itemColumns.includes(k) || k === prefix)),
      )
      expect(itemsFromCsv(records, columns, json.data.items), row.id).toEqual(expected)
      // Every field of an item is a column (nothing silently dropped).
      for (const item of json.data.items)
        for (const k of Object.keys(item))
          expect(itemColumns.includes(k) || k === prefix, `${row.id}.${k}`).toBe(true)
    }
    // Series are flattened one row per datapoint.
    expect(nestedRows).toBeGreaterThan(0)
  })

  it('CSV: format is not part of the cache key; errors stay JSON; a bad format or CSV of a non-list is a 400', async () => {
    const row = rows.find((r) => r.cache !== 'none' && CSV_LAYOUTS.has(r.id) && 'days' in r.params)!
    const url = `${row.path}?domain_id=${domain.id}&days=9`
    expect((await get(url)).headers['x-cache']).toBe('MISS')
    const csv = await get(`${url}&format=csv`)
    expect([csv.statusCode, csv.headers['x-cache']]).toEqual([200, 'HIT'])
    const anonymous = await app.inject({ url: `${url}&format=csv`, headers: { accept: 'text/csv' } })
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.headers['content-type']).toMatch(/^application\/json/)
    expect(anonymous.json()).toEqual({ detail: expect.any(String) })
    const invalid = await get(`${row.path}?domain_id=${domain.id}&days=0&format=csv`)
    expect(invalid.statusCode).toBe(400)
    expect(invalid.json()).toEqual({ detail: expect.stringMatching(/days/) })
    const bad = await get(`${url}&format=xml`)
    expect([bad.statusCode, bad.json()]).toEqual([400, { detail: FORMAT_DETAIL }])
    const notList = rows.find((r) => !CSV_LAYOUTS.has(r.id) && r.access !== 'none')!
    const refused = await get(`${notList.path}?domain_id=${domain.id}&format=csv`)
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual({ detail: expect.stringMatching(/^format must be json/) })
    // Accept is a preference: where no CSV form exists the answer is JSON.
    const preferred = await get(`${notList.path}?domain_id=${domain.id}`, { accept: 'text/csv' })
    expect([preferred.statusCode, preferred.headers['content-type']]).toEqual([
      200,
      'application/json; charset=utf-8',
    ])
    // JSON preferred over CSV by quality.
    const json = await get(url, { accept: 'text/csv;q=0.5, application/json' })
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8')
  })

  it('VA_CORS_ORIGINS: comma-separated origins; a path, a wildcard or another scheme stops the start', () => {
    expect(loadConfig({}).corsOrigins).toEqual([])
    expect(
      loadConfig({ VA_CORS_ORIGINS: ' https://a.example , http://localhost:5173,' }).corsOrigins,
    ).toEqual(['https://a.example', 'http://localhost:5173'])
    for (const bad of ['https://a.example/', 'https://a.example/app', '*', 'ftp://a.example', 'a.example'])
      expect(() => corsOriginsFrom(bad), bad).toThrow(/^VA_CORS_ORIGINS must list origins/)
  })
})
