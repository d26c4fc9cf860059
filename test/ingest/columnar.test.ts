/**
 * Parquet and Arrow ingest read their tables column by column (src/parquet.ts, src/ingest/from-arrow.ts,
 * src/ingest/flat.ts): text beyond ASCII and beyond the BMP, nulls, tables in several parts or
 * batches, and Arrow's other types must give what the same records give.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  DateDay,
  Float64,
  Int32,
  Table,
  TimestampMillisecond,
  Utf8,
  tableFromArrays,
  tableFromJSON,
  vectorFromArray,
} from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { lastHandOver } from '../../src/ingest/flat-sql.js'
import { openEngine, type Engine } from '../../src/index.js'
import { analysis, base, COMPETITOR, DOMAIN, NOW, PROMPT, THEME } from '../support/records.js'

const TEXTS = ['Café crème', 'naïve 🦆 guide', '日本語の記事', 'plain', '😀😀 twice']

/** Every report of the domain that reads what these tests vary. */
async function payloads(engine: Engine) {
  const p = { domainId: DOMAIN, days: 30, now: NOW }
  return [
    await engine.stats(),
    await engine.computeCitations({ ...p, limit: 1000 }),
    await engine.computeFanoutQueries(p),
    await engine.computeCompetitorSeries({ ...p, model: 'all' }),
    await engine.computeSentimentOverview({ ...p, model: 'all' }),
    await engine.computeSentimentThemes({ ...p, model: 'all' }),
  ]
}

/**
 * 700 analyses with 100 fan-out queries each: 70,000 rows, more than one part of a Parquet read
 * (65,536 rows), texts outside ASCII and the BMP, null titles and sentiments.
 */
function records() {
  const out: unknown[] = [...base()]
  for (let i = 0; i < 700; i++) {
    out.push(
      analysis({
        id: `a0000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        answered_at: `2026-11-${String(1 + (i % 19)).padStart(2, '0')}T10:00:00Z`,
        mentions: [
          {
            entity_id: 'brand',
            position: i % 3 === 0 ? null : 1 + (i % 4),
            sentiment: i % 5 === 0 ? null : i % 100,
          },
          { entity_id: COMPETITOR, position: 2, sentiment: 40 },
        ],
        citations: [
          { url: `https://example.com/${i % 40}`, title: i % 7 === 0 ? null : TEXTS[i % TEXTS.length]! },
          {
            url: `https://www.acme.com/${i % 3}`,
            title: `${TEXTS[(i + 1) % TEXTS.length]!} ${i % 9}`,
            page_type: 'blog',
          },
        ],
        fanout_queries: Array.from({ length: 100 }, (_, j) => `${TEXTS[(i + j) % TEXTS.length]!} ${j % 30}`),
      }),
    )
  }
  return out
}

describe('Parquet ingest, read column by column', () => {
  it('gives what the records give, over several read parts and with text beyond ASCII', async () => {
    const source = await openEngine()
    await source.ingest(records())
    const dir = join(mkdtempSync(join(tmpdir(), 'va-columnar-')), 'export')
    const exported = await source.exportParquet(dir)
    expect(exported.tables.fanout_queries).toBe(70_000)
    const copy = await openEngine()
    await copy.ingestFile(dir)
    expect(await payloads(copy)).toEqual(await payloads(source))
    for (const e of [source, copy]) await e.close()
  }, 60_000)
})

