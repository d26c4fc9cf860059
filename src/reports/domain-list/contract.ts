/**
 * @module The contract of the domains listing (docs/API.md, "GET /api/v1/domains"): its library
 * parameters' schema, its payload schema and their public types.
 */
import { z } from 'zod'
import { keyScopeSchema, nowParam } from '../../schemas/params.js'
import { envelope, page, timestamp, type Expect, type Same, uuid } from '../../schemas/payloads.js'
import type { Clock, KeyScope, Page } from '../../types.js'

/** The library form of the domains listing's parameters: whose domains (a key's scope, or every one). */
export const listDomainsParamsSchema = z.strictObject({
  key: keyScopeSchema.nullable().optional(),
  now: nowParam.value,
})

/**
 * The domains listing body: the domains a key can read, as one page.
 * @example
 * domainsPayloadSchema.parse(await engine.computeDomainList({ key }))
 */
export const domainsPayloadSchema = envelope(
  'DomainsResponse',
  page(
    z.object({
      id: uuid,
      name: z.string(),
      website: z.string().nullable(),
      created_at: timestamp.nullable(),
    }),
  ),
  {},
)

export interface ListDomainsParams {
  /** Whose domains: omitted or null lists every domain (a local, trusted reader). */
  key?: KeyScope | null
  now?: Clock
}

export interface DomainItem {
  id: string
  name: string
  website: string | null
  /** ISO 8601 UTC with milliseconds, or null. */
  created_at: string | null
}

export interface ListDomainsPayload {
  data: Page<DomainItem>
  generated_at: string
}

// The payload schema and the public payload type describe the same JSON.
type _PayloadTypeMatches = Expect<Same<z.output<typeof domainsPayloadSchema>, ListDomainsPayload>>

/** The domains listing: `{ data: { items, total, page, size, total_pages }, generated_at }`. */
export type DomainsPayload = z.output<typeof domainsPayloadSchema>
