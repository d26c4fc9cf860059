/**
 * The answer texts' column is stored with ZSTD (sql/schema/010_zstd_answers.sql): in a new store
 * after an ingest, and in a store of schema version 9 (fixtures/legacy/schema-v9-answers.duckdb.gz,
 * written by that release with the texts of fixtures/legacy/answers-v9.ndjson, DICT_FSST there)
 * once it is migrated on open: every text kept byte for byte, the index on the keys rebuilt, and
 * the column still ZSTD after the migrated store takes new texts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { openEngine } from '../../src/index.js'
import { onStoreFile } from '../support/store-file.js'

const fixture = (path: string) => new URL(`../../fixtures/${path}`, import.meta.url).pathname
const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'va-answers-zstd-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** The compressions of the stored text column's segments, its texts by analysis id, its indexes. */
function storage(path: string) {
  return onStoreFile(path, async ({ objects, rows }) => ({
    compressions: (
      await rows(
        `SELECT DISTINCT compression FROM pragma_storage_info('analysis_responses')
         WHERE column_name = 'response' AND segment_type = 'VARCHAR' ORDER BY 1`,
      )
    ).map((r) => r[0]),
    texts: await objects(
      `SELECT a.id::VARCHAR AS id, r.response FROM analysis_responses r JOIN analyses a USING (analysis_key)
       ORDER BY id`,
    ),
    indexes: (
      await rows("SELECT index_name FROM duckdb_indexes() WHERE table_name = 'analysis_responses'")
    ).map((r) => r[0]),
    version: (await rows("SELECT value FROM meta WHERE key = 'schema_version'"))[0]![0],
  }))
}

/** The texts of an NDJSON file's analyses, by id, as the file spells them. */
function textsOf(file: string) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { type: string; id: string; response?: string })
    .filter((r) => r.type === 'analysis')
    .map((r) => ({ id: r.id, response: r.response! }))
    .sort((a, b) => (a.id < b.id ? -1 : 1))
}

const SOURCE = fixture('legacy/answers-v9.ndjson')

describe('the answer texts are stored with ZSTD', () => {
  it('in a new store after an ingest', async () => {
    const path = join(tmp(), 'new.duckdb')
    const engine = await openEngine({ path })
    await engine.ingestFile(SOURCE)
    await engine.close()
    const s = await storage(path)
    expect(s.compressions).toEqual(['ZSTD'])
    expect(s.texts).toEqual(textsOf(SOURCE))
    expect(s.indexes).toEqual(['analysis_responses_key'])
  })

  it('in a store of schema version 9, migrated on open with every text kept byte for byte', async () => {
    const path = join(tmp(), 'v9.duckdb')
    writeFileSync(path, gunzipSync(readFileSync(fixture('legacy/schema-v9-answers.duckdb.gz'))))
    const before = await storage(path)
    expect(before.version).toBe('9')
    expect(before.compressions).toEqual(['DICT_FSST'])
    expect(before.texts).toEqual(textsOf(SOURCE))
    const texts = before.texts

    const engine = await openEngine({ path })
    await engine.close()
    const after = await storage(path)
    expect(after.version).toBe('10')
    expect(after.compressions).toEqual(['ZSTD'])
    expect(after.texts).toEqual(texts)
    expect(after.indexes).toEqual(['analysis_responses_key'])

    // The migrated table takes new texts (one replaced) and keeps them with ZSTD.
    const again = await openEngine({ path })
    const first = readFileSync(SOURCE, 'utf8')
      .split('\n')
      .map((l) => (l === '' ? null : (JSON.parse(l) as Record<string, unknown>)))
      .find((r) => r?.type === 'analysis')!
    await again.ingest([{ ...first, response: 'a new text' }])
    await again.close()
    const replaced = await storage(path)
    expect(replaced.compressions).toEqual(['ZSTD'])
    expect(replaced.texts).toEqual(
      texts.map((t) => (t.id === first.id ? { id: t.id, response: 'a new text' } : t)),
    )
  })
})
