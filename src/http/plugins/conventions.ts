/**
 * @module Ordinary HTTP conventions for every route (docs/HTTP.md): CORS for the origins of
 * VA_CORS_ORIGINS (@fastify/cors, off when the list is empty; a preflight is answered before any
 * key is read), a weak ETag on every 200 of a GET or HEAD and 304 on a matching If-None-Match (the
 * request was authenticated and counted by then, so a 304 carries the rate-limit and contract
 * headers like a 200), gzip or br above 1 KB when the client accepts it (a JSON body sent as
 * bytes here, once per body and encoding; any other by @fastify/compress, with the same choice).
 * HEAD on every GET route is Fastify's `exposeHeadRoutes` (src/http/server.ts).
 */
import { hash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib'
import { negotiate } from '@fastify/accept-negotiator'
import fastifyCompress from '@fastify/compress'
import fastifyCors from '@fastify/cors'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { JSON_TYPE } from '../edge/index.js'

/** Bodies smaller than this many bytes are sent uncompressed. */
export const COMPRESS_THRESHOLD = 1024
/** The encodings offered, preferred first. */
export const ENCODINGS = ['br', 'gzip'] as const
export type Encoding = (typeof ENCODINGS)[number]

/** Response headers a browser script may read (Access-Control-Expose-Headers). */
export const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-Cache',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'ETag',
  'WWW-Authenticate',
] as const
/** Request headers a browser script may send (Access-Control-Allow-Headers). */
export const ALLOWED_HEADERS = ['Authorization', 'X-Request-Id', 'If-None-Match', 'Accept'] as const
/** Methods a browser script may use (the read API). */
export const CORS_METHODS = ['GET', 'HEAD'] as const
/** Seconds a browser may keep a preflight answer. */
export const CORS_MAX_AGE = 600

export interface ConventionsOptions {
  /** Origins allowed to call the API from a browser (exact `scheme://host[:port]`); [] for none. */
  corsOrigins?: readonly string[]
}

/**
 * The weak ETag of a body: its SHA-1, base64url (weak: the same tag is sent for the gzip, br and
 * identity encodings of one body). Hashed in one call (no Hash object: 2-20 µs less a body).
 * @example
 * etagOf('{"a":1}') // 'W/"..."'
 */
export function etagOf(body: string | Buffer): string {
  return `W/"${hash('sha1', body, 'base64url')}"`
}

/** Whether an If-None-Match header matches `etag` (weak comparison; `*` matches any). */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  const opaque = etag.replace(/^W\//, '')
  return header.split(',').some((tag) => {
    const t = tag.trim()
    return t === '*' || t.replace(/^W\//, '') === opaque
  })
}

/**
 * The encoding a response is sent in for an Accept-Encoding header, or null for identity: the
 * choice @fastify/compress makes (its negotiator over ENCODINGS, `*` and `x-gzip` read as gzip).
 * @example
 * acceptedEncoding('gzip, br') // 'br'
 */
export function acceptedEncoding(header: string | undefined): Encoding | null {
  if (header === undefined) return null
  return negotiate(header.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), [...ENCODINGS]) as Encoding | null
}

/**
 * Adds `value` to the Vary header unless it is listed (any case; CORS may have set Origin).
 * @example
 * addVary(reply, 'Accept')
 */
export function addVary(reply: FastifyReply, value: string): void {
  const current = reply.getHeader('vary')
  const values =
    current === undefined
      ? []
      : String(current)
          .split(',')
          .map((v) => v.trim())
  if (!values.some((v) => v.toLowerCase() === value.toLowerCase())) values.push(value)
  reply.header('vary', values.join(', '))
}

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)
/** @fastify/compress's options: brotli at quality 4, gzip at zlib's defaults. */
const BROTLI_OPTIONS = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } }
const compressors: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => brotliAsync(body, BROTLI_OPTIONS),
  gzip: (body) => gzipAsync(body),
}

