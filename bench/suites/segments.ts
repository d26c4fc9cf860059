/**
 * Suite "segments": every report with `days` (the rows of the endpoint table with `domain_id` and
 * `days`, src/api/endpoints.ts) with a segment filter (docs/API.md, "Segment filters": country,
 * topic, tag, and all three) at 30 and 365 days, warm (file store, the segment's aggregates in
 * memory after the first call), beside the naive DuckDB SQL peers (bench/peers/naive-sql.ts,
 * naive-sql-rankings.ts, naive-sql-citations.ts, naive-sql-query.ts) computing the same payloads
 * with the same filter: a peer is loaded with the records that pass the filter only (the analyses
 * of that country, of the prompts with that topic or tag), so its plain SQL answers the filtered
 * question over fewer rows than the whole dataset (a conservative peer). Every payload is checked
 * against the peer's (the filters' echo set aside) before anything is timed; unfiltered cases are
 * timed beside them for the ratio filtered / unfiltered. A row without a peer is listed in the
 * notes (not timed).
 *
 *   node dist/bench/suites/segments.js --dataset=L [--quick] [--store=STORE.duckdb]
 *     [--segments='unfiltered;country=DE'] [--days=365] [--iterations=N] [--rows=citations,fanout-queries]
 * (--store: a store of the dataset reused when there; --segments: the named filters only, by their
 * names below, `;`-separated; --days: 30, 365 or both; --iterations: the engine's timed calls;
 * --rows: those rows of the endpoint table only, by id, `,`-separated). The dataset's records are generated again
 * for each peer rather than held: 511k analyses held in the heap made every timed call pay for
 * scavenging a multi-GB heap.
 */
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import type { AnalysisInputRecord, Engine } from '../../src/types.js'
import { BENCH_NOW, DATASETS, datasetRecords, mainDomainId, type DatasetSpec } from '../data/generator.js'
import { diffPayloads } from '../lib/compare.js'
import { loadEngineModule } from '../lib/engine.js'
import { existsSync } from 'node:fs'
import { gc, outPath, profiles, removeStore, startSuite, writeJson } from '../lib/suite.js'
import { cpuMedian, stopwatch, timeCase } from '../lib/timing.js'
import { NaiveSql } from '../peers/naive-sql.js'
import { NaiveSqlRankings } from '../peers/naive-sql-rankings.js'
import { NaiveSqlCitations } from '../peers/naive-sql-citations.js'
import { NaiveSqlQuery } from '../peers/naive-sql-query.js'

const { args, quick, dsName, out, log } = startSuite('segments', { defaultDataset: 'L' })
const spec: DatasetSpec = { ...DATASETS[dsName] }
delete spec.crowd
const domainId = mainDomainId(spec)
const prof = profiles(quick)

interface Segment {
  country?: string
  topic?: string
  tag?: string
}
const SEGMENTS: Record<string, Segment> = {
  'country=DE': { country: 'DE' },
  'topic=Pricing': { topic: 'Pricing' },
  'tag=branded': { tag: 'branded' },
  'country=US,topic=Alternatives,tag=smb': { country: 'US', topic: 'Alternatives', tag: 'smb' },
}

type Rec = AnalysisInputRecord & { country?: string | null; topic?: string | null; tags?: string[] }

/**
 * The records the peer loads for a segment: every record but the analyses that do not pass it, as
 * they are generated (the generator yields every prompt before the analyses that name it).
 */
function* passing(records: Iterable<Rec>, s: Segment): Generator<Rec> {
  const prompts = new Map<string, Rec>()
  for (const r of records) {
    if (r.type === 'prompt') prompts.set(r.id.toLowerCase(), r)
    if (r.type !== 'analysis') {
      yield r
      continue
    }
    const a = r as Rec & { prompt_id: string }
    if (s.country !== undefined && (a.country ?? '').toUpperCase() !== s.country) continue
    const p = prompts.get(a.prompt_id.toLowerCase())
    if (s.topic !== undefined && (p?.topic ?? '').trim() !== s.topic) continue
    if (s.tag !== undefined && !(p?.tags ?? []).some((t) => t.trim() === s.tag)) continue
    yield r
  }
}