describe('Arrow ingest, read column by column', () => {
  it('reads typed, dictionary, null, sliced and multi-batch columns as the records give them', async () => {
    const recs = records().slice(0, 5 + 60) as Record<string, unknown>[]
    const viaRecords = await openEngine()
    await viaRecords.ingest(recs)

    const analyses = recs.slice(5) as unknown as ReturnType<typeof analysis>[]
    const rows = <T>(f: (a: ReturnType<typeof analysis>) => T[]) => analyses.flatMap(f)
    const mentions = rows((a) => a.mentions.map((m) => ({ analysis_id: a.id, ...m })))
    const citations = rows((a) => a.citations.map((c, ord) => ({ analysis_id: a.id, ...c, ord })))
    const fanout = rows((a) =>
      (a.fanout_queries ?? []).map((query, ord) => ({ analysis_id: a.id, query, ord })),
    )
    // Two batches: the first half and the second half of the mentions.
    const half = Math.floor(mentions.length / 2)
    const mentionTable = (part: typeof mentions) =>
      new Table({
        analysis_id: vectorFromArray(
          part.map((m) => m.analysis_id),
          new Utf8(),
        ),
        entity_id: vectorFromArray(
          part.map((m) => m.entity_id),
          new Utf8(),
        ),
        position: vectorFromArray(
          part.map((m) => m.position),
          new Int32(),
        ),
        sentiment: vectorFromArray(
          part.map((m) => m.sentiment),
          new Float64(),
        ),
      })
    const twoBatches = mentionTable(mentions.slice(0, half)).concat(mentionTable(mentions.slice(half)))
    expect(twoBatches.batches.length).toBe(2)
    // Sliced: rows 3 to the end of a table with three extra rows in front.
    const padded = [...citations.slice(0, 3), ...citations]
    const sliced = new Table({
      analysis_id: vectorFromArray(
        padded.map((c) => c.analysis_id),
        new Utf8(),
      ),
      url: vectorFromArray(
        padded.map((c) => c.url),
        new Utf8(),
      ),
      title: vectorFromArray(
        padded.map((c) => c.title ?? null),
        new Utf8(),
      ),
      page_type: vectorFromArray(
        padded.map((c) => c.page_type ?? null),
        new Utf8(),
      ),
      ord: vectorFromArray(
        padded.map((c) => c.ord),
        new Int32(),
      ),
    }).slice(3)
    const [t, d, p, c, th] = base() as unknown as Record<string, unknown>[]
    const strip = ({ type: _type, ...rest }: Record<string, unknown>) => rest
    const viaArrow = await openEngine()
    await viaArrow.ingestArrow({
      teams: tableFromJSON([strip(t!)]),
      domains: tableFromJSON([strip(d!)]),
      prompts: tableFromJSON([{ ...strip(p!), id: PROMPT }]),
      competitors: tableFromJSON([strip(c!)]),
      themes: new Table({
        ...Object.fromEntries(
          Object.entries(strip(th!))
            .filter(([k]) => k !== 'created_at' && k !== 'custom_name')
            .map(([k, v]) => [k, vectorFromArray([v])]),
        ),
        custom_name: vectorFromArray([null], new Utf8()),
        created_at: vectorFromArray([Date.parse(`${th!.created_at as string}T00:00:00Z`)], new DateDay()),
      }),
      analyses: new Table({
        id: vectorFromArray(
          analyses.map((a) => a.id),
          new Utf8(),
        ),
        domain_id: vectorFromArray(
          analyses.map((a) => a.domain_id),
          new Utf8(),
        ),
        prompt_id: vectorFromArray(
          analyses.map((a) => a.prompt_id),
          new Utf8(),
        ),
        channel: vectorFromArray(analyses.map((a) => a.channel)), // dictionary-encoded
        model: vectorFromArray(
          analyses.map((a) => a.model),
          new Utf8(),
        ),
        answered_at: vectorFromArray(
          analyses.map((a) => Date.parse(a.answered_at)),
          new TimestampMillisecond(),
        ),
      }),
      mentions: twoBatches,
      citations: sliced,
      theme_occurrences: tableFromArrays({
        analysis_id: analyses.map((a) => a.id),
        theme_id: analyses.map(() => THEME),
        occurrences: Int32Array.from(analyses.map(() => 2)),
      }),
      fanout_queries: tableFromJSON(fanout),
    })
    // The SQL path took it: the Timestamp answered_at, read and turned into ISO strings in slices, fit.
    expect(lastHandOver).toBeNull()
    expect(await payloads(viaArrow)).toEqual(await payloads(viaRecords))
    for (const e of [viaRecords, viaArrow]) await e.close()
  })
})
