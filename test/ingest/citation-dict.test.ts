/**
 * The call's citation dictionary (src/ingest/columns.ts, BatchBuilder): a citation's URL is staged
 * as a number naming its entry, and each entry's texts (the URL, its host and identity) are staged
 * once (stg_citation_dict). The dictionary is bounded: past its bound it starts over, and a URL seen
 * again is staged again under a new number, which must store the same rows.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { BatchBuilder, type AnalysisBatch } from '../../src/ingest/columns.js'
import { IngestCall } from '../../src/ingest/call.js'
import { openEngine, type AnalysisRecord } from '../../src/index.js'
import { analysis, base } from '../support/records.js'
import { onStoreFile } from '../support/store-file.js'

const dir = mkdtempSync(join(tmpdir(), 'va-citation-dict-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

/** The batches a builder hands over for the given citations (one analysis each). */
function batches(
  citations: [url: string, title: string | null, pageType: string | null][][],
): AnalysisBatch[] {
  const out: AnalysisBatch[] = []
  const b = new BatchBuilder(2, (batch) => out.push(batch))
  citations.forEach((cs, seq) => {
    b.analysis(seq, `a${seq}`, 0, 0, 1, 0, 0, 0, null)
    cs.forEach(([url, title, pageType], ord) => b.citation(seq, ord, url, title, pageType))
  })
  b.end()
  return out
}

describe('the citation dictionary', () => {
  it('numbers each cited URL once and stages its texts once', () => {
    const [first, second] = batches([
      [
        ['https://www.Acme.com/a#x', 'A', null],
        ['https://globex.com', null, null],
      ],
      [
        ['https://www.Acme.com/a#x', 'A', null],
        ['https://www.Acme.com/a#x', 'B', 'blog'],
      ],
      [
        ['https://globex.com', null, null],
        ['https://initech.com/b', 'C', null],
      ],
    ])
    expect(Array.from(first!.cEntry.subarray(0, first!.citations))).toEqual([0, 1, 0, 0])
    expect(first).toMatchObject({
      entries: 2,
      eFirst: 0,
      eUrl: ['https://www.Acme.com/a#x', 'https://globex.com'],
      eHost: ['acme.com', 'globex.com'],
      eCited: ['https://www.acme.com/a', 'https://globex.com/'],
      cTitle: ['A', null, 'A', 'B'],
      cPageType: [null, null, null, 'blog'],
    })
    // The next batch names an entry of the first, and numbers its new one on from them.
    expect(Array.from(second!.cEntry.subarray(0, second!.citations))).toEqual([1, 2])
    expect(second).toMatchObject({
      entries: 1,
      eFirst: 2,
      eUrl: ['https://initech.com/b'],
      cTitle: [null, 'C'],
    })
  })

  it('starts over past its bound, numbering an entry seen again anew', () => {
    vi.stubEnv('VA_CITATION_DICT_URLS', '1')
    const [batch] = batches([
      [
        ['https://a.example/', null, null],
        ['https://b.example/', null, null],
        ['https://a.example/', null, null],
      ],
    ])
    expect(Array.from(batch!.cEntry.subarray(0, batch!.citations))).toEqual([0, 1, 2])
    expect(batch!.eUrl).toEqual(['https://a.example/', 'https://b.example/', 'https://a.example/'])
  })

  it('stores the same rows whether a URL is staged once or under several numbers', async () => {
    const cited = (n: number, urls: string[]): AnalysisRecord =>
      analysis({
        id: `a8000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        answered_at: `2026-11-1${n % 3}T12:00:00Z`,
        citations: urls.map((url, i) => ({ url, title: i % 2 ? null : `t${n % 2}`, page_type: 'blog' })),
      })
    const records = [
      ...base(),
      ...Array.from({ length: 12 }, (_, n) =>
        cited(n, ['https://x.example/a', `https://x.example/${n % 4}`, 'https://WWW.y.example/b#f']),
      ),
    ]
    const stored = async (bound: string | null) => {
      if (bound !== null) vi.stubEnv('VA_CITATION_DICT_URLS', bound)
      const path = join(dir, `bound-${bound ?? 'default'}.duckdb`)
      const engine = await openEngine({ path })
      await engine.ingest(records)
      await engine.close()
      vi.unstubAllEnvs()
      return onStoreFile(path, async ({ objects }) => ({
        citations: await objects('SELECT * EXCLUDE (analysis_key) FROM citations ORDER BY ALL'),
        texts: await objects('SELECT domain_key, kind, idx, text FROM texts ORDER BY ALL'),
        cited: await objects('SELECT * FROM agg_cited_url ORDER BY ALL'),
      }))
    }
    const once = await stored(null)
    expect(once.citations).toHaveLength(36)
    expect(await stored('1')).toEqual(once)
  })

  it('refuses batches of two builders in one call (their numbers would collide)', async () => {
    const addBatch = IngestCall.prototype.addBatch
    vi.spyOn(IngestCall.prototype, 'addBatch').mockImplementationOnce(function (this: IngestCall, b) {
      // A stranger's dictionary entry first (no row of its own): it numbers it 0, as the call's
      // own builder does next. Unrefused, the call's citation would be stored twice.
      const stranger = batches([[['https://stranger.example/', null, null]]])[0]!
      addBatch.call(this, { ...stranger, analyses: 0, mentions: 0, citations: 0, themes: 0 })
      addBatch.call(this, b)
    })
    const engine = await openEngine()
    await expect(
      engine.ingest([...base(), analysis({ citations: [{ url: 'https://x.example/' }] })]),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/citation entries out of sequence/) } })
    await engine.close()
  })
})
