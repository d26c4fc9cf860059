/**
 * The multi-node mode (subpath export `visibility-analytics/cluster`): domain shards behind
 * HAProxy with a PostgreSQL control plane (docs/SCALING.md). Nothing here is loaded by a single
 * node; `pg` is imported on first use.
 */
export { ControlPlane, DIRECTORY_CHANNEL, type Assignment, type ShardInfo } from './control-plane.js'
export { KeyDirectory, ControlPlaneUnavailableError, type DirectoryOptions } from './directory.js'
export {
  CLUSTER_DETAIL,
  ControlPlaneRateLimiter,
  clusterEngine,
  payloadDigests,
  shardPlugin,
  SHARD_PATHS,
  REPORT_METHODS,
  type ReportMethod,
} from './shard.js'
export { startShard, SHARD_NAME_RE, type ShardOptions } from './serve.js'
export {
  clusterIngest,
  ingestRecords,
  moveDomain,
  rebalance,
  fleetExport,
  clusterReportSource,
  type ClusterReportSource,
  shardCall,
  DomainMovingError,
  ClusterIngestError,
  type ClusterIngestReport,
  type MoveOptions,
  type MoveReport,
} from './coordinator.js'
export {
  writeHaproxyConfig,
  writeMapFile,
  setRoute,
  haproxyCommand,
  backendOf,
  mapText,
  type HaproxyFiles,
} from './haproxy.js'
