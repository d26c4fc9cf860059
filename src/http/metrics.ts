/**
 * @module The service's Prometheus metrics (prom-client), one registry per server: requests by
 * route and status, latency, response-cache hits and misses, rate-limited and shed requests,
 * ingest calls, records and seconds, rows deleted, query durations by report, backups and prunes,
 * and, read from the engine at each scrape, the aggregate cache and the database file size; plus
 * prom-client's process metrics.
 *
 * Every label value comes from a closed set: route templates (`/api/v1/sentiment/themes`, never a
 * raw URL; `unmatched` for every request no route matched), the seven methods a route may serve
 * (`OTHER` for any other method, and for every request answered 405), status
 * codes, endpoint ids, table names, fixed outcomes. No domain id, key, token or other request
 * value ever becomes a label, and odd methods x paths cannot multiply the series: their number is
 * bounded by the routes of the server (each: the methods it serves, and OTHER) times the status codes.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { Engine, IngestResult } from '../index.js'

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const SLOW_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300]
/** Methods a route may serve: the method labels besides OTHER. */
export const SERVED_METHODS: ReadonlySet<string> = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
])
/** The route label of a request no route matched. */
export const UNMATCHED_ROUTE = 'unmatched'
/** The method label of any other method, and of every 405. */
export const OTHER_METHOD = 'OTHER'

/** What one answered request contributes. */
export interface RequestSample {
  method: string
  /** The route's template, or null when no route matched. */
  route: string | null
  status: number
  seconds: number
  /** The X-Cache header of the answer, on a route whose answers are cached (else undefined). */
  cache: string | undefined
}

/** Label values by label name. */
type Labels = Record<string, string>

/**
 * A histogram counted in plain arrays and handed to the registry at scrape, in prom-client's own
 * shape (`le` first, then the series' labels; cumulative buckets, `+Inf`, `_sum`, `_count`):
 * prom-client's Histogram validates and hashes the labels of every observation, which the request
 * path paid on every answer. Its label values come from closed sets (see above).
 */
class LocalHistogram {
  readonly type = 'histogram'
  readonly aggregator = 'sum'
  readonly #series = new Map<string, { labels: Labels; buckets: number[]; sum: number; count: number }>()

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  /** Counts `value` for the series of `labels` (`key`: those labels' values joined, cheap to build). */
  observe(key: string, labels: () => Labels, value: number): void {
    let s = this.#series.get(key)
    if (s === undefined) {
      s = { labels: labels(), buckets: new Array<number>(this.bounds.length).fill(0), sum: 0, count: 0 }
      this.#series.set(key, s)
    }
    // prom-client's bucket: the first bound >= value (a value above the last counts in +Inf only).
    let i = 0
    while (i < this.bounds.length && value > this.bounds[i]!) i++
    if (i < this.bounds.length) s.buckets[i]! += 1
    s.sum += value
    s.count += 1
  }

