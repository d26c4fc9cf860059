/**
 * GET /healthz answers from memory alone (docs/API.md, "GET /healthz"): it asks the engine only
 * whether it is open, never for a query, a lock or a load, so an ingest or a busy read pool can
 * never hold it up.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { API_PATHS, buildServer } from '../../src/http/index.js'
import { openEngine, type Engine } from '../../src/index.js'

describe('GET /healthz', () => {
  const touched: string[] = []
  let watching = false
  let engine: Engine

  afterAll(async () => {
    watching = false
    await engine?.close()
  })

  it('reads nothing of the engine but whether it is open', async () => {
    engine = await openEngine({})
    // Every property the server reads from the engine once the check starts.
    const watched = new Proxy(engine, {
      get(target, name) {
        if (watching) touched.push(String(name))
        const value = Reflect.get(target, name) as unknown
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
      },
    })
    const app = await buildServer({ engine: watched, logger: false })
    await app.ready()
    try {
      watching = true
      const res = await app.inject({ url: API_PATHS.health })
      watching = false
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ status: 'ok', database: 'open' })
      expect(touched).toEqual(['isOpen'])
    } finally {
      watching = false
      await app.close()
    }
  })
})
