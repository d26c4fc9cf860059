/**
 * Listening and graceful shutdown: on SIGTERM or SIGINT the server stops accepting connections,
 * finishes the requests in flight, then closes the engine (DuckDB). At start, the ingest spool
 * directories left by processes that died during an ingest are removed.
 */
import type { FastifyInstance } from 'fastify'
import { sweepSpoolDirs } from './edge/index.js'
import { buildServer, type BuildServerOptions } from './server.js'

export interface StartServerOptions extends BuildServerOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Close the engine when the server closes (default true). */
  closeEngine?: boolean
  /** Signals that trigger a graceful shutdown (default SIGTERM and SIGINT; [] for none). */
  signals?: NodeJS.Signals[]
  /** Milliseconds to drain before the remaining connections are cut (default 10 000). */
  shutdownTimeoutMs?: number
}

export interface RunningServer {
  app: FastifyInstance
  /** `http://host:port` of the listening socket. */
  url: string
  /** Graceful shutdown (idempotent): stop accepting, drain in-flight requests, close the engine. */
  close(): Promise<void>
  /** Settles once the server and engine are closed (by `close` or a signal). */
  closed: Promise<void>
}

/**
 * Builds the server, listens, and wires graceful shutdown.
 * @example
 * const server = await startServer({ engine, port: 0, signals: [] })
 * await fetch(`${server.url}/healthz`)
 * await server.close()
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const app = await buildServer(options)
  const swept = await sweepSpoolDirs(options.spoolRoot)
  if (swept.length > 0) app.log.info({ removed: swept }, 'removed ingest spool directories of dead processes')
  const signals = options.signals ?? ['SIGTERM', 'SIGINT']
  let closing: Promise<void> | undefined
  let settle: () => void = () => undefined
  const closed = new Promise<void>((resolve) => (settle = resolve))

  const close = (): Promise<void> => {
    closing ??= (async () => {
      for (const signal of signals) process.off(signal, onSignal)
      // Drain, but not forever: after the timeout, cut whatever connections are left.
      const force = setTimeout(() => app.server.closeAllConnections(), options.shutdownTimeoutMs ?? 10_000)
      force.unref()
      try {
        await app.close()
      } finally {
        clearTimeout(force)
        try {
          if (options.closeEngine !== false && options.engine.isOpen) await options.engine.close()
        } finally {
          settle()
        }
      }
    })()
    return closing
  }
  function onSignal(signal: NodeJS.Signals): void {
    app.log.info({ signal }, 'shutting down: draining in-flight requests')
    close().then(
      () => app.log.info('shutdown complete'),
      (error: unknown) => app.log.error({ err: error }, 'shutdown failed'),
    )
  }
  for (const signal of signals) process.once(signal, onSignal)

  try {
    await app.listen({ port: options.port ?? 8787, host: options.host ?? '127.0.0.1' })
  } catch (error) {
    for (const signal of signals) process.off(signal, onSignal)
    await app.close()
    throw error
  }
  const address = app.server.address()
  const url =
    typeof address === 'object' && address !== null
      ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      : String(address)
  return { app, url, close, closed }
}
