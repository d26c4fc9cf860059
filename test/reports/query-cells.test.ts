/**
 * GET /api/v1/query's facts as cells (src/reports/query/facts.ts): a window that holds a cell whole
 * adds the cell's totals, a window that cuts it reads its analyses. Every window length from 1 to
 * 40 days (so every cell edge falls on both sides of a window's first day) and the previous window
 * of each, against the reference model; and the kept facts after commits that move, add and delete
 * analyses and change a prompt's topic and tags answer as a store built from the final records.
 */
import { describe, expect, it } from 'vitest'
import { openEngine, type Engine } from '../../src/index.js'
import type { QueryDimension, QueryParams } from '../../src/reports/index.js'
import { ReferenceModel } from '../reference/model.js'
import type { ExtInputRecord } from '../reference/types.js'
import { COMPETITOR, DOMAIN, NOW, PROMPT, analysis, base, mention, prompt } from '../support/records.js'

const P2 = '33333333-3333-4333-8333-333333333333'

/** Analyses over 40 days: two prompts, two channels and models, two countries (and none), varied mentions and citations. */
function records(): ExtInputRecord[] {
  const out: unknown[] = [
    ...base(),
    prompt({ id: P2, text: 'second', topic: 'Pricing', tags: ['b', 'a'] } as never),
  ]
  let n = 0
  for (let d = 0; d < 40; d++) {
    const day = new Date(Date.parse('2026-11-19T10:00:00Z') - d * 86_400_000).toISOString()
    for (const [channel, model] of [
      ['chatgpt', 'gpt-4o'],
      ['chatgpt', 'gpt-4o-mini'],
      ['perplexity', 'sonar'],
    ] as const) {
      n++
      if (n % 4 === 0) continue // gaps: cells whose days are not every day
      out.push(
        analysis({
          id: `a1000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
          prompt_id: n % 3 === 0 ? P2 : PROMPT,
          channel,
          model,
          answered_at: day,
          country: n % 5 === 0 ? null : n % 2 === 0 ? 'DE' : 'US',
          mentions: [
            ...(n % 3 === 1 ? [] : [mention('brand', 1 + (n % 4), n % 7 === 0 ? null : (n * 13) % 100)]),
            ...(n % 2 === 0 ? [mention(COMPETITOR, n % 5 === 0 ? null : 2, 40.5)] : []),
          ],
          citations: [
            { url: `https://www.acme.com/p${n % 3}` },
            ...(n % 3 === 0 ? [{ url: 'https://globex.com/x' }, { url: 'https://blog.globex.com/y' }] : []),
          ],
        } as never),
      )
    }
  }
  return out as ExtInputRecord[]
}

const DIMS: QueryDimension[][] = [[], ['country'], ['prompt', 'channel', 'country'], ['model', 'tag']]

/** The payloads as JSON with every number to 12 significant digits (sums may add in another order). */
const rounded = (x: unknown): string =>
  JSON.stringify(x, (_, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(12)) : v))

async function expectSame(engine: Engine, want: (p: QueryParams) => unknown, p: QueryParams): Promise<void> {
  expect(rounded(await engine.computeQuery(p)), JSON.stringify(p)).toBe(rounded(want(p)))
}

/** `kept` answers every query as an engine that ingested `final` at once. */
async function expectAsFresh(kept: Engine, final: ExtInputRecord[], params: QueryParams[]): Promise<void> {
  const fresh = await openEngine()
  try {
    await fresh.ingest(final)
    for (const p of params)
      expect(rounded(await kept.computeQuery(p)), JSON.stringify(p)).toBe(
        rounded(await fresh.computeQuery(p)),
      )
  } finally {
    await fresh.close()
  }
}

/** `check` over an engine and the reference model that both ingested records(). */
async function withEngineAndModel(
  check: (engine: Engine, model: ReferenceModel) => Promise<void>,
): Promise<void> {
  const recs = records()
  const engine = await openEngine()
  const model = new ReferenceModel()
  try {
    await engine.ingest(recs)
    model.ingest(recs)
    await check(engine, model)
  } finally {
    await engine.close()
  }
}

