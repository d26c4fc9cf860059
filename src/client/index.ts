/**
 * @module The typed client of the HTTP API (subpath export `visibility-analytics/client`): every
 * operation of the OpenAPI document, typed from it (src/client/openapi.ts, generated at build
 * time by openapi-typescript), called through openapi-fetch; a 429 is retried after its
 * Retry-After (bounded); paged listings are async iterators.
 * @example
 * import { createVisibilityClient } from 'visibility-analytics/client'
 * const client = createVisibilityClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'va_live_...' })
 * const { data } = await client.GET('/api/v1/domains')
 */
import createClient, { type Client } from 'openapi-fetch'
import type { components, operations, paths } from './openapi.js'

export type { components, operations, paths }

export interface VisibilityClientOptions {
  /** Where the service listens, e.g. `http://127.0.0.1:8787`. */
  baseUrl: string
  /** An API key (sent as `Authorization: Bearer <key>`). */
  apiKey: string
  /** Attempts of one request when answered 429 (default 3, at most 10). */
  maxAttempts?: number
  /** Longest wait honoured between two attempts, seconds (default 60). */
  maxRetryAfterSeconds?: number
  /** The fetch to use (default the global fetch). */
  fetch?: typeof globalThis.fetch
}

/** The typed client: openapi-fetch's, JSON bodies. */
export type VisibilityClient = Client<paths, 'application/json'>

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A fetch that retries a 429 after its Retry-After seconds, at most `maxAttempts` attempts in all;
 * the last answer is returned as is (a 429 when every attempt was refused).
 * @example
 * const retrying = retryingFetch(fetch, 3, 60)
 */
export function retryingFetch(
  fetchFn: typeof globalThis.fetch,
  maxAttempts: number,
  maxRetryAfterSeconds: number,
): typeof globalThis.fetch {
  return async (input, init) => {
    for (let attempt = 1; ; attempt += 1) {
      const request = input instanceof Request ? input.clone() : input
      const response = await fetchFn(request, init)
      if (response.status !== 429 || attempt >= maxAttempts) return response
      const seconds = Number(response.headers.get('retry-after'))
      const wait = Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, maxRetryAfterSeconds) : 1
      await response.body?.cancel()
      await sleep(wait * 1000)
    }
  }
}

/**
 * The client for one service and key.
 * @example
 * const client = createVisibilityClient({ baseUrl, apiKey })
 * const { data, error, response } = await client.GET('/api/v1/sentiment/overview', { params: { query: { domain_id } } })
 */
export function createVisibilityClient(options: VisibilityClientOptions): VisibilityClient {
  const maxAttempts = Math.min(10, Math.max(1, Math.trunc(options.maxAttempts ?? 3)))
  const client = createClient<paths, 'application/json'>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(options.fetch ?? globalThis.fetch, maxAttempts, options.maxRetryAfterSeconds ?? 60),
  })
  return client
}

/** An error answer of the API: its status and `detail`. */
export class VisibilityApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`${status}: ${detail}`)
    this.name = 'VisibilityApiError'
  }
}

type PromptsQuery = Omit<NonNullable<operations['listPrompts']['parameters']['query']>, 'page' | 'format'>
type PromptItem = NonNullable<
  operations['listPrompts']['responses'][200]['content']['application/json']
>['data']['items'][number]

/** Pages fetched at most by one iteration (a bound against a server that never ends its pages). */
export const MAX_PAGES = 10_000

/**
 * Every prompt of a domain, page after page (`page` from 1 until `total_pages`), as an async
 * iterator; an error answer is thrown as a VisibilityApiError.
 * @example
 * for await (const prompt of allPrompts(client, { domain_id, size: 100 })) console.log(prompt.text)
 */
export async function* allPrompts(client: VisibilityClient, query: PromptsQuery): AsyncGenerator<PromptItem> {
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const { data, error, response } = await client.GET('/api/v1/prompts', {
      params: { query: { ...query, page } },
    })
    if (data === undefined)
      throw new VisibilityApiError(response.status, (error as { detail?: string } | undefined)?.detail ?? '')
    yield* data.data.items
    if (page >= data.data.total_pages) return
  }
}
