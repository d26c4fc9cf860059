/**
 * Third-party tools on the served OpenAPI document, as a client of the API would use them:
 * - openapi-typescript generates the types of a client; a TypeScript file generated from the
 *   document calls every operation through openapi-fetch and must typecheck with the project's
 *   compiler options (tsc). It also states that each table row's 200 body type equals the
 *   library's payload type, and that wrong parameters are type errors. Then it runs against the
 *   service on 127.0.0.1: every operation answers 200 and echoes the request id.
 * - `redocly lint` with the recommended rules passes on the saved document, without a warning.
 * Everything is generated into a temporary directory (removed afterwards; KEEP_OPENAPI_DIR=1 keeps
 * it and prints its path) from the document and the endpoint table, so a new row is covered
 * without editing this file.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import openapiTS, { astToString } from 'openapi-typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { buildServer } from '../../src/http/index.js'
import { openEngine, type Engine } from '../../src/index.js'
import { analysis, base, DOMAIN, NOW, TEAM, toNdjson } from '../support/records.js'
import { ADMIN_TOKEN } from './helpers.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const run = promisify(execFile)
const rows = ENDPOINTS as readonly Endpoint[]

type Json = Record<string, unknown>
type Parameter = { name: string; in: string; required?: boolean; schema: Json }
type Operation = { operationId: string; parameters?: Parameter[]; requestBody?: unknown }
type Doc = { paths: Record<string, Record<string, Operation>> }

/** A literal of the parameter's type (its default, else its first allowed value). */
function valueOf(p: Parameter): string {
  if (p.name === 'domain_id') return 'options.domainId'
  const { schema } = p
  if (schema.type === 'integer') return String(schema.default ?? schema.minimum ?? 1)
  const value = schema.default ?? (schema.enum as unknown[] | undefined)?.[0] ?? 'x'
  return JSON.stringify(value)
}

/** A literal of the wrong type for the parameter. */
const wrongValueOf = (p: Parameter): string =>
  p.schema.type === 'integer' || p.schema.type === 'number' ? '"7"' : '7'

/**
 * The client: one typed call per operation, the 200 body of each table row checked against the
 * library's payload type, and calls that must not typecheck (`@ts-expect-error`).
 */
function clientSource(doc: Doc): string {
  const lines = [
    "import createClient from 'openapi-fetch'",
    "import type { z } from 'zod'",
    `import type { ENDPOINTS } from ${JSON.stringify(join(ROOT, 'src/api/endpoints.js'))}`,
    "import type { paths } from './schema.js'",
    '',
    'type Row = (typeof ENDPOINTS)[number]',
    "type Payload<I extends Row['id']> = z.output<Extract<Row, { id: I }>['payload']>",
    '// The document may be more precise than the library type (an enum for a string), never looser.',
    'type Fits<Doc, Lib> = [Doc] extends [Lib] ? true : false',
    '',
    'export interface Options { key: string; adminToken: string; domainId: string; ndjson: string }',
    'export interface Result { operationId: string; status: number; requestId: string | null; body: unknown }',
    '',
    'export async function callEveryOperation(baseUrl: string, options: Options): Promise<Result[]> {',
    '  // JSON bodies only (list operations also document their text/csv form).',
    "  const client = createClient<paths, 'application/json'>({ baseUrl, headers: { authorization: `Bearer ${options.key}` } })",
    '  const results: Result[] = []',
  ]
  const negatives: string[] = []
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const id = op.operationId
      const query = (op.parameters ?? []).filter((p) => p.in === 'query')
      // The required parameters and those with a default (a date range has neither: left out).
      const given = query.filter((p) => p.required || p.schema.default !== undefined)
      const params = [
        given.length > 0 ? `query: { ${given.map((p) => `${p.name}: ${valueOf(p)}`).join(', ')} }` : '',
        `header: { 'X-Request-Id': ${JSON.stringify(`client-${id}`)} }`,
      ].filter((s) => s !== '')
      const extra =
        op.requestBody === undefined
          ? ''
          : ", body: options.ndjson, bodySerializer: (body: string) => body, headers: { authorization: `Bearer ${options.adminToken}`, 'content-type': 'application/x-ndjson' }"
      const call = `client.${method.toUpperCase()}(${JSON.stringify(path)}, { params: { ${params.join(', ')} }${extra} })`
      lines.push(`  {`, `    const { data, response } = await ${call}`)
      const row = rows.find((r) => r.path === path)
      if (row !== undefined) {
        lines.push(
          `    const fits: Fits<NonNullable<typeof data>, Payload<${JSON.stringify(row.id)}>> = true`,
          '    void fits',
        )
      }
      lines.push(
        `    results.push({ operationId: ${JSON.stringify(id)}, status: response.status, requestId: response.headers.get('x-request-id'), body: data })`,
        '  }',
      )
      const required = query.filter((p) => p.required)
      if (required.length > 0) {
        negatives.push(
          `  // @ts-expect-error ${id}: a required parameter is missing`,
          `  void client.${method.toUpperCase()}(${JSON.stringify(path)}, { params: { query: {} } })`,
        )
      }
      for (const p of query) {
        const others = query.filter((q) => q.required && q !== p).map((q) => `${q.name}: ${valueOf(q)}`)
        negatives.push(
          `  // @ts-expect-error ${id}: ${p.name} of the wrong type`,
          `  void client.${method.toUpperCase()}(${JSON.stringify(path)}, { params: { query: { ${[...others, `${p.name}: ${wrongValueOf(p)}`].join(', ')} } } })`,
        )
      }
    }
  }
  lines.push('  return results', '}', '')
  lines.push(
    '/** Never called: each call below must be a type error. */',
    "export function misuse(client: ReturnType<typeof createClient<paths, 'application/json'>>, options: Options): void {",
    ...negatives,
    '}',
    '',
  )
  return lines.join('\n')
}

