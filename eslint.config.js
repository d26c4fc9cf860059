import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

/**
 * The package's public entry points, as paths under src/ without `.js`: exactly the modules the
 * package.json `exports` map publishes (".", "./api", "./http", "./report", "./arrow", "./mcp", "./demo", "./cluster";
 * test/tooling.test.ts keeps the two lists equal).
 */
export const PUBLIC_ENTRY_POINTS = [
  'index',
  'api/index',
  'http/index',
  'report/index',
  'arrow/index',
  'mcp/index',
  'demo/index',
  'cluster/index',
]

/**
 * Unpublished modules the client folders may import besides the entry points: src/internal.ts
 * gathers the internals the cluster and the CLI need (not in package.json "exports").
 */
export const INTERNAL_ENTRY_POINTS = ['internal']

/** Folders of src/ that are clients of the package: they import it only through its entry points. */
export const CLIENT_FOLDERS = ['http', 'cli', 'mcp', 'cluster']

/** The client folders that may import INTERNAL_ENTRY_POINTS too. */
export const INTERNAL_CLIENTS = ['cli', 'cluster']

/**
 * `no-restricted-imports` for a file `depth` folders below src/ inside a client folder: a
 * relative import that climbs out of the client folder (`../` at depth 1, `../../` at depth 2,
 * ...) must name a public entry point. Imports inside the client folder are free.
 */
export function publicEntryRule(depth, internal = []) {
  const entries = [...PUBLIC_ENTRY_POINTS, ...internal].map((e) => e.replace('/', '\\/')).join('|')
  return [
    'error',
    {
      patterns: [
        {
          regex: `^(?:\\.\\./){${depth}}(?!(?:${entries})\\.js$)`,
          message: `${CLIENT_FOLDERS.map((f) => `src/${f}`).join(', ')} import the rest of the package only through its public entry points (package.json "exports"): ${PUBLIC_ENTRY_POINTS.map((e) => `src/${e}.ts`).join(', ')}.`,
        },
      ],
    },
  ]
}

const clients = `src/{${CLIENT_FOLDERS.join(',')}}`

export default tseslint.config(
  { ignores: ['scratch/**', 'dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Type-aware rules, on every TypeScript file of the project (tsconfig.json includes them all).
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  ...[1, 2, 3].map((depth) => ({
    files: [`${clients}/${Array(depth).fill('*').join('/')}.ts`],
    rules: { 'no-restricted-imports': publicEntryRule(depth) },
  })),
  ...[1, 2, 3].map((depth) => ({
    files: [`src/{${INTERNAL_CLIENTS.join(',')}}/${Array(depth).fill('*').join('/')}.ts`],
    rules: { 'no-restricted-imports': publicEntryRule(depth, INTERNAL_ENTRY_POINTS) },
  })),
  // The dashboard runs in the browser (src/dashboard/tsconfig.json: the DOM lib, no Node types).
  { files: ['src/dashboard/**'], languageOptions: { globals: { ...globals.browser } } },
  // Tests may warn (a skipped check says why) but not print...
  { files: ['test/**'], rules: { 'no-console': ['error', { allow: ['warn'] }] } },
  // ...except the reliability suite and the HTTP load script, whose printed figures are their
  // report; the CLI, benchmarks and scripts talk to a terminal.
  {
    files: ['src/cli/**', 'bench/**', 'scripts/**', 'test/reliability/**', 'test/http/bench-http.ts'],
    rules: { 'no-console': 'off' },
  },
)
