/**
 * How the answers listing's details are stored (docs/API.md, "GET /api/v1/answers"): the rows of
 * an analysis's mentions, citations, theme occurrences and fan-out queries go in analysis_key
 * order, so that a page's read by key range skips every other row group; a file written before
 * (schema version 8) is put in that order when it is opened, and answers the same pages.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { openEngine, SCHEMA_VERSION, type Engine } from '../../src/index.js'
import type { AnswersPayload } from '../../src/reports/index.js'
import { ANSWER_TEXTS } from '../../src/reports/answers/index-rows.js'
import { analysis, base, COMPETITOR, DOMAIN, mention, NOW, THEME } from '../support/records.js'
import { onStoreFile } from '../support/store-file.js'

type AnalysisRecord = ReturnType<typeof analysis>

const CHILD_TABLES = ['mentions', 'citations', 'theme_occurrences', 'fanout_queries'] as const

const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'va-answers-storage-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const id = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`

/** `n` analyses over the last 20 days, each with mentions, citations, themes and fan-out queries. */
function analyses(n: number, from = 0): AnalysisRecord[] {
  return Array.from({ length: n }, (_, i) =>
    analysis({
      id: id(from + i),
      answered_at: new Date(
        Date.parse('2026-11-20T12:00:00Z') - ((i * 7919) % (20 * 86_400)) * 1000,
      ).toISOString(),
      response: `answer ${from + i}`,
      mentions: [mention('brand', 1 + (i % 3), 10), mention(COMPETITOR, null, null)],
      citations: [
        { url: `https://www.acme.com/p/${i % 97}` },
        { url: `https://docs.globex.com/${i % 89}`, title: `T${i % 13}` },
        { url: `https://example.org/${i % 83}` },
      ],
      themes: [{ theme_id: THEME, occurrences: 1 + (i % 4) }],
      fanout_queries: [`q ${i % 31}`, `r ${i % 37}`],
    }),
  )
}

/** Runs `fn` on the closed store's file, read-only. */
function onFile<T>(path: string, fn: (run: (sql: string) => Promise<unknown[][]>) => Promise<T>): Promise<T> {
  return onStoreFile(path, ({ rows }) => fn(rows))
}

/** Per child table: how many rows have a smaller analysis_key than the row stored before them. */
async function outOfOrder(path: string): Promise<Record<string, number>> {
  return onFile(path, async (run) => {
    const out: Record<string, number> = {}
    for (const t of CHILD_TABLES) {
      const rows = await run(`
        SELECT count(*) FILTER (WHERE analysis_key < prev)::INTEGER, count(*)::INTEGER
        FROM (SELECT analysis_key, lag(analysis_key) OVER (ORDER BY rowid) AS prev FROM ${t})`)
      const [down, all] = rows[0] as [number, number]
      expect(all, `${t} has rows`).toBeGreaterThan(1000)
      out[t] = down
    }
    return out
  })
}

const inOrder = Object.fromEntries(CHILD_TABLES.map((t) => [t, 0]))

/** Every page of the domain's 365-day listing. */
async function pages(engine: Engine): Promise<AnswersPayload[]> {
  const out: AnswersPayload[] = []
  let cursor: string | undefined
  for (let i = 0; i < 500; i++) {
    const page = await engine.computeAnswers({
      domainId: DOMAIN,
      days: 365,
      limit: 50,
      now: NOW,
      ...(cursor === undefined ? {} : { cursor }),
    })
    out.push(page)
    if (page.data.next_cursor === null) return out
    cursor = page.data.next_cursor
  }
  throw new Error('too many pages')
}

