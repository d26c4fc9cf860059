/**
 * The OpenAPI document served at /api/v1/openapi.json: valid itself (swagger-parser), and every
 * response the service gives validates against it (Ajv, JSON Schema 2020-12), with its documented
 * status and headers.
 */
import { readFile } from 'node:fs/promises'
import SwaggerParser from '@apidevtools/swagger-parser'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS as TABLE, type Endpoint } from '../../src/api/index.js'
import { buildServer } from '../../src/http/index.js'
import type { Engine } from '../../src/types.js'
import { D, ENDPOINTS, T, UNKNOWN_DOMAIN, bearer, makeEngine, tenantRecords } from './helpers.js'

type Doc = {
  openapi: string
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<
          string,
          { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }
        >
      }
    >
  >
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
    app = await buildServer({ engine, logger: false, rateLimit: { limit: 40, windowSeconds: 60 } })
    const res = await app.inject({ url: '/api/v1/openapi.json' })
    expect(res.statusCode).toBe(200)
    doc = res.json() as Doc
    ajv.addSchema(doc as object, 'openapi.json')
  })
  afterAll(async () => {
    await app.close()
    await engine.close()
  })

  it('is a valid OpenAPI 3.1 document describing the public paths', async () => {
    await SwaggerParser.validate(structuredClone(doc) as never)
    expect(doc.openapi).toBe('3.1.0')
    expect(Object.keys(doc.paths).sort()).toEqual(
      [...(TABLE as readonly Endpoint[]).map((e) => e.path), '/healthz'].sort(),
    )
    const prompts = doc.paths[ENDPOINTS.prompts]!.get!
    expect(Object.keys(prompts.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '429',
      '500',
      '503',
    ])
    expect(Object.keys(prompts.responses['200']!.headers!)).toEqual(
      expect.arrayContaining([
        'X-Cache',
        'X-Request-Id',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
      ]),
    )
    expect(Object.keys(prompts.responses['429']!.headers!)).toContain('Retry-After')
    const params = (
      prompts as unknown as {
        parameters: Array<{ name: string; in: string; required?: boolean; schema: Record<string, unknown> }>
      }
    ).parameters
    expect(params.map((p) => [p.name, p.in, p.required ?? false])).toEqual([
      ['domain_id', 'query', true],
      ['days', 'query', false],
      ['limit', 'query', false],
    ])
    expect(params[1]!.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 365, default: 30 })
  })

  function check(path: string, res: LightMyRequestResponse): void {
    const responses = doc.paths[path]!.get!.responses
    const documented = responses[String(res.statusCode)]
    expect(documented, `${path} ${res.statusCode} is documented`).toBeDefined()
    for (const header of Object.keys(documented!.headers ?? {})) {
      if (
        header === 'X-RateLimit-Limit' ||
        header === 'X-RateLimit-Remaining' ||
        header === 'X-RateLimit-Reset'
      ) {
        if (res.statusCode === 401) continue
      }
      expect(res.headers[header.toLowerCase()], `${path} ${res.statusCode} header ${header}`).toBeDefined()
    }
    const pointer = `openapi.json#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/get/responses/${res.statusCode}/content/application~1json/schema`
    const validate = ajv.getSchema(pointer)
    expect(validate, pointer).toBeDefined()
    const ok = validate!(res.json())
    expect(validate!.errors ?? [], `${path} ${res.statusCode} ${res.body.slice(0, 200)}`).toEqual([])
    expect(ok).toBe(true)
  }

  it('every response of the service validates against it', async () => {
    const acme = '5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c'
    const freeKey = (await engine.createApiKey({ teamId: T.free })).key
    let count = 0
    const scoped = (TABLE as readonly Endpoint[]).filter((e) => e.access !== 'none')
    for (const { path } of scoped) {
      // A key per endpoint, so the rate limit is reached only at the end.
      const own = (await engine.createApiKey({ teamId: T.acme, scopeTeamIds: [T.acme, T.free, acmeTeam] }))
        .key
      const requests: Array<[string, Record<string, string>]> = [
        [`domain_id=${acme}&days=365`, bearer(own)], // 200 over the example dataset (when ingested)
        [`domain_id=${D.acme1}&days=7`, bearer(own)], // 200, empty
        [`domain_id=${D.acme1}&days=7`, bearer(own)], // 200, cache HIT
        ['days=0', bearer(own)], // 400
        [`domain_id=${D.acme1}`, {}], // 401
        [`domain_id=${D.globex}`, bearer(own)], // 403 or 404
        [`domain_id=${UNKNOWN_DOMAIN}`, bearer(own)],
        [`domain_id=${D.free}`, bearer(freeKey)], // 200 or 403 plan
      ]
      for (const [query, headers] of requests) {
        check(path, await app.inject({ url: `${path}?${query}`, headers }))
        count += 1
      }
    }
    check('/api/v1/domains', await app.inject({ url: '/api/v1/domains', headers: bearer(key) }))
    check('/healthz', await app.inject({ url: '/healthz' }))
    // Exhaust the limit: 429 with Retry-After.
    let last: LightMyRequestResponse | undefined
    for (let i = 0; i < 40; i += 1)
      last = await app.inject({ url: `${ENDPOINTS.themes}?domain_id=${D.acme1}`, headers: bearer(key) })
    expect(last!.statusCode).toBe(429)
    check(ENDPOINTS.themes, last!)
    expect(count).toBe(8 * scoped.length)
  })
})
