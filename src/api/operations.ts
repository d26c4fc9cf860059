/**
 * @module The operations as every transport offers them (HTTP admin endpoints, the CLI): creating
 * an API key with its checks against the store, and the detail messages of their refusals.
 */
import { ValidationError, type CreatedApiKey, type Engine, type ParamIssue } from '../index.js'
import { createKeyBodySchema } from '../schemas/operations.js'

/**
 * Details of the operations endpoints' own refusals.
 * @example
 * reply.code(404).send({ detail: OPERATION_DETAIL.keyNotFound })
 */
export const OPERATION_DETAIL = {
  keyIdMalformed: 'id must be a UUID.',
  keyNotFound: 'No active API key with this id (unknown or already revoked).',
  backupsOff: 'Backups are off: start the server with VA_BACKUP_DIR set to a writable directory.',
} as const

/**
 * Creates an API key from a request body (`{"team_id", "scope_team_ids"?, "allowed_domains"?,
 * "name"?}`): the body's shape first, then the store: the team and every scoped team exist, and
 * each allowed domain belongs to a scoped team. A refusal is a ValidationError naming the field.
 * @example
 * const { key, info } = await createKeyChecked(engine, { team_id: teamId, name: 'reporting' })
 */
export async function createKeyChecked(engine: Engine, body: unknown): Promise<CreatedApiKey> {
  const parsed = createKeyBodySchema.safeParse(body)
  if (!parsed.success) {
    throw new ValidationError(
      parsed.error.issues.map((i) => ({
        path: i.path.join('.') || 'body',
        message: i.code === 'unrecognized_keys' ? `unknown field ${i.keys.join(', ')}.` : i.message,
      })),
    )
  }
  const b = parsed.data
  const teamId = b.team_id.toLowerCase()
  const scope = [...new Set((b.scope_team_ids ?? [teamId]).map((t) => t.toLowerCase()))]
  const allowed =
    b.allowed_domains == null ? null : [...new Set(b.allowed_domains.map((d) => d.toLowerCase()))]
  const issues: ParamIssue[] = []
  if ((await engine.getTeam(teamId)) === null)
    issues.push({ path: 'team_id', message: `team_id: team ${teamId} not found.` })
  for (const t of scope) {
    if ((await engine.getTeam(t)) === null)
      issues.push({ path: 'scope_team_ids', message: `scope_team_ids: team ${t} not found.` })
  }
  for (const d of allowed ?? []) {
    const domain = await engine.getDomain(d)
    if (domain === null)
      issues.push({ path: 'allowed_domains', message: `allowed_domains: domain ${d} not found.` })
    else if (!scope.includes(domain.team_id))
      issues.push({
        path: 'allowed_domains',
        message: `allowed_domains: domain ${d} belongs to team ${domain.team_id}, which the key is not scoped to.`,
      })
  }
  if (issues.length > 0) throw new ValidationError(issues)
  return engine.createApiKey({ teamId, scopeTeamIds: scope, allowedDomains: allowed, name: b.name ?? null })
}
