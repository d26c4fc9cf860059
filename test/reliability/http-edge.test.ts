/**
 * The HTTP edge over a real socket on 127.0.0.1 (the service in this process): the response
 * contract for requests refused by Node's parser or Fastify's router (issue items 3-8), the
 * pipelining and per-connection bounds, the connection cap, and a fuzz run whose logs must never
 * contain an API key, wherever the request carried it.
 *
 * Default 200 fuzz requests; VA_LONG=1 runs 3 000 (VA_LOG_FUZZ_RUNS overrides).
 */
import { randomUUID } from 'node:crypto'
import { METHODS } from 'node:http'
import { connect } from 'node:net'
import { gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer, startServer, type EdgeOptions, type RunningServer } from '../../src/http/index.js'
import { openEngine } from '../../src/index.js'
import { rawExchange, type RawExchange } from './http-child.js'
import { DOC_PATHS } from '../../src/http/plugins/docs.js'
import {
  API_PREFIX,
  LEAK,
  ROUTES,
  makeTenants,
  missingRoutes,
  route,
  routeUrl,
  validQuery,
  type Tenants,
} from './http-setup.js'

const LONG = process.env.VA_LONG === '1'
const FUZZ_RUNS = Number(process.env.VA_LOG_FUZZ_RUNS ?? (LONG ? 3_000 : 200))
const SEED = Number(process.env.VA_SEED ?? 909)
const ADMIN = 'admin-token-for-edge-tests-0123456789'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
/** Every route of the endpoint table, and the documents. */
const KNOWN_PATHS = [...ROUTES.map((e) => e.path), ...Object.values(DOC_PATHS)]
/** Routes of the table each test reached: the refusals of other methods, the log fuzz. */
const covered = { methods: new Set<string>(), logFuzz: new Set<string>() }
const idOf = (path: string) => ROUTES.find((e) => e.path === path)?.id
/** `url` with `&name=value` pairs appended to its query (or starting one). */
const withQuery = (url: string, pairs: string) =>
  pairs === '' || url.includes('?') ? `${url}${pairs}` : `${url}?${pairs.slice(1)}`

let t: Tenants
let server: RunningServer
let port: number
let logs = ''
const figures: string[] = []

beforeAll(async () => {
  t = await makeTenants()
  server = await startServer({
    engine: t.engine,
    port: 0,
    signals: [],
    closeEngine: false,
    adminToken: ADMIN,
    maxIngestBytes: 64 * 1024,
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
    logger: { level: 'trace', stream: { write: (m: string) => void (logs += m) } },
  })
  port = Number(new URL(server.url).port)
})

afterAll(async () => {
  await server?.close()
  await t?.engine.close()
  for (const f of figures) console.log(`[reliability] ${f}`)
})

