/**
 * The tools generated from the endpoint table: one per row, named by the snake_case operationId,
 * arguments normalized exactly as the REST query string is (so both share cache entries), and
 * descriptions written for a model (tool names, not REST paths).
 */
import { describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { TOOLS, forTools, listedTools, toolName, weeklySummaryText } from '../../src/mcp/index.js'
import { EXAMPLE, argumentSets } from './helpers.js'

const TABLE = ENDPOINTS as readonly Endpoint[]
const NAMES = TOOLS.map((t) => t.name)
const mentionedTools = (text: string) => text.match(/\b(?:get|list)_[a-z_]+\b/g) ?? []

describe('generated tools', () => {
  it('one tool per row of the table, named by its operationId in snake_case', () => {
    expect(TOOLS.map((t) => t.endpoint)).toEqual(TABLE)
    expect(NAMES).toEqual(TABLE.map((e) => toolName(e)))
    expect(new Set(NAMES).size).toBe(NAMES.length)
    for (const name of NAMES) expect(name).toMatch(/^[a-z][a-z0-9_]{0,63}$/)
    expect(NAMES).toEqual(
      expect.arrayContaining([
        'list_domains',
        'get_prompt_time_series',
        'get_competitor_time_series',
        'get_sentiment_overview',
        'get_sentiment_themes',
      ]),
    )
    expect(toolName({ operationId: 'getBrandRankings' })).toBe('get_brand_rankings')
  })

  it('arguments normalize to the very object the REST query string gives (one cache key for both)', () => {
    for (const tool of TOOLS) {
      const required = tool.endpoint.access === 'none' ? {} : { domain_id: EXAMPLE.domainId.toUpperCase() }
      for (const args of argumentSets(tool.endpoint, required)) {
        const query = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, String(v)]))
        const fromTool = JSON.stringify(tool.endpoint.normalize(tool.input.parse(args) as never))
        expect(fromTool, `${tool.name} ${JSON.stringify(args)}`).toBe(
          JSON.stringify(tool.endpoint.query.parse(query)),
        )
      }
    }
  })

  it('descriptions speak of tools, never of REST paths, and name only tools that exist', () => {
    const texts = [
      ...listedTools().flatMap((t) => [
        t.description ?? '',
        ...Object.values(t.inputSchema.properties ?? {}).map((p) =>
          String((p as { description?: string }).description),
        ),
      ]),
      weeklySummaryText(EXAMPLE.domainId),
    ]
    for (const text of texts) {
      expect(text).not.toMatch(/\/api\/v1/)
      for (const name of mentionedTools(text)) expect(NAMES, text).toContain(name)
    }
    expect(forTools('see GET /api/v1/domains.')).toBe('see the list_domains tool.')
  })

  it('the competitor tool says what a model needs for "my visibility on Perplexity, this month vs last"', () => {
    const tool = listedTools().find((t) => t.name === 'get_competitor_time_series')!
    expect(tool.description).toMatch(/visib/i)
    expect(tool.description).toMatch(/this month versus last month/)
    const properties = tool.inputSchema.properties as Record<string, { enum?: string[]; maximum?: number }>
    expect(properties.model!.enum).toContain('perplexity')
    expect(properties.days!.maximum).toBeGreaterThanOrEqual(62)
  })
})
