/**
 * Suite "segments": the brand rankings, the model leaderboard and the visibility series with a
 * segment filter (docs/API.md, "Segment filters": country, topic, tag, and all three) at 30 and
 * 365 days, warm (file store, the segment's aggregates in memory after the first call), beside the
 * naive DuckDB SQL peer (bench/peers/naive-sql-rankings.ts) computing the same payloads with the
 * same filter: the peer is loaded with the records that pass the filter only (the analyses of that
 * country, of the prompts with that topic or tag), so its plain SQL answers the filtered question
 * over fewer rows than the whole dataset (a conservative peer). Every payload is checked against
 * the peer's (the filters' echo set aside) before anything is timed; unfiltered cases are timed
 * beside them for the ratio filtered / unfiltered.
 */
import type { AnalysisInputRecord, Engine } from '../../src/types.js'
import { BENCH_NOW, DATASETS, datasetRecords, mainDomainId, type DatasetSpec } from '../data/generator.js'
import { diffPayloads } from '../lib/compare.js'
import { loadEngineModule } from '../lib/engine.js'
import { gc, outPath, profiles, removeStore, startSuite, writeJson } from '../lib/suite.js'
import { stopwatch, timeCase } from '../lib/timing.js'
import { NaiveSql } from '../peers/naive-sql.js'
import { NaiveSqlRankings } from '../peers/naive-sql-rankings.js'

const { quick, dsName, out, log } = startSuite('segments', { defaultDataset: 'L' })
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

/** The records the peer loads for a segment: every record but the analyses that do not pass it. */
function passing(records: readonly Rec[], s: Segment): Rec[] {
  const prompts = new Map<string, Rec>()
  for (const r of records) if (r.type === 'prompt') prompts.set(r.id.toLowerCase(), r)
  return records.filter((r) => {
    if (r.type !== 'analysis') return true
    const a = r as Rec & { prompt_id: string }
    if (s.country !== undefined && (a.country ?? '').toUpperCase() !== s.country) return false
    const p = prompts.get(a.prompt_id.toLowerCase())
    if (s.topic !== undefined && (p?.topic ?? '').trim() !== s.topic) return false
    if (s.tag !== undefined && !(p?.tags ?? []).some((t) => t.trim() === s.tag)) return false
    return true
  })
}

type Fn = 'brandRankings' | 'modelLeaderboard' | 'visibilitySeries'
const FNS: Fn[] = ['brandRankings', 'modelLeaderboard', 'visibilitySeries']

function engineCall(e: Engine, fn: Fn, p: Record<string, unknown>): Promise<unknown> {
  if (fn === 'brandRankings') return e.computeBrandRankings({ ...p, model: 'all' } as never)
  if (fn === 'modelLeaderboard') return e.computeModelLeaderboard(p as never)
  return e.computeBrandSeries({ ...p, model: 'all', metric: 'visibility' } as never)
}
function peerCall(peer: NaiveSqlRankings, fn: Fn, p: { domainId: string; days: number; now: string }) {
  if (fn === 'brandRankings') return peer.brandRankings({ ...p, model: 'all' })
  if (fn === 'modelLeaderboard') return peer.modelLeaderboard(p)
  return peer.brandSeries({ ...p, model: 'all', metric: 'visibility' })
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
  const records = [...datasetRecords(spec)] as Rec[]
  const path = outPath('store-segments.duckdb')
  removeStore(path)
  const engine = await mod.openEngine({ path })
  const ingest = await stopwatch(() => engine.ingest(records))
  out.setup['engine: ingest'] = ingest.ms
  out.sizes = { ...(await engine.stats()) }
  for (const [name, s] of [['unfiltered', {}] as const, ...Object.entries(SEGMENTS)]) {
    const naive = await stopwatch(() => NaiveSql.load(passing(records, s)))
    out.setup[`naive-sql ${name}: load`] = naive.ms
    const peer = new NaiveSqlRankings(naive.value)
    for (const days of [30, 365]) {
      for (const fn of FNS) {
        const key = `${fn} days=${days} ${name}`
        const p = { domainId, days, now: BENCH_NOW, ...s }
        const q = { domainId, days, now: BENCH_NOW }
        const want = await peerCall(peer, fn, q)
        const first = await stopwatch(() => engineCall(engine, fn, p))
        out.setup[`engine ${key}: first call`] = first.ms
        const diffs = diffPayloads(withoutEcho(first.value), want)
        out.checks.push({ case: key, impl: 'engine', ok: diffs.length === 0, against: 'naive-sql', diffs })
        if (diffs.length > 0) {
          out.failures.push(`engine ${key}: wrong payload: ${diffs.slice(0, 3).join('; ')}`)
          continue
        }
        for (const [impl, fnCall, slow] of [
          ['engine', () => engineCall(engine, fn, p), false],
          ['naive-sql', () => peerCall(peer, fn, q), true],
        ] as const) {
          gc()
          const { timing, last } = await timeCase(`${impl} ${key}`, fnCall, slow ? prof.slow : prof.fast)
          const got = impl === 'engine' ? withoutEcho(last) : last
          if (diffPayloads(got, want).length > 0) out.failures.push(`${impl} ${key}: wrong while timed`)
          out.timings.push({ case: key, fn, days, impl, ...timing })
          log(impl.padEnd(10), key.padEnd(64), `median ${timing.median.toFixed(2)} ms`)
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
