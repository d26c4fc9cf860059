/**
 * The answers listing's kept details (src/reports/answers/details.ts; docs/API.md, "GET
 * /api/v1/answers"): after commits (additions, a re-ingest moving an analysis to another day with
 * other details), a prune and a deletion call, the kept structure
 * equals one built from the whole history, and so do the pages it gives.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { openEngine, type Engine } from '../../src/index.js'
import type { AnswersPayload } from '../../src/reports/index.js'
import { answerDetails, type AnswerDetails } from '../../src/reports/answers/details.js'
import { answerIndex } from '../../src/reports/answers/index-rows.js'
import type { Derived } from '../../src/tables/aggregates.js'
import { analysis, base, COMPETITOR, DOMAIN, mention, NOW, THEME } from '../support/records.js'

const id = (n: number) => `d0000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const at = (day: number, minute: number) =>
  new Date(Date.parse('2026-11-01T00:00:00Z') + (day - 1) * 86_400_000 + minute * 60_000).toISOString()

/** Analysis `n` on `day`: details that vary with n and `variant` (a re-ingest changes them). */
function answer(n: number, day: number, variant = 0) {
  const v = n + variant
  return analysis({
    id: id(n),
    answered_at: at(day, (n * 37) % 1400),
    response: `answer ${n}/${variant}`,
    mentions: [
      mention('brand', v % 4 === 0 ? null : 1 + (v % 3), v % 5 === 0 ? null : 10 + (v % 7)),
      ...(v % 3 === 0 ? [mention(COMPETITOR, v % 2 === 0 ? null : 2, 40.5)] : []),
    ],
    citations: [
      // A URL whose text is not its identity's (a fragment; an upper-case scheme and host) beside plain ones.
      { url: `https://www.acme.com/p/${v % 11}`, title: v % 2 === 0 ? `T${v % 5}` : null },
      ...(v % 4 === 1 ? [{ url: `HTTPS://Docs.Globex.com/x/${v % 7}#part-${v}`, page_type: 'docs' }] : []),
      { url: `https://example.org/${v % 13}${v % 6 === 0 ? '#top' : ''}` },
    ].slice(0, 1 + (v % 3)),
    themes: v % 5 === 4 ? [] : [{ theme_id: THEME, occurrences: 1 + (v % 4) }],
    fanout_queries: [`q ${v % 9}`, ...(v % 2 === 0 ? [`r ${v % 5}`] : [])],
  })
}

interface Internals {
  aggregates: {
    derived<T>(d: Derived<T>, key: number): Promise<T>
    invalidate(keys: number[]): void
  }
  catalog: { domains: Map<string, { key: number }> }
}

/** Every page of the 365-day listing, and of the competitor's. */
async function pages(engine: Engine): Promise<AnswersPayload[]> {
  const out: AnswersPayload[] = []
  for (const entity of [undefined, COMPETITOR]) {
    let cursor: string | undefined
    for (let i = 0; i < 200; i++) {
      const page = await engine.computeAnswers({
        domainId: DOMAIN,
        days: 365,
        limit: 7,
        now: NOW,
        ...(entity === undefined ? {} : { entity }),
        ...(cursor === undefined ? {} : { cursor }),
      })
      out.push(page)
      if (page.data.next_cursor === null) break
      cursor = page.data.next_cursor
    }
  }
  return out
}

