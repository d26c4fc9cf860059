/**
 * The request metrics counted locally and handed to the registry at scrape (src/http/metrics.ts)
 * expose exactly what prom-client's own Counter and Histogram expose for the same observations:
 * the same lines (names, label order, cumulative buckets, +Inf, _sum, _count), values on a bucket's
 * bound included, over several scrapes with observations between them.
 */
import { Counter, Histogram, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { ENDPOINTS } from '../../src/api/index.js'
import { OTHER_METHOD, SERVED_METHODS, ServiceMetrics, type RequestSample } from '../../src/http/metrics.js'
import type { Engine } from '../../src/types.js'
import { Rng } from '../support/random.js'

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
/** Route labels: the endpoint table's paths (never a hand-written list), plus two outside it. */
const ROUTES = [...ENDPOINTS.map((e) => e.path), 'unmatched', '/healthz']
const STATUSES = [200, 304, 400, 403, 404, 405, 429, 503]
const METHODS = ['GET', 'POST', 'PROPFIND']
const CACHE = [undefined, 'HIT', 'MISS']
const NAMES = ['va_http_requests_total', 'va_http_request_duration_seconds', 'va_response_cache_total']

/** prom-client's own metrics, fed the way the service fed them before. */
function reference() {
  const registry = new Registry()
  const registers = [registry]
  const requests = new Counter({
    name: NAMES[0]!,
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'],
    registers,
  })
  const latency = new Histogram({
    name: NAMES[1]!,
    help: 'Time from receiving a request to the end of its answer, by method and route template.',
    labelNames: ['method', 'route'],
    buckets: LATENCY_BUCKETS,
    registers,
  })
  const cache = new Counter({
    name: NAMES[2]!,
    help: 'Report answers served from the response cache (hit) or computed (miss), by route.',
    labelNames: ['route', 'result'],
    registers,
  })
  return {
    registry,
    observe(s: RequestSample) {
      const route = s.route ?? 'unmatched'
      const method = s.status !== 405 && SERVED_METHODS.has(s.method) ? s.method : OTHER_METHOD
      requests.inc({ method, route, status: String(s.status) })
      latency.observe({ method, route }, s.seconds)
      if (s.status === 200 && (s.cache === 'HIT' || s.cache === 'MISS'))
        cache.inc({ route, result: s.cache === 'HIT' ? 'hit' : 'miss' })
    },
  }
}

/** The lines of `text` that belong to `names`, sorted (series order is not part of the format). */
const linesOf = (text: string, names: string[]) =>
  text
    .split('\n')
    .filter((l) =>
      names.some((n) => l.startsWith(n) || l.startsWith(`# HELP ${n} `) || l.startsWith(`# TYPE ${n} `)),
    )
    .sort()

describe('request metrics counted locally', () => {
  it('expose the same text as prom-client for the same requests, scrape after scrape', async () => {
    const rand = new Rng(7)
    const engine = { isOpen: false } as unknown as Engine
    const local = new ServiceMetrics(engine)
    const ref = reference()
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand.next() * xs.length)]!
    for (let scrape = 0; scrape < 3; scrape++) {
      for (let i = 0; i < 400; i++) {
        // a third of the durations exactly on a bucket's bound, some above the last one
        const r = rand.next()
        const seconds =
          r < 0.33 ? pick(LATENCY_BUCKETS) : r < 0.4 ? 10 + rand.next() * 5 : rand.next() * rand.next() * 3
        const sample: RequestSample = {
          method: pick(METHODS),
          route: pick([...ROUTES, null]),
          status: pick(STATUSES),
          seconds,
          cache: pick(CACHE),
        }
        local.observeRequest(sample)
        ref.observe(sample)
      }
      const mine = linesOf(await local.registry.metrics(), NAMES)
      const theirs = linesOf(await ref.registry.metrics(), NAMES)
      expect(mine.length).toBeGreaterThan(100)
      expect(mine).toEqual(theirs)
    }
  })

  it('times each report computation under its endpoint id', async () => {
    const local = new ServiceMetrics({ isOpen: false } as unknown as Engine)
    await local.timeQuery('prompt-series', async () => 1)
    await local.timeQuery('prompt-series', async () => 2)
    await expect(local.timeQuery('domains', () => Promise.reject(new Error('x')))).rejects.toThrow('x')
    const text = await local.registry.metrics()
    expect(text).toContain('va_query_duration_seconds_count{report="prompt-series"} 2')
    expect(text).toContain('va_query_duration_seconds_count{report="domains"} 1')
    expect(text).toMatch(/va_query_duration_seconds_bucket\{le="\+Inf",report="prompt-series"\} 2/)
  })
})
