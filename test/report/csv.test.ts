import { describe, expect, it } from 'vitest'
import {
  competitorSeriesCsv,
  csvField,
  promptSeriesCsv,
  sentimentOverviewCsv,
  sentimentThemesCsv,
  toCsv,
} from '../../src/report/csv.js'
import { emptySet, exampleSet, realisticSet } from './payloads.js'

/** A strict RFC 4180 reader, to check that what we write reads back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let i = 0
  let quoted = false
  while (i < text.length) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i += 2
      } else if (c === '"') {
        quoted = false
        i++
      } else {
        field += c
        i++
      }
    } else if (c === '"') {
      expect(field).toBe('') // a quote only opens a field
      quoted = true
      i++
    } else if (c === ',') {
      row.push(field)
      field = ''
      i++
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      i += 2
    } else {
      expect(c).not.toBe('\n') // bare LF outside quotes is not RFC 4180
      field += c
      i++
    }
  }
  expect(field).toBe('')
  expect(row).toEqual([])
  return rows
}

describe('csv', () => {
  it('quotes only what needs quoting', () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
    expect(csvField('cr\r')).toBe('"cr\r"')
    expect(csvField(' padded ')).toBe(' padded ')
    expect(csvField(null)).toBe('')
    expect(csvField(33.333333333333336)).toBe('33.333333333333336')
    expect(csvField(Number.NaN)).toBe('')
    expect(csvField(true)).toBe('true')
    expect(csvField('=HYPERLINK("x")')).toBe('"=HYPERLINK(""x"")"')
    expect(csvField('=1+1', { formulaGuard: true })).toBe("'=1+1")
    expect(csvField('-5', { formulaGuard: true })).toBe("'-5")
    expect(csvField(-5, { formulaGuard: true })).toBe('-5') // numbers are data, not formulas
  })

  it('round-trips hostile text through a strict reader', () => {
    const nasty = ['a,b', '"quoted"', 'line\r\nbreak', 'ünïcødé 価格', '', ' ', ',', '""', 'x"y,z\n']
    const text = toCsv(
      ['v'],
      nasty.map((v) => [v]),
    )
    expect(text.endsWith('\r\n')).toBe(true)
    expect(parseCsv(text)).toEqual([['v'], ...nasty.map((v) => [v])])
  })

  it('prompt series: header and one row per (prompt, date)', () => {
    const csv = promptSeriesCsv(exampleSet().prompts)
    expect(csv).toBe(
      [
        'prompt_id,text,estimated_search_volume,date,mentions,responses,citations,avg_position',
        '11111111-1111-4111-8111-111111111111,best project management tool,8100,2026-11-18,1,1,2,1',
        '11111111-1111-4111-8111-111111111111,best project management tool,8100,2026-11-19,1,1,0,',
        '22222222-2222-4222-8222-222222222222,meilleur outil de gestion de projet,,2026-11-19,0,1,1,',
        '22222222-2222-4222-8222-222222222222,meilleur outil de gestion de projet,,2026-11-20,1,1,0,2',
        '',
      ].join('\r\n'),
    )
  })

  it('competitor series, themes and overview', () => {
    const s = realisticSet()
    const comp = parseCsv(competitorSeriesCsv(s.competitors))
    expect(comp[0]).toEqual([
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
    expect(comp.length - 1).toBe(s.competitors.data.items.reduce((n, e) => n + e.series.length, 0))
    expect(comp[1]![2]).toBe('true')
    expect(comp.some((r) => r[1] === 'Umbrella & Sons')).toBe(true)
    expect(comp.every((r) => r.length === 9)).toBe(true)

    const themes = parseCsv(sentimentThemesCsv(s.themes))
    expect(themes[0]).toEqual(['id', 'name', 'sentiment', 'occurrences', 'created_at'])
    expect(themes.map((r) => r[1])).toContain('Flexible "custom fields"')
    expect(themes.map((r) => r[1])).toContain('価格が高い')

    expect(sentimentOverviewCsv(exampleSet().overview)).toBe(
      'positive_percent,negative_percent,total_mentions\r\n50,50,7\r\n',
    )
  })

  it('empty payloads give a header only', () => {
    const e = emptySet()
    expect(parseCsv(promptSeriesCsv(e.prompts))).toHaveLength(1)
    expect(parseCsv(competitorSeriesCsv(e.competitors))).toHaveLength(1)
    expect(parseCsv(sentimentThemesCsv(e.themes))).toHaveLength(1)
  })
})