/**
 * The encoded forms of a JSON body sent as bytes (a report's answer, the OpenAPI document), by
 * encoding, for as long as the body lives: a body kept by the response cache is compressed once
 * per encoding (in libuv's pool, off the event loop), then every hit writes those bytes.
 */
const encodedBodies = new WeakMap<Buffer, Partial<Record<Encoding, Promise<Buffer>>>>()

/**
 * `body` in the encoding the request accepts (setting Content-Encoding and Vary), or `body` itself
 * when it is below COMPRESS_THRESHOLD, the client accepts no offered encoding or asked for none
 * (X-No-Compression).
 */
async function encodedBody(request: FastifyRequest, reply: FastifyReply, body: Buffer): Promise<Buffer> {
  if (body.length < COMPRESS_THRESHOLD || request.headers['x-no-compression'] !== undefined) return body
  const encoding = acceptedEncoding(request.headers['accept-encoding'])
  if (encoding === null) return body
  let forms = encodedBodies.get(body)
  if (forms === undefined) encodedBodies.set(body, (forms = {}))
  const encoded = await (forms[encoding] ??= compressors[encoding](body))
  addVary(reply, 'accept-encoding')
  reply.header('content-encoding', encoding)
  return encoded
}

const conventions: FastifyPluginAsync<ConventionsOptions> = async (app, options) => {
  const origins = new Set(options.corsOrigins ?? [])
  if (origins.size > 0) {
    await app.register(fastifyCors, {
      // A denied origin gets no CORS headers; its preflight falls through to the route's 405.
      origin: (origin, callback) => callback(null, origin !== undefined && origins.has(origin)),
      methods: [...CORS_METHODS],
      allowedHeaders: [...ALLOWED_HEADERS],
      exposedHeaders: [...EXPOSED_HEADERS],
      maxAge: CORS_MAX_AGE,
      strictPreflight: false,
      hideOptionsRoute: true,
    })
  }

  // Before compression (a route-level hook of @fastify/compress, run after this one): the tag is
  // the hash of the identity body.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode !== 200 || (request.method !== 'GET' && request.method !== 'HEAD'))
      return done(null, payload)
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload)
    // A report's answer comes with its tag (hashed once per cached body: src/http/plugins/endpoints.ts).
    const given = reply.getHeader('etag')
    const etag = typeof given === 'string' ? given : etagOf(payload)
    reply.header('etag', etag)
    if (!ifNoneMatchHits(request.headers['if-none-match'], etag)) {
      // JSON bytes are compressed here (and kept with the body: a cached one); any other
      // body by @fastify/compress, which leaves a body with a Content-Encoding as it is.
      if (!Buffer.isBuffer(payload) || reply.getHeader('content-type') !== JSON_TYPE)
        return done(null, payload)
      return void encodedBody(request, reply, payload).then((body) => done(null, body), done)
    }
    reply.code(304)
    reply.removeHeader('content-type')
    reply.removeHeader('content-length')
    done(null, '')
  })

  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    encodings: [...ENCODINGS],
    threshold: COMPRESS_THRESHOLD,
  })
}

/** CORS, ETag/304 and compression for the whole server (register before any route). */
export const conventionsPlugin = fp(conventions, { name: 'va-conventions' })

/**
 * The origins of VA_CORS_ORIGINS: comma-separated `scheme://host[:port]`, each checked; empty or
 * unset: none (CORS off). Throws naming the variable and the bad entry.
 * @example
 * corsOriginsFrom('https://app.example.com, http://localhost:5173')
 */
export function corsOriginsFrom(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return []
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      let url: URL | null = null
      try {
        url = new URL(entry)
      } catch {
        url = null
      }
      if (url === null || !/^https?:$/.test(url.protocol) || url.origin !== entry)
        throw new Error(
          `VA_CORS_ORIGINS must list origins such as https://app.example.com (scheme, host and port only, comma-separated); got ${JSON.stringify(entry.slice(0, 100))}.`,
        )
      return entry
    })
}
