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

/** An OpenAPI 3.1 document (this service's own, at GET /api/v1/openapi.json). */
export const openApiDocumentSchema = z
  .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) })
  .meta({ id: 'OpenApiDocument' })

/**
 * The body of POST /internal/v1/ingest as documented: NDJSON text. The route hands the body over
 * as a stream (it is spooled to a file, never parsed here), so the check accepts what it is given.
 */
export const ingestBodySchema = z.any().meta({
  type: 'string',
  description: 'NDJSON: one record per line (team, domain, prompt, competitor, theme, analysis).',
})

export const ingestResultSchema = z
  .object({
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
    /** What the call's delete records removed, when it carried any. */
    deleted: z.record(z.string(), count).optional(),
  })
  .meta({ id: 'IngestResult' })

export const ingestErrorSchema = z
  .object({
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
  .meta({ id: 'IngestError' })
