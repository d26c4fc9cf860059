/**
 * Arrow tables into the flat import's temp tables (src/ingest/flat-sql.ts, rowsSource): a Utf8
 * column with no null goes in as its UTF-8 bytes (src/ingest/from-arrow.ts, utf8Bytes; its chunks
 * joined), other columns as decoded values; a table is appended LOAD_SLICE rows at a time (the
 * event loop runs between the slices). The temp tables must hold exactly the table's values.
 */
import { Float64, Table, Utf8, tableFromArrays, tableFromJSON, vectorFromArray } from 'apache-arrow'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ChunkWriter } from '../../src/db/chunk-writer.js'
import { LOAD_SLICE, rowsSource } from '../../src/ingest/flat-sql.js'
import { arrowFlatColumns, utf8Bytes } from '../../src/ingest/from-arrow.js'
import type { FlatRows } from '../../src/ingest/flat.js'

const decode = (u: { utf8: Uint8Array; ends: Int32Array }) => {
  const out: string[] = []
  let from = 0
  for (const end of u.ends) {
    out.push(Buffer.from(u.utf8.subarray(from, end)).toString('utf8'))
    from = end
  }
  return out
}

/**
 * A table whose columns come in several chunks (one per part): text as Utf8 (tableFromJSON would
 * make them dictionaries), numbers as Float64.
 */
const chunked = (parts: Record<string, string | number | null>[][]): Table => {
  const names = Object.keys(parts[0]![0]!)
  const column = (name: string) => {
    const type = typeof parts[0]![0]![name] === 'string' ? new Utf8() : new Float64()
    const [first, ...rest] = parts.map((p) => vectorFromArray(p.map((r) => r[name]) as never, type as never))
    return first!.concat(...(rest as never[]))
  }
  return new Table(Object.fromEntries(names.map((n) => [n, column(n)])))
}

afterEach(() => vi.restoreAllMocks())

describe('utf8Bytes', () => {
  it("gives a Utf8 column's values as one buffer and their ends, its chunks joined", () => {
    const t = chunked([[{ s: 'a' }, { s: 'ção' }], [{ s: '' }, { s: 'x€y' }], [{ s: 'last' }]])
    expect(t.getChild('s')!.data.length).toBe(3)
    const u = utf8Bytes(t.getChild('s') as never)!
    expect(decode(u)).toEqual(['a', 'ção', '', 'x€y', 'last'])
  })

  it('gives nothing for a column with a null, a column of another type, or bytes that are not UTF-8', () => {
    expect(utf8Bytes(chunked([[{ s: 'a' }, { s: null }]]).getChild('s') as never)).toBeUndefined()
    expect(utf8Bytes(tableFromJSON([{ s: 'a' }]).getChild('s') as never)).toBeUndefined() // a dictionary
    expect(utf8Bytes(tableFromArrays({ n: new Int32Array([1, 2]) }).getChild('n') as never)).toBeUndefined()
    const t = chunked([[{ s: 'ab' }]])
    const data = t.getChild('s')!.data[0]!
    data.values[0] = 0xff // not UTF-8: decoded as strings instead (the replacement character)
    expect(utf8Bytes(t.getChild('s') as never)).toBeUndefined()
  })
})

describe('rowsSource: Arrow tables into the temp tables', () => {
  it('holds every value, the text columns given as bytes, a table appended LOAD_SLICE rows at a time', async () => {
    const n = 2 * LOAD_SLICE + 123
    const ids = Array.from({ length: 50 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`)
    const analyses = chunked([
      ids
        .slice(0, 30)
        .map((id) => ({ id, domain_id: 'd', prompt_id: 'p', channel: 'c', model: 'm', answered_at: 't' })),
      ids
        .slice(30)
        .map((id) => ({ id, domain_id: 'd', prompt_id: 'p', channel: 'c', model: 'm', answered_at: 't' })),
    ])
    const mentionRows = Array.from({ length: n }, (_, i) => ({
      analysis_id: ids[i % ids.length]!,
      entity_id: `entité-${i}`,
      position: i % 7 === 1 ? null : i % 5,
      sentiment: 0.5,
    }))
    const mentions = chunked([mentionRows.slice(0, 5000), mentionRows.slice(5000)])
    const rows: FlatRows = {
      analyses: arrowFlatColumns(analyses as never),
      mentions: arrowFlatColumns(mentions as never),
    }
    const appends: { start: number; end: number; bytes: boolean }[] = []
    const real = ChunkWriter.prototype.appendColumns
    vi.spyOn(ChunkWriter.prototype, 'appendColumns').mockImplementation(function (
      this: ChunkWriter,
      cols,
      end,
      nulls,
      start = 0,
    ) {
      appends.push({ start, end, bytes: cols.some((c) => 'utf8' in c) })
      real.call(this, cols, end, nulls, start)
    })
    const db = await DuckDBInstance.create(':memory:')
    const conn = await db.connect()
    try {
      expect(await rowsSource(rows).loadFacts(conn)).toBe(true)
      const got = (
        await conn.runAndReadAll(
          'SELECT rn, seq, analysis_id, entity_id, position FROM flat_mentions_k ORDER BY rn',
        )
      )
        .getRows()
        .map(([rn, seq, a, e, p]) => ({ rn, seq, a, e, p }))
      expect(got).toEqual(
        mentionRows.map((m, i) => ({
          rn: i + 1,
          seq: i % ids.length,
          a: m.analysis_id,
          e: m.entity_id,
          p: m.position,
        })),
      )
      const ofMentions = appends.filter((a) => a.end > 50)
      expect(ofMentions.map((a) => [a.start, a.end])).toEqual([
        [0, LOAD_SLICE],
        [LOAD_SLICE, 2 * LOAD_SLICE],
        [2 * LOAD_SLICE, n],
      ])
      expect(appends.every((a) => a.bytes)).toBe(true)
    } finally {
      conn.closeSync()
      db.closeSync()
    }
  })
})
