/**
 * @module The local MCP server (`visibility mcp --db PATH`): the generated tools over stdio, read
 * from one engine with no key, as a trusted local caller (the CLI's `compute` rights: every
 * domain, no rate limit, no plan check).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { DETAIL } from '../api/index.js'
import { isValidationError, isVisibilityError, type Engine } from '../index.js'
import { createMcpServer, type ToolBackend, type ToolOutcome } from './server.js'
import { LOCAL_TOOLS } from './tools.js'

/** The detail of a failed local call: the engine's own sentence, never DuckDB text. */
function localDetail(error: unknown): string {
  if (isValidationError(error)) return error.issues[0]?.message ?? error.message
  if (isVisibilityError(error)) return error.message.split('\n')[0] ?? DETAIL.internal
  return DETAIL.internal
}

/**
 * A backend that computes every call on `engine` as a local caller.
 * @example
 * const server = createMcpServer(localBackend(engine, options.now))
 */
export function localBackend(engine: Engine, now: () => Date = () => new Date()): ToolBackend {
  return {
    async call(tool, args): Promise<ToolOutcome> {
      const { endpoint } = tool
      try {
        const payload = await endpoint.compute(engine, args as never, { now: now(), caller: null })
        return { payload: endpoint.payload.parse(payload) }
      } catch (error) {
        return { detail: localDetail(error) }
      }
    },
  }
}

/** Where the stdio server reads and writes (default: the process's stdin and stdout), and its clock. */
export interface StdioOptions {
  stdin?: NodeJS.ReadableStream
  stdout?: NodeJS.WritableStream
  /** The reports' clock: today is the UTC date of its time (default: the current time). */
  now?: () => Date
}

/**
 * Serves the tools of `engine` over stdio until the input ends or `close()` is called. The engine
 * stays open (the caller closes it after `closed` settles).
 * @example
 * const { closed } = await serveStdio(engine)
 * await closed
 * await engine.close()
 */
export async function serveStdio(
  engine: Engine,
  options: StdioOptions = {},
): Promise<{ server: Server; close(): Promise<void>; closed: Promise<void> }> {
  return connectStdio(createMcpServer(localBackend(engine, options.now), LOCAL_TOOLS), options)
}

/**
 * Connects an MCP server to stdio (or the given streams) until the input ends or `close()` is called.
 * @example
 * const { closed } = await connectStdio(createMcpServer(backend))
 */
export async function connectStdio(
  server: Server,
  options: Pick<StdioOptions, 'stdin' | 'stdout'> = {},
): Promise<{ server: Server; close(): Promise<void>; closed: Promise<void> }> {
  const stdin = (options.stdin ?? process.stdin) as NodeJS.ReadableStream & NodeJS.EventEmitter
  const transport = new StdioServerTransport(
    stdin as typeof process.stdin,
    (options.stdout ?? process.stdout) as typeof process.stdout,
  )
  let settle: () => void = () => undefined
  const closed = new Promise<void>((resolve) => (settle = resolve))
  server.onclose = () => settle()
  const close = async (): Promise<void> => {
    stdin.off('end', onEnd)
    await server.close()
    settle()
  }
  const onEnd = (): void => void close()
  stdin.once('end', onEnd)
  await server.connect(transport)
  return { server, close, closed }
}
