import { z } from 'zod'
import { validatorCompiler } from 'fastify-type-provider-zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rememberingQueries } from '../../src/http/validation.js'
import { acmeServer, bearer, D, ENDPOINTS } from './helpers.js'

const schema = z.object({
  days: z.coerce.number().int().min(1).max(365).default(30),
  model: z.string().default('all'),
})

/** zod's compiled validator of `schema`, counting its runs. */
function counted() {
  const inner = validatorCompiler({ schema, method: 'GET', url: '/x', httpPart: 'querystring' }) as (
    data: unknown,
  ) => { value?: unknown; error?: unknown }
  const runs = { n: 0 }
  const validate = (data: unknown) => {
    runs.n += 1
    return inner(data) as ReturnType<Parameters<typeof rememberingQueries>[0]>
  }
  return { validate, runs }
}

describe('remembered query validation', () => {
  it('validates a query string once, then answers the same frozen values', () => {
    const { validate, runs } = counted()
    const check = rememberingQueries(validate)
    const first = check({ days: '7' })
    const again = check({ days: '7' })
    expect(first.value).toEqual({ days: 7, model: 'all' })
    expect(again.value).toBe(first.value)
    expect(Object.isFrozen(first.value)).toBe(true)
    expect(runs.n).toBe(1)
  })

  it('keys by the whole parsed query: any other name or value is validated on its own', () => {
    const { validate, runs } = counted()
    const check = rememberingQueries(validate)
    check({ days: '7' })
    expect(check({ days: '8' }).value).toEqual({ days: 8, model: 'all' })
    expect(check({ days: '7', model: 'gemini' }).value).toEqual({ days: 7, model: 'gemini' })
    expect(check({ days: ['7', '8'] }).error).toBeDefined()
    expect(check({ days: '7,8' }).error).toBeDefined()
    expect(runs.n).toBe(5)
  })

  it('never remembers an invalid query (each one is validated again), and stays bounded', () => {
    const { validate, runs } = counted()
    const check = rememberingQueries(validate, 2)
    expect(check({ days: '0' }).error).toBeDefined()
    expect(check({ days: '0' }).error).toBeDefined()
    expect(runs.n).toBe(2)
    check({ days: '1' })
    check({ days: '2' })
    check({ days: '3' }) // the third pushes out the least recently used, days=1
    check({ days: '1' })
    expect(runs.n).toBe(6)
  })
})

describe('remembered query validation, served', () => {
  let server: Awaited<ReturnType<typeof acmeServer>>
  beforeAll(async () => {
    server = await acmeServer([], Date.parse('2025-03-12T12:00:00Z'))
  })
  afterAll(async () => server.close())

  it('answers a repeated query from its own values, and its errors every time', async () => {
    const get = (query: string) =>
      server.app.inject({ url: `${ENDPOINTS.overview}?${query}`, headers: bearer(server.key) })
    const seven = await get(`domain_id=${D.acme1}&days=7`)
    const thirty = await get(`domain_id=${D.acme1}&days=30`)
    expect(seven.statusCode).toBe(200)
    expect(thirty.statusCode).toBe(200)
    expect(seven.body).not.toBe(thirty.body)
    for (const [query, body] of [
      [`domain_id=${D.acme1}&days=7`, seven.body],
      [`days=7&domain_id=${D.acme1}`, seven.body],
      [`domain_id=${D.acme1}&days=30`, thirty.body],
    ] as const) {
      const res = await get(query)
      expect(res.statusCode).toBe(200)
      expect(res.headers['x-cache']).toBe('HIT')
      expect(res.body).toBe(body)
    }
    for (let i = 0; i < 2; i++) {
      const bad = await get(`domain_id=${D.acme1}&days=0`)
      expect(bad.statusCode).toBe(400)
      expect(JSON.parse(bad.body)).toHaveProperty('detail')
    }
  })
})
