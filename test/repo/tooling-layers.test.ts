/**
 * The layer rule of eslint.config.js (docs/ARCHITECTURE.md, "Layers"): it refuses exactly the
 * imports that climb a layer, and src/ as it stands passes it.
 */
import { ESLint, Linter } from 'eslint'
import tseslint from 'typescript-eslint'
import { describe, expect, it } from 'vitest'
import { LAYERS, layerConfigs } from '../../eslint.config.js'

const RULE = '@typescript-eslint/no-restricted-imports'
const plugins = { '@typescript-eslint': tseslint.plugin }

/** The rule ids reported for `source` imported (as a value, or as a type) by the file `file`. */
function lint(file: string, source: string, typeOnly = false): string[] {
  const linter = new Linter({ configType: 'flat' })
  const config = [
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins },
    ...layerConfigs(),
  ]
  const code = `import ${typeOnly ? 'type ' : ''}{ x } from '${source}'\nexport { x }\n`
  return linter.verify(code, config as never, file).map((m) => m.ruleId ?? m.message)
}

describe('layers', () => {
  it('every layer may import only layers declared before it', () => {
    const order = LAYERS.map((l) => l.name)
    for (const layer of LAYERS) {
      for (const below of layer.below) expect(order.indexOf(below)).toBeLessThan(order.indexOf(layer.name))
    }
  })

  it.each([
    ['src/tables/cited-index.ts', '../queries/window.js', false],
    ['src/tables/cited-index.ts', '../foundation/window.js', true],
    ['src/schemas/params.ts', '../queries/window.js', false],
    ['src/schemas/params.ts', '../db/sql.js', false],
    ['src/ingest/call.ts', '../tables/aggregate-store.js', false],
    ['src/ingest/call.ts', '../db/changes.js', true],
    ['src/tables/aggregate-store.ts', '../ingest/call.js', false],
    ['src/ingest/sources.ts', '../arrow/to-arrow.js', false],
    ['src/db/database.ts', '../engine.js', false],
    ['src/catalog.ts', './engine.js', false],
    ['src/catalog.ts', './types.js', true],
    ['src/engine.ts', './api/endpoints.js', false],
    ['src/engine.ts', './queries/rankings.js', true],
    ['src/queries/rankings.ts', '../engine.js', false],
    ['src/queries/rankings.ts', '../api/endpoints.js', false],
    ['src/queries/rankings.ts', '../tables/aggregates.js', true],
    ['src/report/sections.ts', '../engine.js', false],
    ['src/report/sections.ts', '../types.js', true],
    ['src/foundation/window.ts', '../schemas/params.js', false],
    ['src/api/endpoints.ts', '../index.js', true],
    ['src/reports/prompt-series/query.ts', '../../queries/context.js', true],
    ['src/reports/prompt-series/contract.ts', '../../schemas/params.js', true],
    ['src/reports/prompt-series/query.ts', '../../engine.js', false],
    ['src/reports/prompt-series/contract.ts', '../../api/endpoints.js', false],
    ['src/reports/index.ts', '../engine.js', false],
    ['src/queries/context.ts', '../reports/index.js', false],
    ['src/tables/cited-index.ts', '../reports/citations/query.js', false],
    ['src/types.ts', './reports/index.js', false],
    ['src/engine.ts', './reports/index.js', true],
    ['src/report/sections.ts', '../reports/index.js', true],
  ] as const)('%s importing %s: allowed %s', (file, source, allowed) => {
    const expected = allowed ? [] : [RULE]
    expect(lint(file, source)).toEqual(expected)
    expect(lint(file, source, true)).toEqual(expected)
  })

  it('src/ passes it', async () => {
    const eslint = new ESLint({
      overrideConfigFile: true,
      overrideConfig: [
        { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins },
        // Only the layer rule runs here: the other rules' disable comments are not unused.
        { linterOptions: { reportUnusedDisableDirectives: 'off' } },
        ...layerConfigs(),
      ] as never,
    })
    const results = await eslint.lintFiles(['src/**/*.ts'])
    const problems = results.flatMap((r) => r.messages.map((m) => `${r.filePath}:${m.line} ${m.message}`))
    expect(problems).toEqual([])
  })
})
