/**
 * Error classes of the engine. Every error has a literal `name` and a stable `code`, so callers
 * (the HTTP layer, the CLI) can map them without parsing messages.
 */

export type VisibilityErrorCode =
  | 'VALIDATION'
  | 'INGEST'
  | 'NOT_FOUND'
  | 'QUERY'
  | 'CLOSED'
  | 'READ_ONLY'
  /** The service's query slots and queue are full (HTTP 503, Retry-After). */
  | 'OVERLOADED'
  /** A mistake in a command line (the CLI exits 2). */
  | 'USAGE'
  /** A CLI command refused its input (the CLI exits with the error's code). */
  | 'COMMAND'
  /** Cluster: a domain is being moved between shards (HTTP 503, Retry-After). */
  | 'DOMAIN_MOVING'
  /** Cluster: an ingest failed on some shards (the others kept their part). */
  | 'CLUSTER_INGEST'
  /** Cluster: the control plane cannot be reached and the shard's cache is too old (HTTP 503). */
  | 'CONTROL_PLANE_UNAVAILABLE'
  /** Cluster: a key revoked after a shard cached it (HTTP 401). */
  | 'KEY_REVOKED'
  /** Cluster: an internal endpoint's directory parameter is outside the shard's work directory (HTTP 400). */
  | 'WORK_DIR'

/**
 * Base class of every error the engine throws on purpose.
 * @example
 * try { await engine.computePromptSeries({ domainId }) } catch (e) { if (isVisibilityError(e)) console.log(e.code) }
 */
export class VisibilityError extends Error {
  override name: string = 'VisibilityError'
  readonly code: VisibilityErrorCode
  constructor(code: VisibilityErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
  }
}

/** One problem with a parameter: `path` names it, `message` says what it accepts. */
export interface ParamIssue {
  path: string
  message: string
}

/**
 * A compute parameter is missing, ill-typed or out of range. `issues[0].message` is a sentence
 * that names the parameter and what it accepts, e.g. `days must be an integer from 1 to 365.`
 * @example
 * await engine.computePromptSeries({ domainId, days: 0 }) // throws ValidationError
 */
export class ValidationError extends VisibilityError {
  override name = 'ValidationError' as const
  readonly issues: ParamIssue[]
  constructor(issues: ParamIssue[], options?: { cause?: unknown }) {
    super('VALIDATION', issues.map((i) => i.message).join(' '), options)
    this.issues = issues
  }
}

/** One bad record: `line` (1-based, files) or `index` (0-based, arrays), the field and the reason. */
export interface RecordIssue {
  line?: number
  index?: number
  field: string
  message: string
}

/**
 * An ingest call was refused; nothing of it was stored. `issues` lists up to 100 bad records.
 * @example
 * try { await engine.ingest(records) } catch (e) { if (isIngestError(e)) console.log(e.issues) }
 */
export class IngestError extends VisibilityError {
  override name = 'IngestError' as const
  readonly issues: RecordIssue[]
  /** How many problems were found in all (issues holds at most 100). */
  readonly total: number
  constructor(issues: RecordIssue[], total = issues.length, options?: { cause?: unknown }) {
    super('INGEST', formatIngestMessage(issues, total), options)
    this.issues = issues
    this.total = total
  }
}

/** Formats an issue location as `line 3` or `record 2`. */
export function issueLocation(issue: RecordIssue): string {
  if (issue.line !== undefined) return `line ${issue.line}`
  if (issue.index !== undefined) return `record ${issue.index}`
  return 'input'
}

function formatIngestMessage(issues: RecordIssue[], total: number): string {
  const head = `ingest refused, nothing stored: ${total} invalid record${total === 1 ? '' : 's'}`
  const lines = issues.map((i) => `${issueLocation(i)}: ${i.field}: ${i.message}`)
  const more = total > issues.length ? [`(and ${total - issues.length} more)`] : []
  return [head, ...lines, ...more].join('\n')
}

/**
 * The domain (or another addressed resource) does not exist.
 * @example
 * await engine.computeSentimentThemes({ domainId: unknownId }) // throws NotFoundError
 */
export class NotFoundError extends VisibilityError {
  override name = 'NotFoundError' as const
  readonly resource: string
  readonly id: string
  constructor(resource: string, id: string) {
    super('NOT_FOUND', `${resource} ${id} not found`)
    this.resource = resource
    this.id = id
  }
}

/** DuckDB failed while running a named query. `cause` holds DuckDB's error; never show it to clients. */
export class QueryError extends VisibilityError {
  override name = 'QueryError' as const
  readonly queryId: string
  constructor(queryId: string, options: { cause: unknown }) {
    super('QUERY', `query ${queryId} failed`, options)
    this.queryId = queryId
  }
}

/** The engine was used after `close()`. */
export class EngineClosedError extends VisibilityError {
  override name = 'EngineClosedError' as const
  constructor() {
    super('CLOSED', 'the engine is closed')
  }
}

/**
 * A write was attempted on an engine opened read-only (or over Parquet), or a file operation on an
 * engine opened for serving (`hardened`).
 */
export class ReadOnlyError extends VisibilityError {
  override name = 'ReadOnlyError' as const
  constructor(what: string, why = 'the engine is read-only') {
    super('READ_ONLY', `${what} is not possible: ${why}`)
  }
}

export const isVisibilityError = (e: unknown): e is VisibilityError => e instanceof VisibilityError
export const isValidationError = (e: unknown): e is ValidationError => e instanceof ValidationError
export const isIngestError = (e: unknown): e is IngestError => e instanceof IngestError
export const isNotFoundError = (e: unknown): e is NotFoundError => e instanceof NotFoundError
export const isQueryError = (e: unknown): e is QueryError => e instanceof QueryError
