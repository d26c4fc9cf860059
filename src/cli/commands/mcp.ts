/**
 * `visibility mcp --api URL`: the same tools over stdio, each call sent to a running service's REST
 * API (a single node or a cluster's router) with the caller's key from VA_API_KEY.
 *
 * `visibility mcp --db PATH [--now ISO]`: the MCP server over stdio for a local assistant, reading
 * one database read-only with no key (every domain, as `visibility compute` does); `--now` fixes
 * the reports' clock (a dataset of the past, reproducible answers). Runs until the
 * client closes stdin or the process gets SIGTERM or SIGINT; nothing but MCP messages goes to
 * stdout.
 */
import { nowParam } from '../../api/index.js'
import { openEngine } from '../../index.js'
import { envCursorSecret } from '../open.js'
import { serveRemoteStdio, serveStdio } from '../../mcp/index.js'
import { parse, required } from '../args.js'
import { UsageError } from '../errors.js'
import { flagValue } from '../flags.js'
import { oneLine } from './keys.js'

/**
 * Runs `visibility mcp ...` (argv after `mcp`); resolves with the exit code once the client is gone.
 * @example
 * process.exitCode = await mcpCommand(['--db', 'data/demo.duckdb'])
 */
export async function mcpCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse<{ db?: string; now?: string; api?: string }>(argv, {
    db: { type: 'string' },
    now: { type: 'string' },
    api: { type: 'string' },
  })
  if (positionals.length > 0) throw new UsageError(`mcp takes no arguments besides --db and --now, or --api`)
  if (values.api !== undefined) {
    if (values.db !== undefined || values.now !== undefined)
      throw new UsageError('mcp --api URL takes neither --db nor --now (the API decides both)')
    return remoteMcp(values.api)
  }
  const now = flagValue(nowParam, values.now)
  const engine = await openEngine({
    path: required('db', values.db),
    readOnly: true,
    hardened: true,
    ...envCursorSecret(),
  }).catch((error: unknown) => {
    if (!/Could not set lock on file/i.test(oneLine(error))) throw error
    throw new Error('the database is open in another process (a running visibility serve?): stop it first', {
      cause: error,
    })
  })
  try {
    await untilClosed(await serveStdio(engine, now === undefined ? {} : { now: () => new Date(now) }))
  } finally {
    await engine.close()
  }
  return 0
}

/** `visibility mcp --api URL`: every tool answered by the REST API at URL with the key in VA_API_KEY. */
async function remoteMcp(api: string): Promise<number> {
  let url: URL
  try {
    url = new URL(api)
  } catch {
    throw new UsageError(`--api must be an http(s) URL, got ${JSON.stringify(api)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--api must be an http(s) URL, got ${JSON.stringify(api)}`)
  const key = process.env.VA_API_KEY
  if (key === undefined || key.trim() === '')
    throw new UsageError('mcp --api needs the API key in VA_API_KEY')
  await untilClosed(await serveRemoteStdio(url.toString(), key.trim()))
  return 0
}

/** Waits until the client is gone; SIGTERM and SIGINT close the server first. */
async function untilClosed(served: { close(): Promise<void>; closed: Promise<void> }): Promise<void> {
  const onSignal = (): void => void served.close()
  process.once('SIGTERM', onSignal)
  process.once('SIGINT', onSignal)
  await served.closed
  process.off('SIGTERM', onSignal)
  process.off('SIGINT', onSignal)
}
