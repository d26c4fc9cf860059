/**
 * The CLI's client of a running server's admin endpoints (`--server URL`): JSON over HTTP with the
 * admin token of VA_ADMIN_TOKEN as a bearer token. The token is only ever sent, never printed.
 */
import { openEngine, type Engine } from '../index.js'
import { CommandError } from './errors.js'

export interface AdminClient {
  /** Sends one request and returns the JSON answer; a status >= 400 is an error with the server's `detail`. */
  request<T>(method: string, path: string, body?: unknown): Promise<T>
  /** The same, answering null for the statuses in `nullOn` (e.g. 404). */
  requestOrNull<T>(method: string, path: string, nullOn: number[]): Promise<T | null>
}

/**
 * @example
 * const client = adminClient('http://127.0.0.1:8787', process.env.VA_ADMIN_TOKEN, (m) => new UsageError(m))
 * const { items } = await client.request('GET', '/internal/v1/keys')
 */
export function adminClient(
  server: string,
  token: string | undefined,
  usageError: (message: string) => Error,
): AdminClient {
  let base: URL
  try {
    base = new URL(server)
  } catch {
    throw usageError(`--server must be a URL such as http://127.0.0.1:8787, got "${server}"`)
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw usageError(`--server must be an http:// or https:// URL, got "${server}"`)
  if (token === undefined || token === '')
    throw usageError("--server needs the server's admin token in VA_ADMIN_TOKEN")
  const send = async <T>(
    method: string,
    path: string,
    body: unknown,
    nullOn: number[],
  ): Promise<T | null> => {
    const url = new URL(path, base)
    let res: Response
    try {
      res = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause
      throw new Error(`cannot reach ${base.origin}: ${cause?.code ?? cause?.message ?? String(e)}`)
    }
    const text = await res.text()
    if (nullOn.includes(res.status)) return null
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new Error(`${base.origin} answered ${res.status} with a body that is not JSON`)
    }
    if (!res.ok) {
      const detail = (json as { detail?: unknown }).detail
      throw new Error(
        `${base.origin} answered ${res.status}: ${typeof detail === 'string' ? detail : text.slice(0, 200)}`,
      )
    }
    return json as T
  }
  return {
    request: async <T>(method: string, path: string, body?: unknown) =>
      (await send<T>(method, path, body, []))!,
    requestOrNull: <T>(method: string, path: string, nullOn: number[]) =>
      send<T>(method, path, undefined, nullOn),
  }
}

/** The `--db PATH | --server URL` choice of the admin commands (keys, webhooks). */
export interface AdminTarget {
  db?: string | undefined
  server?: string | undefined
}

/**
 * Runs `run` on the store an admin command names: the running server's admin endpoints
 * (`--server`) or the stopped database file (`--db`, opened and closed here). Exactly one is required.
 */
export async function withAdminStore<S, T>(
  target: AdminTarget,
  stores: { server: (client: AdminClient) => S; db: (engine: Engine) => S },
  run: (store: S) => Promise<T>,
): Promise<T> {
  if (target.db !== undefined && target.server !== undefined)
    throw new CommandError('give either --db PATH or --server URL, not both', 2)
  if (target.server !== undefined && target.server !== '')
    return run(
      stores.server(adminClient(target.server, process.env.VA_ADMIN_TOKEN, (m) => new CommandError(m, 2))),
    )
  if (target.db === undefined || target.db === '')
    throw new CommandError('--db PATH or --server URL is required', 2)
  const engine = await openEngine({ path: target.db })
  try {
    return await run(stores.db(engine))
  } finally {
    await engine.close()
  }
}
