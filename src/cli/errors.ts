/** How the CLI reports failures: one line on stderr, no stack trace, and an exit code. */
import { isIngestError, isVisibilityError, issueLocation, VisibilityError } from '../index.js'

/** A mistake in the command line itself (exit code 2). */
export class UsageError extends VisibilityError {
  override name = 'UsageError' as const
  constructor(message: string, options?: { cause?: unknown }) {
    super('USAGE', message, options)
  }
}

/** A refusal worth one line on stderr, with its exit code (1, or 2 for a bad argument). */
export class CommandError extends VisibilityError {
  override name = 'CommandError' as const
  readonly exitCode: number
  constructor(message: string, exitCode = 1) {
    super('COMMAND', message)
    this.exitCode = exitCode
  }
}

/** Prints `error` as one line (plus the bad records of an ingest) and returns the exit code. */
export function reportError(error: unknown, stream: NodeJS.WritableStream = process.stderr): number {
  if (error instanceof UsageError) {
    stream.write(`visibility: ${error.message} (see visibility --help)\n`)
    return 2
  }
  if (isIngestError(error)) {
    stream.write(
      `visibility: ingest refused, nothing stored: ${error.total} invalid record${error.total === 1 ? '' : 's'}\n`,
    )
    for (const i of error.issues) stream.write(`  ${issueLocation(i)}: ${i.field}: ${i.message}\n`)
    if (error.total > error.issues.length) stream.write(`  (and ${error.total - error.issues.length} more)\n`)
    return 1
  }
  if (error instanceof CommandError) {
    stream.write(`visibility: ${error.message.split('\n')[0]}\n`)
    return error.exitCode
  }
  if (isVisibilityError(error)) {
    const cause = (error as { cause?: unknown }).cause
    const why = cause instanceof Error ? `: ${cause.message.split('\n')[0]}` : ''
    stream.write(`visibility: ${error.message.split('\n')[0]}${why}\n`)
    return 1
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
  stream.write(`visibility: ${message}\n`)
  return 1
}
