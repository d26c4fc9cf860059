/**
 * @module The dashboard: GET / (the page), GET /dashboard/app.js (its script, bundled from
 * src/dashboard by `npm run build` into dist/dashboard) and GET /dashboard/endpoints.json (the
 * report endpoints the page calls: each row's path and query parameters, taken from the endpoint
 * table and the served OpenAPI document, so the page holds no API path of its own). All three are
 * public: the page asks for the key and sends it only in the Authorization header of API calls.
 * The page's Content-Security-Policy allows scripts and styles from this origin only (no inline
 * script); the contract headers (X-Request-Id, no-store, nosniff) are kept as on every response.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyPluginAsync, FastifyReply } from 'fastify'
import { ENDPOINTS } from '../../api/index.js'
import { staticJson } from '../edge/index.js'
import { DOC_PATHS } from './docs.js'
import { methodNotAllowed } from './headers.js'

/** Paths this plugin serves. */
export const DASHBOARD_PATHS = {
  page: '/',
  script: '/dashboard/app.js',
  manifest: '/dashboard/endpoints.json',
} as const

/** The page's Content-Security-Policy: its own script, style sheet and API calls, nothing else. */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // The report's sections colour swatches and bars with style attributes.
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** Headers of the page and its script besides the contract headers. */
const PAGE_HEADERS = {
  'content-security-policy': DASHBOARD_CSP,
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
}

/** Detail of the 503 answered when the bundle was not built. */
export const NOT_BUILT_DETAIL = 'The dashboard is not built: run npm run build.'

/** The built bundle: dist/dashboard of the package (found from this module, in src/ or dist/src/). */
function defaultBundleDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let up = 0; up < 8 && !existsSync(join(dir, 'package.json')); up++) dir = dirname(dir)
  return join(dir, 'dist', 'dashboard')
}

/** One query parameter of a report endpoint, as the OpenAPI document describes it. */
export interface ManifestParam {
  name: string
  required: boolean
  schema: unknown
}

/** What GET /dashboard/endpoints.json answers. */
export interface DashboardManifest {
  openapi: string
  endpoints: Record<string, { path: string; params: ManifestParam[] }>
}

type Document = { paths?: Record<string, { get?: { parameters?: unknown[] } }> }

/**
 * Each row of the endpoint table: its path and its query parameters from the OpenAPI document (the
 * row's own parameters; `format`, the CSV choice of list payloads, is not the page's).
 * @example
 * dashboardManifest(app.swagger()).endpoints['domain-list'].path // '/api/v1/domains'
 */
export function dashboardManifest(document: unknown): DashboardManifest {
  const paths = (document as Document).paths ?? {}
  const endpoints: DashboardManifest['endpoints'] = {}
  for (const endpoint of ENDPOINTS) {
    const parameters = (paths[endpoint.path]?.get?.parameters ?? []) as {
      in?: string
      name?: string
      required?: boolean
      schema?: unknown
    }[]
    endpoints[endpoint.id] = {
      path: endpoint.path,
      params: parameters
        .filter((p) => p.in === 'query' && typeof p.name === 'string' && p.name in endpoint.params)
        .map((p) => ({ name: p.name as string, required: p.required === true, schema: p.schema ?? {} })),
    }
  }
  return { openapi: DOC_PATHS.openapi, endpoints }
}

/** GET /, GET /dashboard/app.js and GET /dashboard/endpoints.json. */
export const dashboardPlugin: FastifyPluginAsync<{ bundleDir?: string }> = async (app, options) => {
  const dir = options.bundleDir ?? defaultBundleDir()
  const files = new Map<string, Buffer>()

  /** Sends a file of the bundle (read once), or a 503 when it was not built. */
  async function sendFile(reply: FastifyReply, name: string, type: string): Promise<FastifyReply> {
    let body = files.get(name)
    if (body === undefined) {
      try {
        body = await readFile(join(dir, name))
      } catch {
        return reply.code(503).send({ detail: NOT_BUILT_DETAIL })
      }
      files.set(name, body)
    }
    return reply.headers(PAGE_HEADERS).type(type).send(body)
  }

  const routes = [
    [DASHBOARD_PATHS.page, 'index.html', 'text/html; charset=utf-8'],
    [DASHBOARD_PATHS.script, 'app.js', 'text/javascript; charset=utf-8'],
  ] as const
  for (const [url, name, type] of routes) {
    app.route({
      method: 'GET',
      url,
      schema: { hide: true },
      handler: async (_request, reply) => sendFile(reply, name, type),
    })
    app.route(methodNotAllowed(app, url, 'GET'))
  }

  app.route({
    method: 'GET',
    url: DASHBOARD_PATHS.manifest,
    schema: { hide: true },
    handler: staticJson(() => dashboardManifest(app.swagger())),
  })
  app.route(methodNotAllowed(app, DASHBOARD_PATHS.manifest, 'GET'))
}
