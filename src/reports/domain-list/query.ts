/**
 * The domain list (docs/API.md, "GET /api/v1/domains"): the domains a key may read, from the
 * catalog alone.
 */
import { keyReadsDomain } from '../../key-scope.js'
import { formatGeneratedAt } from '../../schemas/payloads.js'
import type { Page } from '../../types.js'
import { compareText } from '../../foundation/compare.js'
import { clockMs, parseParams, type QueryContext } from '../../queries/context.js'
import { listDomainsParamsSchema } from './contract.js'
import type { DomainItem, ListDomainsParams, ListDomainsPayload } from './contract.js'

/** One page holding every item: the shape of a listing that is not paginated. */
function wholePage<T>(items: T[]): Page<T> {
  return { items, total: items.length, page: 1, size: items.length, total_pages: 1 }
}

/** GET /api/v1/domains: the domains the key may read (all without a key), by name then id. */
export async function computeDomainList(
  ctx: QueryContext,
  params: ListDomainsParams = {},
): Promise<ListDomainsPayload> {
  const p = parseParams(listDomainsParamsSchema, params)
  const key = p.key ?? null
  const { catalog } = ctx
  const readable = [...catalog.domains.values()].filter(
    (d) => key === null || keyReadsDomain(key, d, catalog.teams.get(d.team_id)),
  )
  readable.sort((a, b) => compareText(a.brand_name, b.brand_name) || compareText(a.id, b.id))
  const items = readable.map((d): DomainItem => ({
    id: d.id,
    name: d.brand_name,
    website: d.website,
    created_at: d.created_at,
  }))
  return { data: wholePage(items), generated_at: formatGeneratedAt(clockMs(p.now)) }
}
