/**
 * @module Calls to the API from the page: the endpoint manifest the server emits (each report
 * row's path and query parameters, from the endpoint table and the OpenAPI document) and GETs
 * with the key in the Authorization header. A refusal becomes an `ApiError` carrying the API's
 * `detail`, which the page shows as it is.
 */

/** Where the server publishes the manifest (served by the same plugin as the page). */
export const MANIFEST_PATH = '/dashboard/endpoints.json'

/** One query parameter of an endpoint, as the OpenAPI document describes it. */
export interface ManifestParam {
  name: string
  required: boolean
  schema: { enum?: unknown[]; default?: unknown; minimum?: number; maximum?: number; type?: string }
}

export interface Manifest {
  openapi: string
  endpoints: Record<string, { path: string; params: ManifestParam[] } | undefined>
}

/** A refused call: the HTTP status and the API's detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail)
    this.name = 'ApiError'
  }
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown
  } catch {
    return null
  }
}

function detailOf(body: unknown, status: number): string {
  const detail = (body as { detail?: unknown } | null)?.detail
  return typeof detail === 'string' ? detail : `The server answered HTTP ${status}.`
}

/** GETs JSON; an ApiError with the API's detail when refused or unreachable. */
async function getJson(url: URL, init: RequestInit): Promise<unknown> {
  let response: Response
  try {
    response = await fetch(url, {
      ...init,
      cache: 'no-store',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    })
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new ApiError(0, 'The server could not be reached.')
  }
  const body = await readJson(response)
  if (!response.ok) throw new ApiError(response.status, detailOf(body, response.status))
  if (body === null || typeof body !== 'object')
    throw new ApiError(response.status, 'The server sent no JSON.')
  return body
}

/** The manifest of the report endpoints (public: no key). */
export async function fetchManifest(origin: string): Promise<Manifest> {
  const body = (await getJson(new URL(MANIFEST_PATH, origin), {})) as Partial<Manifest>
  if (typeof body.endpoints !== 'object' || body.endpoints === null)
    throw new ApiError(200, 'The endpoint manifest has no endpoints.')
  return body as Manifest
}

/** The parameters of a report call, by wire name; the ones an endpoint does not take are left out. */
export type Query = Record<string, string | undefined>

/**
 * GETs the endpoint `id` of the manifest with the parameters it takes (from `query`), the key in
 * the Authorization header.
 * @example
 * const domains = await callEndpoint(manifest, 'domain-list', {}, key, location.origin)
 */
export async function callEndpoint(
  manifest: Manifest,
  id: string,
  query: Query,
  key: string,
  origin: string,
  signal?: AbortSignal,
): Promise<unknown> {
  const endpoint = manifest.endpoints[id]
  if (endpoint === undefined) throw new ApiError(404, `This server has no ${id} endpoint.`)
  const url = new URL(endpoint.path, origin)
  for (const param of endpoint.params) {
    const value = query[param.name]
    if (value !== undefined && value !== '') url.searchParams.set(param.name, value)
  }
  return getJson(url, {
    headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
    ...(signal === undefined ? {} : { signal }),
  })
}

/** The parameter `name` of endpoint `id`, when it takes one. */
export function paramOf(manifest: Manifest, id: string, name: string): ManifestParam | undefined {
  return manifest.endpoints[id]?.params.find((p) => p.name === name)
}