/** The contract: JSON `{"detail"}` only, X-Request-Id (a UUID here), no-store, nosniff. */
function expectContract(r: RawExchange, status: number, detail: string | RegExp): void {
  expect(r.status, r.text.slice(0, 300)).toBe(status)
  expect(r.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(r.headers['cache-control']).toBe('no-store')
  expect(r.headers['x-content-type-options']).toBe('nosniff')
  expect(r.headers['x-request-id']).toMatch(UUID)
  const body = JSON.parse(r.body) as Record<string, unknown>
  expect(Object.keys(body)).toEqual(['detail'])
  expect(body.detail).toMatch(detail)
  expect(r.body).not.toMatch(LEAK)
}

const ingestHead = (headers: string) =>
  `POST /internal/v1/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN}\r\n${headers}\r\n`

describe('requests refused before any route runs answer the documented JSON (item 3)', () => {
  const ECHO = 'ATTACKER-SUPPLIED'
  const cases: Array<[string, string | Buffer, number, string | RegExp]> = [
    [
      'Content-Length and Transfer-Encoding together',
      `POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      400,
      'Bad request.',
    ],
    [
      'a 17 KB header',
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-${ECHO}: ${'a'.repeat(17_000)}\r\n\r\n`,
      431,
      'Request header fields too large.',
    ],
    [
      'raw UTF-8 in the URL',
      Buffer.concat([
        Buffer.from(`GET ${API_PREFIX}/${ECHO}-`),
        Buffer.from('ção', 'utf8'),
        Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
      ]),
      400,
      'Bad request.',
    ],
    [
      'a bad % escape in the URL',
      `GET ${API_PREFIX}/${ECHO}%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      400,
      'Bad request.',
    ],
    [
      'a 16 KB URL with a bad escape (Fastify used to echo it)',
      `GET ${API_PREFIX}/${ECHO}${'A'.repeat(15_000)}%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      400,
      'Bad request.',
    ],
    ['a garbage request line', `${ECHO} \x01\r\n\r\n`, 400, 'Bad request.'],
    [
      'a control character in a header value',
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: ${ECHO}\x01\r\n\r\n`,
      400,
      'Bad request.',
    ],
    ['HTTP/1.1 without Host', 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n', 400, /Host header/],
    [
      'an Expect other than 100-continue',
      `GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nExpect: ${ECHO}\r\n\r\n`,
      417,
      /100-continue/,
    ],
    [
      'a malformed chunk in an ingest body',
      ingestHead('Content-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n') + `zz${ECHO}\r\n`,
      400,
      'Bad request.',
    ],
  ]
  it.each(cases)('%s', async (name, request, status, detail) => {
    const before = logs.length
    const r = await rawExchange(port, request, { maxMs: 3_000 })
    expectContract(r, status, detail)
    expect(r.text).not.toContain(ECHO)
    // logged, with a code and the request id the client saw, and without the request's bytes
    const lines = logs
      .slice(before)
      .split('\n')
      .filter((l) => l.includes(r.headers['x-request-id']!))
    expect(lines.length, 'a log line with the request id').toBeGreaterThan(0)
    if (status !== 417 && !/Host/.test(String(detail)))
      expect(lines.some((l) => /"code":"(HPE_|FST_ERR_)/.test(l))).toBe(true)
    // the request's bytes are not logged; a path is, truncated to 200 characters
    if (!name.includes('URL')) expect(logs.slice(before)).not.toContain(ECHO)
    expect(logs.slice(before)).not.toContain('A'.repeat(201))
  })
})

describe('issue items 4 to 8', () => {
  it('4: an ingest with Content-Length 0 and no Content-Type is a 415, not a 500', async () => {
    const before = logs.length
    const r = await rawExchange(port, ingestHead('Content-Length: 0\r\nConnection: close\r\n'))
    expectContract(r, 415, 'Unsupported media type. Send NDJSON as application/x-ndjson.')
    expect(logs.slice(before)).not.toMatch(/"level":50|TypeError/)
    // with the content type, an empty body is an empty ingest
    const empty = await rawExchange(
      port,
      ingestHead('Content-Type: application/x-ndjson\r\nContent-Length: 0\r\nConnection: close\r\n'),
    )
    expect(empty.status).toBe(200)
    expect(JSON.parse(empty.body)).toMatchObject({ teams: 0, analyses: 0 })
  })

  it('5: an API key sent as a query parameter (or anywhere in the URL) is not logged', async () => {
    const key = [...t.keys.values()][0]!.secret
    const before = logs.length
    for (const url of [
      routeUrl(route('domain-list'), { api_key: key }),
      routeUrl(route('prompt-series'), { domain_id: [...t.domains.keys()][0]!, key }),
      routeUrl(route('sentiment-overview'), { model: key }),
      `${API_PREFIX}/${key}`,
      `${API_PREFIX}/${encodeURIComponent(key).replace(/_/g, '%5F')}`,
    ]) {
      const res = await fetch(`${server.url}${url}`)
      await res.arrayBuffer()
    }
    const written = logs.slice(before)
    expect(written).toContain(`"url":"${route('domain-list').path}?(1 other parameter)"`)
    expect(written).toContain('va_[redacted]')
    expect(written).not.toContain(key.slice('va_live_'.length))
  })

  it('7: an admin ingest moving a domain to another team is refused, nothing stored', async () => {
    const [domainId, teamId] = [...t.domains.entries()][0]!
    const other = [...t.teams.keys()].find((id) => id !== teamId)!
    const domain = (await t.engine.getDomain(domainId))!
    const line = JSON.stringify({ type: 'domain', ...domain, team_id: other })
    const r = await rawExchange(
      port,
      ingestHead(
        `Content-Type: application/x-ndjson\r\nContent-Length: ${line.length}\r\nConnection: close\r\n`,
      ) + line,
    )
    expect(r.status).toBe(400)
    const body = JSON.parse(r.body) as { issues: Array<{ line: number; field: string; message: string }> }
    expect(body.issues).toEqual([
      {
        line: 1,
        field: 'team_id',
        message: `the domain is stored under team ${teamId}; its team cannot change`,
      },
    ])
    expect((await t.engine.getDomain(domainId))?.team_id).toBe(teamId)
    // the other team's key still cannot read it
    const res = await fetch(`${server.url}${routeUrl(route('prompt-series'), { domain_id: domainId })}`, {
      headers: { authorization: `Bearer ${t.keys.get(other)!.secret}` },
    })
    expect(res.status).toBe(403)
  })

  it('8: an admin token with spaces is refused at start (it could never be presented)', async () => {
    await expect(
      buildServer({ engine: t.engine, logger: false, adminToken: 'an admin token with spaces' }),
    ).rejects.toThrow(/without spaces/)
  })

  it('8: Expect: 100-continue is answered only once the admin token and the headers passed', async () => {
    const expect100 = 'Content-Type: application/x-ndjson\r\nContent-Length: 10\r\nExpect: 100-continue\r\n'
    const wrong = await rawExchange(
      port,
      `POST /internal/v1/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer not-the-admin-token-000\r\n${expect100}\r\n`,
      { maxMs: 3_000 },
    )
    expect(wrong.text.startsWith('HTTP/1.1 401')).toBe(true)
    expect(wrong.text).not.toContain('100 Continue')
    expect(wrong.headers.connection).toBe('close')
    const right = await new Promise<string>((done) => {
      const s = connect(port, '127.0.0.1')
      let text = ''
      s.on('connect', () => s.write(ingestHead(`${expect100}Connection: close\r\n`)))
      s.on('data', (d: Buffer) => {
        text += d.toString('latin1')
        if (text === 'HTTP/1.1 100 Continue\r\n\r\n') s.write('\n\n\n\n\n\n\n\n\n\n')
      })
      s.on('close', () => done(text))
    })
    expect(right.startsWith('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200')).toBe(true)
  })

  it('8: a Content-Length over the limit is a 413 before any of the body is read', async () => {
    const r = await rawExchange(
      port,
      ingestHead(
        'Content-Type: application/x-ndjson\r\nContent-Length: 300000000\r\nExpect: 100-continue\r\n',
      ),
      { maxMs: 3_000 },
    )
    expectContract(r, 413, 'Request body too large.')
    expect(r.text).not.toContain('100 Continue')
    expect(r.headers.connection).toBe('close')
    expect(r.ms).toBeLessThan(2_000)
  })

  it('8: every other method on a known path is a 405 (PROPFIND, SEARCH, MKCOL...), on an unknown path a 404', async () => {
    const methods = METHODS.filter((m) => m !== 'CONNECT' && m !== 'GET' && m !== 'POST')
    for (const path of [...KNOWN_PATHS, '/internal/v1/ingest']) {
      const ingest = path === '/internal/v1/ingest'
      // HEAD is answered wherever GET is (docs/HTTP.md).
      for (const method of methods.filter((m) => ingest || m !== 'HEAD')) {
        const id = idOf(path)
        if (id !== undefined) covered.methods.add(id)
        const r = await rawExchange(
          port,
          `${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        )
        if (method === 'HEAD') expect(r.status).toBe(405)
        else expectContract(r, 405, 'Method not allowed.')
        expect(r.headers.allow).toBe(ingest ? 'POST' : 'GET, HEAD')
      }
    }
    for (const method of ['PROPFIND', 'SEARCH', 'MKCOL']) {
      const r = await rawExchange(port, `${method} /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
      expectContract(r, 404, 'Not found.')
    }
  })

  it('8: a gzip body is a 415 (by Content-Encoding or by its first bytes), nothing stored', async () => {
    const team = { type: 'team', id: randomUUID(), name: 'Zipped', plan: 'pro', developer_access: true }
    const zipped = gzipSync(`${JSON.stringify(team)}\n`)
    for (const extra of ['Content-Encoding: gzip\r\n', '']) {
      const r = await rawExchange(
        port,
        Buffer.concat([
          Buffer.from(
            ingestHead(
              `Content-Type: application/x-ndjson\r\n${extra}Content-Length: ${zipped.length}\r\nConnection: close\r\n`,
            ),
          ),
          zipped,
        ]),
      )
      expectContract(r, 415, /compressed bodies are not accepted/)
    }
    expect(await t.engine.getTeam(team.id)).toBeNull()
  })
})

/** Runs `fn` with the port of a second server over the same engine, with these edge limits. */
async function withEdge(edge: Partial<EdgeOptions>, fn: (port: number, url: string) => Promise<void>) {
  const s = await startServer({
    engine: t.engine,
    port: 0,
    signals: [],
    closeEngine: false,
    logger: false,
    edge,
  })
  try {
    await fn(Number(new URL(s.url).port), s.url)
  } finally {
    await s.close()
  }
}

describe('ingest requests in progress are bounded', () => {
  it('a fifth ingest while four bodies are arriving is a 503 with Retry-After; the slots come back', async () => {
    const head = ingestHead('Content-Type: application/x-ndjson\r\nContent-Length: 100\r\n')
    const holders = await Promise.all(
      [0, 1, 2, 3].map(
        () =>
          new Promise<ReturnType<typeof connect>>((done) => {
            const c = connect(port, '127.0.0.1', () => c.write(head, () => done(c)))
            c.on('error', () => undefined)
          }),
      ),
    )
    await new Promise((r) => setTimeout(r, 200))
    const fifth = await rawExchange(port, head, { maxMs: 3_000 })
    expectContract(fifth, 503, 'The service is busy. Please try again shortly.')
    expect(fifth.headers['retry-after']).toBe('1')
    expect(fifth.headers.connection).toBe('close')
    for (const c of holders) c.destroy()
    await new Promise((r) => setTimeout(r, 200))
    const after = await rawExchange(
      port,
      ingestHead('Content-Type: application/x-ndjson\r\nContent-Length: 1\r\nConnection: close\r\n') + '\n',
    )
    expect(after.status).toBe(200)
  })
})

describe('connection bounds', () => {
  /** Writes `count` pipelined requests at once (the last one asks to close), reads until closed. */
  const pipelined = (p: number, count: number) =>
    rawExchange(
      p,
      `${'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(count - 1)}GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      { maxMs: 3_000 },
    )

  it('up to maxPipelined requests in flight are answered in order; one more closes the connection', async () => {
    await withEdge({ maxPipelined: 4, keepAliveTimeoutMs: 200 }, async (p) => {
      const ok = await pipelined(p, 4)
      expect(ok.text.match(/HTTP\/1\.1 200/g)).toHaveLength(4)
      const cut = await pipelined(p, 5)
      expect(cut.text).not.toContain('HTTP/1.1 503')
      expect(cut.text.match(/HTTP\/1\.1 200/g)?.length ?? 0).toBeLessThan(5)
      expect(cut.ms).toBeLessThan(1_000) // closed at once, not by the keep-alive timeout
    })
  })

  it('maxRequestsPerSocket: the last answer says Connection: close and the connection closes; pipelined requests beyond it get no bare 503', async () => {
    await withEdge({ maxRequestsPerSocket: 3 }, async (p) => {
      const r = await rawExchange(p, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3), { maxMs: 3_000 })
      expect(r.text.match(/HTTP\/1\.1 200/g)).toHaveLength(3)
      expect(r.text.match(/Connection: close/gi)).toHaveLength(1)
      expect(r.ms).toBeLessThan(1_000) // closed by the server, not by the keep-alive timeout
      const over = await pipelined(p, 6)
      expect(over.text).not.toMatch(/HTTP\/1\.1 503/)
    })
  })

  it('beyond maxConnections the connection waiting longest on its client is closed to make room', async () => {
    await withEdge({ maxConnections: 3 }, async (p, url) => {
      const closed: number[] = []
      const idle = await Promise.all(
        [0, 1, 2].map(
          (i) =>
            new Promise<ReturnType<typeof connect>>((done) => {
              const c = connect(p, '127.0.0.1', () => {
                c.write('GET /healthz HTTP/1.1\r\nHost: x\r\n') // headers never finished
                done(c)
              })
              c.on('close', () => closed.push(i))
              c.on('error', () => undefined)
            }),
        ),
      )
      await new Promise((r) => setTimeout(r, 100))
      const res = await fetch(`${url}/healthz`, { headers: { connection: 'close' } })
      expect(res.status).toBe(200)
      await new Promise((r) => setTimeout(r, 100))
      expect(closed).toEqual([0])
      for (const c of idle) c.destroy()
    })
  })
})

describe('API keys never reach the logs, wherever a request carries them', () => {
  it(`${FUZZ_RUNS} fuzzed requests over a socket carrying keys in headers, parameters, paths and bodies: 0 in the logs`, async () => {
    const secrets = [...[...t.keys.values()].map((k) => k.secret), t.revoked]
    const domains = [...t.domains.keys()]
    const before = logs.length
    const variant = fc.constantFrom<(k: string) => string>(
      (k) => k,
      (k) => k.toUpperCase(),
      (k) => encodeURIComponent(k).replace(/_/g, '%5F'),
      (k) => [...k].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''),
      (k) => `${k}x`,
    )
    const place = fc.constantFrom(
      'authorization',
      'authorization-lower',
      'authorization-basic',
      'x-api-key',
      'cookie',
      'host',
      'x-request-id',
      'user-agent',
      'referer',
      'query-api_key',
      'query-model',
      'query-domain_id',
      'query-name',
      'path',
      'ingest-body',
      'get-body',
      'bad-url',
      'huge-header',
      'bad-header',
    )
    let requests = 0
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...secrets),
        variant,
        place,
        fc.constantFrom(...ROUTES, DOC_PATHS.health, '/nope'),
        fc.constantFrom(...domains),
        async (secret, encode, where, target, domain) => {
          const k = encode(secret)
          const path = typeof target === 'string' ? target : target.path
          if (typeof target !== 'string') covered.logFuzz.add(target.id)
          const q = where.startsWith('query-') ? `&${where === 'query-name' ? k : where.slice(6)}=${k}` : ''
          const url =
            where === 'path'
              ? `${API_PREFIX}/${k}`
              : where === 'bad-url'
                ? `${path}/${k}%zz`
                : typeof target === 'string'
                  ? `${path}?domain_id=${domain}${q}`
                  : withQuery(routeUrl(target, validQuery(target, domain)), q)
          const headers: string[] = ['Host: x', 'Connection: close']
          const h = (name: string, value: string) => headers.push(`${name}: ${value}`)
          if (where === 'authorization') h('Authorization', `Bearer ${k}`)
          if (where === 'authorization-lower') h('authorization', `bearer ${k}`)
          if (where === 'authorization-basic')
            h('Authorization', `Basic ${Buffer.from(`u:${k}`).toString('base64')}`)
          if (where === 'x-api-key') h('X-Api-Key', k)
          if (where === 'cookie') h('Cookie', `session=${k}`)
          if (where === 'host') headers[0] = `Host: ${k}`
          if (where === 'x-request-id') h('X-Request-Id', k)
          if (where === 'user-agent') h('User-Agent', k)
          if (where === 'referer') h('Referer', `https://example.com/?key=${k}`)
          if (where === 'huge-header') h('X-Key', `${k}${'a'.repeat(17_000)}`)
          if (where === 'bad-header') h('X-Key', `${k}\x01`)
          let body = ''
          let line = `GET ${url} HTTP/1.1`
          if (where === 'ingest-body') {
            line = 'POST /internal/v1/ingest HTTP/1.1'
            h('Authorization', `Bearer ${ADMIN}`)
            h('Content-Type', 'application/x-ndjson')
            body = `{"type":"${k}","id":"${k}"}\n{"type":"team","id":"x","name":"${k}"}\n`
          } else if (where === 'get-body') {
            h('Content-Type', 'application/json')
            body = JSON.stringify({ api_key: k })
          }
          if (body !== '') h('Content-Length', String(Buffer.byteLength(body)))
          const r = await rawExchange(port, `${line}\r\n${headers.join('\r\n')}\r\n\r\n${body}`, {
            maxMs: 3_000,
          })
          requests += 1
          if (where !== 'ingest-body') expect(r.text).not.toContain(secret.slice('va_live_'.length))
        },
      ),
      { numRuns: FUZZ_RUNS, seed: SEED },
    )
    const written = logs.slice(before)
    for (const secret of secrets) {
      const body = secret.slice('va_live_'.length)
      expect(written.includes(body), 'a key in the logs').toBe(false)
      expect(written.toLowerCase().includes(body.toLowerCase()), 'a key (any case) in the logs').toBe(false)
    }
    expect(written.split('\n').length).toBeGreaterThan(requests)
    figures.push(
      `log capture: ${requests} fuzzed requests (keys in 19 places, 5 encodings), ${written.length} bytes of trace logs: 0 occurrences of ${secrets.length} keys`,
    )
  }, 300_000)

  it('control: the search finds a key that is logged', async () => {
    const secret = [...t.keys.values()][0]!.secret
    let captured = ''
    const engine = await openEngine()
    const app = await buildServer({
      engine,
      logger: { level: 'info', stream: { write: (m: string) => void (captured += m) } },
    })
    app.log.info({ leaked: secret }, 'a careless line')
    await app.close()
    await engine.close()
    expect(captured.includes(secret.slice('va_live_'.length))).toBe(true)
  })
})

describe('every route of the endpoint table is edge-tested', () => {
  it('other methods refused and keys kept out of the logs on every route of the table', () => {
    expect(missingRoutes(covered.methods), 'other methods').toEqual([])
    expect(missingRoutes(covered.logFuzz), 'log fuzz').toEqual([])
  })
})
