/**
 * @module zod schemas of the operations (docs/API.md, "Operations endpoints"): the admin bodies (a new API key, a prune), the
 * retention age as every transport takes it, and the shapes answered (keys, prune, backup). Each
 * rule is said once here; the library, the HTTP service and the CLI read it from here.
 */
import { z } from 'zod'
import { UUID_RE } from './records.js'

/** The largest retention age (100 years). */
export const MAX_RETAIN_DAYS = 36_500

const ageMustBe = `an integer from 0 to ${MAX_RETAIN_DAYS}`

/**
 * The retention age: `older_than_days` (HTTP, library), `--older-than` (CLI), `VA_RETAIN_DAYS`.
 * @example
 * olderThanDays.value.safeParse(-1).error?.issues[0]?.message // 'older_than_days must be an integer from 0 to 36500.'
 */
export const olderThanDays = {
  name: 'older_than_days',
  flag: 'older-than',
  mustBe: ageMustBe,
  /** The sentence for a bad value, named as the caller named it. */
  message: (name = 'older_than_days') => `${name} must be ${ageMustBe}.`,
  value: z
    .int({ error: `older_than_days must be ${ageMustBe}.` })
    .min(0, { error: `older_than_days must be ${ageMustBe}.` })
    .max(MAX_RETAIN_DAYS, { error: `older_than_days must be ${ageMustBe}.` }),
  /** A decimal string as flags and environment variables carry it; null when it is not one. */
  parseText(text: string): number | null {
    if (!/^[0-9]{1,9}$/.test(text.trim())) return null
    const n = Number(text.trim())
    return n <= MAX_RETAIN_DAYS ? n : null
  },
} as const

/** POST /internal/v1/prune. */
export const pruneBodySchema = z.strictObject(
  { older_than_days: olderThanDays.value },
  { error: 'The body must be a JSON object {"older_than_days": N}.' },
)

const uuid = (name: string) =>
  z.string({ error: `${name} must be a UUID.` }).regex(UUID_RE, { error: `${name} must be a UUID.` })

/** POST /internal/v1/keys: the team of the key, the teams it reads, its domains, a name. */
export const createKeyBodySchema = z.strictObject(
  {
    team_id: uuid('team_id'),
    scope_team_ids: z
      .array(uuid('each of scope_team_ids'), { error: 'scope_team_ids must be an array of UUIDs.' })
      .min(1, { error: 'scope_team_ids must list at least one team.' })
      .max(100, { error: 'scope_team_ids must list at most 100 teams.' })
      .optional(),
    allowed_domains: z
      .array(uuid('each of allowed_domains'), { error: 'allowed_domains must be an array of UUIDs or null.' })
      .max(10_000, { error: 'allowed_domains must list at most 10000 domains.' })
      .nullable()
      .optional(),
    name: z
      .string({ error: 'name must be a string of 1 to 200 characters or null.' })
      .min(1, { error: 'name must be a string of 1 to 200 characters or null.' })
      .max(200, { error: 'name must be a string of 1 to 200 characters or null.' })
      .nullable()
      .optional(),
  },
  { error: 'The body must be a JSON object {"team_id", "scope_team_ids"?, "allowed_domains"?, "name"?}.' },
)
export type CreateKeyBody = z.infer<typeof createKeyBodySchema>

/** An API key as listed (never its secret or hash). */
export const apiKeySchema = z.object({
  id: z.string(),
  prefix: z.string(),
  team_id: z.string(),
  scope_team_ids: z.array(z.string()),
  allowed_domains: z.array(z.string()).nullable(),
  name: z.string().nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
})

/** A new key: the secret (shown once) and the key as listed. */
export const createdKeySchema = apiKeySchema.extend({ key: z.string() })

const count = z.number().int().min(0)

export const pruneResultSchema = z.object({ before: z.string(), deleted: z.record(z.string(), count) })

export const backupResultSchema = z.object({
  dir: z.string(),
  manifest: z.object({
    format: z.literal('visibility-analytics/backup'),
    schema_version: z.number().int(),
    created_at: z.string(),
    domain_ids: z.null(),
    tables: z.record(z.string(), count),
    files: z.record(z.string(), z.object({ bytes: count, sha256: z.string() })),
  }),
})