describe('the kept details of the answers listing', () => {
  let engine: Engine
  let internals: Internals
  const key = () => internals.catalog.domains.get(DOMAIN)!.key
  /** The kept details and pages, then the same after the domain's structures are dropped (rebuilt). */
  async function keptAndRebuilt() {
    const kept = {
      details: await internals.aggregates.derived(answerDetails, key()),
      pages: await pages(engine),
    }
    internals.aggregates.invalidate([key()])
    const rebuilt = {
      details: await internals.aggregates.derived(answerDetails, key()),
      pages: await pages(engine),
    }
    return { kept, rebuilt }
  }
  const itemIds = (p: AnswersPayload[]) => p.flatMap((x) => x.data.items.map((i) => i.id))

  beforeAll(async () => {
    engine = await openEngine({ cursorSecret: 'answers-details-test' })
    internals = engine as unknown as Internals
    // 300 analyses over days 1-19 of November.
    await engine.ingest([...base(), ...Array.from({ length: 300 }, (_, n) => answer(n, 1 + (n % 19)))])
  })
  afterAll(() => engine.close())

  it('after commits: refreshed (not rebuilt) and equal to the structure built from the whole history', async () => {
    await pages(engine) // built
    const builds = vi.spyOn(answerDetails, 'build')
    const refreshes = vi.spyOn(answerDetails, 'refresh')
    // One call: new analyses on days 7 and 20, analysis 30 (day 12) moved to day 9 with other
    // details, analysis 31 (day 13) re-ingested on its day with other details.
    await engine.ingest([
      ...Array.from({ length: 12 }, (_, i) => answer(1000 + i, i % 2 === 0 ? 7 : 20)),
      answer(30, 9, 5),
      answer(31, 13, 2),
    ])
    // A second call: only the last day.
    await engine.ingest(Array.from({ length: 5 }, (_, i) => answer(2000 + i, 20, 1)))
    const kept = await internals.aggregates.derived(answerDetails, key())
    expect(builds).not.toHaveBeenCalled()
    expect(refreshes).toHaveBeenCalled()
    vi.restoreAllMocks()
    const { kept: k, rebuilt } = await keptAndRebuilt()
    expect(k.details).toBe(kept)
    expect(kept).toEqual(rebuilt.details)
    expect(k.pages).toEqual(rebuilt.pages)
    // The pages changed as the calls said (the checks above would hold for a structure never refreshed
    // only if these did not).
    const ids = itemIds(k.pages)
    expect(ids).toContain(id(1011))
    expect(ids).toContain(id(2004))
    const moved = k.pages.flatMap((p) => p.data.items).find((i) => i.id === id(30))!
    expect(moved.answered_at.slice(0, 10)).toBe('2026-11-09')
    expect(moved.response).toBe('answer 30/5')
    // Some citations are shown as ingested, not as their identity.
    const urls = k.pages.flatMap((p) => p.data.items.flatMap((i) => i.citations.map((c) => c.url)))
    expect(
      urls.filter((u) => /^HTTPS:\/\/Docs\.Globex\.com\/x\/\d#part-\d+$/.test(u)).length,
    ).toBeGreaterThan(10)
  })

  it('after a prune and a deletion call: equal to the structure built from the whole history', async () => {
    await pages(engine)
    await engine.prune({ olderThanDays: 15, now: '2026-11-20T12:00:00Z' })
    let { kept, rebuilt } = await keptAndRebuilt()
    expect(kept.details).toEqual(rebuilt.details)
    expect(kept.pages).toEqual(rebuilt.pages)
    const days = new Set(kept.pages.flatMap((p) => p.data.items.map((i) => i.answered_at.slice(0, 10))))
    expect([...days].sort()[0]).toBe('2026-11-05')
    await engine.ingest([
      { type: 'delete', entity: 'analysis', id: id(32) },
      { type: 'delete', entity: 'analysis', id: id(1000) },
    ])
    ;({ kept, rebuilt } = await keptAndRebuilt())
    expect(kept.details).toEqual(rebuilt.details)
    expect(kept.pages).toEqual(rebuilt.pages)
    expect(itemIds(kept.pages)).not.toContain(id(1000))
  })

  it('the index and the details have one row per analysis', async () => {
    const index = await internals.aggregates.derived(answerIndex, key())
    const details: AnswerDetails = await internals.aggregates.derived(answerDetails, key())
    expect(details.ms).toEqual(index.ms)
    for (const kind of [details.mentions, details.citations, details.themes, details.fanout])
      expect(kind.start.length).toBe(index.ms.length + 1)
  })
})
