import { describe, expect, it } from 'vitest'
import { DateDay, Int32, Float64, Utf8, Bool, tableFromIPC, tableToIPC, type Table } from 'apache-arrow'
import { detectPayloadKind, toArrow } from '../../src/arrow/to-arrow.js'
import { emptySet, exampleSet, realisticSet } from './payloads.js'

const day = (ms: unknown): string => new Date(ms as number).toISOString().slice(0, 10)

function columns(table: Table): [string, string, boolean][] {
  return table.schema.fields.map((f) => [f.name, String(f.type), f.nullable])
}

describe('toArrow', () => {
  it('detects the four kinds', () => {
    const s = exampleSet()
    expect(detectPayloadKind(s.prompts)).toBe('prompts')
    expect(detectPayloadKind(s.competitors)).toBe('competitors')
    expect(detectPayloadKind(s.overview)).toBe('overview')
    expect(detectPayloadKind(s.themes)).toBe('themes')
    const e = emptySet()
    expect(detectPayloadKind(e.prompts)).toBe('prompts')
    expect(() => detectPayloadKind(e.themes)).toThrow(/pass the kind/)
    expect(() => detectPayloadKind({ foo: 1 })).toThrow(TypeError)
    expect(() => detectPayloadKind(null)).toThrow(TypeError)
  })

  it('prompt series: one row per (prompt, date), nullable volume and position', () => {
    const t = toArrow(exampleSet().prompts)
    expect(columns(t)).toEqual([
      ['prompt_id', 'Utf8', false],
      ['text', 'Utf8', false],
      ['estimated_search_volume', 'Int32', true],
      ['date', 'Date32<DAY>', false],
      ['mentions', 'Int32', false],
      ['responses', 'Int32', false],
      ['citations', 'Int32', false],
      ['avg_position', 'Float64', true],
    ])
    expect(t.numRows).toBe(4)
    const rows = t.toArray().map((r) => ({ ...r.toJSON(), date: day(r.date) }))
    expect(rows[0]).toEqual({
      prompt_id: '11111111-1111-4111-8111-111111111111',
      text: 'best project management tool',
      estimated_search_volume: 8100,
      date: '2026-11-18',
      mentions: 1,
      responses: 1,
      citations: 2,
      avg_position: 1,
    })
    expect(rows[1]!.avg_position).toBeNull()
    expect(rows[2]!.estimated_search_volume).toBeNull()
    expect(rows[2]!.text).toBe('meilleur outil de gestion de projet')
    expect(rows.map((r) => r.date)).toEqual(['2026-11-18', '2026-11-19', '2026-11-19', '2026-11-20'])
    expect(t.schema.metadata.get('kind')).toBe('prompts')
    expect(t.schema.metadata.get('limit')).toBe('25')
    expect(t.schema.metadata.get('generated_at')).toBe('2026-11-20T15:00:00Z')
  })

  it('competitor series: one row per (entity, date), brand flagged', () => {
    const s = exampleSet()
    const t = toArrow(s.competitors)
    expect(t.schema.fields.map((f) => f.name)).toEqual([
      'id',
      'name',
      'is_brand',
      'date',
      'mentions',
      'visibility',
      'sov',
      'avg_position',
      'sentiment',
    ])
    expect(t.schema.fields[2]!.type).toBeInstanceOf(Bool)
    expect(t.schema.fields[3]!.type).toBeInstanceOf(DateDay)
    const expectedRows = s.competitors.data.items.reduce((n, e) => n + e.series.length, 0)
    expect(t.numRows).toBe(expectedRows)
    const first = t.get(0)!.toJSON()
    expect(first.is_brand).toBe(true)
    expect(first.name).toBe('Acme')
    expect(first.sov).toBeCloseTo(50)
    expect(t.toArray().filter((r) => r.is_brand)).toHaveLength(3)
    expect(t.schema.metadata.get('model')).toBe('all')
    // Values survive exactly, including non-round floats.
    const sov = t.getChild('sov')!.toArray() as Float64Array
    expect(sov[1]).toBe(33.333333333333336)
  })

  it('themes: one row per theme; overview: one row', () => {
    const s = exampleSet()
    const themes = toArrow(s.themes)
    expect(columns(themes)).toEqual([
      ['id', 'Utf8', false],
      ['name', 'Utf8', false],
      ['sentiment', 'Utf8', false],
      ['occurrences', 'Int32', false],
      ['created_at', 'Date32<DAY>', false],
    ])
    expect(themes.numRows).toBe(s.themes.data.items.length)
    expect(themes.getChild('name')!.get(1)).toBe("Facilité d'utilisation")
    expect(day(themes.getChild('created_at')!.get(0))).toBe(s.themes.data.items[0]!.created_at)

    const overview = toArrow(s.overview)
    expect(overview.numRows).toBe(1)
    expect(overview.get(0)!.toJSON()).toEqual({
      positive_percent: 50,
      negative_percent: 50,
      total_mentions: 7,
    })
    expect(overview.schema.fields.map((f) => f.type.constructor)).toEqual([Float64, Float64, Int32])
  })

  it('empty payloads give empty tables with the full schema (kind given when ambiguous)', () => {
    const e = emptySet()
    expect(toArrow(e.prompts).numRows).toBe(0)
    expect(toArrow(e.prompts).numCols).toBe(8)
    expect(toArrow(e.themes, 'themes').numCols).toBe(5)
    expect(toArrow(e.competitors, 'competitors').numCols).toBe(9)
    expect(toArrow(e.overview).get(0)!.toJSON()).toEqual({
      positive_percent: 0,
      negative_percent: 0,
      total_mentions: 0,
    })
  })

  it('refuses a kind that contradicts the payload, and bad dates', () => {
    const s = exampleSet()
    expect(() => toArrow(s.prompts as never, 'themes')).toThrow(/looks like prompts/)
    s.themes.data.items[0]!.created_at = '2026-02-31'
    expect(() => toArrow(s.themes)).toThrow(/valid calendar date/)
  })

  it('round-trips through Arrow IPC with schema metadata, for large payloads too', () => {
    const s = realisticSet({ days: 365 })
    const t = toArrow(s.competitors)
    const back = tableFromIPC(tableToIPC(t))
    expect(back.numRows).toBe(t.numRows)
    expect(back.numRows).toBeGreaterThan(2048) // more than one builder chunk
    expect(back.schema.metadata.get('domain_id')).toBe(s.competitors.domain_id)
    expect(back.schema.fields[1]!.type).toBeInstanceOf(Utf8)
    const last = s.competitors.data.items.at(-1)!
    const lastRow = back.get(back.numRows - 1)!
    expect(lastRow.name).toBe(last.name)
    expect(day(lastRow.date)).toBe(last.series.at(-1)!.date)
  })
})
