/**
 * The key check (docs/API.md, "GET /api/v1/validate"): the key itself (its team, scope and
 * rate-limit state), from the catalog alone.
 */
import { formatGeneratedAt } from '../../schemas/payloads.js'
import { NotFoundError } from '../../errors.js'
import { compareText } from '../../foundation/compare.js'
import { clockMs, parseParams, type QueryContext } from '../../queries/context.js'
import { validateParamsSchema } from './contract.js'
import type { ValidateParams, ValidatePayload } from './contract.js'

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