/** The filters run: all, or those named by `--segments` (`;`-separated names of SEGMENTS). */
function chosenSegments(): [string, Segment][] {
  const all: [string, Segment][] = [['unfiltered', {}], ...Object.entries(SEGMENTS)]
  if (typeof args.segments !== 'string') return all
  const names = args.segments.split(';')
  const unknown = names.filter((n) => !all.some(([k]) => k === n))
  if (unknown.length > 0) throw new Error(`--segments: unknown ${unknown.join(', ')}`)
  return all.filter(([k]) => names.includes(k))
}
/** The rows timed: all, or those named by `--rows` (`,`-separated ids). */
function chosenRows(all: Endpoint[]): Endpoint[] {
  if (typeof args.rows !== 'string') return all
  const ids = args.rows.split(',')
  const unknown = ids.filter((id) => !all.some((row) => row.id === id))
  if (unknown.length > 0) throw new Error(`--rows: unknown ${unknown.join(', ')}`)
  return all.filter((row) => ids.includes(row.id))
}
const DAYS = typeof args.days === 'string' ? args.days.split(',').map(Number) : [30, 365]
/**
 * Warm-up calls of the engine before its timed calls, at least: a segment's first calls run before
 * V8 has optimized the report's loops (profiled on L: a segment's calls 2-12 cost 2-6x the next
 * ten, and 16-35 ms each with the optimizing compiler off), and the target is a warm median.
 */
const ENGINE_WARMUP = 20
/** The engine's timing (`--iterations=N`: N timed calls after the warm-up). */
const FAST = {
  ...prof.fast,
  warmupIterations: Math.max(prof.fast.warmupIterations, ENGINE_WARMUP),
  ...(typeof args.iterations === 'string' ? { iterations: Number(args.iterations) } : {}),
}

/** The rows of the endpoint table with `days` (and a domain): the filtered reports. */
const ROWS = (ENDPOINTS as readonly Endpoint[]).filter((e) => 'domain_id' in e.params && 'days' in e.params)

/** The engine through the row, as a request with these wire parameters is served. */
function engineCall(e: Engine, row: Endpoint, wire: Record<string, unknown>): Promise<unknown> {
  return row.compute(e, row.normalize(wire as never), { now: new Date(BENCH_NOW), caller: null })
}

interface Peers {
  sql: NaiveSql
  rankings: NaiveSqlRankings
  citations: NaiveSqlCitations
  query: NaiveSqlQuery
}
/** The peer's parameters: the engine's echo of its defaults (model, limit) over the case's. */
type PeerCall = (
  peers: Peers,
  p: { domainId: string; days: number; now: string },
  echo: Record<string, unknown>,
) => Promise<unknown>
const model = (echo: Record<string, unknown>) => (echo.model as string | undefined) ?? 'all'
const limit = (echo: Record<string, unknown>) => echo.limit as number
const series =
  (metric: 'visibility' | 'mentions' | 'citations' | 'citability'): PeerCall =>
  (x, p, echo) =>
    x.rankings.brandSeries({ ...p, model: model(echo), metric })
/** The naive peer of each row, by row id (a row missing here has no peer yet: listed in the notes). */
const PEERS: Record<string, PeerCall> = {
  'prompt-series': async (x, p, echo) => x.sql.computePromptSeries({ ...p, limit: limit(echo) }),
  'competitor-series': async (x, p, echo) => x.sql.computeCompetitorSeries({ ...p, model: model(echo) }),
  'sentiment-overview': async (x, p, echo) => x.sql.sentimentOverview({ ...p, model: model(echo) }),
  'sentiment-themes': async (x, p, echo) => x.sql.sentimentThemes({ ...p, model: model(echo) }),
  'brand-rankings': (x, p, echo) => x.rankings.brandRankings({ ...p, model: model(echo) }),
  'model-leaderboard': (x, p) => x.rankings.modelLeaderboard(p),
  'visibility-series': series('visibility'),
  'mentions-series': series('mentions'),
  'citations-series': series('citations'),
  'citability-series': series('citability'),
  citations: (x, p, echo) => x.citations.citations({ ...p, model: model(echo), limit: limit(echo) }),
  'cited-domains': (x, p, echo) => x.citations.citedDomains({ ...p, model: model(echo), limit: limit(echo) }),
  'fanout-queries': (x, p, echo) => x.citations.fanoutQueries({ ...p, model: model(echo) }),
  'sentiment-series': (x, p, echo) => x.citations.sentimentSeries({ ...p, model: model(echo) }),
  query: (x, p) => x.query.query({ ...p, dimensions: ['prompt', 'channel', 'country'], entity: 'all' }),
}
/** The wire parameters of a row's case beyond domain_id and days. */
const EXTRA: Record<string, Record<string, unknown>> = {
  query: { dimensions: 'prompt,channel,country', entity: 'all' },
}

