/**
 * @module JSON over HTTP to a shard's internal endpoints, with the admin token: what every
 * cross-shard feature (ingest, moves, the fleet export, the batch report, forwarded reads) sends.
 */
import type { ShardInfo } from './control-plane.js'

/** The shard's internal paths. */
export const SHARD_PATHS = {
  export: '/internal/v1/cluster/export',
  import: '/internal/v1/cluster/import',
  digest: '/internal/v1/cluster/digest',
  drop: '/internal/v1/cluster/drop',
  compute: '/internal/v1/cluster/compute',
  discard: '/internal/v1/cluster/discard',
} as const

/**
 * POSTs `body` to a shard and returns its JSON answer; a refusal throws naming the shard, its
 * status and its `detail`.
 * @example
 * await shardCall(shard, token, SHARD_PATHS.digest, { domain_id, now })
 */
export async function shardCall<T>(
  shard: ShardInfo,
  token: string,
  path: string,
  body: unknown,
  contentType = 'application/json',
): Promise<T> {
  const res = await fetch(new URL(path, shard.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) {
    let detail = text.slice(0, 300)
    try {
      detail = (JSON.parse(text) as { detail?: string }).detail ?? detail
    } catch {
      // not JSON: keep the text
    }
    throw new Error(`shard ${shard.name} answered ${res.status}: ${detail}`)
  }
  return JSON.parse(text) as T
}
