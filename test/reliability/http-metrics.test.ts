/**
 * /metrics stays bounded under odd requests: every method Node parses x every
 * route of the server (the endpoint table's, the documents', /mcp, the admin routes) and unknown
 * paths x answers of several statuses. Unknown methods and 405s fold into one method label,
 * unmatched paths into one route label, so the series are bounded by the routes (each: the
 * methods it serves, and OTHER) times the statuses, however many odd requests arrive.
 */
import { METHODS } from 'node:http'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS as TABLE, type Endpoint } from '../../src/api/index.js'
import { buildServer } from '../../src/http/index.js'
import { OTHER_METHOD, SERVED_METHODS, UNMATCHED_ROUTE } from '../../src/http/metrics.js'
import { INGEST_PATH } from '../../src/http/plugins/admin.js'
import { DOC_PATHS } from '../../src/http/plugins/docs.js'
import { OPERATION_PATHS } from '../../src/http/plugins/operations.js'
import { MCP_PATH } from '../../src/mcp/http.js'
import { makeTenants, routeUrl, validQuery, type Tenants } from './http-setup.js'

const ADMIN = 'admin-token-for-metrics-tests-0123456789'
const SEED = Number(process.env.VA_SEED ?? 8)
const ROUTES = TABLE as readonly Endpoint[]
/** Every route template of the server. */
const TEMPLATES = [
  ...ROUTES.map((e) => e.path),
  ...Object.values(DOC_PATHS),
  MCP_PATH,
  INGEST_PATH,
  ...Object.values(OPERATION_PATHS),
]
/** What the parser lets through (CONNECT is a tunnel, not a request). */
const PARSED_METHODS = METHODS.filter((m) => m !== 'CONNECT')

let t: Tenants
let app: FastifyInstance

beforeAll(async () => {
  t = await makeTenants()
  app = await buildServer({
    engine: t.engine,
    adminToken: ADMIN,
    logger: false,
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
  })
  await app.ready()
})
afterAll(async () => {
  await app?.close()
  await t?.engine.close()
})

/** The label sets of one metric in a scrape. */
function series(text: string, metric: string): Array<Record<string, string>> {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${metric}{`))
    .map((l) => Object.fromEntries([...l.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!])))
}

describe('metrics under odd methods, paths and statuses', () => {
  it('every method x every route and unknown path, with answers of several statuses: labels from closed sets, series bounded by the routes', async () => {
    const key = [...t.keys.values()][0]!.secret
    const domain = [...t.domains.keys()][0]!
    const unknown = fc.sample(fc.webPath({ size: 'small' }), { numRuns: 4, seed: SEED }).map((p) => `/x${p}`)
    const paths = [
      ...TEMPLATES.map((p) => p.replace(':id', '00000000-0000-4000-8000-000000000000')),
      ...unknown,
    ]
    const variants: Array<Record<string, string>> = [
      {},
      { authorization: `Bearer ${key}` },
      { authorization: `Bearer ${ADMIN}` },
      { authorization: 'Bearer not-a-key' },
    ]
    const statuses = new Set<number>()
    let sent = 0
    for (const url of paths)
      for (const method of PARSED_METHODS) {
        const headers = variants[sent % variants.length]!
        const res = await app.inject({ method: method as 'GET', url, headers })
        statuses.add(res.statusCode)
        sent += 1
      }
    // and a valid request of every table route (answers 200)
    for (const e of ROUTES) {
      const res = await app.inject({ url: routeUrl(e, validQuery(e, domain)), headers: variants[1]! })
      statuses.add(res.statusCode)
      sent += 1
    }
    const text = (
      await app.inject({ url: OPERATION_PATHS.metrics, headers: { authorization: `Bearer ${ADMIN}` } })
    ).body
    const requests = series(text, 'va_http_requests_total')
    const latency = series(text, 'va_http_request_duration_seconds_count')

    const httpSeries = text.split('\n').filter((l) => l.startsWith('va_http_')).length
    console.log(
      `[reliability] metrics: ${sent} requests (every method x ${paths.length} paths, ${statuses.size} statuses): ${new Set(latency.map((s) => `${s.method} ${s.route}`)).size} method x route pairs, ${requests.length} request counter series, ${httpSeries} va_http_* series, ${text.length} bytes per scrape`,
    )
    const routeLabels = new Set(requests.map((s) => s.route!))
    const methodLabels = new Set(requests.map((s) => s.method!))
    for (const route of routeLabels) expect([...TEMPLATES, UNMATCHED_ROUTE], route).toContain(route)
    for (const method of methodLabels) expect([...SERVED_METHODS, OTHER_METHOD], method).toContain(method)
    // no method answered 405 is labelled as itself; every table route was seen
    for (const s of requests) if (s.status === '405') expect(s.method).toBe(OTHER_METHOD)
    for (const e of ROUTES) expect(routeLabels, e.path).toContain(e.path)
    expect(routeLabels).toContain(UNMATCHED_ROUTE)

    // the bound: each route the methods it allows (its 405's Allow header) and OTHER; unmatched
    // paths the served methods and OTHER
    const pairs = new Set(latency.map((s) => `${s.method} ${s.route}`))
    let pairBound = SERVED_METHODS.size + 1
    for (const template of TEMPLATES) {
      const url = template.replace(':id', '00000000-0000-4000-8000-000000000000')
      const allow = String((await app.inject({ method: 'PROPFIND', url })).headers.allow).split(/,\s*/)
      const labelled = requests.filter((s) => s.route === template).map((s) => s.method!)
      for (const m of labelled) expect([...allow, 'HEAD', OTHER_METHOD], `${m} ${template}`).toContain(m)
      pairBound += allow.length + 2 // its methods, HEAD beside GET, OTHER
    }
    expect(pairs.size, `bound ${pairBound}`).toBeLessThanOrEqual(pairBound)
    expect(requests.length).toBeLessThanOrEqual(pairs.size * statuses.size)
    const combos = paths.length * PARSED_METHODS.length
    // before the fold each method x path combination was a pair of its own
    expect(pairs.size * 10).toBeLessThan(combos)
  }, 120_000)
})
