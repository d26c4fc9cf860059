/**
 * Reads a closed store file with a separate DuckDB instance: a digest of every table (row count and
 * an MD5 of all rows in a stable order), per-batch row counts, and the payloads of every domain.
 * Never call these while an engine (or another process) holds the file.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import type { Engine } from '../../src/index.js'

export interface TableDigest {
  rows: number
  md5: string
}
export type StoreDigest = Record<string, TableDigest>

export async function withFile<T>(
  path: string,
  fn: (run: (sql: string) => Promise<unknown[][]>) => Promise<T>,
): Promise<T> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' })
  const conn = await instance.connect()
  try {
    return await fn(async (sql) => (await conn.runAndReadAll(sql)).getRows() as unknown[][])
  } finally {
    conn.closeSync()
    instance.closeSync()
  }
}

/** The meta rows of one store only (the answers' cursor key is random per store, docs/API.md). */
export const PER_STORE = " WHERE key <> 'cursor_key'"

/**
 * Every table of the `main` schema: row count and the MD5 of its rows sorted as text. DOUBLE
 * columns are rounded to 9 decimals: their sums depend on row order in the last bit (an engine
 * bug reported in docs/RELIABILITY.md), which is not what these digests are about.
 */
export function storeDigest(path: string): Promise<StoreDigest> {
  return withFile(path, async (run) => {
    const columns = await run(
      "SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name) WHERE c.table_schema = 'main' AND t.table_type = 'BASE TABLE' ORDER BY c.table_name, c.ordinal_position",
    )
    const tables = new Map<string, string[]>()
    for (const [t, c, type] of columns) {
      // Test code over names read from the catalog, never a request value.
      const col = `"${String(c)}"`
      const expr = type === 'DOUBLE' || type === 'FLOAT' ? `round(${col}, 9)` : col
      tables.set(String(t), [...(tables.get(String(t)) ?? []), expr])
    }
    const out: StoreDigest = {}
    for (const [t, exprs] of tables) {
      const [row] = await run(
        `SELECT count(*)::INTEGER, coalesce(md5(string_agg(r, chr(10) ORDER BY r)), '') FROM (SELECT concat_ws('|', ${exprs.map((e) => `coalesce(${e}::VARCHAR, '<null>')`).join(', ')}) AS r FROM "${t}"${t === 'meta' ? PER_STORE : ''})`,
      )
      out[t] = { rows: Number(row![0]), md5: String(row![1]) }
    }
    return out
  })
}

/** Rows per batch (first UUID group of the analysis id) in analyses, mentions, citations and theme_occurrences. */
export function batchCounts(
  path: string,
): Promise<
  Map<number, { analyses: number; mentions: number; citations: number; theme_occurrences: number }>
> {
  return withFile(path, async (run) => {
    const rows = await run(`
      SELECT left(a.id::VARCHAR, 8) AS batch, count(*)::INTEGER,
             sum((SELECT count(*) FROM mentions m WHERE m.analysis_key = a.analysis_key))::INTEGER,
             sum((SELECT count(*) FROM citations c WHERE c.analysis_key = a.analysis_key))::INTEGER,
             sum((SELECT count(*) FROM theme_occurrences t WHERE t.analysis_key = a.analysis_key))::INTEGER
      FROM analyses a GROUP BY ALL ORDER BY 1`)
    const out = new Map<
      number,
      { analyses: number; mentions: number; citations: number; theme_occurrences: number }
    >()
    for (const r of rows)
      out.set(parseInt(String(r[0]), 16), {
        analyses: Number(r[1]),
        mentions: Number(r[2]),
        citations: Number(r[3]),
        theme_occurrences: Number(r[4]),
      })
    return out
  })
}

/** Orphans: child rows without their analysis, or aggregates that disagree with the raw rows. */
export function consistencyProblems(path: string): Promise<string[]> {
  return withFile(path, async (run) => {
    const checks: Array<[string, string]> = [
      [
        'mentions without analysis',
        'SELECT count(*) FROM mentions m ANTI JOIN analyses a USING (analysis_key)',
      ],
      [
        'citations without analysis',
        'SELECT count(*) FROM citations c ANTI JOIN analyses a USING (analysis_key)',
      ],
      [
        'theme_occurrences without analysis',
        'SELECT count(*) FROM theme_occurrences t ANTI JOIN analyses a USING (analysis_key)',
      ],
      ['duplicate analysis ids', 'SELECT count(*) - count(DISTINCT id) FROM analyses'],
      [
        'agg_channel_day != analyses',
        'SELECT abs(coalesce((SELECT sum(analyses) FROM agg_channel_day), 0) - (SELECT count(*) FROM analyses))',
      ],
      [
        'agg_entity_day != mentions',
        'SELECT abs(coalesce((SELECT sum(mentions) FROM agg_entity_day), 0) - (SELECT count(*) FROM mentions))',
      ],
      [
        'agg_prompt_day != analyses',
        'SELECT abs(coalesce((SELECT sum(responses) FROM agg_prompt_day), 0) - (SELECT count(*) FROM analyses))',
      ],
      [
        'agg_theme_day != theme_occurrences',
        'SELECT abs(coalesce((SELECT sum(occurrences) FROM agg_theme_day), 0) - coalesce((SELECT sum(occurrences) FROM theme_occurrences), 0))',
      ],
      [
        'agg_citation_day != citations',
        'SELECT abs(coalesce((SELECT sum(citations) FROM agg_citation_day), 0) - (SELECT count(*) FROM citations))',
      ],
      [
        'agg_entity_prompt_day != mentions',
        'SELECT abs(coalesce((SELECT sum(mentions) FROM agg_entity_prompt_day), 0) - (SELECT count(*) FROM mentions)) + abs(coalesce((SELECT sum(pos_cnt) FROM agg_entity_prompt_day), 0) - (SELECT count(position) FROM mentions))',
      ],
      [
        'agg_channel_prompts != (day, channel, prompt) of analyses',
        'SELECT abs(coalesce((SELECT sum(bit_count(bits)) FROM agg_channel_prompts), 0) - (SELECT count(*) FROM (SELECT DISTINCT domain_key, day, channel, prompt_idx FROM analyses)))',
      ],
    ]
    const out: string[] = []
    for (const [name, sql] of checks) {
      const n = Number((await run(sql))[0]![0])
      if (n !== 0) out.push(`${name}: ${n}`)
    }
    return out
  })
}

export const NOW = '2026-03-31T23:59:00Z'

/** What a client can observe: the four payloads of every domain (365 days, every model), domains and teams. */
export async function observe(engine: Engine, now = NOW): Promise<string> {
  const listing = await engine.computeDomainList({ now })
  const domains = await Promise.all(listing.data.items.map(async (d) => (await engine.getDomain(d.id))!))
  const out: unknown[] = [listing]
  for (const d of domains) {
    const p = { domainId: d.id, days: 365, now }
    out.push(
      await engine.getTeam(d.team_id),
      await engine.computePromptSeries({ ...p, limit: 100 }),
      await engine.computeCompetitorSeries(p),
      await engine.computeSentimentOverview(p),
      await engine.computeSentimentThemes(p),
    )
  }
  return JSON.stringify(out)
}

/** `observe` with every number rounded to 12 significant digits (see storeDigest on DOUBLE sums). */
export async function observeRounded(engine: Engine, now = NOW): Promise<string> {
  return JSON.stringify(
    JSON.parse(await observe(engine, now), (_k, v: unknown) =>
      typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(12)) : v,
    ),
  )
}

/** A fresh temporary directory, removed by the returned function. */
export function tempDir(prefix = 'va-rel-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}
