/**
 * The ingest pipeline list (src/ingest/pipeline.ts) against the files of sql/ingest: every step has
 * its file and every file its step, each header names the step's phase, parameters and the steps
 * before it, the order respects those, and each count of an IngestResult comes from one step. So
 * a renamed, added or reordered file fails here instead of silently changing the counts.
 */
import { PER_STORE } from '../reliability/store.js'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { describe, expect, it } from 'vitest'
import { openEngine } from '../../src/index.js'
import {
  AFFECTED_DOMAINS_QUERY,
  AGGREGATE_CHUNK_QUERIES,
  CALL_SUMMARY_QUERY,
  FIRST_CHUNK_QUERY,
  STAGED_QUERY,
  INGEST_STEPS,
  stepFile,
  type IngestStep,
} from '../../src/ingest/pipeline.js'
import { BULK_PREPARE } from '../../src/ingest/flat-bulk.js'
import { checkSqlText } from '../reliability/sql-scan.js'
import { analysis, base, COMPETITOR, domain, mention, OTHER_PROMPT, prompt } from '../support/records.js'

const DIR = new URL('../../sql/ingest/', import.meta.url).pathname
const text = (sqlId: string) => readFileSync(join(DIR, `${sqlId.replace(/^ingest\//, '')}.sql`), 'utf8')
const files = (s: IngestStep) => [stepFile(s, false), stepFile(s, true)]

