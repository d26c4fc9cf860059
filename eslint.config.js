import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

/**
 * The package's public entry points, as paths under src/ without `.js`: exactly the modules the
 * package.json `exports` map publishes (".", "./api", "./http", "./report", "./arrow", "./mcp", "./demo", "./cluster";
 * test/repo/tooling.test.ts keeps the two lists equal).
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
  'client/index',
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

/**
 * The layers of the engine, lowest first: a module imports only its own layer and those below
 * (docs/ARCHITECTURE.md, "Layers"). `modules` are paths under src/ (a folder ends with `/`, a
 * file is named without `.js`); `below` lists the layers it may import. ingest and tables are
 * siblings: ingest writes the tables through SQL, tables read them back; neither imports the other.
 */
export const LAYERS = [
  { name: 'foundation', modules: ['foundation/', 'errors', 'types', 'key-scope'], below: [] },
  { name: 'schemas', modules: ['schemas/'], below: ['foundation'] },
  { name: 'db', modules: ['db/', 'catalog'], below: ['foundation', 'schemas'] },
  { name: 'tables', modules: ['tables/'], below: ['foundation', 'schemas', 'db'] },
  { name: 'ingest', modules: ['ingest/'], below: ['foundation', 'schemas', 'db'] },
  { name: 'queries', modules: ['queries/'], below: ['foundation', 'schemas', 'db', 'tables'] },
  { name: 'reports', modules: ['reports/'], below: ['foundation', 'schemas', 'db', 'tables', 'queries'] },
  {
    name: 'engine',
    modules: ['engine', 'engine/', 'engine-aliases', 'backup', 'parquet', 'keys', 'webhooks/'],
    below: ['foundation', 'schemas', 'db', 'tables', 'ingest', 'queries', 'reports'],
  },
  {
    name: 'api',
    modules: ['api/', 'index'],
    below: ['foundation', 'schemas', 'db', 'tables', 'ingest', 'queries', 'reports', 'engine'],
  },
  // Outputs of payloads: they know the payload types (src/reports/index.ts), nothing of the engine.
  { name: 'outputs', modules: ['arrow/', 'report/'], below: ['foundation', 'reports'] },
]

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * `@typescript-eslint/no-restricted-imports` for a module of `layer` at `depth` folders below src/
 * (0: a file of src/ itself): a relative import of a module of a layer neither its own nor below
 * it is refused. Type-only imports follow the same rule.
 */
export function layerRule(layer, depth) {
  const allowed = new Set([layer.name, ...layer.below])
  const refused = LAYERS.filter((l) => !allowed.has(l.name)).flatMap((l) => l.modules)
  const prefix = depth === 0 ? '\\./' : `(?:\\.\\./){${depth}}`
  const targets = refused.map((m) => (m.endsWith('/') ? `${escape(m)}` : `${escape(m)}\\.js$`)).join('|')
  return [
    'error',
    {
      patterns: [
        {
          regex: `^${prefix}(?:${targets})`,
          message: `src layers import only their own layer and those below (${layer.name} may import ${[...allowed].join(', ')}); see docs/ARCHITECTURE.md, "Layers".`,
        },
      ],
    },
  ]
}

/** The config blocks of the layer rule: one per layer and depth. */
export function layerConfigs() {
  return LAYERS.flatMap((layer) =>
    [0, 1, 2].flatMap((depth) => {
      const files = layer.modules.flatMap((m) => {
        const isFolder = m.endsWith('/')
        if (depth === 0) return isFolder ? [] : [`src/${m}.ts`]
        return isFolder ? [`src/${m}${Array(depth).fill('*').join('/')}.ts`] : []
      })
      return files.length === 0
        ? []
        : [{ files, rules: { '@typescript-eslint/no-restricted-imports': layerRule(layer, depth) } }]
    }),
  )
}

export default tseslint.config(
  {
    ignores: [
      'scratch/**',
      'src/client/openapi.ts',
      'dist/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      'reports/**',
    ],
  },
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
  ...layerConfigs(),
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
  // ...except the reliability suite, whose printed figures are its report; the CLI, benchmarks
  // and scripts talk to a terminal.
  {
    files: ['src/cli/**', 'bench/**', 'scripts/**', 'test/reliability/**'],
    rules: { 'no-console': 'off' },
  },
)
