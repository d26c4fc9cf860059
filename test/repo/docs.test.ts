/**
 * Docs that cannot drift: the generated blocks of README.md and docs/MCP.md (the demo curls, the
 * MCP tool list, the CLI synopsis) equal what `npm run docs` generates from the endpoint table and
 * the CLI's registry; the README's examples use ids of the demo; its export listing names every
 * exported table.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { demoDataset } from '../../src/demo/index.js'
import { FLAT_TABLES } from '../../src/ingest/flat.js'
import { TOOLS } from '../../src/mcp/index.js'
import { blocksOf, DOC_FILES, generatedBlocks, regenerate } from '../../scripts/docs-blocks.js'

const read = (name: string) => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8')
const readme = read('README.md')

describe('generated docs', () => {
  it('README.md and docs/MCP.md hold exactly the generated blocks (npm run docs)', () => {
    const generated = generatedBlocks()
    expect(Object.keys(blocksOf(readme)).sort()).toEqual(['cli-synopsis', 'demo-curls', 'mcp-tools'])
    expect(Object.keys(blocksOf(read('docs/MCP.md')))).toEqual(['mcp-tools'])
    for (const file of DOC_FILES) {
      const text = read(file)
      for (const [name, block] of Object.entries(blocksOf(text)))
        expect(block, `${file} ${name}: run npm run docs`).toBe(generated[name])
      expect(regenerate(text), file).toBe(text)
    }
  })

  it('the tool list names every tool the server lists', () => {
    const list = generatedBlocks()['mcp-tools']!
    expect(list).toContain(`${TOOLS.length} tools`)
    for (const tool of TOOLS) expect(list).toContain(`\`${tool.name}\``)
    expect(list.split('\n').filter((l) => l.startsWith('- `'))).toHaveLength(TOOLS.length)
  })

  it("the README's examples use the demo's ids, and no fixed clock for the demo", () => {
    const ids = new Set(
      demoDataset({ now: new Date() }).records.map((r) => (r as unknown as { id: string }).id),
    )
    const examples = readme.slice(readme.indexOf('## Operations'), readme.indexOf('## Performance'))
    const uuids = [...examples.matchAll(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g)]
    expect(uuids.length).toBeGreaterThanOrEqual(2)
    for (const [id] of uuids) expect(ids.has(id), `README Operations: ${id} is not in the demo`).toBe(true)
    const mcp = readme.slice(readme.indexOf('## MCP server'), readme.indexOf('## Configuration'))
    expect(mcp).not.toMatch(/"--now"|--now \d{4}-/)
  })

  it("the README's export listing names every exported table", () => {
    const listing = readme.slice(readme.indexOf('The export holds the flat tables'))
    for (const table of FLAT_TABLES)
      expect(listing.slice(0, 800)).toMatch(new RegExp(`\`${table}(\\.parquet|/)\``))
  })
})
