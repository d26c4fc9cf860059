/**
 * The dashboard's HTTP side: the page, its script and the endpoint manifest are public, carry the
 * contract headers and a CSP that allows no inline script; the manifest is the endpoint table;
 * the API routes keep their own headers; a missing bundle is a 503 with a detail.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS } from '../../src/api/index.js'
import type { Engine } from '../../src/index.js'
import { buildServer } from '../../src/http/index.js'
import {
  DASHBOARD_CSP,
  DASHBOARD_PATHS,
  dashboardPlugin,
  NOT_BUILT_DETAIL,
  type DashboardManifest,
} from '../../src/http/plugins/dashboard.js'
import { makeEngine } from '../http/helpers.js'

const BUNDLE = join(import.meta.dirname, '..', '..', 'dist', 'dashboard')

let engine: Engine
let app: Awaited<ReturnType<typeof buildServer>>

beforeAll(async () => {
  if (!existsSync(join(BUNDLE, 'app.js')))
    throw new Error('dist/dashboard is not built: run npm run build first')
  engine = await makeEngine()
  app = await buildServer({ engine, logger: false })
  await app.ready()
})
afterAll(async () => {
  await app.close()
  await engine.close()
})

/** The directives of a CSP header, by name. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/)
      return [name, values]
    }),
  )
}

describe('dashboard routes', () => {
  it('serves the page with the contract headers and a CSP without inline scripts', async () => {
    const res = await app.inject({ url: DASHBOARD_PATHS.page })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers['x-request-id']).toEqual(expect.any(String))
    expect(res.headers['referrer-policy']).toBe('no-referrer')
    const csp = directives(String(res.headers['content-security-policy']))
    expect(csp.get('script-src')).toEqual(["'self'"])
    expect(csp.get('default-src')).toEqual(["'none'"])
    expect(csp.get('connect-src')).toEqual(["'self'"])
    expect(csp.get('frame-ancestors')).toEqual(["'none'"])
    // Every script of the page is a file of this origin: none inline, none elsewhere.
    const scripts = [...res.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.length).toBeGreaterThan(0)
    for (const [, attrs, body] of scripts) {
      expect(body!.trim()).toBe('')
      expect(attrs).toMatch(new RegExp(`src="${DASHBOARD_PATHS.script}"`))
    }
    expect(res.body).not.toMatch(/\son[a-z]+=/i)
  })

  it('serves the built script with the same headers', async () => {
    const res = await app.inject({ url: DASHBOARD_PATHS.script })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['content-security-policy']).toBe(DASHBOARD_CSP)
    expect(res.body.length).toBeGreaterThan(1000)
    // The page takes the API's paths from the manifest, never from its own literals.
    expect(res.body).toContain(DASHBOARD_PATHS.manifest)
    expect(res.body).not.toMatch(/\/api\/v\d/)
  })

  it('publishes every row of the endpoint table with its OpenAPI query parameters', async () => {
    const res = await app.inject({ url: DASHBOARD_PATHS.manifest })
    expect(res.statusCode).toBe(200)
    const manifest = res.json<DashboardManifest>()
    const doc = (await app.inject({ url: manifest.openapi })).json<{
      paths: Record<string, { get: { parameters?: { name: string; in: string }[] } }>
    }>()
    expect(Object.keys(manifest.endpoints).sort()).toEqual(ENDPOINTS.map((e) => e.id).sort())
    for (const endpoint of ENDPOINTS) {
      const entry = manifest.endpoints[endpoint.id]!
      expect(entry.path).toBe(endpoint.path)
      const query = (doc.paths[endpoint.path]!.get.parameters ?? []).filter((p) => p.in === 'query')
      // The row's own parameters in the document's order (`format` of list payloads left out).
      const own = query.filter((p) => p.name !== 'format')
      expect(entry.params.map((p) => p.name)).toEqual(own.map((p) => p.name))
      expect(entry.params.map((p) => p.name).sort()).toEqual(Object.keys(endpoint.params).sort())
    }
    // The choices the page offers come from the parameters' schemas.
    const granularity = manifest.endpoints['competitor-series']!.params.find((p) => p.name === 'granularity')
    expect((granularity!.schema as { enum: string[] }).enum).toContain('week')
  })

  it('needs no key, answers other methods 405, keeps the API routes free of the page headers', async () => {
    for (const url of Object.values(DASHBOARD_PATHS)) {
      const res = await app.inject({ method: 'POST', url })
      expect(res.statusCode).toBe(405)
      expect(res.json()).toEqual({ detail: expect.any(String) })
    }
    const api = await app.inject({ url: ENDPOINTS.find((e) => e.id === 'domain-list')!.path })
    expect(api.statusCode).toBe(401)
    expect(api.headers['content-security-policy']).toBeUndefined()
    expect(api.headers['x-content-type-options']).toBe('nosniff')
    expect(api.headers['cache-control']).toBe('no-store')
  })

  it('answers 503 with a detail when the bundle was not built', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'va-dashboard-'))
    const bare = Fastify({ logger: false, exposeHeadRoutes: false })
    try {
      await bare.register(dashboardPlugin, { bundleDir: dir })
      const res = await bare.inject({ url: DASHBOARD_PATHS.page })
      expect(res.statusCode).toBe(503)
      expect(res.json()).toEqual({ detail: NOT_BUILT_DETAIL })
    } finally {
      await bare.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
