/**
 * `visibility mcp --db PATH [--now ISO]`: the MCP server over stdio for a local assistant, reading
 * one database read-only with no key (every domain, as `visibility compute` does); `--now` fixes
 * the reports' clock (a dataset of the past, reproducible answers). Runs until the
 * client closes stdin or the process gets SIGTERM or SIGINT; nothing but MCP messages goes to
 * stdout.
 */
import { nowParam } from '../../api/index.js'
import { openEngine } from '../../index.js'
import { serveStdio } from '../../mcp/index.js'
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
  const { values, positionals } = parse<{ db?: string; now?: string }>(argv, {
    db: { type: 'string' },
    now: { type: 'string' },
  })
  if (positionals.length > 0) throw new UsageError(`mcp takes no arguments besides --db and --now`)
  const now = flagValue(nowParam, values.now)
  const engine = await openEngine({ path: required('db', values.db), readOnly: true, hardened: true }).catch(
    (error: unknown) => {
      if (!/Could not set lock on file/i.test(oneLine(error))) throw error
      throw new Error(
        'the database is open in another process (a running visibility serve?): stop it first',
        {
          cause: error,
        },
      )
    },
  )
  try {
    const { close, closed } = await serveStdio(engine, now === undefined ? {} : { now: () => new Date(now) })
    const onSignal = (): void => void close()
    process.once('SIGTERM', onSignal)
    process.once('SIGINT', onSignal)
    await closed
    process.off('SIGTERM', onSignal)
    process.off('SIGINT', onSignal)
  } finally {
    await engine.close()
  }
  return 0
}
