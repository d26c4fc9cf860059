/**
 * @module The limits of the HTTP edge (sockets, timeouts, pipelining, header size), their safe
 * defaults for a public port, and the environment variables that change them (docs/HTTP.md).
 */

/** Limits of connections and requests; every field has a default (EDGE_DEFAULTS). */
export interface EdgeOptions {
  /** Milliseconds from the first byte of a request to the end of its headers (VA_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number
  /** Milliseconds from the first byte of a request to the end of its body (VA_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number
  /** Milliseconds a connection may see no traffic in either direction (VA_IDLE_TIMEOUT_MS). */
  idleTimeoutMs: number
  /** Milliseconds an idle keep-alive connection is kept between requests (VA_KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number
  /** Open connections; beyond it the stalest one waiting on its client is closed (VA_MAX_CONNECTIONS). */
  maxConnections: number
  /** Requests served on one connection before it is closed; 0 for no limit (VA_MAX_REQUESTS_PER_SOCKET). */
  maxRequestsPerSocket: number
  /** Requests one connection may have waiting for their answers (VA_MAX_PIPELINED). */
  maxPipelined: number
  /** Bytes of request line and headers (VA_MAX_HEADER_BYTES). */
  maxHeaderBytes: number
}

/**
 * The defaults: safe for a public port.
 * @example
 * buildServer({ engine, edge: { ...EDGE_DEFAULTS, maxConnections: 2000 } })
 */
export const EDGE_DEFAULTS: Readonly<EdgeOptions> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  idleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 512,
  maxRequestsPerSocket: 1_000,
  maxPipelined: 16,
  maxHeaderBytes: 16_384,
})

/** Each option: its environment variable and accepted range. */
const RANGES: Record<keyof EdgeOptions, { env: string; min: number; max: number }> = {
  headersTimeoutMs: { env: 'VA_HEADERS_TIMEOUT_MS', min: 100, max: 600_000 },
  requestTimeoutMs: { env: 'VA_REQUEST_TIMEOUT_MS', min: 100, max: 3_600_000 },
  idleTimeoutMs: { env: 'VA_IDLE_TIMEOUT_MS', min: 100, max: 3_600_000 },
  keepAliveTimeoutMs: { env: 'VA_KEEP_ALIVE_TIMEOUT_MS', min: 100, max: 600_000 },
  maxConnections: { env: 'VA_MAX_CONNECTIONS', min: 1, max: 1_000_000 },
  maxRequestsPerSocket: { env: 'VA_MAX_REQUESTS_PER_SOCKET', min: 0, max: 1_000_000_000 },
  maxPipelined: { env: 'VA_MAX_PIPELINED', min: 1, max: 10_000 },
  maxHeaderBytes: { env: 'VA_MAX_HEADER_BYTES', min: 1_024, max: 1_048_576 },
}

/** Reads one integer variable (the service's own reader, so every variable is checked alike). */
export type ReadInteger = (name: string, fallback: number, min: number, max: number) => number

/**
 * The options from VA_* variables, each defaulted and range-checked by `read`.
 * @example
 * const edge = edgeOptionsFromEnv((name, fallback, min, max) => integer(env, name, fallback, min, max))
 */
export function edgeOptionsFromEnv(read: ReadInteger): EdgeOptions {
  const out = {} as EdgeOptions
  for (const [field, { env, min, max }] of Object.entries(RANGES) as Array<
    [keyof EdgeOptions, (typeof RANGES)[keyof EdgeOptions]]
  >) {
    out[field] = read(env, EDGE_DEFAULTS[field], min, max)
  }
  return resolveEdgeOptions(out)
}

/**
 * The defaults overridden by `given`, checked: integers in range, and the headers timeout no
 * longer than the request timeout. Throws a RangeError naming the variable.
 * @example
 * resolveEdgeOptions({ requestTimeoutMs: 5_000, headersTimeoutMs: 2_000 })
 */
export function resolveEdgeOptions(given: Partial<EdgeOptions> = {}): EdgeOptions {
  const out: EdgeOptions = { ...EDGE_DEFAULTS }
  for (const [field, value] of Object.entries(given) as Array<[keyof EdgeOptions, unknown]>) {
    if (value === undefined) continue
    const range = RANGES[field]
    if (range === undefined) throw new RangeError(`unknown edge option ${String(field)}`)
    if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max)
      throw new RangeError(`${range.env} must be an integer from ${range.min} to ${range.max}.`)
    out[field] = value
  }
  if (out.headersTimeoutMs > out.requestTimeoutMs)
    throw new RangeError('VA_HEADERS_TIMEOUT_MS must not be larger than VA_REQUEST_TIMEOUT_MS.')
  return out
}