describe('child rows in analysis_key order', () => {
  it('an ingest call stores them in key order (distinct ids, and a call with a repeated id)', async () => {
    const path = join(tmp(), 'store.duckdb')
    const engine = await openEngine({ path })
    // One call with distinct ids (the `unique` steps), then one repeating an analysis (the others).
    await engine.ingest([...base(), ...analyses(3000)])
    await engine.ingest([...analyses(2000, 3000), ...analyses(1, 3000)])
    await engine.close()
    expect(await outOfOrder(path)).toEqual(inOrder)
  }, 120_000)

  it('a file of schema version 8 is put in key order on open, with the same rows and the same pages', async () => {
    const path = join(tmp(), 'store.duckdb')
    let engine = await openEngine({ path, cursorSecret: 'answers-storage-test' })
    await engine.ingest([...base(), ...analyses(3000)])
    const before = await pages(engine)
    await engine.close()
    // The file as version 8 wrote it: each child table in an order unrelated to the keys.
    const contents = async () =>
      onFile(path, async (run) => {
        const out: Record<string, unknown[][]> = {}
        for (const t of CHILD_TABLES) out[t] = await run(`SELECT * FROM ${t} ORDER BY ALL`)
        return out
      })
    const rows = await contents()
    {
      const inst = await DuckDBInstance.create(path)
      const con = await inst.connect()
      for (const t of CHILD_TABLES) {
        await con.run(`CREATE TEMP TABLE s AS SELECT * FROM ${t} ORDER BY hash(analysis_key, rowid)`)
        await con.run(`DELETE FROM ${t}; INSERT INTO ${t} SELECT * FROM s; DROP TABLE s`)
      }
      await con.run("UPDATE meta SET value = '8' WHERE key = 'schema_version'")
      con.closeSync()
      inst.closeSync()
    }
    const scrambled = await outOfOrder(path)
    for (const t of CHILD_TABLES) expect(scrambled[t], t).toBeGreaterThan(100)

    engine = await openEngine({ path, cursorSecret: 'answers-storage-test' })
    expect(await pages(engine)).toEqual(before)
    await engine.close()
    expect(await outOfOrder(path)).toEqual(inOrder)
    expect(await contents()).toEqual(rows)
    expect(await onFile(path, (run) => run("SELECT value FROM meta WHERE key = 'schema_version'"))).toEqual([
      [String(SCHEMA_VERSION)],
    ])
  }, 120_000)
})

describe('the texts a page reads after a commit', () => {
  it('titles, page types and fan-out queries a commit adds are read (the kept ones are not read again)', async () => {
    const engine = await openEngine({ cursorSecret: 'answers-storage-test' })
    await engine.ingest([
      ...base(),
      analysis({
        id: id(1),
        answered_at: '2026-11-19T10:00:00Z',
        citations: [{ url: 'https://a.example/1', title: 'Old title', page_type: 'docs' }],
        fanout_queries: ['old query'],
      }),
    ])
    const page = () => engine.computeAnswers({ domainId: DOMAIN, now: NOW })
    const first = await page()
    expect(first.data.items[0]!.citations[0]!.title).toBe('Old title')
    const builds = [ANSWER_TEXTS.titles, ANSWER_TEXTS.pageTypes, ANSWER_TEXTS.queries].map((d) =>
      vi.spyOn(d, 'build'),
    )
    await engine.ingest([
      analysis({
        id: id(2),
        answered_at: '2026-11-20T10:00:00Z',
        citations: [
          { url: 'https://a.example/2', title: 'New title', page_type: 'blog' },
          { url: 'https://a.example/1', title: 'Old title', page_type: 'docs' },
        ],
        fanout_queries: ['new query', 'old query'],
      }),
    ])
    const second = await page()
    expect(second.data.items.map((x) => x.id)).toEqual([id(2), id(1)])
    expect(second.data.items[0]!.citations.map((c) => [c.title, c.page_type])).toEqual([
      ['New title', 'blog'],
      ['Old title', 'docs'],
    ])
    expect(second.data.items[0]!.fanout_queries).toEqual(['new query', 'old query'])
    expect(second.data.items[1]).toEqual(first.data.items[0])
    for (const b of builds) expect(b).not.toHaveBeenCalled()
    await engine.close()
  })
})