/** A payload without the filters' echo (the peer does not echo them). */
function withoutEcho(x: unknown): unknown {
  const { country: _c, topic: _t, tag: _g, ...rest } = x as Record<string, unknown>
  return rest
}

async function main(): Promise<void> {
  const loaded = await loadEngineModule()
  if (!loaded.module) {
    out.failures.push(`engine not available: ${loaded.error}`)
    return
  }
  const mod = loaded.module
  const records = (): Iterable<Rec> => datasetRecords(spec) as Iterable<Rec>
  const given = typeof args.store === 'string' ? args.store : null
  const path = given ?? outPath('store-segments.duckdb')
  if (given === null) removeStore(path)
  const reuse = given !== null && existsSync(path)
  const engine = await mod.openEngine({ path })
  if (!reuse) out.setup['engine: ingest'] = (await stopwatch(() => engine.ingest(records()))).ms
  out.sizes = { ...(await engine.stats()) }
  const missing = ROWS.filter((row) => PEERS[row.id] === undefined).map((row) => row.id)
  if (missing.length > 0)
    out.notes.push(`rows with days but no naive peer here (not timed): ${missing.join(', ')}`)
  const rows = chosenRows(ROWS.filter((row) => PEERS[row.id] !== undefined))
  for (const [name, s] of chosenSegments()) {
    const naive = await stopwatch(() => NaiveSql.load(passing(records(), s)))
    out.setup[`naive-sql ${name}: load`] = naive.ms
    const peers: Peers = {
      sql: naive.value,
      rankings: new NaiveSqlRankings(naive.value),
      citations: new NaiveSqlCitations(naive.value),
      query: new NaiveSqlQuery(naive.value),
    }
    for (const days of DAYS) {
      for (const row of rows) {
        const key = `${row.id} days=${days} ${name}`
        const wire = { domain_id: domainId, days, ...EXTRA[row.id], ...s }
        const q = { domainId, days, now: BENCH_NOW }
        const first = await stopwatch(() => engineCall(engine, row, wire))
        out.setup[`engine ${key}: first call`] = first.ms
        const echo = first.value as Record<string, unknown>
        const peerCall = () => PEERS[row.id]!(peers, q, echo)
        const want = await peerCall()
        const diffs = diffPayloads(withoutEcho(first.value), want)
        out.checks.push({ case: key, impl: 'engine', ok: diffs.length === 0, against: 'naive-sql', diffs })
        if (diffs.length > 0) {
          out.failures.push(`engine ${key}: wrong payload: ${diffs.slice(0, 3).join('; ')}`)
          continue
        }
        for (const [impl, fnCall, slow] of [
          ['engine', () => engineCall(engine, row, wire), false],
          ['naive-sql', peerCall, true],
        ] as const) {
          gc()
          const { timing, last } = await timeCase(`${impl} ${key}`, fnCall, slow ? prof.slow : FAST)
          const got = impl === 'engine' ? withoutEcho(last) : last
          if (diffPayloads(got, want).length > 0) out.failures.push(`${impl} ${key}: wrong while timed`)
          out.timings.push({ case: key, fn: row.id, days, impl, ...timing })
          // CPU per call (less load-sensitive than wall time on a shared machine): the engine only.
          const cpu = impl === 'engine' ? await cpuMedian(fnCall, FAST.iterations) : null
          if (cpu !== null) out.setup[`engine ${key}: CPU median`] = cpu
          const cpuText = cpu === null ? '' : `, CPU ${cpu.toFixed(2)} ms`
          log(impl.padEnd(10), key.padEnd(64), `median ${timing.median.toFixed(2)} ms${cpuText}`)
        }
      }
    }
    await naive.value.close()
  }
  // The aggregate store after every segment above was read (rows kept in memory, all entries).
  out.notes.push(`aggregate store after the filtered cases: ${JSON.stringify(await engine.stats())}`)
  await engine.close()
  out.memory = { rssMB: process.memoryUsage().rss / 2 ** 20, maxRssMB: process.resourceUsage().maxRSS / 1024 }
}

main()
  .catch((e: unknown) => {
    out.failures.push(`suite crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
    console.error(e)
  })
  .finally(() => {
    writeJson(`suite-segments-${dsName}.json`, out)
    process.exit(out.failures.length > 0 ? 1 : 0)
  })
