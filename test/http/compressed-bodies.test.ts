/**
 * A report's JSON bytes are compressed by the conventions hook (src/http/plugins/conventions.ts),
 * every other body by @fastify/compress. Both must answer alike: the same encoding for the same
 * Accept-Encoding (a report against /api/v1/openapi.json, a string @fastify/compress encodes), the
 * same Vary, a body that decodes to the identity body, and the ETag of the identity body. A body
 * kept by the response cache is compressed once per encoding; an uncached one on every answer.
 */
import * as zlib from 'node:zlib'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { seedDemo, type DemoDomain } from '../../src/demo/index.js'
import { API_PATHS, buildServer } from '../../src/http/index.js'
import { acceptedEncoding } from '../../src/http/plugins/conventions.js'
import { openEngine, type Engine } from '../../src/index.js'
import { bearer } from './helpers.js'

/** The hook's compressors, counted (they are bound when the module loads). */
const calls = vi.hoisted(() => ({ br: 0, gzip: 0 }))
vi.mock('node:zlib', async (original) => {
  const z = await original<typeof import('node:zlib')>()
  return {
    ...z,
    brotliCompress: (...args: Parameters<typeof z.brotliCompress>) => {
      calls.br++
      return z.brotliCompress(...args)
    },
    gzip: (...args: Parameters<typeof z.gzip>) => {
      calls.gzip++
      return z.gzip(...args)
    },
  }
})

const NOW = Date.parse('2026-11-20T15:00:30Z')

/** Accept-Encoding headers, ordinary and odd (q-values, wildcards, aliases, case, refusals). */
const ACCEPTS = [
  undefined,
  '',
  'gzip',
  'br',
  'gzip, br',
  'br, gzip',
  'gzip;q=1, br;q=0.5',
  'br;q=0.2, gzip;q=0.8',
  'gzip;q=0.5, br;q=0.5',
  '*',
  '*;q=0.1, gzip',
  'x-gzip',
  'BR',
  'GZip, Deflate',
  'deflate',
  'identity',
  'br;q=0',
  'gzip;q=0, br;q=0',
  'zstd, deflate, identity;q=0.5',
  ' gzip ; q=0.9 ,br;q=0.95',
]

const decode = (res: LightMyRequestResponse): string => {
  const raw = res.rawPayload
  const encoding = res.headers['content-encoding']
  if (encoding === 'br') return zlib.brotliDecompressSync(raw).toString()
  if (encoding === 'gzip') return zlib.gunzipSync(raw).toString()
  expect(encoding).toBeUndefined()
  return raw.toString()
}

describe('compressed report bodies', () => {
  let engine: Engine
  let cached: FastifyInstance
  let uncached: FastifyInstance
  let key: string
  let domain: DemoDomain

  beforeAll(async () => {
    engine = await openEngine()
    const seeded = await seedDemo(engine, { now: new Date(NOW), days: 30 })
    domain = seeded.domains.find((d) => d.plan === 'enterprise')!
    key = (await engine.createApiKey({ teamId: domain.teamId })).key
    const options = {
      engine,
      logger: false as const,
      clock: () => NOW,
      rateLimit: { limit: 1e6, windowSeconds: 60 },
    }
    cached = await buildServer(options)
    uncached = await buildServer({ ...options, cacheTtl: { seriesSeconds: 0, sentimentSeconds: 0 } })
  })
  afterAll(async () => {
    await cached.close()
    await uncached.close()
    await engine.close()
  })

  const report = () => `${API_PATHS['prompt-series']}?domain_id=${domain.id}&days=30`
  const get = (
    app: FastifyInstance,
    url: string,
    accept: string | undefined,
    method: 'GET' | 'HEAD' = 'GET',
  ) =>
    app.inject({
      method,
      url,
      headers: { ...bearer(key), ...(accept !== undefined && { 'accept-encoding': accept }) },
    })

  it('chooses what @fastify/compress chooses, for every Accept-Encoding', async () => {
    const plain = await get(cached, report(), undefined)
    expect(plain.rawPayload.length).toBeGreaterThan(1024)
    // The same report as CSV: a string, encoded by @fastify/compress.
    const csvUrl = `${report()}&format=csv`
    const csv = await get(cached, csvUrl, undefined)
    expect([typeof csv.body, csv.rawPayload.length > 1024]).toEqual(['string', true])
    for (const accept of ACCEPTS) {
      const mine = await get(cached, report(), accept)
      const theirs = await get(cached, csvUrl, accept)
      const seen = (r: LightMyRequestResponse) => [
        r.statusCode,
        r.headers['content-encoding'],
        r.headers.vary,
      ]
      expect(seen(mine), String(accept)).toEqual(seen(theirs))
      expect(theirs.headers['transfer-encoding'] ?? null, String(accept)).toBe(
        theirs.headers['content-encoding'] === undefined ? null : 'chunked',
      )
      expect(mine.headers['content-encoding'] ?? null, String(accept)).toBe(acceptedEncoding(accept))
      expect(decode(mine), String(accept)).toBe(plain.body)
      expect(decode(theirs), String(accept)).toBe(csv.body)
      expect(mine.headers.etag).toBe(plain.headers.etag)
      expect(mine.headers['content-length']).toBe(String(mine.rawPayload.length))
      // HEAD: the GET's headers, no body.
      const head = await get(cached, report(), accept, 'HEAD')
      expect([
        head.rawPayload.length,
        head.headers['content-encoding'],
        head.headers['content-length'],
      ]).toEqual([0, mine.headers['content-encoding'], mine.headers['content-length']])
    }
    // X-No-Compression asks for identity on both paths.
    for (const url of [report(), csvUrl]) {
      const res = await cached.inject({
        url,
        headers: { ...bearer(key), 'accept-encoding': 'gzip', 'x-no-compression': '1' },
      })
      expect(res.headers['content-encoding'], url).toBeUndefined()
    }
  })

  it('a 304 carries no Content-Encoding, as before compression', async () => {
    const first = await get(cached, report(), 'br')
    const again = await cached.inject({
      url: report(),
      headers: { ...bearer(key), 'accept-encoding': 'br', 'if-none-match': first.headers.etag as string },
    })
    expect([again.statusCode, again.headers['content-encoding'], again.rawPayload.length]).toEqual([
      304,
      undefined,
      0,
    ])
  })

  it('compresses a cached body once per encoding, an uncached one on every answer', async () => {
    const url = `${API_PATHS['competitor-series']}?domain_id=${domain.id}&days=29`
    const before = { ...calls }
    const answers = [await get(cached, url, 'br'), await get(cached, url, 'br'), await get(cached, url, 'br')]
    await get(cached, url, 'gzip')
    await get(cached, url, 'gzip')
    expect([calls.br - before.br, calls.gzip - before.gzip]).toEqual([1, 1])
    expect(new Set(answers.map((a) => a.rawPayload.toString('base64'))).size).toBe(1)
    expect(answers.map((a) => a.headers['x-cache'])).toEqual(['MISS', 'HIT', 'HIT'])

    const mid = { ...calls }
    for (let i = 0; i < 3; i++) expect(decode(await get(uncached, url, 'br'))).toBe(decode(answers[0]!))
    expect(calls.br - mid.br).toBe(3)
  })
})
