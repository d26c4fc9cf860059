/** Command-line parsing shared by the subcommands (node:util parseArgs, errors as UsageError). */
import { parseArgs, type ParseArgsConfig } from 'node:util'

type Parsed = {
  values: Record<string, string | boolean | Array<string | boolean> | undefined>
  positionals: string[]
}
import { UsageError } from './errors.js'

export function parse<V extends Parsed['values']>(
  argv: string[],
  options: NonNullable<ParseArgsConfig['options']>,
  allowPositionals = true,
): { values: V; positionals: string[] } {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true }) as {
      values: V
      positionals: string[]
    }
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]!)
  }
}

export function required(name: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`)
  return value
}
