/** @module Rebalancing: moves from the fullest shard to the emptiest while that narrows the gap. */
import type { ControlPlane } from './control-plane.js'
import { moveDomain, type MoveOptions, type MoveReport } from './move.js'

/**
 * Moves domains from the fullest shard to the emptiest while that narrows the gap between them.
 * @example
 * const moves = await rebalance(cp, { adminToken, workDir })
 */
export async function rebalance(
  cp: ControlPlane,
  options: MoveOptions & { maxMoves?: number },
): Promise<MoveReport[]> {
  const done: MoveReport[] = []
  for (let i = 0; i < (options.maxMoves ?? 100); i++) {
    const shards = await cp.shards()
    const domains = await cp.domainLoads()
    const load = new Map(shards.map((s) => [s.name, 0]))
    for (const d of domains) load.set(d.shard, (load.get(d.shard) ?? 0) + d.analyses)
    const sorted = [...load.entries()].sort((a, b) => b[1] - a[1])
    const [full, empty] = [sorted[0]!, sorted[sorted.length - 1]!]
    const gap = full[1] - empty[1]
    // The largest domain of the fullest shard that still narrows the gap.
    const candidate = domains
      .filter((d) => d.shard === full[0] && d.analyses > 0 && 2 * d.analyses < gap)
      .sort((a, b) => b.analyses - a.analyses)[0]
    if (candidate === undefined) break
    done.push(await moveDomain(cp, candidate.id, empty[0], options))
  }
  return done
}
