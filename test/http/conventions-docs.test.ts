/**
 * docs/HTTP.md cannot drift from the code of the HTTP conventions: the CSV columns table is
 * regenerated from the payload schemas and compared (cell by cell, whatever the table's padding),
 * and the exposed CORS headers and VA_CORS_ORIGINS are documented as the code has them.
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { csvColumnsMarkdown } from '../../src/http/csv.js'
import { EXPOSED_HEADERS } from '../../src/http/plugins/conventions.js'

const DOC = new URL('../../docs/HTTP.md', import.meta.url)

/** The cells of a Markdown table, separator rows dropped. */
const cells = (table: string): string[][] =>
  table
    .trim()
    .split('\n')
    .map((line) =>
      line
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim()),
    )
    .filter((row) => !row.every((c) => /^:?-+:?$/.test(c)))

describe('docs/HTTP.md', () => {
  it('the CSV columns table is the one generated from the payload schemas', async () => {
    const doc = await readFile(DOC, 'utf8')
    const match = /<!-- csv-columns:start -->([\s\S]*?)<!-- csv-columns:end -->/.exec(doc)
    expect(match, 'the csv-columns markers').not.toBeNull()
    const generated = cells(csvColumnsMarkdown(ENDPOINTS as readonly Endpoint[]))
    expect(cells(match![1]!)).toEqual(generated)
    // One row per list endpoint of the table (plus the header).
    expect(generated.length).toBeGreaterThan(10)
  })

  it('VA_CORS_ORIGINS is in the configuration table; the exposed headers are listed as the code has them', async () => {
    const doc = await readFile(DOC, 'utf8')
    expect(doc).toMatch(/^\| `VA_CORS_ORIGINS`\s*\|/m)
    const exposed = /Access-Control-Expose-Headers: ([^`]+)`/.exec(doc.replace(/\s*\n\s*/g, ' '))
    expect(exposed?.[1]?.split(/,\s*/)).toEqual([...EXPOSED_HEADERS])
  })
})