describe('/query over cells: whole and cut cells', () => {
  it('every window length, with its previous window, equals the reference model', async () => {
    await withEngineAndModel(async (engine, model) => {
      let rows = 0
      for (const dimensions of DIMS)
        for (let days = 1; days <= 40; days++) {
          const p = {
            domainId: DOMAIN,
            now: NOW,
            days,
            dimensions,
            entity: 'all',
            compare: 'previous',
          } as const
          await expectSame(engine, (q) => model.computeQuery(q), p)
          rows += (await engine.computeQuery(p)).data.items.length
        }
      for (let days = 1; days <= 12; days++)
        await expectSame(engine, (q) => model.computeQuery(q), {
          domainId: DOMAIN,
          now: NOW,
          days,
          dimensions: ['date', 'country'],
          entity: 'all',
        })
      // One entity shown: share of voice still counts every entity of the domain.
      for (let days = 1; days <= 40; days += 3)
        await expectSame(engine, (q) => model.computeQuery(q), {
          domainId: DOMAIN,
          now: NOW,
          days,
          dimensions: ['prompt', 'channel'],
          entity: 'brand',
          compare: 'previous',
        })
      expect(rows).toBeGreaterThan(500)
    })
  }, 120_000)

  it('every page of every small limit (groups split between pages), with its previous window, equals the reference model', async () => {
    // Only the page's groups are summed beyond their responses (src/reports/query/query.ts): a
    // group whose rows start on one page and end on the next is on both.
    await withEngineAndModel(async (engine, model) => {
      let split = 0
      for (const [days, minResponses] of [
        [30, 0],
        [9, 2],
      ] as const)
        for (let limit = 1; limit <= 7; limit++) {
          const first = await engine.computeQuery({
            domainId: DOMAIN,
            now: NOW,
            days,
            dimensions: ['prompt', 'channel', 'country'],
            entity: 'all',
          })
          const entities = new Set(first.data.items.map((r) => r.entity_id)).size
          for (let page = 1; page <= Math.ceil(first.data.total / limit) + 1; page++) {
            if (((page - 1) * limit) % entities !== 0) split++
            await expectSame(engine, (q) => model.computeQuery(q), {
              domainId: DOMAIN,
              now: NOW,
              days,
              dimensions: ['prompt', 'channel', 'country'],
              entity: 'all',
              compare: 'previous',
              minResponses,
              page,
              limit,
            })
          }
        }
      expect(split).toBeGreaterThan(20)
    })
  }, 120_000)

  it('builds the facts one query at a time (each result is materialized in DuckDB before it is copied)', async () => {
    const engine = await openEngine()
    try {
      await engine.ingest(records())
      const pool = (engine as unknown as { aggregates: { pool: Record<string, unknown> } }).aggregates.pool
      let inFlight = 0
      let most = 0
      const facts = /^queries\/query\/(analyses|countries|mentions|citations|hosts)$/
      for (const method of ['loadColumns', 'loadStrings']) {
        const original = pool[method] as (id: string, ...rest: unknown[]) => Promise<unknown>
        pool[method] = async (id: string, ...rest: unknown[]) => {
          if (!facts.test(id)) return original.call(pool, id, ...rest)
          most = Math.max(most, ++inFlight)
          try {
            return await original.call(pool, id, ...rest)
          } finally {
            inFlight--
          }
        }
      }
      await engine.computeQuery({
        domainId: DOMAIN,
        now: NOW,
        days: 30,
        dimensions: ['country'],
        entity: 'all',
      })
      expect(most).toBe(1)
    } finally {
      await engine.close()
    }
  })

  it('kept facts after moves, additions, deletions and topic/tag changes answer as a store built afresh', async () => {
    const recs = records()
    const kept = await openEngine()
    try {
      await kept.ingest(recs)
      const params: QueryParams[] = DIMS.flatMap((dimensions) => [
        { domainId: DOMAIN, now: NOW, days: 30, dimensions, entity: 'all', compare: 'previous' },
        { domainId: DOMAIN, now: NOW, days: 7, dimensions, entity: 'all', country: 'DE' },
        { domainId: DOMAIN, now: NOW, days: 30, dimensions, entity: 'brand', tag: 'a' },
      ])
      for (const p of params) await kept.computeQuery(p) // the facts (and a segment's) kept
      const analyses = recs.filter((r) => r.type === 'analysis') as Array<ExtInputRecord & { id: string }>
      const moved = { ...analyses[3]!, answered_at: '2026-11-01T09:00:00Z', country: 'FR' }
      const added = analysis({
        id: 'a2000000-0000-4000-8000-000000000001',
        answered_at: '2026-11-18T08:00:00Z',
        country: 'DE',
      } as never) as unknown as ExtInputRecord
      const retagged = prompt({ id: P2, text: 'second', topic: 'Support', tags: ['a', 'c'] } as never)
      const afterUpserts = [
        ...recs.filter((r) => r !== analyses[3] && !(r.type === 'prompt' && r.id === P2)),
        retagged,
        moved,
        added,
      ] as ExtInputRecord[]
      await kept.ingest([moved, added, retagged] as ExtInputRecord[])
      await expectAsFresh(kept, afterUpserts, params)
      await kept.ingest([{ type: 'delete', entity: 'analysis', id: analyses[10]!.id }] as never)
      await expectAsFresh(
        kept,
        afterUpserts.filter((r) => r !== analyses[10]),
        params,
      )
    } finally {
      await kept.close()
    }
  }, 120_000)
})
