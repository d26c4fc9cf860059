/**
 * How the record path stores answer texts (docs/API.md, "GET /api/v1/answers", Storage): appended
 * straight into analysis_responses during the call, keyed by their record, then put right by the
 * steps drop_repeated_analysis_responses and place_analysis_responses (src/ingest/pipeline.ts).
 * Checked in the DuckDB file itself, on JS records and on both NDJSON paths: a repeated analysis
 * keeps the text of its last record (none when that record has none), every row carries its
 * analysis's key and domain (a domain new in the call included), and a refused call leaves no
 * row behind. The texts travel as UTF-8 bytes, back to back in one buffer a batch (src/ingest/
 * columns.ts): every text comes back byte for byte, whatever its length and characters.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { IngestError, openEngine } from '../../src/index.js'
import { analysis, base, domain, OTHER_DOMAIN, prompt, TEAM, toNdjson } from '../support/records.js'
import { onStoreFile } from '../support/store-file.js'

const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'va-answer-texts-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** Every stored text with its analysis's id and whether its keys are the analysis's own. */
function stored(path: string) {
  return onStoreFile(path, async ({ objects: rows }) => ({
    texts: await rows(
      `SELECT a.id::VARCHAR AS id, r.response, r.domain_key = a.domain_key AS same_domain
       FROM analysis_responses r LEFT JOIN analyses a USING (analysis_key) ORDER BY id`,
    ),
    rows: (await rows('SELECT count(*)::INTEGER AS n FROM analysis_responses'))[0]!.n,
  }))
}

