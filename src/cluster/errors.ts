/**
 * @module The cluster's errors: members of the VisibilityError family (src/errors.ts), each with a
 * literal name and a code, mapped to HTTP answers in one place (src/http/errors.ts).
 */
import { VisibilityError } from '../index.js'

/** Thrown when a call touches a domain being moved (HTTP: 503 with Retry-After). */
export class DomainMovingError extends VisibilityError {
  override name = 'DomainMovingError' as const
  readonly retryAfterSeconds = 5
  readonly domainIds: string[]
  constructor(domainIds: string[]) {
    super(
      'DOMAIN_MOVING',
      `domain ${domainIds.join(', ')} is being moved to another shard; retry in a few seconds`,
    )
    this.domainIds = domainIds
  }
}

/** What one cluster ingest stored where. */
export interface ClusterIngestReport {
  /** Per shard: the shard's ingest result, or its error. */
  shards: Record<string, { stored: Record<string, number> } | { error: string }>
  /** New domains and the shard each was assigned to. */
  assigned: Record<string, string>
}

/** A cluster ingest failed on some shards; `report` says which stored their part. */
export class ClusterIngestError extends VisibilityError {
  override name = 'ClusterIngestError' as const
  readonly report: ClusterIngestReport
  constructor(report: ClusterIngestReport) {
    const failed = Object.entries(report.shards).filter(([, r]) => 'error' in r)
    const stored = Object.keys(report.shards).filter((s) => !failed.some(([f]) => f === s))
    super(
      'CLUSTER_INGEST',
      `ingest failed on ${failed.map(([s, r]) => `${s} (${'error' in r ? r.error : ''})`).join(', ')}; ` +
        `stored on ${stored.join(', ') || 'none'}`,
    )
    this.report = report
  }
}

/** Thrown when the control plane is needed and cannot answer (HTTP: 503 with Retry-After). */
export class ControlPlaneUnavailableError extends VisibilityError {
  override name = 'ControlPlaneUnavailableError' as const
  constructor(cause?: unknown) {
    super('CONTROL_PLANE_UNAVAILABLE', 'the control plane is unreachable', { cause })
  }
}

/** A key revoked after this shard cached it (the control plane's count refused it): HTTP 401. */
export class RevokedKeyError extends VisibilityError {
  override name = 'RevokedKeyError' as const
  constructor() {
    super('KEY_REVOKED', 'the API key was revoked')
  }
}

/**
 * An internal endpoint's directory parameter is refused (outside the work directory, missing,
 * not a directory): HTTP 400 with this message, which names the parameter and never quotes a file.
 */
export class WorkDirError extends VisibilityError {
  override name = 'WorkDirError' as const
  readonly param: string
  constructor(param: string, problem: string) {
    super('WORK_DIR', `${param} ${problem}.`)
    this.param = param
  }
}