describe('ingest pipeline', () => {
  it('lists every file of sql/ingest exactly once, and every listed file exists', () => {
    const listed = new Set([
      AFFECTED_DOMAINS_QUERY,
      ...AGGREGATE_CHUNK_QUERIES,
      FIRST_CHUNK_QUERY,
      CALL_SUMMARY_QUERY,
      STAGED_QUERY,
      ...INGEST_STEPS.flatMap((s) => files(s).map((f) => f.sql)),
    ])
    const onDisk = readdirSync(DIR).map((f) => `ingest/${f.replace(/\.sql$/, '')}`)
    expect([...listed].sort()).toEqual(onDisk.sort())
    expect(new Set(INGEST_STEPS.map((s) => s.id)).size).toBe(INGEST_STEPS.length)
  })

  it('each file header names its step, phase, parameters and the steps before it', () => {
    for (const s of INGEST_STEPS) {
      for (const f of files(s)) {
        const sql = text(f.sql)
        const header = sql
          .split('\n')
          .filter((l) => l.startsWith('--'))
          .join(' ')
          .replace(/\s*--\s*/g, ' ')
        expect(header, f.sql).toMatch(new RegExp(`^ Ingest step ${s.id}\\b.*; phase ${s.phase} `))
        // The steps bind nothing: they run as one script (the call's values are in stg_call).
        expect(checkSqlText(sql).params, `${f.sql}: parameters used`).toEqual([])
        const params = /Parameters: (.*?)\. Runs after/.exec(header)?.[1]
        expect(params, f.sql).toEqual('none')
        const after = /Runs after: (.*?)\.(?: |$)/.exec(header)?.[1]
        expect(after, f.sql).toBe(
          s.after.length === 0 ? 'the staging tables and handle maps (IngestCall.stage)' : s.after.join(', '),
        )
      }
    }
  })

  // A window over all of a call's rows sorts them as one partition: call_texts numbered a 467k-analysis
  // call of 1,001 domains so, and it ran out of memory at the 160 MB limit (the bench's crowd suite),
  // where the window partitioned by dictionary goes through. The aggregates phase runs one chunk of
  // the call's days at a time (its steps read stg_affected, ~100k analyses): a window there sorts a
  // chunk, not the call. fill_agg_cited_url numbers a chunk's analyses with one ordered window, as
  // partitioned by day the window ran a 64 MB call out of memory (test/reliability/spill-sort).
  it("partitions every window of a step but the chunked aggregates' (none sorts the call's rows as one)", () => {
    for (const s of INGEST_STEPS)
      for (const f of files(s)) {
        const sql = text(f.sql)
        for (const o of sql.match(/\bOVER\s*\([^)]*/g) ?? []) {
          if (s.phase === 'aggregates') expect(sql, f.sql).toMatch(/\bstg_affected\b/)
          else expect(o, f.sql).toMatch(/^OVER\s*\(\s*PARTITION BY\b/)
        }
      }
  })

  // The early steps run first, in a transaction committed before the call's own (EARLY_COMMIT):
  // each may write only the call's temp tables (or a session variable), may read nothing a step
  // listed before it writes (it runs before that step), and needs only early steps. The same for
  // the temp tables a flat import's bulk write makes then.
  it('commits early only what writes temp tables and reads nothing written before it', () => {
    const code = (sql: string) => sql.replace(/--.*$/gm, '')
    const names = (sql: string, re: RegExp) => [...code(sql).matchAll(re)].map((m) => m[1]!.toLowerCase())
    const writes = (sql: string) => names(sql, /\b(?:INSERT INTO|DELETE FROM|UPDATE|TABLE)\s+(\w+)/gi)
    const reads = (sql: string) => names(sql, /\b(?:FROM|JOIN)\s+(\w+)/gi)
    const written = new Set<string>()
    const early = new Set(INGEST_STEPS.filter((s) => s.early).map((s) => s.id))
    expect(early.size).toBeGreaterThan(0)
    for (const s of INGEST_STEPS)
      for (const f of files(s)) {
        const sql = text(f.sql)
        if (!s.early) {
          for (const t of writes(sql)) written.add(t)
          continue
        }
        for (const a of s.after) expect(early.has(a), `${s.id} needs ${a}`).toBe(true)
        expect(code(sql), f.sql).toMatch(/^\s*(INSERT INTO stg_\w+|SET VARIABLE)\b/)
        for (const t of writes(sql)) expect(t, f.sql).toMatch(/^stg_/)
        for (const t of reads(sql))
          expect(written.has(t), `${f.sql} reads ${t}, written before it`).toBe(false)
      }
    for (const id of ['bulk/keys', ...BULK_PREPARE]) {
      const sql = readFileSync(join(DIR, '..', `${id}.sql`), 'utf8')
      expect(code(sql), id).toMatch(/^\s*CREATE OR REPLACE TEMP TABLE bulk_\w+ AS\b/)
      expect(writes(sql), id).toHaveLength(1)
    }
  })

  it('runs every step after the steps it needs', () => {
    const seen = new Set<string>()
    for (const s of INGEST_STEPS) {
      for (const a of s.after) expect(seen.has(a), `${s.id} needs ${a} first`).toBe(true)
      seen.add(s.id)
    }
  })

  it('takes each fact count from exactly one step', () => {
    const counting = INGEST_STEPS.filter((s) => s.counts).map((s) => s.counts)
    expect(counting.sort()).toEqual([
      'analyses',
      'citations',
      'fanout_queries',
      'mentions',
      'theme_occurrences',
    ])
  })

  it('reports the rows it stored, with distinct analysis ids and with a repeated one', async () => {
    const engine = await openEngine()
    const a = analysis({
      mentions: [
        { entity_id: 'brand', position: 1, sentiment: 80 },
        { entity_id: COMPETITOR, position: 2, sentiment: null },
      ],
      citations: [
        { url: 'https://www.acme.com/a' },
        { url: 'https://globex.com/' },
        { url: 'https://x.org/' },
      ],
    })
    const distinct = await engine.ingest([...base(), a, analysis()])
    expect(distinct).toMatchObject({ analyses: 2, mentions: 3, citations: 4, theme_occurrences: 2 })
    // The same id twice in one call: the de-duplicating steps run and the last record wins.
    const again = await engine.ingest([a, { ...a, mentions: [], citations: [], themes: [] }])
    expect(again).toMatchObject({ analyses: 1, mentions: 0, citations: 0, theme_occurrences: 0 })
    expect(await engine.stats()).toMatchObject({
      analyses: 2,
      mentions: 1,
      citations: 1,
      theme_occurrences: 1,
    })
    await engine.close()
  })
})

describe('ingest pipeline: skipped steps', () => {
  /** Every stored table's rows after the calls, in one order. */
  async function storedRows(calls: unknown[][]): Promise<Record<string, unknown[]>> {
    const dir = mkdtempSync(join(tmpdir(), 'va-skip-'))
    try {
      const path = join(dir, 's.duckdb')
      const engine = await openEngine({ path })
      for (const records of calls) await engine.ingest(records)
      await engine.close()
      const db = await DuckDBInstance.create(path)
      const conn = await db.connect()
      const tables = (await conn.runAndReadAll('SELECT table_name FROM duckdb_tables() WHERE NOT temporary'))
        .getRows()
        .map(([t]) => String(t))
        .sort()
      const out: Record<string, unknown[]> = {}
      for (const t of tables)
        out[t] = (
          await conn.runAndReadAll(`SELECT * FROM "${t}"${t === 'meta' ? PER_STORE : ''} ORDER BY ALL`)
        ).getRowsJson()
      conn.closeSync()
      db.closeSync()
      return out
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  it('stores the same rows as running every step, whatever a call holds', async () => {
    const a = analysis({
      citations: [{ url: 'https://www.acme.com/a', title: 'A' }],
      fanout_queries: ['q one'],
    })
    const b = analysis({ channel: 'perplexity', mentions: [mention(COMPETITOR, 1, 20)] })
    const calls: unknown[][] = [
      [...base(), a, b],
      // Replaces a (the old rows go), adds texts; analyses only.
      [{ ...a, citations: [{ url: 'https://globex.com/x', page_type: 'blog' }], fanout_queries: ['q two'] }],
      // Dimensions only: the domain's website changes (every stored day is recomputed), a new prompt.
      [domain({ website: 'https://globex.com' }), prompt({ id: OTHER_PROMPT, text: 'Other' })],
      // Mentions and themes without citations or fan-out, on another day.
      [
        analysis({
          prompt_id: OTHER_PROMPT,
          answered_at: '2026-11-10T10:00:00Z',
          citations: [],
          fanout_queries: [],
        }),
      ],
    ]
    const skipping = await storedRows(calls)
    process.env.VA_INGEST_SKIP = 'never'
    try {
      expect(await storedRows(calls)).toEqual(skipping)
    } finally {
      delete process.env.VA_INGEST_SKIP
    }
    expect(skipping.texts!.length).toBeGreaterThan(0)
  })
})
