/**
 * The lint rule that keeps src/http, src/cli and src/mcp on the package's public entry points:
 * its list is the package.json `exports` map, and it refuses exactly the imports it should.
 */
import { readFileSync } from 'node:fs'
import { Linter } from 'eslint'
import tseslint from 'typescript-eslint'
import { describe, expect, it } from 'vitest'
import { PUBLIC_ENTRY_POINTS, publicEntryRule } from '../../eslint.config.js'

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, { import: string }>
}

/** The no-restricted-imports messages for `source` imported from a file `depth` folders below src/. */
function lint(source: string, depth: number): string[] {
  const linter = new Linter({ configType: 'flat' })
  const config = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      rules: { 'no-restricted-imports': publicEntryRule(depth) },
    },
  ]
  const file = `src/http/${'sub/'.repeat(depth - 1)}probe.ts`
  return linter
    .verify(`import { x } from '${source}'\nexport { x }\n`, config as never, file)
    .map((m) => m.ruleId ?? m.message)
}

describe('public entry points of src/http, src/cli and src/mcp', () => {
  it('are exactly the modules package.json exports', () => {
    const exported = Object.entries(pkg.exports)
      .filter(([name]) => name !== './package.json')
      .map(([, target]) => target.import.replace(/^\.\/dist\/src\//, '').replace(/\.js$/, ''))
    expect([...exported].sort()).toEqual([...PUBLIC_ENTRY_POINTS].sort())
  })

  it.each([
    ['../index.js', 1, true],
    ['../api/index.js', 1, true],
    ['../report/index.js', 1, true],
    ['../arrow/index.js', 1, true],
    ['./context.js', 1, true],
    ['../types.js', 1, false],
    ['../schemas/params.js', 1, false],
    ['../report/csv.js', 1, false],
    ['../../test/x.js', 1, false],
    ['../../api/index.js', 2, true],
    ['../context.js', 2, true],
    ['../../engine.js', 2, false],
    ['../../api/endpoints.js', 2, false],
    ['../../../bench/x.js', 2, false],
    ['../../../index.js', 3, true],
    ['../../../errors.js', 3, false],
  ] as const)('%s from depth %i: allowed %s', (source, depth, allowed) => {
    expect(lint(source, depth)).toEqual(allowed ? [] : ['no-restricted-imports'])
  })
})
