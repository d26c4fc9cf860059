/**
 * The early steps (src/ingest/pipeline.ts, EARLY_COMMIT): a call that deletes nothing makes its
 * temp tables (stg_final, stg_texts, stg_citation_rows; a flat import's bulk_* tables) in a
 * transaction committed before its own, so DuckDB counts their rows and scans them on every thread.
 * A statement planted right where the call's own transaction opens fails the call with what
 * duckdb_tables() counts there (committed rows only): the tables hold the call's rows, and the
 * refused call leaves the store file as it was. A call that deletes runs every step in one
 * transaction (its deletions are store writes: nothing of it may commit early).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { openEngine } from '../../src/index.js'
import { analysis, base } from '../support/records.js'
import { tableHashes as snapshot } from '../support/store-file.js'

/** Every script's statement ids; with `plant`, a failure reporting the temp tables' rows. */
const spy = vi.hoisted(() => ({ plant: false, scripts: [] as string[][] }))
vi.mock('../../src/db/sql.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/db/sql.js')>()
  return {
    ...original,
    sqlScript: (ids: readonly string[]) => {
      spy.scripts.push([...ids])
      const at = ids.indexOf('call/commit_early')
      if (!spy.plant || at < 0) return original.sqlScript(ids)
      const texts = ids.map((id) => original.sqlText(id))
      // After the COMMIT and the BEGIN that follows it.
      texts.splice(
        at + 2,
        0,
        `SELECT error('rows ' || (SELECT string_agg(table_name || '=' || estimated_size, ' ' ORDER BY table_name)
           FROM duckdb_tables() WHERE temporary AND (table_name LIKE 'bulk%' OR table_name IN ('stg_final', 'stg_texts', 'stg_citation_rows'))))`,
      )
      return texts.join('\n;\n')
    },
  }
})

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
const workDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'va-early-'))
  dirs.push(d)
  return d
}

const id = (n: number) => `a4000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const citations = [{ url: 'https://www.acme.com/a', title: 'A' }, { url: 'https://globex.com/' }]
const records = [...base(), analysis({ id: id(1), citations }), analysis({ id: id(2), citations })]

/** The rows the planted failure reported, by table. */
function reported(e: unknown): Record<string, number> {
  const cause = (e as Error).cause as Error | undefined
  const text = /rows ([^\n]*)/.exec(cause?.message ?? '')?.[1] ?? ''
  return Object.fromEntries(
    text
      .trim()
      .split(' ')
      .map((kv) => kv.split('='))
      .map(([k, v]) => [k!, Number(v)]),
  )
}

async function refusedWithPlant(run: () => Promise<unknown>): Promise<Record<string, number>> {
  spy.plant = true
  try {
    const e = await run().catch((err: unknown) => err)
    expect(e).toBeInstanceOf(Error)
    return reported(e)
  } finally {
    spy.plant = false
  }
}

describe('ingest: the early steps', () => {
  it("commit the call's temp tables before its own transaction, which alone writes the store", async () => {
    const path = join(workDir(), 's.duckdb')
    let engine = await openEngine({ path })
    await engine.ingest(base())
    const stats = await engine.stats()
    await engine.close()
    const before = await snapshot(path)

    engine = await openEngine({ path })
    const rows = await refusedWithPlant(() => engine.ingest(records))
    expect(rows).toMatchObject({ stg_final: 2, stg_citation_rows: 4 })
    // Two URLs, their hosts, one title.
    expect(rows.stg_texts).toBe(5)
    expect(await engine.stats()).toEqual(stats)
    await engine.close()
    expect(await snapshot(path)).toEqual(before)

    engine = await openEngine({ path })
    expect(await engine.ingest(records)).toMatchObject({ analyses: 2, citations: 4 })
    await engine.close()
  })

  it("commit a flat import's bulk tables the same way", async () => {
    const dir = workDir()
    const source = await openEngine()
    await source.ingest(records)
    await source.exportParquet(join(dir, 'export'))
    await source.close()

    const path = join(dir, 's.duckdb')
    const engine = await openEngine({ path })
    const rows = await refusedWithPlant(() => engine.ingestFile(join(dir, 'export')))
    expect(rows).toMatchObject({ bulk_analyses: 2, bulk_citations: 4, bulk_texts: 5 })
    expect((await engine.stats()).analyses ?? 0).toBe(0)
    expect(await engine.ingestFile(join(dir, 'export'))).toMatchObject({ analyses: 2, citations: 4 })
    await engine.close()
  })

  it('are not committed apart when the call deletes', async () => {
    const engine = await openEngine()
    await engine.ingest(records)
    spy.scripts.length = 0
    const r = await engine.ingest([
      { type: 'delete', entity: 'analysis', id: id(1) },
      analysis({ id: id(3), citations }),
    ])
    expect(r).toMatchObject({ analyses: 1, citations: 2, deleted: { analyses: 1 } })
    expect(spy.scripts.flat()).not.toContain('call/commit_early')
    spy.scripts.length = 0
    await engine.ingest([analysis({ id: id(4), citations })])
    expect(spy.scripts.flat()).toContain('call/commit_early')
    await engine.close()
  })
})
