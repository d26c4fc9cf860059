/**
 * The endpoint table narrows each row's payload to its parameters: the echo fields of the body a
 * route checks and documents are the parameters' own `echo` schemas, under the body's component
 * name; rows sharing a payload schema share the result only when they echo the same parameters.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineEndpoint } from '../../src/api/endpoints.js'
import { ENDPOINTS, type Endpoint, type Param } from '../../src/api/index.js'
import { daysParam, domainIdParam, limitParam } from '../../src/schemas/params.js'
import { payloadNames } from '../../src/schemas/payloads.js'

const rows = ENDPOINTS as readonly Endpoint[]
const row = (over: Partial<Parameters<typeof defineEndpoint>[0]>) =>
  defineEndpoint({
    id: 'probe',
    path: '/api/v1/probe',
    operationId: 'getProbe',
    summary: 'Probe',
    access: 'series',
    cache: 'series',
    params: { domain_id: domainIdParam },
    payload: z.object({ data: z.object({}), domain_id: z.string(), generated_at: z.string() }),
    method: 'computePromptSeries',
    compute: async () => ({}),
    ...over,
  })

describe('exact payloads of the endpoint table', () => {
  it('every row: each echo field is its parameter echo schema, the body keeps its component name', () => {
    for (const r of rows) {
      const shape = (r.payload as z.ZodObject).shape
      for (const param of Object.values(r.params) as Param[])
        expect(shape[param.name], `${r.id} ${param.name}`).toBe(param.echo)
      expect(z.globalRegistry.get(r.payload)?.id, r.id).toMatch(/Response$/)
    }
  })

  it('narrows a wide echo field: a limit of 1-1000 is not refused by a 1-100 payload field', () => {
    const wide = z.object({ data: z.object({}), limit: z.int().min(1), generated_at: z.string() })
    const thousand = { ...limitParam, echo: z.int().min(1).max(1000) }
    const r = row({ params: { limit: thousand }, payload: wide })
    expect(r.payload.safeParse({ data: {}, limit: 500, generated_at: 'x' }).success).toBe(true)
    expect(r.payload.safeParse({ data: {}, limit: 1001, generated_at: 'x' }).success).toBe(false)
    expect(wide.safeParse({ data: {}, limit: 1001, generated_at: 'x' }).success).toBe(true)
  })

  it('rows sharing a payload schema share the exact payload, unless their parameters differ', () => {
    const shared = z.object({
      data: z.object({}),
      domain_id: z.string(),
      days: z.int(),
      generated_at: z.string(),
    })
    payloadNames.add(shared, { id: 'ProbeResponse' })
    const params = { domain_id: domainIdParam, days: daysParam }
    const week = { ...daysParam, echo: z.int().min(1).max(7) }
    const a = row({ id: 'a', params, payload: shared })
    const b = row({ id: 'b', params, payload: shared })
    expect(b.payload).toBe(a.payload)
    expect(z.globalRegistry.get(a.payload)?.id).toBe('ProbeResponse')
    expect(() => row({ id: 'c', params: { domain_id: domainIdParam, days: week }, payload: shared })).toThrow(
      /shared with other parameters/,
    )
  })
})
