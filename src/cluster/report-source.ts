/** @module The batch report's source: each domain's reports computed by the shard that owns it. */
import type { Engine } from '../index.js'
import type { ControlPlane, ShardInfo } from './control-plane.js'
import { SHARD_PATHS, shardCall } from './shard-call.js'
import { methodOf, REPORT_METHODS, type ReportMethod } from '../internal.js'

/** The engine methods of the batch report, each answered by a shard (see `clusterReportSource`). */
export type ClusterReportSource = Pick<Engine, ReportMethod>

/**
 * What `visibility report --cluster` reads: each domain's reports computed on the shard that owns
 * it (as a trusted local caller, through the admin token); the directory (domains) from any shard,
 * since every shard stores all of it.
 * @example
 * const source = await clusterReportSource(cp, token)
 * const payload = await source.computePromptSeries({ domainId, days: 30 })
 */
export async function clusterReportSource(
  cp: ControlPlane,
  adminToken: string,
): Promise<ClusterReportSource> {
  const shards = await cp.shards()
  if (shards.length === 0) throw new Error('no shard is registered in the control plane')
  const byName = new Map(shards.map((s) => [s.name, s]))
  const call = async (shard: ShardInfo, method: ReportMethod, args: unknown[]): Promise<never> =>
    (await shardCall<{ result: never }>(shard, adminToken, SHARD_PATHS.compute, { method, args })).result
  const ownerOf = async (domainId: string): Promise<ShardInfo> => {
    const a = await cp.assignment(String(domainId).toLowerCase())
    if (a === null) throw new Error(`domain ${domainId} is not in the cluster's directory`)
    return byName.get(a.shard) ?? (await cp.shard(a.shard))
  }
  const byDomain =
    (method: ReportMethod) =>
    async (params: { domainId: string }): Promise<never> =>
      call(await ownerOf(params.domainId), method, [params])
  const anyShard = shards[0]!
  // The directory (the domain list and lookup) from any shard; each report from the domain's owner.
  const directory: Partial<Record<ReportMethod, (...args: never[]) => Promise<never>>> = {
    getDomain: (id: string) => call(anyShard, 'getDomain', [id]),
    [methodOf('domain-list')]: (params?: unknown) =>
      call(anyShard, methodOf('domain-list'), params === undefined ? [] : [params]),
  }
  return Object.fromEntries(
    REPORT_METHODS.map((method) => [method, directory[method] ?? byDomain(method)]),
  ) as unknown as ClusterReportSource
}
