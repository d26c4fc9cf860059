/**
 * The README's client example, run by test/client/client.test.ts against a live server:
 * VA_URL=http://127.0.0.1:8787 VA_KEY=va_... npx tsx examples/client.ts
 */
import { allPrompts, createVisibilityClient } from 'visibility-analytics/client'

const client = createVisibilityClient({ baseUrl: process.env.VA_URL!, apiKey: process.env.VA_KEY! })

// Every call is typed from the OpenAPI document: paths, parameters and bodies.
const { data: domains, error } = await client.GET('/api/v1/domains')
if (error) throw new Error(error.detail)
const domain = domains.data.items[0]!

const { data: overview } = await client.GET('/api/v1/sentiment/overview', {
  params: { query: { domain_id: domain.id, days: 30 } },
})
process.stdout.write(`${domain.name}: ${overview?.data.positive_percent}% positive over 30 days\n`)

// Paged listings are async iterators (a 429 is retried after its Retry-After).
let prompts = 0
for await (const prompt of allPrompts(client, { domain_id: domain.id, size: 5 }))
  prompts += prompt.text ? 1 : 0
process.stdout.write(`${prompts} prompts tracked\n`)
