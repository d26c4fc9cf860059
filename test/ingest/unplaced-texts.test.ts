/**
 * The answer texts an ingest call appends go into analysis_responses with the staging, whose
 * transaction commits before the call's own (src/ingest/call.ts, `begin`): until the call places
 * them they carry a negative domain_key. A call refused after that commit (here: a step that
 * fails) deletes them again, and a row a crash left behind is gone before the next call appends.
 * Checked in the DuckDB file itself.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { openEngine } from '../../src/index.js'
import { analysis, base } from '../support/records.js'
import { onStoreFile } from '../support/store-file.js'

/** When set, the call's steps fail as a DuckDB error in one of them would (after the commit). */
const fail = vi.hoisted(() => ({ steps: false }))
vi.mock('../../src/ingest/pipeline.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/ingest/pipeline.js')>()
  return {
    ...original,
    runIngestSteps: (...args: Parameters<typeof original.runIngestSteps>) =>
      fail.steps ? Promise.reject(new Error('a step failed')) : original.runIngestSteps(...args),
  }
})

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
function storePath(): string {
  const d = mkdtempSync(join(tmpdir(), 'va-unplaced-'))
  dirs.push(d)
  return join(d, 's.duckdb')
}

const texts = (path: string) =>
  onStoreFile(path, ({ objects }) =>
    objects('SELECT response, domain_key < 0 AS unplaced FROM analysis_responses ORDER BY response'),
  )

const id = (n: number) => `a2000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const call = (n: number) => [...base(), analysis({ id: id(n), response: `text of ${n}` })]

describe('answer texts a call appended but never placed', () => {
  it('go when the call is refused after the staging committed', async () => {
    const path = storePath()
    const engine = await openEngine({ path })
    await engine.ingest(call(1))
    fail.steps = true
    const refused = await engine.ingest(call(2)).catch((e: unknown) => e)
    fail.steps = false
    expect(refused).toBeInstanceOf(Error)
    await engine.close()
    expect(await texts(path)).toEqual([{ response: 'text of 1', unplaced: false }])
  })

  it('a row a crash left is gone before the next call appends (whose keys it may hold)', async () => {
    const path = storePath()
    let engine = await openEngine({ path })
    await engine.ingest(call(1))
    await engine.close()
    // What a process stopped between the two commits leaves: the next key, a domain handle.
    await onStoreFile(
      path,
      ({ objects }) =>
        objects(
          `INSERT INTO analysis_responses (analysis_key, domain_key, response)
         SELECT max(analysis_key) + 1, -1, 'left by a crash' FROM analyses`,
        ),
      'READ_WRITE',
    )
    engine = await openEngine({ path })
    await engine.ingest(call(2))
    await engine.close()
    expect(await texts(path)).toEqual([
      { response: 'text of 1', unplaced: false },
      { response: 'text of 2', unplaced: false },
    ])
  })
})
