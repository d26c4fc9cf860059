/**
 * @module zod schemas of the HTTP service's own bodies: errors, health and the internal ingest
 * endpoint. Parameters and report payloads are the API's (src/api), shared with every transport.
 */
import { z } from 'zod'

const count = z.number().int().min(0)

export const errorSchema = z.object({ detail: z.string() }).meta({ id: 'Error' })

export const healthSchema = z
  .object({ status: z.enum(['ok', 'unavailable']), database: z.enum(['open', 'closed']) })
  .meta({ id: 'Health' })

export const ingestResultSchema = z.object({
  teams: count,
  domains: count,
  prompts: count,
  competitors: count,
  themes: count,
  analyses: count,
  mentions: count,
  citations: count,
  theme_occurrences: count,
  fanout_queries: count,
})

export const ingestErrorSchema = z.object({
  detail: z.string(),
  issues: z.array(
    z.object({
      line: z.number().int().optional(),
      index: z.number().int().optional(),
      field: z.string(),
      message: z.string(),
    }),
  ),
  total: count,
})
