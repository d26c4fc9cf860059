/**
 * The aggregate store: the payloads do not depend on what it keeps in memory (every entry kept,
 * entries evicted after each load, nothing kept), and it never serves an aggregate from before a
 * commit.
 */
import { describe, expect, it, vi } from 'vitest'
import { openEngine, type Engine } from '../../src/index.js'
import { readFileSync } from 'node:fs'
import { AggregateStore } from '../../src/tables/aggregate-store.js'
import { AGGREGATE_TABLE_NAMES } from '../../src/tables/aggregates.js'
import { dimRecords, makeAnalyses, makeDims } from '../support/generate.js'
import { analysis, base, COMPETITOR, DOMAIN, NOW, THEME } from '../support/records.js'

const example = new URL('../../fixtures/spec-example/data.ndjson', import.meta.url).pathname
const EXAMPLE_DOMAIN = '5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c'

async function everyPayload(engine: Engine, domainId: string) {
  const out: unknown[] = []
  for (const days of [1, 2, 3, 7, 30, 60, 365]) {
    for (const now of [
      '2026-11-18T00:00:00Z',
      '2026-11-20T15:00:00Z',
      '2026-11-21T23:59:59.999Z',
      '2027-01-01T00:00:00Z',
    ]) {
      out.push(await engine.computePromptSeries({ domainId, days, now }))
      out.push(await engine.computePromptSeries({ domainId, days, now, limit: 1 }))
      for (const model of ['all', 'chatgpt', 'perplexity', 'claude', 'gemini']) {
        out.push(await engine.computeCompetitorSeries({ domainId, days, now, model }))
      }
      for (const model of ['all', 'chatgpt', 'perplexity', 'gpt-5', 'sonar-pro', 'never-seen']) {
        out.push(await engine.computeSentimentOverview({ domainId, days, now, model }))
        out.push(await engine.computeSentimentThemes({ domainId, days, now, model }))
        out.push(await engine.computeCitations({ domainId, days, now, model }))
        out.push(await engine.computeCitedDomains({ domainId, days, now, model, limit: 1 }))
        out.push(await engine.computeFanoutQueries({ domainId, days, now, model }))
        out.push(await engine.computeSentimentSeries({ domainId, days, now, model }))
      }
    }
  }
  return out
}