describe('the served OpenAPI document with third-party tools', () => {
  let engine: Engine
  let app: FastifyInstance
  let doc: Doc
  let dir: string
  let baseUrl: string
  let key: string

  beforeAll(async () => {
    engine = await openEngine()
    await engine.ingest([...base(), analysis({ answered_at: NOW })])
    key = (await engine.createApiKey({ teamId: TEAM })).key
    app = await buildServer({ engine, logger: false, adminToken: ADMIN_TOKEN })
    baseUrl = await app.listen({ host: '127.0.0.1', port: 0 })
    doc = (await app.inject({ url: '/api/v1/openapi.json' })).json() as Doc
    dir = await mkdtemp(join(tmpdir(), 'va-openapi-'))
    // The generated client resolves openapi-fetch and zod from the project's node_modules.
    await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }))
    await writeFile(join(dir, 'openapi.json'), JSON.stringify(doc, null, 2))
  })
  afterAll(async () => {
    await app.close()
    await engine.close()
    if (!process.env.KEEP_OPENAPI_DIR) await rm(dir, { recursive: true, force: true })
    else console.warn(dir)
  })

  it('a client generated with openapi-typescript calls every operation through openapi-fetch: it typechecks and runs', async () => {
    await writeFile(join(dir, 'schema.d.ts'), astToString(await openapiTS(doc as never)))
    await writeFile(join(dir, 'client.ts'), clientSource(doc))
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: join(ROOT, 'tsconfig.json'),
        compilerOptions: { noEmit: true, rootDir: '/', sourceMap: false, declaration: false },
        include: ['client.ts', 'schema.d.ts'],
      }),
    )
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
    const checked = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir }).then(
      () => '',
      (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}` || 'tsc failed',
    )
    expect(checked).toBe('')

    const client = (await import(pathToFileURL(join(dir, 'client.ts')).href)) as {
      callEveryOperation(
        baseUrl: string,
        options: { key: string; adminToken: string; domainId: string; ndjson: string },
      ): Promise<Array<{ operationId: string; status: number; requestId: string | null; body: unknown }>>
    }
    const results = await client.callEveryOperation(baseUrl, {
      key,
      adminToken: ADMIN_TOKEN,
      domainId: DOMAIN,
      ndjson: toNdjson(base()),
    })
    const operationIds = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).map((op) => op.operationId),
    )
    expect(results.map((r) => r.operationId)).toEqual(operationIds)
    expect(operationIds).toEqual(expect.arrayContaining(rows.map((r) => r.operationId)))
    for (const r of results) {
      expect([r.operationId, r.status]).toEqual([r.operationId, 200])
      expect(r.requestId).toBe(`client-${r.operationId}`)
      expect(r.body).toBeTypeOf('object')
    }
  }, 180_000) // tsc over the generated client: slow on a loaded machine

  it('redocly lint (recommended rules) passes on the saved document, without a warning', async () => {
    const cli = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js')
    const { stdout } = await run(
      process.execPath,
      [cli, 'lint', join(dir, 'openapi.json'), '--extends=recommended', '--format=json'],
      {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }))
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number }
      problems: Array<{ ruleId: string; message: string }>
    }
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
    // The conventions are in the linted document (not a lint of a smaller one).
    expect(JSON.stringify(doc)).toContain('"text/csv"')
    expect(JSON.stringify(doc)).toContain('"304"')
  })
})