const id = (n: number) => `a1000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const OTHER_PROMPT_ID = '33333333-3333-4333-8333-333333333333'
/** A second domain, new in the call that names it, with its own prompt. */
const other = () => [
  domain({ id: OTHER_DOMAIN, team_id: TEAM, brand_name: 'Initech', website: 'initech.com' }),
  prompt({ id: OTHER_PROMPT_ID, domain_id: OTHER_DOMAIN, text: 'best crm' }),
]
const inOther = (over: Parameters<typeof analysis>[0]) =>
  analysis({ domain_id: OTHER_DOMAIN, prompt_id: OTHER_PROMPT_ID, mentions: [], themes: [], ...over })

/**
 * One call: the other domain's records come after its analyses (order within a call does not
 * matter); ids 1 and 2 repeat, 2's last record has no text; 5 has none at all.
 */
const firstCall = () => [
  ...base(),
  analysis({ id: id(1), response: 'first of 1' }),
  analysis({ id: id(2), response: 'first of 2' }),
  inOther({ id: id(3), response: 'text of 3' }),
  analysis({ id: id(1), response: 'last of 1' }),
  analysis({ id: id(2), response: null }),
  analysis({ id: id(4), response: 'text of 4' }),
  inOther({ id: id(5) }),
  ...other(),
]
const afterFirst = {
  texts: [
    { id: id(1), response: 'last of 1', same_domain: true },
    { id: id(3), response: 'text of 3', same_domain: true },
    { id: id(4), response: 'text of 4', same_domain: true },
  ],
  rows: 3,
}
/** A second call with distinct ids: replaces 1's and 3's texts, adds 5's, drops 4's. */
const secondCall = () => [
  inOther({ id: id(3), response: 'new text of 3' }),
  analysis({ id: id(1), response: 'new text of 1' }),
  inOther({ id: id(5), response: 'text of 5' }),
  analysis({ id: id(4), response: null }),
]
const afterSecond = {
  texts: [
    { id: id(1), response: 'new text of 1', same_domain: true },
    { id: id(3), response: 'new text of 3', same_domain: true },
    { id: id(5), response: 'text of 5', same_domain: true },
  ],
  rows: 3,
}

/**
 * 5,000 analyses (three batches of the NDJSON worker, two appender flushes): texts of every size
 * from empty to 150,000 code units (the batch's buffer grows past its first size and past double),
 * characters of 1 to 4 UTF-8 bytes, U+2028, and a lone surrogate (stored as U+FFFD, as a string
 * handed to DuckDB always was).
 */
function manyTexts(): { records: unknown[]; expected: Map<string, string> } {
  const pieces = ['plain words ', 'é', '✓ ', '𝄞', '\u2028', '"quoted" \\ ', '\n', 'Acme ']
  const expected = new Map<string, string>()
  const records: unknown[] = [...base()]
  let x = 7
  for (let n = 0; n < 5000; n++) {
    x = (x * 1103515245 + 12345) % 2147483648
    const len = n === 1234 ? 150_000 : n % 97 === 0 ? 0 : x % 3000
    let text = ''
    for (let i = 0; text.length < len; i++) text += pieces[(x + i * 7) % pieces.length]!
    const lone = n === 4321
    if (lone) text = `lone ${'\ud800'} surrogate`
    records.push(analysis({ id: id(100 + n), response: text }))
    expected.set(id(100 + n), lone ? 'lone \ufffd surrogate' : text)
  }
  return { records, expected }
}

describe('answer texts appended straight into analysis_responses', () => {
  it('every text byte for byte, on JS records and on both NDJSON paths', async () => {
    const dir = tmp()
    const { records, expected } = manyTexts()
    const file = join(dir, 'many.ndjson')
    writeFileSync(file, toNdjson(records))
    const want = [...expected]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([id, response]) => ({ id, response }))
    for (const via of ['records', 'worker', 'thread'] as const) {
      const path = join(dir, `many-${via}.duckdb`)
      const engine = await openEngine({ path })
      if (via === 'records') await engine.ingest(records as Parameters<typeof engine.ingest>[0])
      else await engine.ingestFile(file, via === 'thread' ? { onProgress: () => undefined } : undefined)
      await engine.close()
      const got = await stored(path)
      expect(got.rows, via).toBe(expected.size)
      expect(
        got.texts.map(({ id, response }) => ({ id, response })),
        via,
      ).toEqual(want)
    }
  })

  it('JS records: the last record of a repeated analysis wins, every row keyed as its analysis', async () => {
    const path = join(tmp(), 's.duckdb')
    let engine = await openEngine({ path })
    expect(await engine.ingest(firstCall())).toMatchObject({ analyses: 5, domains: 2 })
    await engine.close()
    expect(await stored(path)).toEqual(afterFirst)
    engine = await openEngine({ path })
    await engine.ingest(secondCall())
    await engine.close()
    expect(await stored(path)).toEqual(afterSecond)
  })

  it('NDJSON, on the worker path and the in-thread path: the same rows', async () => {
    const dir = tmp()
    const first = join(dir, 'first.ndjson')
    const second = join(dir, 'second.ndjson')
    writeFileSync(first, toNdjson(firstCall()))
    writeFileSync(second, toNdjson(secondCall()))
    for (const onProgress of [undefined, () => undefined]) {
      const path = join(dir, `s-${onProgress ? 'thread' : 'worker'}.duckdb`)
      const engine = await openEngine({ path })
      await engine.ingestFile(first, onProgress ? { onProgress } : undefined)
      await engine.ingestFile(second, onProgress ? { onProgress } : undefined)
      await engine.close()
      expect(await stored(path)).toEqual(afterSecond)
    }
  })

  it('a refused call leaves none of its texts, in a new store and beside stored ones', async () => {
    const path = join(tmp(), 's.duckdb')
    let engine = await openEngine({ path })
    const bad = analysis({ id: id(9), prompt_id: '44444444-4444-4444-8444-444444444444' })
    const refused = await engine.ingest([...firstCall(), bad]).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(IngestError)
    await engine.close()
    expect(await stored(path)).toEqual({ texts: [], rows: 0 })
    engine = await openEngine({ path })
    await engine.ingest(firstCall())
    const again = await engine.ingest([...secondCall(), bad]).catch((e: unknown) => e)
    expect(again).toBeInstanceOf(IngestError)
    await engine.close()
    expect(await stored(path)).toEqual(afterFirst)
  })
})
