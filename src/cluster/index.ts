/**
 * The multi-node mode (subpath export `visibility-analytics/cluster`): domain shards behind
 * HAProxy with a PostgreSQL control plane (docs/SCALING.md). Nothing here is loaded by a single
 * node; `pg` is imported on first use.
 */
export { ControlPlane, DIRECTORY_CHANNEL, type Assignment, type ShardInfo } from './control-plane.js'
export { KeyDirectory, type DirectoryOptions } from './directory.js'
export {
  ClusterIngestError,
  ControlPlaneUnavailableError,
  DomainMovingError,
  RevokedKeyError,
  WorkDirError,
  type ClusterIngestReport,
} from './errors.js'
export {
  CLUSTER_DETAIL,
  ControlPlaneRateLimiter,
  clusterEngine,
  internalBody,
  payloadDigests,
  shardPlugin,
  REPORT_METHODS,
  type ReportMethod,
} from './shard.js'
export { SHARD_PATHS, shardCall } from './shard-call.js'
export { DOMAIN_READ_METHODS, forwardingEngine, servedBy } from './forward.js'
export { confineDir, openWorkDir } from './work-dir.js'
export { startShard, SHARD_NAME_RE, type ShardOptions } from './serve.js'
export { clusterIngest, ingestRecords } from './ingest.js'
export { moveDomain, type MoveOptions, type MoveReport } from './move.js'
export { rebalance } from './rebalance.js'
export { fleetExport } from './fleet-export.js'
export { clusterReportSource, type ClusterReportSource } from './report-source.js'
export {
  writeHaproxyConfig,
  writeMapFile,
  setRoute,
  haproxyCommand,
  backendOf,
  haproxyConfigText,
  mapText,
  type HaproxyFiles,
} from './haproxy.js'
