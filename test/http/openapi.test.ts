/**
 * The OpenAPI document served at /api/v1/openapi.json: valid itself (swagger-parser), exact about
 * every operation (operationId, security, the X-Request-Id header, parameters and their bounds,
 * echo fields, ids, statuses), and every response the service gives validates against it (Ajv,
 * JSON Schema 2020-12) with its documented status and required headers. The checks run over the
 * endpoint table, so a new row is covered without editing this file.
 */
import { readFile } from 'node:fs/promises'
import { echoedWhenGiven } from '../support/registry.js'
import SwaggerParser from '@apidevtools/swagger-parser'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  domainRefusalStatuses,
  ENDPOINTS,
  modelParam,
  type Endpoint,
  type Param,
} from '../../src/api/index.js'
import { buildServer } from '../../src/http/index.js'
import { CSV_LAYOUTS } from '../../src/http/plugins/endpoints.js'
import type { Engine } from '../../src/types.js'
import { ADMIN_TOKEN, D, T, UNKNOWN_DOMAIN, bearer, makeEngine, tenantRecords } from './helpers.js'

const rows = ENDPOINTS as readonly Endpoint[]
const FIXED = { health: '/healthz', openapi: '/api/v1/openapi.json', ingest: '/internal/v1/ingest' }
const EXAMPLE_DOMAIN = '5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c'
const MAX_SAFE = Number.MAX_SAFE_INTEGER

type Json = Record<string, unknown>
type Header = { required?: boolean; schema: Json }
type Response = { headers?: Record<string, Header>; content?: Record<string, { schema: Json }> }
type Parameter = { name: string; in: string; required?: boolean; schema: Json }
type Operation = {
  operationId?: string
  summary?: string
  security?: Array<Record<string, unknown>>
  parameters?: Parameter[]
  responses: Record<string, Response>
}
type Doc = {
  openapi: string
  security?: unknown[]
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Json> }
}

/** The JSON Schema of a zod schema as the document carries it (no `$schema`). */
function jsonSchemaOf(schema: z.ZodType): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'output' }) as Json
  return rest
}

/** The team of the worked example's domain. */
const acmeTeam = '0a9c2f4e-1b7d-4c3a-9e8f-5d6b7a8c9d01'