  async get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = []
    for (const s of this.#series.values()) {
      let acc = 0
      this.bounds.forEach((le, i) => {
        acc += s.buckets[i]!
        values.push({ labels: { le, ...s.labels }, value: acc, metricName: `${this.name}_bucket` })
      })
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${this.name}_bucket` })
      values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` })
      values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` })
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator }
  }

  reset(): void {
    this.#series.clear()
  }
}

/**
 * Counts kept in a Map by a cheap key and added to a prom-client Counter when it is collected (at
 * scrape), instead of one validated, hashed `inc` per request.
 */
class PendingCounts {
  readonly #counts = new Map<string, { labels: Labels; n: number }>()

  add(key: string, labels: () => Labels): void {
    const c = this.#counts.get(key)
    if (c === undefined) this.#counts.set(key, { labels: labels(), n: 1 })
    else c.n += 1
  }

  /** Hands the counts over to `counter` and starts again from zero. */
  flush(counter: Counter<string>): void {
    for (const c of this.#counts.values()) {
      if (c.n > 0) counter.inc(c.labels, c.n)
      c.n = 0
    }
  }
}

export class ServiceMetrics {
  readonly registry = new Registry()
  readonly #requests = new PendingCounts()
  readonly #latency: LocalHistogram
  readonly #cache = new PendingCounts()
  readonly #rateLimited: Counter<'route'>
  readonly #shed: Counter<'route'>
  readonly #ingestCalls: Counter<'outcome'>
  readonly #ingestRecords: Counter<'table'>
  readonly #ingestSeconds: Histogram
  readonly #deleted: Counter<'table' | 'cause'>
  readonly #queries: LocalHistogram
  readonly #operations: Counter<'operation' | 'outcome'>
  readonly #lastBackup: Gauge

  constructor(engine: Engine) {
    const registers = [this.registry]
    collectDefaultMetrics({ register: this.registry })
    const requests = this.#requests
    new Counter({
      name: 'va_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status code.',
      labelNames: ['method', 'route', 'status'],
      registers,
      collect() {
        requests.flush(this)
      },
    })
    this.#latency = this.#local(
      'va_http_request_duration_seconds',
      'Time from receiving a request to the end of its answer, by method and route template.',
      LATENCY_BUCKETS,
    )
    const cache = this.#cache
    new Counter({
      name: 'va_response_cache_total',
      help: 'Report answers served from the response cache (hit) or computed (miss), by route.',
      labelNames: ['route', 'result'],
      registers,
      collect() {
        cache.flush(this)
      },
    })
    this.#rateLimited = new Counter({
      name: 'va_rate_limited_total',
      help: 'Requests refused with 429 by the per-key rate limit, by route.',
      labelNames: ['route'],
      registers,
    })
    this.#shed = new Counter({
      name: 'va_shed_total',
      help: 'Requests shed with 503 (query limiter or ingest bound full, or shutting down), by route.',
      labelNames: ['route'],
      registers,
    })
    this.#ingestCalls = new Counter({
      name: 'va_ingest_calls_total',
      help: 'Ingest calls, by outcome: stored, refused (bad records) or failed.',
      labelNames: ['outcome'],
      registers,
    })
    this.#ingestRecords = new Counter({
      name: 'va_ingest_records_total',
      help: 'Rows stored by ingest calls, by table.',
      labelNames: ['table'],
      registers,
    })
    this.#ingestSeconds = new Histogram({
      name: 'va_ingest_duration_seconds',
      help: 'Duration of ingest calls (body spooled and stored).',
      buckets: SLOW_BUCKETS,
      registers,
    })
    this.#deleted = new Counter({
      name: 'va_deleted_rows_total',
      help: 'Rows removed by delete records (cause "delete") and retention (cause "prune"), by table.',
      labelNames: ['table', 'cause'],
      registers,
    })
    this.#queries = this.#local(
      'va_query_duration_seconds',
      'Engine time of a report computed on a cache miss, by endpoint id.',
      LATENCY_BUCKETS,
    )
    this.#operations = new Counter({
      name: 'va_operations_total',
      help: 'Backups, prunes and key changes, by operation and outcome (ok or failed).',
      labelNames: ['operation', 'outcome'],
      registers,
    })
    this.#lastBackup = new Gauge({
      name: 'va_last_backup_timestamp_seconds',
      help: 'When the last successful backup finished (Unix seconds; 0: none since start).',
      registers,
    })
    this.#lastBackup.set(0)
    const status = () => (engine.isOpen ? engine.status() : null)
    new Gauge({
      name: 'va_database_bytes',
      help: 'Size of the database file and its write-ahead log.',
      registers,
      collect() {
        this.set(status()?.fileBytes ?? 0)
      },
    })
    new Gauge({
      name: 'va_aggregate_cache_rows',
      help: 'Aggregate rows held in memory by the engine.',
      registers,
      collect() {
        this.set(status()?.aggregateCache.rows ?? 0)
      },
    })
    new Gauge({
      name: 'va_aggregate_cache_entries',
      help: 'Domain-table entries held in memory by the engine.',
      registers,
      collect() {
        this.set(status()?.aggregateCache.entries ?? 0)
      },
    })
    const seen = { hits: 0, misses: 0 }
    new Counter({
      name: 'va_aggregate_cache_lookups_total',
      help: "Lookups of a domain's aggregate rows answered from memory (hit) or read from DuckDB (miss).",
      labelNames: ['result'],
      registers,
      collect() {
        const s = status()?.aggregateCache
        if (s === undefined) return
        this.inc({ result: 'hit' }, s.hits - seen.hits)
        this.inc({ result: 'miss' }, s.misses - seen.misses)
        seen.hits = s.hits
        seen.misses = s.misses
      },
    })
  }

  /** Counts one answered request. */
  observeRequest(s: RequestSample): void {
    const route = s.route ?? UNMATCHED_ROUTE
    const method = s.status !== 405 && SERVED_METHODS.has(s.method) ? s.method : OTHER_METHOD
    const status = s.status
    const pair = `${method} ${route}`
    this.#requests.add(`${pair} ${status}`, () => ({ method, route, status: String(status) }))
    this.#latency.observe(pair, () => ({ method, route }), s.seconds)
    if (status === 429) this.#rateLimited.inc({ route })
    if (status === 503) this.#shed.inc({ route })
    if (status === 200 && (s.cache === 'HIT' || s.cache === 'MISS')) {
      const result = s.cache === 'HIT' ? 'hit' : 'miss'
      this.#cache.add(`${route} ${result}`, () => ({ route, result }))
    }
  }

  /** Times an engine computation of a report (`report`: its endpoint id). */
  async timeQuery<T>(report: string, run: () => Promise<T>): Promise<T> {
    const start = performance.now()
    try {
      return await run()
    } finally {
      this.#queries.observe(report, () => ({ report }), (performance.now() - start) / 1000)
    }
  }

  /** A LocalHistogram in this registry. */
  #local(name: string, help: string, bounds: readonly number[]): LocalHistogram {
    const h = new LocalHistogram(name, help, bounds)
    // The registry reads a metric through its name and get() (and reset()); prom-client's types
    // name only its own classes.
    this.registry.registerMetric(h as unknown as Histogram)
    return h
  }

  /** Counts one ingest call and what it stored and deleted. */
  observeIngest(outcome: 'stored' | 'refused' | 'failed', seconds: number, result?: IngestResult): void {
    this.#ingestCalls.inc({ outcome })
    this.#ingestSeconds.observe(seconds)
    if (result === undefined) return
    for (const [table, n] of Object.entries(result))
      if (typeof n === 'number') this.#ingestRecords.inc({ table }, n)
    this.observeDeleted('delete', result.deleted ?? {})
  }

  /** Counts rows removed by deletions or a prune. */
  observeDeleted(cause: 'delete' | 'prune', counts: Record<string, number>): void {
    for (const [table, n] of Object.entries(counts))
      if (table !== 'not_found' && n > 0) this.#deleted.inc({ table, cause }, n)
  }

  /** Counts a backup, a prune or a key change. */
  observeOperation(operation: 'backup' | 'prune' | 'key_create' | 'key_revoke', ok: boolean): void {
    this.#operations.inc({ operation, outcome: ok ? 'ok' : 'failed' })
    if (operation === 'backup' && ok) this.#lastBackup.set(Date.now() / 1000)
  }
}
