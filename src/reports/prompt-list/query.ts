/**
 * The prompt list (docs/API.md, "GET /api/v1/prompts"): a domain's prompts page by page, from the
 * catalog alone; `topic` and `tag` keep the prompts with that topic, with that tag.
 */
import { formatGeneratedAt } from '../../schemas/payloads.js'
import { compareText } from '../../foundation/compare.js'
import { clockMs, parseParams, resolveDomain, type QueryContext } from '../../queries/context.js'
import { listPromptsParamsSchema } from './contract.js'
import type { ListPromptsParams, ListPromptsPayload } from './contract.js'

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
  // The listing's filters (docs/API.md, "GET /api/v1/prompts"): the prompt's topic, one of its tags.
  const kept = domain.prompts.filter(
    (x) => (p.topic === undefined || x.topic === p.topic) && (p.tag === undefined || x.tags.includes(p.tag)),
  )
  const all = kept.sort((a, b) => newestFirst(a.created_at, b.created_at) || compareText(a.id, b.id))
  const start = (p.page - 1) * p.size
  const items = all.slice(start, start + p.size).map((x) => ({
    id: x.id,
    text: x.text,
    estimated_search_volume: x.estimated_search_volume,
    created_at: x.created_at,
    topic: x.topic,
    tags: [...x.tags],
  }))
  const data = {
    items,
    total: all.length,
    page: p.page,
    size: p.size,
    total_pages: Math.max(1, Math.ceil(all.length / p.size)),
  }
  const generated_at = formatGeneratedAt(clockMs(p.now))
  const filters = {
    ...(p.topic === undefined ? {} : { topic: p.topic }),
    ...(p.tag === undefined ? {} : { tag: p.tag }),
  }
  return { data, domain_id: domain.id, page: p.page, size: p.size, ...filters, generated_at }
}

/** Later instants first, unknown (null) last. */
function newestFirst(a: string | null, b: string | null): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  return compareText(b, a)
}