describe('OpenAPI document', () => {
  let engine: Engine
  let app: FastifyInstance
  let doc: Doc
  let key: string
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  ;(addFormats as unknown as (a: Ajv2020) => void)(ajv)

  const operations = (): Array<[string, string, Operation]> =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => [path, method, op] as [string, string, Operation]),
    )
  const resolve = (schema: Json): Json => {
    const ref = schema.$ref
    return typeof ref === 'string' ? doc.components.schemas[ref.split('/').pop()!]! : schema
  }
  const okSchema = (path: string): Json =>
    resolve(doc.paths[path]!.get!.responses['200']!.content!['application/json']!.schema)

  beforeAll(async () => {
    engine = await makeEngine()
    await engine.ingest(tenantRecords())
    const example = await readFile(
      new URL('../../fixtures/spec-example/data.ndjson', import.meta.url),
      'utf8',
    )
    await engine.ingest(
      example
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as unknown),
    )
    key = (
      await engine.createApiKey({
        teamId: T.acme,
        scopeTeamIds: [T.acme, T.free, acmeTeam],
      })
    ).key
    app = await buildServer({
      engine,
      logger: false,
      adminToken: ADMIN_TOKEN,
      maxIngestBytes: 4096,
      rateLimit: { limit: 40 + 10 * rows.length, windowSeconds: 60 },
    })
    const res = await app.inject({ url: FIXED.openapi })
    expect(res.statusCode).toBe(200)
    doc = res.json() as Doc
    ajv.addSchema(doc as object, 'openapi.json')
  })
  afterAll(async () => {
    await app.close()
    await engine.close()
  })

  it('is a valid OpenAPI 3.1 document with one operation per row and per fixed route', async () => {
    await SwaggerParser.validate(structuredClone(doc) as never)
    expect(doc.openapi).toBe('3.1.0')
    expect(Object.keys(doc.paths).sort()).toEqual(
      [...rows.map((r) => r.path), ...Object.values(FIXED)].sort(),
    )
    for (const row of rows) {
      const op = doc.paths[row.path]!.get!
      expect([op.operationId, op.summary], row.id).toEqual([row.operationId, row.summary])
    }
    expect(Object.keys(doc.paths[FIXED.ingest]!)).toEqual(['post'])
  })

  it('every operation: a unique operationId, a summary, the optional X-Request-Id header, its security', () => {
    const ids = operations().map(([, , op]) => op.operationId)
    expect(
      ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)),
      ids.join(),
    ).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    expect(doc.security).toEqual([{ bearerAuth: [] }])
    for (const [path, method, op] of operations()) {
      expect(op.summary, path).toMatch(/\S/)
      const header = (op.parameters ?? []).filter((p) => p.in === 'header')
      expect(header, path).toEqual([
        expect.objectContaining({ name: 'X-Request-Id', required: false }),
        ...(method === 'get' ? [expect.objectContaining({ name: 'If-None-Match', required: false })] : []),
      ])
      const expected =
        path === FIXED.health || path === FIXED.openapi
          ? []
          : path === FIXED.ingest
            ? [{ adminToken: [] }]
            : [{ bearerAuth: [] }]
      expect(op.security, `${method} ${path}`).toEqual(expected)
    }
  })

  it('query parameters: the row parameters in order, required as the rule says; uuid format only where a malformed id is a 400', () => {
    for (const row of rows) {
      const query = (doc.paths[row.path]!.get!.parameters ?? []).filter((p) => p.in === 'query')
      const params = Object.values(row.params) as Param[]
      // A list payload also takes `format` (json or csv), last.
      const format = CSV_LAYOUTS.has(row.id) ? [['format', false]] : []
      expect(query.map((p) => [p.name, p.required ?? false])).toEqual([
        ...params.map((p) => [p.name, p.required]),
        ...format,
      ])
      for (const [i, param] of params.entries()) {
        const schema = query[i]!.schema
        const refusesNonUuid = !param.text.safeParse('not-a-uuid').success
        if (schema.format === 'uuid') expect(refusesNonUuid, `${row.id} ${param.name}`).toBe(true)
        if (schema.type === 'integer') {
          expect(schema.minimum, `${row.id} ${param.name}`).toBeGreaterThan(-MAX_SAFE)
          expect(schema.maximum, `${row.id} ${param.name}`).toBeLessThan(MAX_SAFE)
        }
      }
      if (row.access === 'sentiment') expect(query[0]!.schema.format, row.id).toBeUndefined()
      if (row.access === 'series') expect(query[0]!.schema.format, row.id).toBe('uuid')
    }
  })

  it('echo fields follow data in parameter order, each with the schema (bounds) of its parameter', () => {
    for (const row of rows) {
      const schema = okSchema(row.path)
      const properties = schema.properties as Record<string, Json>
      expect(Object.keys(properties), row.id).toEqual(['data', ...Object.keys(row.params), 'generated_at'])
      // Every echo is required but the range, granularity and the segment filters: only when given
      // (docs/API.md, "Date ranges and buckets", "Segment filters").
      const optional = (Object.values(row.params) as Param[]).filter(
        (p) => p.echo?.safeParse(undefined).success,
      )
      expect(optional.map((p) => p.name).filter((n) => !echoedWhenGiven(row.id).includes(n))).toEqual([])
      expect(schema.required, row.id).toEqual(
        Object.keys(properties).filter((name) => !optional.some((p) => p.name === name)),
      )
      for (const param of Object.values(row.params) as Param[]) {
        expect(param.echo, `${row.id} ${param.name} has an echo schema`).toBeDefined()
        expect(properties[param.name], `${row.id} echo ${param.name}`).toEqual(jsonSchemaOf(param.echo!))
      }
    }
  })

  it('ids in responses are UUIDs (format uuid), per-entity ids a UUID or the brand id', () => {
    const seen: string[] = []
    const visit = (schema: unknown, where: string): void => {
      if (Array.isArray(schema)) return schema.forEach((s, i) => visit(s, `${where}[${i}]`))
      if (schema === null || typeof schema !== 'object') return
      const object = schema as Json
      if (typeof object.$ref === 'string') return visit(resolve(object), object.$ref)
      for (const [name, child] of Object.entries((object.properties ?? {}) as Record<string, Json>)) {
        if (/(^|_)id$/.test(name)) {
          seen.push(`${where}.${name}`)
          const branches = (child.anyOf as Json[] | undefined) ?? [child]
          const uuid = branches.filter((b) => b.format === 'uuid')
          const other = branches.filter((b) => b.format !== 'uuid')
          expect(uuid.length, `${where}.${name} is a UUID`).toBe(1)
          for (const b of other) {
            const brand = typeof b.pattern === 'string' && b.pattern.startsWith('^user-brand-')
            expect(b.type === 'null' || brand, `${where}.${name}: ${JSON.stringify(b)}`).toBe(true)
          }
        }
        if (/_ids$/.test(name)) {
          seen.push(`${where}.${name}`)
          expect((child.items as Json | undefined)?.format, `${where}.${name}`).toBe('uuid')
        }
      }
      for (const [k, child] of Object.entries(object)) if (k !== 'properties') visit(child, `${where}.${k}`)
      for (const [k, child] of Object.entries((object.properties ?? {}) as Json))
        visit(child, `${where}.${k}`)
    }
    for (const row of rows) visit(okSchema(row.path), row.id)
    expect(seen).toEqual(
      expect.arrayContaining([
        'prompt-series.domain_id',
        'domain-list.data.items.items.id',
        'citations.data.items.items.competitor_id',
      ]),
    )
  })

  it('components: one per schema (no input twin), each referenced', () => {
    const names = Object.keys(doc.components.schemas)
    expect(names.filter((n) => n.endsWith('Input'))).toEqual([])
    const text = JSON.stringify(doc.paths)
    const refs = JSON.stringify(doc.components.schemas)
    for (const name of names) {
      const ref = `"#/components/schemas/${name}"`
      expect(text.includes(ref) || refs.includes(ref), name).toBe(true)
    }
  })

  it('404 is documented exactly where the domain check answers it; 405 nowhere', async () => {
    for (const [path, method, op] of operations()) {
      expect(Object.keys(op.responses), `${method} ${path}`).not.toContain('405')
      const row = rows.find((r) => r.path === path)
      const documented = '404' in op.responses
      expect(documented, `${method} ${path}`).toBe(
        row !== undefined && domainRefusalStatuses(row.access).includes(404),
      )
      if (row === undefined || row.access === 'none') continue
      for (const domainId of [UNKNOWN_DOMAIN, 'not-a-uuid']) {
        const res = await app.inject({ url: `${path}?domain_id=${domainId}`, headers: bearer(key) })
        expect(res.statusCode === 404, `${path} ${domainId}: ${res.statusCode}`).toBe(documented)
      }
    }
  })

  /** The response is documented for its operation and status, with its required headers and body. */
  function check(method: string, path: string, res: LightMyRequestResponse): void {
    const responses = doc.paths[path]![method]!.responses
    const documented = responses[String(res.statusCode)]
    expect(documented, `${method} ${path} ${res.statusCode} is documented`).toBeDefined()
    for (const [name, header] of Object.entries(documented!.headers ?? {})) {
      const value = res.headers[name.toLowerCase()]
      if (header.required) expect(value, `${path} ${res.statusCode} header ${name}`).toBeDefined()
      if (value === undefined) continue
      const typed = header.schema.type === 'integer' ? Number(value) : value
      const validate = ajv.compile(header.schema)
      expect(validate(typed), `${path} ${res.statusCode} header ${name}: ${String(value)}`).toBe(true)
    }
    const pointer = `openapi.json#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}/responses/${res.statusCode}/content/application~1json/schema`
    const validate = ajv.getSchema(pointer)
    expect(validate, pointer).toBeDefined()
    const ok = validate!(res.json())
    expect(validate!.errors ?? [], `${path} ${res.statusCode} ${res.body.slice(0, 200)}`).toEqual([])
    expect(ok).toBe(true)
  }

  it('every response of the service validates against it, with its required headers', async () => {
    const freeKey = (await engine.createApiKey({ teamId: T.free })).key
    const statuses = new Map<string, Set<number>>()
    const send = async (
      method: 'GET' | 'POST',
      path: string,
      url: string,
      headers: Json,
      payload?: string,
    ) => {
      const res = await app.inject({
        method,
        url,
        headers: headers as Record<string, string>,
        ...(payload !== undefined && { payload }),
      })
      check(method.toLowerCase(), path, res)
      const seen = statuses.get(path) ?? new Set<number>()
      statuses.set(path, seen.add(res.statusCode))
      return res
    }
    for (const row of rows) {
      const requests: Array<[string, Json]> =
        row.access === 'none'
          ? [
              ['', bearer(key)], // 200
              ['', {}], // 401
            ]
          : [
              [`domain_id=${EXAMPLE_DOMAIN}&days=365`, bearer(key)], // 200 over the example dataset
              [`domain_id=${D.acme1}&days=7`, bearer(key)], // 200, empty
              [`domain_id=${D.acme1}&days=7`, bearer(key)], // 200, cache HIT
              ['days=0', bearer(key)], // 400
              [`domain_id=${D.acme1}`, {}], // 401
              [`domain_id=${D.globex}`, bearer(key)], // 403 or 404
              [`domain_id=${UNKNOWN_DOMAIN}`, bearer(key)],
              [`domain_id=${D.free}`, bearer(freeKey)], // 200 or 403 plan
            ]
      for (const [query, headers] of requests) {
        await send('GET', row.path, `${row.path}?${query}`, { ...headers, 'x-request-id': `req-${row.id}` })
      }
      expect(statuses.get(row.path), row.id).toEqual(
        new Set(
          row.access === 'none' ? [200, 401] : [200, 400, 401, 403, ...domainRefusalStatuses(row.access)],
        ),
      )
    }
    const echoed = await send('GET', FIXED.health, FIXED.health, { 'x-request-id': 'health-check-1' })
    expect(echoed.headers['x-request-id']).toBe('health-check-1')
    await send('GET', FIXED.openapi, FIXED.openapi, {})
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' }
    const team = JSON.stringify({
      type: 'team',
      id: T.acme,
      name: 'team 1',
      plan: 'pro',
      developer_access: true,
    })
    await send('POST', FIXED.ingest, FIXED.ingest, admin, `${team}\n`) // 200
    await send('POST', FIXED.ingest, FIXED.ingest, admin, '{"type":"team"}\n') // 400 with issues
    await send('POST', FIXED.ingest, FIXED.ingest, { ...admin, authorization: 'Bearer nope' }, '') // 401
    await send('POST', FIXED.ingest, FIXED.ingest, { ...admin, 'content-type': 'text/plain' }, team) // 415
    await send('POST', FIXED.ingest, FIXED.ingest, admin, `${team}\n`.repeat(100)) // 413
    expect(statuses.get(FIXED.ingest)).toEqual(new Set([200, 400, 401, 413, 415]))
    // Exhaust the limit: 429 with Retry-After.
    const last = rows.find((r) => r.access !== 'none')!
    let res: LightMyRequestResponse | undefined
    for (let i = 0; i < 60 + 10 * rows.length && res?.statusCode !== 429; i += 1)
      res = await send('GET', last.path, `${last.path}?domain_id=${D.acme1}`, bearer(key))
    expect(res!.statusCode).toBe(429)
  })

  it('the listings, rankings and brand series validate with a raw model id and a page size', async () => {
    const scope = { teamId: T.acme, scopeTeamIds: [T.acme, '0a9c2f4e-1b7d-4c3a-9e8f-5d6b7a8c9d01'] }
    const rawModel = (e: Endpoint) => (e.params as Record<string, Param>).model === modelParam
    const extra = rows.filter((e) => e.access !== 'none' && (rawModel(e) || 'size' in e.params))
    expect(extra.map((e) => e.id)).toEqual(expect.arrayContaining(['prompt-list', 'brand-rankings']))
    for (const row of extra) {
      const own = bearer((await engine.createApiKey(scope)).key)
      const query = [`domain_id=${EXAMPLE_DOMAIN}`, 'days=365']
      if (rawModel(row)) query.push('model=gpt-4o-2024-08-06')
      if ('size' in row.params) query.push('size=1')
      const res = await app.inject({ url: `${row.path}?${query.join('&')}`, headers: own })
      expect(res.statusCode, `${row.id} ${res.body.slice(0, 200)}`).toBe(200)
      check('get', row.path, res)
    }
  })
})