describe('aggregate store', () => {
  it('gives the same payloads kept, evicted and not kept, for every window and filter of the worked example', async () => {
    const kept = await openEngine()
    const evicted = await openEngine({ aggregateCacheRows: 1 })
    const notKept = await openEngine({ aggregateCache: false })
    for (const e of [kept, evicted, notKept]) await e.ingestFile(example)
    const a = await everyPayload(kept, EXAMPLE_DOMAIN)
    expect(a.length).toBeGreaterThan(500)
    expect(await everyPayload(evicted, EXAMPLE_DOMAIN)).toEqual(a)
    expect(await everyPayload(notKept, EXAMPLE_DOMAIN)).toEqual(a)
    for (const e of [kept, evicted, notKept]) await e.close()
  })

  it('drops a domain after a commit that changes its aggregates', async () => {
    const engine = await openEngine()
    await engine.ingest([...base(), analysis()])
    const before = await engine.computeCompetitorSeries({ domainId: DOMAIN, days: 7, now: NOW })
    expect(before.data.items.map((i) => i.avg_mentions)).toEqual([1, 0])
    await engine.ingest([
      analysis({
        mentions: [{ entity_id: COMPETITOR, position: 1, sentiment: 5 }],
        themes: [{ theme_id: THEME, occurrences: 4 }],
      }),
    ])
    const after = await engine.computeCompetitorSeries({ domainId: DOMAIN, days: 7, now: NOW })
    expect(after.data.items.map((i) => [i.name, i.avg_visibility])).toEqual([
      ['Acme', 50],
      ['Globex', 50],
    ])
    expect(
      (await engine.computeSentimentOverview({ domainId: DOMAIN, days: 7, now: NOW })).data.total_mentions,
    ).toBe(6)
    await engine.close()
  })

  it('after a commit, reads only the changed days again and splices them: the same rows as a full load', async () => {
    const engine = await openEngine()
    await engine.ingestFile(example)
    const internals = engine as unknown as {
      aggregates: AggregateStore
      catalog: { domains: Map<string, { key: number }> }
      db: { pool: AggregateStore['pool'] }
    }
    const store = internals.aggregates
    const key = internals.catalog.domains.get(EXAMPLE_DOMAIN)!.key
    for (const t of AGGREGATE_TABLE_NAMES) await store.rows(t, key)
    const { misses } = store.stats()
    // One more analysis on a day in the middle of the stored days, and one replacing a stored one.
    const records = readFileSync(example, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"type":"analysis"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    const moved = { ...records[0]!, answered_at: '2026-11-10T10:00:00Z' }
    const added = {
      ...records[1]!,
      id: 'a0000000-0000-4000-8000-00000000abcd',
      answered_at: '2026-11-12T10:00:00Z',
    }
    await engine.ingest([moved, added])
    const fresh = new AggregateStore(internals.db.pool, { retain: false, maxRows: 0 })
    for (const t of AGGREGATE_TABLE_NAMES) {
      const spliced = await store.rows(t, key)
      expect({ ...spliced }, t).toEqual({ ...(await fresh.rows(t, key)) })
    }
    // Served from the kept entries (spliced), not loaded whole again.
    expect(store.stats().misses).toBe(misses)
    await engine.close()
  })

  it('after a commit that touches many domains, reads each table once for all of them: the same rows as a full load', async () => {
    const dims = makeDims(31, { teams: 2, domainsPerTeam: 4 })
    const engine = await openEngine()
    await engine.ingest([...dimRecords(dims), ...makeAnalyses(31, dims, 0, 400)])
    const internals = engine as unknown as {
      aggregates: AggregateStore
      catalog: { domains: Map<string, { key: number }> }
      db: { pool: AggregateStore['pool'] }
    }
    const store = internals.aggregates
    const keys = dims.domains.map((d) => internals.catalog.domains.get(d.id)!.key)
    for (const k of keys) for (const t of AGGREGATE_TABLE_NAMES) await store.rows(t, k)
    const { misses } = store.stats()
    // New analyses of every domain, and some replacing stored ones (moved to other days).
    await engine.ingest([...makeAnalyses(33, dims, 1, 120), ...makeAnalyses(32, dims, 0, 40)])
    const loads = vi.spyOn(store.pool, 'loadColumns')
    const spliced = new Map<string, unknown>()
    for (const t of AGGREGATE_TABLE_NAMES)
      for (const k of [...keys].reverse()) spliced.set(`${t} of ${k}`, { ...(await store.rows(t, k)) })
    // One query per table, each for every domain the commit touched.
    expect(loads.mock.calls.map((c) => c[0]).sort()).toEqual(
      AGGREGATE_TABLE_NAMES.map((t) => `queries/reload_${t}`).sort(),
    )
    for (const call of loads.mock.calls)
      expect((call[1].domain_keys as number[]).sort()).toEqual([...keys].sort())
    loads.mockRestore()
    expect(store.stats().misses).toBe(misses)
    const fresh = new AggregateStore(internals.db.pool, { retain: false, maxRows: 0 })
    for (const t of AGGREGATE_TABLE_NAMES)
      for (const k of keys)
        expect(spliced.get(`${t} of ${k}`), `${t} of ${k}`).toEqual({ ...(await fresh.rows(t, k)) })
    await engine.close()
  })

  it('drops the citation and fan-out structures of a domain after a commit that changes it', async () => {
    const engine = await openEngine()
    await engine.ingest([...base(), analysis({ fanout_queries: ['crm'] })])
    const p = { domainId: DOMAIN, days: 7, now: NOW }
    expect((await engine.computeCitations(p)).data.total).toBe(1)
    expect((await engine.computeFanoutQueries(p)).data.items[0]?.fanout_queries).toHaveLength(1)
    await engine.ingest([
      analysis({ citations: [{ url: 'https://globex.com/x', title: 'X' }], fanout_queries: ['crm', 'erp'] }),
    ])
    expect((await engine.computeCitations(p)).data.items.map((i) => [i.url, i.title])).toEqual([
      ['https://globex.com/x', 'X'],
      ['https://www.acme.com/a', null],
    ])
    expect((await engine.computeCitedDomains(p)).data.total).toBe(2)
    expect(
      (await engine.computeFanoutQueries(p)).data.items[0]?.fanout_queries.map((q) => [q.query, q.count]),
    ).toEqual([
      ['crm', 2],
      ['erp', 1],
    ])
    await engine.close()
  })
})

describe('AggregateStore', () => {
  /** A pool that answers every load with `rows` rows per column and domain, and counts the loads. */
  function fakePool(rows = 3) {
    const loads: string[] = []
    return {
      loads,
      async loadColumns(id: string, values: Record<string, number | number[]>, columns: readonly string[]) {
        const keys = (values.domain_keys ?? [values.domain_key]) as number[]
        loads.push(`${id}:${keys.join('+')}`)
        return columns.map((c) =>
          Float64Array.from(
            keys.flatMap((k) => Array.from({ length: rows }, () => k)),
            (k) => (c === 'domain_key' ? k : 0),
          ),
        )
      },
      async loadStrings(id: string, values: Record<string, number>, columns: readonly string[]) {
        loads.push(`${id}:${values.domain_key}`)
        return columns.map(() => [])
      },
    }
  }

  it('loads a (domain, table) once while kept, again after invalidate', async () => {
    const pool = fakePool()
    const store = new AggregateStore(pool, { retain: true, maxRows: 100 })
    const first = await store.rows('agg_theme_day', 1)
    expect(Object.keys(first)).toEqual(['day', 'channel', 'model_key', 'theme_idx', 'occurrences'])
    expect(await store.rows('agg_theme_day', 1)).toBe(first)
    await store.rows('agg_theme_day', 2)
    expect(pool.loads).toEqual(['queries/load_agg_theme_day:1', 'queries/load_agg_theme_day:2'])
    store.invalidate([1])
    expect(await store.rows('agg_theme_day', 1)).not.toBe(first)
    expect(await store.rows('agg_theme_day', 2)).toBeDefined()
    expect(pool.loads).toHaveLength(3)
  })

  it('builds a derived structure once per domain while kept, again after invalidate, sized by its rows', async () => {
    const pool = fakePool()
    const store = new AggregateStore(pool, { retain: true, maxRows: 10 })
    let builds = 0
    const derived = {
      name: 'test_derived',
      build: async (_pool: unknown, domainKey: number) => ({ value: { domainKey, n: ++builds }, rows: 6 }),
    }
    const first = await store.derived(derived, 1)
    expect(await store.derived(derived, 1)).toBe(first)
    store.invalidate([1])
    expect(await store.derived(derived, 1)).toEqual({ domainKey: 1, n: 2 })
    await store.derived(derived, 2) // 6 + 6 rows > 10: domain 1's entry goes
    expect(await store.derived(derived, 1)).toEqual({ domainKey: 1, n: 4 })
  })

  it('refreshes a derived structure that can refresh (the kept value, the changed days of every commit since), rebuilds one that cannot', async () => {
    const pool = fakePool()
    const store = new AggregateStore(pool, { retain: true, maxRows: 100 })
    const calls: string[] = []
    const refreshing = {
      name: 'test_refreshing',
      build: async (_p: unknown, dk: number) => {
        calls.push(`build ${dk}`)
        return { value: { version: 0 }, rows: 5 }
      },
      refresh: async (
        _p: unknown,
        dk: number,
        kept: { version: number },
        days: { from: number; to: number },
      ) => {
        calls.push(`refresh ${dk} ${days.from}-${days.to} from version ${kept.version}`)
        return { value: { version: kept.version + 1 }, rows: 7 }
      },
    }
    let builds = 0
    const plain = { name: 'test_plain', build: async () => ({ value: ++builds, rows: 1 }) }
    expect(await store.derived(refreshing, 1)).toEqual({ version: 0 })
    expect(await store.derived(plain, 1)).toBe(1)
    store.refresh([{ domainKey: 1, from: 10, to: 12 }])
    store.refresh([{ domainKey: 1, from: 20, to: 20 }])
    store.refresh([{ domainKey: 2, from: 1, to: 1 }]) // another domain: nothing kept there
    expect(await store.derived(refreshing, 1)).toEqual({ version: 1 })
    expect(await store.derived(refreshing, 1)).toEqual({ version: 1 }) // fresh again: kept
    expect(await store.derived(plain, 1)).toBe(2)
    expect(calls).toEqual(['build 1', 'refresh 1 10-20 from version 0'])
    expect(store.stats().rows).toBe(7 + 1)
    store.invalidate([1])
    expect(await store.derived(refreshing, 1)).toEqual({ version: 0 })
    expect(calls.at(-1)).toBe('build 1')
  })

  it('evicts the least recently used entries beyond maxRows, and keeps nothing without retain', async () => {
    const pool = fakePool(10)
    const store = new AggregateStore(pool, { retain: true, maxRows: 20 })
    for (const dk of [1, 2, 1, 3]) await store.rows('agg_channel_day', dk) // 3 evicts 2, the LRU
    await store.rows('agg_channel_day', 1)
    await store.rows('agg_channel_day', 2)
    expect(pool.loads.map((l) => l.split(':')[1])).toEqual(['1', '2', '3', '2'])
    const none = new AggregateStore(fakePool(), { retain: false, maxRows: 100 })
    await none.rows('agg_prompt_day', 1)
    await none.rows('agg_prompt_day', 1)
    expect((none.pool as ReturnType<typeof fakePool>).loads).toHaveLength(2)
  })
})
