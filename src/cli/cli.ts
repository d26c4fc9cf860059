/**
 * The `visibility` command line: dispatch to the commands of the registry (src/cli/registry.ts),
 * `--help` on every command and subcommand, `--version`. The executable is src/cli/main.ts.
 */
import { readFileSync } from 'node:fs'
import { reportError, UsageError } from './errors.js'
import { COMMANDS, topLevelHelp } from './registry.js'

const HELP_FLAGS = new Set(['--help', '-h'])

/** The package's version, from its package.json (beside dist/ or src/). */
export function packageVersion(): string {
  for (const up of ['../../../', '../../']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(`${up}package.json`, import.meta.url), 'utf8')) as {
        name?: string
        version?: string
      }
      if (pkg.name === 'visibility-analytics' && pkg.version !== undefined) return pkg.version
    } catch {
      // not at this level
    }
  }
  return 'unknown'
}

/**
 * The help `argv` asks for (`--help` or `-h` anywhere before `--`, or `help COMMAND [SUB]`): the
 * command's, or its subcommand's when the first argument names one; undefined when none is asked.
 */
function helpFor(name: string, rest: string[]): string | undefined {
  const command = COMMANDS.get(name)
  if (command === undefined) return undefined
  const args = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest
  if (!args.some((a) => HELP_FLAGS.has(a)) && args[0] !== 'help') return undefined
  const sub = args.find((a) => !a.startsWith('-') && a !== 'help')
  const subHelp = sub === undefined ? undefined : command.subcommands?.get(sub)
  return subHelp === undefined ? command.help() : subHelp()
}

/**
 * Runs `visibility ARGV...`; resolves with the exit code.
 * @example
 * process.exitCode = await main(['compute', 'prompt-series', '--help'])
 */
export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv
  if (first === undefined) {
    process.stderr.write(topLevelHelp())
    return 2
  }
  if (HELP_FLAGS.has(first) || (first === 'help' && rest.length === 0)) {
    process.stdout.write(topLevelHelp())
    return 0
  }
  if (first === '--version' || first === '-V') {
    process.stdout.write(`${packageVersion()}\n`)
    return 0
  }
  // `visibility help compute prompts` = `visibility compute prompts --help`
  const [name, args] = first === 'help' ? [rest[0]!, [...rest.slice(1), '--help']] : [first, rest]
  try {
    const command = COMMANDS.get(name)
    if (command === undefined) throw new UsageError(`unknown command ${JSON.stringify(name)}`)
    const help = helpFor(name, args)
    if (help !== undefined) {
      process.stdout.write(help.endsWith('\n') ? help : `${help}\n`)
      return 0
    }
    return await command.run(args)
  } catch (e) {
    return reportError(e)
  }
}
