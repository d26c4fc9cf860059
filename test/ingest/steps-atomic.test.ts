/**
 * An ingest call's steps run as one multi-statement script (src/ingest/pipeline.ts,
 * runIngestSteps) inside the call's transaction: a statement that fails late in the script (here
 * one planted after the last aggregate's fill, or after the analyses' insert) refuses the call and
 * leaves every stored table as it was, in the DuckDB file itself; the next call stores normally.
 * A script that committed part of its work (a COMMIT between its statements) fails here: the early
 * steps' COMMIT (src/ingest/pipeline.ts, EARLY_COMMIT) commits the call's temp tables only.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { openEngine } from '../../src/index.js'
import { analysis, base, COMPETITOR, OTHER_PROMPT, prompt } from '../support/records.js'
import { tableHashes as snapshot } from '../support/store-file.js'

/** When set, a failing statement runs right after that step's file in the script that holds it. */
const plant = vi.hoisted(() => ({ after: null as string | null }))
vi.mock('../../src/db/sql.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/db/sql.js')>()
  return {
    ...original,
    sqlScript: (ids: readonly string[]) => {
      const at = plant.after === null ? -1 : ids.indexOf(plant.after)
      if (at < 0) return original.sqlScript(ids)
      const texts = ids.map((id) => original.sqlText(id))
      texts.splice(at + 1, 0, "SELECT error('planted failure')")
      return texts.join('\n;\n')
    },
  }
})

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const id = (n: number) => `a3000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const first = [
  ...base(),
  analysis({ id: id(1), response: 'one', mentions: [{ entity_id: 'brand', position: 1, sentiment: 70 }] }),
  analysis({ id: id(2), citations: [{ url: 'https://www.acme.com/a' }] }),
]
/** A second call: a new prompt and analyses, one analysis of the first call replaced. */
const second = [
  prompt({ id: OTHER_PROMPT }),
  analysis({
    id: id(1),
    response: 'one again',
    mentions: [{ entity_id: COMPETITOR, position: 1, sentiment: 10 }],
  }),
  analysis({ id: id(3), prompt_id: OTHER_PROMPT, citations: [{ url: 'https://globex.com/x' }] }),
  analysis({ id: id(4), response: 'four', fanout_queries: ['acme pricing'] }),
]

describe("an ingest call's steps are atomic", () => {
  // resolve_citations_unique: an early step, before the early steps' COMMIT (src/ingest/pipeline.ts);
  // insert_analyses and fill_agg_cited_url: in the call's own transaction, after it.
  for (const after of [
    'ingest/fill_agg_cited_url',
    'ingest/insert_analyses',
    'ingest/resolve_citations_unique',
  ]) {
    it(`a failure after ${after} leaves every table as it was`, async () => {
      const d = mkdtempSync(join(tmpdir(), 'va-atomic-'))
      dirs.push(d)
      const path = join(d, 's.duckdb')
      let engine = await openEngine({ path })
      await engine.ingest(first)
      const stats = await engine.stats()
      await engine.close()
      const before = await snapshot(path)

      engine = await openEngine({ path })
      plant.after = after
      const refused = await engine.ingest(second).catch((e: unknown) => e)
      plant.after = null
      expect(refused).toBeInstanceOf(Error)
      expect(await engine.stats()).toEqual(stats)
      await engine.close()
      expect(await snapshot(path)).toEqual(before)

      engine = await openEngine({ path })
      expect(await engine.ingest(second)).toMatchObject({ analyses: 3 })
      expect((await engine.stats()).analyses).toBe(stats.analyses! + 2)
      await engine.close()
      expect(await snapshot(path)).not.toEqual(before)
    })
  }
})
