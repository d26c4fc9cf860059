/**
 * The listings: extensions.md section 3. The key check (`validate`), the domains a key may read
 * (`listDomains`) and a domain's prompts page by page (`listPrompts`), from the catalog alone.
 */
import { keyReadsDomain } from '../key-scope.js'
import { listDomainsParamsSchema, listPromptsParamsSchema, validateParamsSchema } from '../schemas/params.js'
import { formatGeneratedAt } from '../schemas/payloads.js'
import { NotFoundError } from '../errors.js'
import type {
  DomainItem,
  ListDomainsParams,
  ListDomainsPayload,
  ListPromptsParams,
  ListPromptsPayload,
  Page,
  ValidateParams,
  ValidatePayload,
} from '../types.js'
import { compareText } from '../foundation/compare.js'
import { clockMs, parseParams, resolveDomain, type QueryContext } from './context.js'

/** Lower-cased, distinct, in UTF-16 order. */
const sortedIds = (ids: readonly string[]): string[] =>
  [...new Set(ids.map((id) => id.toLowerCase()))].sort(compareText)

/** GET /api/v1/validate: the key's team and scope, and its rate-limit window after this request. */
export async function computeKeyCheck(ctx: QueryContext, params: ValidateParams): Promise<ValidatePayload> {
  const p = parseParams(validateParamsSchema, params)
  const teamId = p.key.teamId.toLowerCase()
  const team = ctx.catalog.teams.get(teamId)
  if (team === undefined) throw new NotFoundError('team', teamId)
  const { limitPerMinute, used, resetAt } = p.rateLimit
  return {
    data: {
      team_id: team.id,
      team_name: team.name,
      plan: team.plan,
      developer_access: team.developer_access,
      scoped_team_ids: sortedIds(p.key.scopeTeamIds),
      allowed_domains: p.key.allowedDomains === null ? null : sortedIds(p.key.allowedDomains),
      rate_limit: {
        limit_per_minute: limitPerMinute,
        remaining: Math.max(0, limitPerMinute - used),
        reset_at: formatGeneratedAt(clockMs(resetAt)),
      },
    },
    generated_at: formatGeneratedAt(clockMs(p.now)),
  }
}

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

/**
 * GET /api/v1/prompts: the domain's prompts newest first by `created_at` (an instant: stored
 * timestamps are ISO 8601 UTC strings of one width, so text order is time order), unknown last,
 * then by id; page `page` of `size`.
 */
export async function computePromptList(
  ctx: QueryContext,
  params: ListPromptsParams,
): Promise<ListPromptsPayload> {
  const p = parseParams(listPromptsParamsSchema, params)
  const domain = resolveDomain(ctx.catalog, p.domainId)
  const all = [...domain.prompts].sort(
    (a, b) => newestFirst(a.created_at, b.created_at) || compareText(a.id, b.id),
  )
  const start = (p.page - 1) * p.size
  const items = all.slice(start, start + p.size).map((x) => ({
    id: x.id,
    text: x.text,
    estimated_search_volume: x.estimated_search_volume,
    created_at: x.created_at,
  }))
  const data = {
    items,
    total: all.length,
    page: p.page,
    size: p.size,
    total_pages: Math.max(1, Math.ceil(all.length / p.size)),
  }
  const generated_at = formatGeneratedAt(clockMs(p.now))
  return { data, domain_id: domain.id, page: p.page, size: p.size, generated_at }
}

/** Later instants first, unknown (null) last. */
function newestFirst(a: string | null, b: string | null): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  return compareText(b, a)
}
