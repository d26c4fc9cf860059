/**
 * agg_cited_url's title_tie and page_type_tie (sql/ingest/fill_agg_cited_url.sql): a row's latest
 * titled (page-typed) entry ranks among the day's rows of its URL whose entry has the same
 * answered_at, by analysis id, then position; 1 when no other row ties with it. Computed as a row
 * number in one order less its tie group's rank: the groups are (domain, day, URL, answered_at).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openEngine, type AnalysisRecord } from '../../src/index.js'
import { analysis, base } from '../support/records.js'
import { onStoreFile } from '../support/store-file.js'

const dir = mkdtempSync(join(tmpdir(), 'va-cited-ties-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const id = (n: number) => `a7000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const NOON = '2026-11-12T12:00:00Z'
const cited = (n: number, channel: AnalysisRecord['channel'], answeredAt: string, urls: string[]) =>
  analysis({
    id: id(n),
    channel,
    answered_at: answeredAt,
    mentions: [],
    themes: [],
    citations: urls.map((url) => ({ url, title: `t${n}`, page_type: `p${n}` })),
  })

describe('the ties of agg_cited_url', () => {
  it('rank the rows of a URL tied on answered_at by analysis id, per URL and day', async () => {
    const path = join(dir, 'ties.duckdb')
    const engine = await openEngine({ path })
    await engine.ingest([
      ...base(),
      // Three channels' rows of /a at noon (ids 3, 1, 2); /b at noon in two of them; /a an hour later.
      cited(3, 'chatgpt', NOON, ['https://x.example/a', 'https://x.example/b']),
      cited(1, 'perplexity', NOON, ['https://x.example/a']),
      cited(2, 'gemini', NOON, ['https://x.example/a', 'https://x.example/b']),
      cited(4, 'chatgpt', '2026-11-12T13:00:00Z', ['https://x.example/a']),
      // The next day: one row of /a at noon.
      cited(5, 'chatgpt', '2026-11-13T12:00:00Z', ['https://x.example/a']),
    ])
    await engine.close()
    const rows = await onStoreFile(path, ({ objects }) =>
      objects(`SELECT strftime(g.day, '%d') AS day, t.text AS url, g.title_tie, g.page_type_tie,
                      tt.text AS title
               FROM agg_cited_url g
               JOIN texts t ON t.domain_key = g.domain_key AND t.kind = 1 AND t.idx = g.url_idx
               JOIN texts tt ON tt.domain_key = g.domain_key AND tt.kind = 3 AND tt.idx = g.title_idx
               ORDER BY ALL`),
    )
    // Each row: day, URL, title_tie, page_type_tie, its title (its analysis's: t<n>). The 12th, /a:
    // chatgpt's latest entry (13:00) stands alone; at noon ids 1 (perplexity) and 2 (gemini) tie.
    // /b at noon: ids 2 and 3 tie.
    expect(rows.map((r) => Object.values(r).join(' '))).toEqual([
      '12 https://x.example/a 1 1 t1',
      '12 https://x.example/a 1 1 t4',
      '12 https://x.example/a 2 2 t2',
      '12 https://x.example/b 1 1 t2',
      '12 https://x.example/b 2 2 t3',
      '13 https://x.example/a 1 1 t5',
    ])
  })
})
