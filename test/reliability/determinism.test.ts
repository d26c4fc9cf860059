/**
 * The same records must give the same payloads whatever the order or history of the ingest calls
 * ("ingesting the same file twice changes nothing"). Found by the kill -9 suite under VA_LONG=1:
 * sentiment means differed in the last bit because DOUBLE sums depend on row order. Sentiment sums
 * are now exact fixed-point integers (sql/schema/004_exact_sentiment.sql, src/queries/exact-mean.ts).
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { openEngine } from '../../src/index.js'
import { SENTIMENT_SCALE } from '../../src/queries/exact-mean.js'
import type { AnalysisInputRecord } from '../../src/types.js'
import { BASE_NOW, extDatasetArb, extParamsFor, extQueryArb, type ExtQuery } from '../support/arbitraries.js'
import { Rng } from '../support/random.js'
import { analysis as buildAnalysis, competitor, domain, mention, prompt, team } from '../support/records.js'

const t = team({ id: '0a000000-0000-4000-8000-000000000001', name: 'T' })
const d = domain({
  id: '0d000000-0000-4000-8000-000000000001',
  team_id: t.id,
  brand_name: 'B',
  website: null,
})
const promptRecord = prompt({
  id: '0b000000-0000-4000-8000-000000000001',
  domain_id: d.id,
  text: 'p',
  estimated_search_volume: null,
})
const rival = competitor({
  id: '0c000000-0000-4000-8000-000000000001',
  domain_id: d.id,
  name: 'R',
  website: null,
})
const analysis = (n: number, sentiment: number) =>
  buildAnalysis({
    id: `0a0a0000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    domain_id: d.id,
    prompt_id: promptRecord.id,
    model: 'm',
    answered_at: '2026-03-30T12:00:00Z',
    mentions: [mention(rival.id, 1, sentiment)],
    citations: [],
    themes: [],
  })

async function sentimentOf(order: number[][]): Promise<number[]> {
  const e = await openEngine()
  try {
    await e.ingest([t, d, promptRecord, rival])
    for (const call of order) await e.ingest(call.map((s) => analysis(s, s / 10)))
    const p = await e.computeCompetitorSeries({ domainId: d.id, days: 7, now: '2026-03-31T00:00:00Z' })
    const r = p.data.items.find((i) => i.id === rival.id)!
    return [r.avg_sentiment, r.series[0]!.sentiment]
  } finally {
    await e.close()
  }
}

describe('payloads do not depend on ingest order', () => {
  it('sentiment 0.1, 0.2, 0.3 in two orders gives the same competitor sentiment: their exact mean', async () => {
    const a = await sentimentOf([[1, 2, 3]])
    const b = await sentimentOf([[3, 2, 1]])
    const c = await sentimentOf([[2], [3, 1]])
    expect(a).toEqual(b)
    expect(c).toEqual(b)
    // (0.1 + 0.2 + 0.3) / 3 of the exact doubles, rounded once, is the double nearest 0.2.
    expect(a).toEqual([0.2, 0.2])
  })

  it('any permutation of the records, in one call or split across calls, gives byte-identical payloads', async () => {
    await fc.assert(
      fc.asyncProperty(
        extDatasetArb,
        fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 3 }),
        fc.array(extQueryArb, { minLength: 1, maxLength: 2 }),
        async (ds, sentiments, seed, cuts, queries) => {
          const records = withSentiments(lastOfEachId(ds.records), sentiments)
          const entities = records.filter((r) => r.type !== 'analysis')
          const analyses = records.filter((r) => r.type === 'analysis')
          const rng = new Rng(seed)
          const shuffled = [...shuffle(rng, entities), ...shuffle(rng, analyses)]
          // Entities come in the first call (an analysis needs its domain stored or in its call).
          const at = [...new Set(cuts.map((c) => entities.length + (c % (analyses.length + 1))))].sort(
            (a, b) => a - b,
          )
          const calls = [0, ...at].map((from, i) => shuffled.slice(from, at[i] ?? shuffled.length))
          const one = await payloads([records], ds.domainIds, queries)
          const split = await payloads(
            calls.filter((c) => c.length > 0),
            ds.domainIds,
            queries,
          )
          expect(split).toBe(one)
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 25) },
    )
  }, 600_000)
})

/** Each record's last version (by type and id): what the store holds whatever the order. */
function lastOfEachId(records: readonly AnalysisInputRecord[]): AnalysisInputRecord[] {
  const byId = new Map<string, AnalysisInputRecord>()
  for (const r of records) {
    const key = `${r.type}:${r.id.toLowerCase()}`
    byId.delete(key)
    byId.set(key, r)
  }
  return [...byId.values()]
}

/** The mentions' non-null sentiments replaced by the given doubles, in turn. */
function withSentiments(records: AnalysisInputRecord[], values: number[]): AnalysisInputRecord[] {
  let i = 0
  return records.map((r) =>
    r.type !== 'analysis'
      ? r
      : {
          ...r,
          mentions: r.mentions.map((m) =>
            m.sentiment === null ? m : { ...m, sentiment: values[i++ % values.length]! },
          ),
        },
  )
}

function shuffle<T>(rng: Rng, xs: readonly T[]): T[] {
  const out = [...xs]
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** Every report of every domain for the queries, as one JSON text. */
async function payloads(calls: AnalysisInputRecord[][], domainIds: string[], queries: ExtQuery[]) {
  const e = await openEngine()
  try {
    for (const call of calls) await e.ingest(call)
    const out: unknown[] = [await e.computeDomainList({ now: BASE_NOW })]
    for (const domainId of domainIds) {
      for (const q of queries) {
        const p = extParamsFor({ domainIds: [domainId] }, { ...q, base: { ...q.base, domain: 0 } })
        const report = p.report
        for (const run of [
          () => e.computePromptSeries(p.promptSeries),
          () => e.computeCompetitorSeries(p.competitorSeries),
          () => e.computeSentimentOverview(report),
          () => e.computeSentimentThemes(report),
          () => e.computeSentimentSeries(p.sentimentSeries),
          () => e.computePromptList(p.listPrompts),
          () => e.computeBrandRankings(report),
          () => e.computeModelLeaderboard(p.leaderboard),
          () => e.computeBrandSeries(p.brandSeries),
          () => e.computeCitations(p.citations),
          () => e.computeCitedDomains(p.citations),
          () => e.computeFanoutQueries(report),
        ] satisfies (() => Promise<unknown>)[]) {
          out.push(await run().catch((err: Error) => ({ error: `${err.name}: ${err.message}` })))
        }
      }
    }
    return JSON.stringify(out)
  } finally {
    await e.close()
  }
}

describe('the fixed-point scale of sentiment sums', () => {
  it('is the same in SQL (sentiment_fixed) and in the reports (SENTIMENT_SCALE)', async () => {
    const e = await openEngine()
    try {
      const { db } = e as unknown as { db: { write: DuckDBConnection } }
      const r = await db.write.runAndReadAll(
        'SELECT sentiment_fixed(1.0)::VARCHAR, sentiment_fixed(0.1)::VARCHAR, sentiment_fixed(100.0)::VARCHAR',
      )
      expect(r.getRows()[0]).toEqual([
        String(BigInt(SENTIMENT_SCALE)),
        String(BigInt(0.1 * SENTIMENT_SCALE)),
        String(100n * BigInt(SENTIMENT_SCALE)),
      ])
    } finally {
      await e.close()
    }
  })
})
