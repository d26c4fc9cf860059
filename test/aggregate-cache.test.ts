/**
 * The in-memory aggregate cache answers exactly like the SQL it stands for, and never serves an
 * aggregate from before a commit.
 */
import { describe, expect, it } from 'vitest'
import { openEngine, type Engine } from '../src/index.js'
import { analysis, base, COMPETITOR, DOMAIN, NOW, THEME } from './support/records.js'

const example = new URL('../fixtures/spec-example/data.ndjson', import.meta.url).pathname
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
        out.push(await engine.sentimentOverview({ domainId, days, now, model }))
        out.push(await engine.sentimentThemes({ domainId, days, now, model }))
      }
    }
  }
  return out
}

describe('aggregate cache', () => {
  it('gives the same payloads as DuckDB SQL for every window and filter of the worked example', async () => {
    const cached = await openEngine()
    const sql = await openEngine({ aggregateCache: false })
    for (const e of [cached, sql]) await e.ingestFile(example)
    const a = await everyPayload(cached, EXAMPLE_DOMAIN)
    const b = await everyPayload(sql, EXAMPLE_DOMAIN)
    expect(a).toEqual(b)
    expect(a.length).toBeGreaterThan(500)
    await cached.close()
    await sql.close()
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
      (await engine.sentimentOverview({ domainId: DOMAIN, days: 7, now: NOW })).data.total_mentions,
    ).toBe(6)
    await engine.close()
  })
})
