/**
 * The cluster's and the CLI's errors are VisibilityErrors with literal names and codes, each
 * mapped to one HTTP answer by src/http/errors.ts; none quotes a file or a cause.
 */
import { describe, expect, it } from 'vitest'
import { CommandError, reportError, UsageError } from '../../src/cli/errors.js'
import {
  CLUSTER_DETAIL,
  ClusterIngestError,
  ControlPlaneUnavailableError,
  DomainMovingError,
  RevokedKeyError,
  WorkDirError,
} from '../../src/cluster/index.js'
import { OverloadedError } from '../../src/http/index.js'
import { toErrorAnswer } from '../../src/http/errors.js'
import { DETAIL } from '../../src/api/index.js'
import { isVisibilityError, VisibilityError } from '../../src/index.js'

const cases = [
  {
    error: new DomainMovingError(['d1']),
    name: 'DomainMovingError',
    code: 'DOMAIN_MOVING',
    answer: {
      status: 503,
      body: { detail: CLUSTER_DETAIL.moving },
      headers: { 'retry-after': '5' },
      fault: false,
    },
  },
  {
    error: new ControlPlaneUnavailableError(new Error('connect ECONNREFUSED 10.0.0.1:5432')),
    name: 'ControlPlaneUnavailableError',
    code: 'CONTROL_PLANE_UNAVAILABLE',
    answer: {
      status: 503,
      body: { detail: CLUSTER_DETAIL.controlPlaneDown },
      headers: { 'retry-after': '5' },
      fault: false,
    },
  },
  {
    error: new RevokedKeyError(),
    name: 'RevokedKeyError',
    code: 'KEY_REVOKED',
    answer: {
      status: 401,
      body: { detail: DETAIL.unauthorized },
      headers: { 'www-authenticate': 'Bearer realm="visibility-analytics"' },
      fault: false,
    },
  },
  {
    error: new ClusterIngestError({
      shards: { s1: { error: 'shard s1 answered 500' }, s2: { stored: {} } },
      assigned: {},
    }),
    name: 'ClusterIngestError',
    code: 'CLUSTER_INGEST',
    answer: { status: 502, body: { detail: CLUSTER_DETAIL.ingestFailed }, fault: true },
  },
  {
    error: new WorkDirError('dir', "must stay inside the shard's work directory"),
    name: 'WorkDirError',
    code: 'WORK_DIR',
    answer: {
      status: 400,
      body: { detail: "dir must stay inside the shard's work directory." },
      fault: false,
    },
  },
  {
    error: new UsageError('--days must be an integer'),
    name: 'UsageError',
    code: 'USAGE',
    answer: { status: 400, body: { detail: '--days must be an integer' }, fault: false },
  },
  {
    error: new CommandError('no API key with id k1', 1),
    name: 'CommandError',
    code: 'COMMAND',
    answer: { status: 400, body: { detail: 'no API key with id k1' }, fault: false },
  },
  {
    error: new OverloadedError(),
    name: 'OverloadedError',
    code: 'OVERLOADED',
    answer: { status: 503, body: { detail: DETAIL.busy }, headers: { 'retry-after': '1' }, fault: false },
  },
] as const

describe('the cluster and CLI errors in the VisibilityError family', () => {
  it.each(cases)('$name: literal name, code, one HTTP answer', ({ error, name, code, answer }) => {
    expect(error).toBeInstanceOf(VisibilityError)
    expect(isVisibilityError(error)).toBe(true)
    expect(error.name).toBe(name)
    expect(error.code).toBe(code)
    expect(toErrorAnswer(error)).toEqual(answer)
    // Wrapped as a cause it is not mistaken for itself (only the error thrown is mapped).
    expect(toErrorAnswer(new Error('wrapper', { cause: error })).status).toBe(500)
  })

  it('the CLI: a usage error exits 2, a command error with its code, a cluster error 1 with its cause', () => {
    const run = (e: unknown) => {
      let out = ''
      const code = reportError(e, { write: (s: string) => ((out += s), true) } as never)
      return { code, out }
    }
    expect(run(new UsageError('bad flag'))).toEqual({
      code: 2,
      out: 'visibility: bad flag (see visibility --help)\n',
    })
    expect(run(new CommandError('--team must be a UUID', 2))).toEqual({
      code: 2,
      out: 'visibility: --team must be a UUID\n',
    })
    expect(run(new DomainMovingError(['d1'])).code).toBe(1)
    expect(run(new ControlPlaneUnavailableError(new Error('ECONNREFUSED'))).out).toBe(
      'visibility: the control plane is unreachable: ECONNREFUSED\n',
    )
  })
})
