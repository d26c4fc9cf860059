/**
 * The segment filters' load queries (sql/queries/segment/load_agg_*.sql) compute from the raw
 * tables what the ingest stores in the aggregate tables (sql/ingest/fill_agg_*.sql): with no filter
 * they give the stored rows of the domain (sql/queries/load_agg_*.sql), and for one model the rows
 * the by-model query gives, where there is one. Every file of the folder is checked; the data has
 * answers tied on answered_at across channels, so the cited URLs' tie ranks are compared too.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sqlText } from '../../src/db/sql.js'
import { openEngine, type AnalysisRecord } from '../../src/index.js'
import { OTHER_PROMPT, analysis, base, competitor, mention, prompt, COMPETITOR } from '../support/records.js'
import { rng } from '../support/random.js'
import { onStoreFile, type StoreFile } from '../support/store-file.js'

const dir = mkdtempSync(join(tmpdir(), 'va-segment-loads-'))
const path = join(dir, 'store.duckdb')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const SQL_DIR = new URL('../../sql/queries/segment/', import.meta.url)
const loads = readdirSync(SQL_DIR)
  .filter((f) => f.startsWith('load_agg_') && f.endsWith('.sql'))
  .map((f) => f.slice(0, -'.sql'.length))
const stored = new Set(
  readdirSync(new URL('../../sql/queries/', import.meta.url)).map((f) => f.slice(0, -'.sql'.length)),
)

/** 400 analyses over three days, two prompts, four channels, two models: answers at five minutes of a day, so they tie. */
function records(): unknown[] {
  const r = rng(16)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
  const urls = ['a', 'b', 'c', 'd', 'e', 'f'].map((p) => `https://x.example/${p}`)
  const out: AnalysisRecord[] = []
  for (let n = 1; n <= 400; n++) {
    const cited = urls.filter(() => r() < 0.4)
    out.push(
      analysis({
        id: `a1600000-0000-4000-8000-${String(Math.floor(r() * 1e9)).padStart(12, '0')}`,
        prompt_id: pick([base()[2]!.id, OTHER_PROMPT]),
        channel: pick(['chatgpt', 'perplexity', 'gemini', 'claude'] as const),
        model: pick(['gpt-4o', 'sonar']),
        country: pick(['DE', 'US']),
        answered_at: `2026-11-${pick(['12', '13', '14'])}T12:0${pick([0, 1, 2, 3, 4])}:00Z`,
        mentions: [
          ...(r() < 0.6 ? [mention('brand', 1 + Math.floor(r() * 3), Math.floor(r() * 100))] : []),
          ...(r() < 0.5 ? [mention(COMPETITOR, 2)] : []),
        ],
        citations: [...cited, ...cited.filter(() => r() < 0.3)].map((url) => ({
          url,
          ...(r() < 0.7 ? { title: pick(['T1', 'T2', 'T3']) } : {}),
          ...(r() < 0.5 ? { page_type: pick(['blog', 'docs']) } : {}),
        })),
        fanout_queries: ['q1', 'q2', 'q3'].filter(() => r() < 0.4),
      }),
    )
  }
  return [...base(), prompt({ id: OTHER_PROMPT }), competitor(), ...out]
}

const sorted = async (file: StoreFile, sql: string): Promise<string[]> =>
  (await file.rows(sql))
    .map((row) => JSON.stringify(row, (_, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)))
    .sort()

/** `sql/<id>.sql` with its `$name` parameters replaced by literals. */
function bound(id: string, params: Record<string, number | string>): string {
  return sqlText(id).replace(/\$([a-z_]+)/g, (_, name: string) => {
    const v = params[name]
    if (v === undefined) throw new Error(`${id}: no value for $${name}`)
    return typeof v === 'number' ? String(v) : `'${v}'`
  })
}

describe('segment load queries against the stored aggregates', () => {
  beforeAll(async () => {
    const engine = await openEngine({ path })
    await engine.ingest(records() as never)
    await engine.close()
  })

  it('has cited URLs tied on answered_at (ranks above 1), for titles and page types', async () => {
    const [[titles, pageTypes]] = (await onStoreFile(path, ({ rows }) =>
      rows(
        'SELECT count(*) FILTER (WHERE title_tie > 1), count(*) FILTER (WHERE page_type_tie > 1) FROM agg_cited_url',
      ),
    )) as [[bigint, bigint]]
    expect(Number(titles)).toBeGreaterThan(5)
    expect(Number(pageTypes)).toBeGreaterThan(5)
  })

  it.each(loads)('%s: no filter gives the stored rows; one model, the by-model rows', async (load) => {
    await onStoreFile(
      path,
      async (file) => {
        await file.rows(sqlText('queries/segment/analyses'))
        const [[domainKey]] = (await file.rows('SELECT min(domain_key) FROM domains')) as [[number]]
        const models = (await file.rows('SELECT DISTINCT model_key FROM analyses ORDER BY 1')).map(([k]) =>
          Number(k),
        )
        expect(models.length).toBe(2)
        const seg = (model: number) =>
          bound(`queries/segment/${load}`, {
            domain_key: domainKey,
            model_key: model,
            country: '',
            topic: '',
            tag: '',
          })
        const all = await sorted(file, seg(-1))
        expect(all.length).toBeGreaterThan(4)
        expect(all).toEqual(
          await sorted(
            file,
            bound(`queries/${load}`, { domain_key: domainKey, from_day: 0, to_day: 100_000 }),
          ),
        )
        if (stored.has(`${load}_by_model`))
          for (const model of models)
            expect(await sorted(file, seg(model))).toEqual(
              await sorted(
                file,
                bound(`queries/${load}_by_model`, { domain_key: domainKey, model_key: model }),
              ),
            )
      },
      'READ_WRITE',
    )
  })
})
