/**
 * The endpoint table is the one registry of reports: every report it offers has its golden
 * folder, its reference-model function, its section in docs/API.md and its tool in docs/MCP.md,
 * and the engine answers it under its one name (`compute<Name>`).
 */
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/endpoints.js'
import { DEPRECATED_ENGINE_METHODS, DeprecatedEngineAliases } from '../../src/engine-aliases.js'
import { openEngine } from '../../src/index.js'
import { ReferenceModel } from '../reference/model.js'
import { engineMethodOf, reportNameOf, reports } from '../support/registry.js'

const root = new URL('../../', import.meta.url)
const apiDoc = readFileSync(new URL('docs/API.md', root), 'utf8')
const mcpDoc = readFileSync(new URL('docs/MCP.md', root), 'utf8')
const pascal = (id: string) => id.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase())
const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()

describe('every report of the endpoint table', () => {
  const all = reports()

  it('is found (one report per engine method)', () => {
    expect(all.length).toBeGreaterThan(10)
    expect(all.flatMap((r) => r.rows).length).toBe(ENDPOINTS.length)
  })

  it.each(all.map((r) => [r.name, r] as const))('%s has its golden folder', (name) => {
    expect(existsSync(new URL(`fixtures/cases/${name}/`, root)), `fixtures/cases/${name}/`).toBe(true)
  })

  it.each(all.map((r) => [r.name, r] as const))('%s has its reference-model function', (_name, r) => {
    expect(typeof (ReferenceModel.prototype as unknown as Record<string, unknown>)[r.method]).toBe('function')
  })

  it.each((ENDPOINTS as readonly Endpoint[]).map((e) => [e.id, e] as const))(
    '%s has its docs/API.md section and docs/MCP.md tool',
    (_id, e) => {
      const section = apiDoc.includes(`### GET ${e.path}\n`) || apiDoc.includes(`\`${e.operationId}\``)
      expect(section, `docs/API.md: "### GET ${e.path}" or \`${e.operationId}\``).toBe(true)
      expect(mcpDoc.includes(`\`${snake(e.operationId)}\``), `docs/MCP.md: ${snake(e.operationId)}`).toBe(
        true,
      )
    },
  )

  it.each((ENDPOINTS as readonly Endpoint[]).map((e) => [e.id, e] as const))(
    '%s names the engine method its compute calls',
    (_id, e) => {
      expect(e.method).toBe(engineMethodOf(e))
    },
  )

  it.each((ENDPOINTS as readonly Endpoint[]).map((e) => [e.id, e] as const))(
    '%s is its report folder and its compute<Name> method (a row with `report` names its report)',
    (id, e) => {
      const report = e.report ?? id
      expect(
        existsSync(new URL(`src/reports/${report}/query.ts`, root)),
        `src/reports/${report}/query.ts`,
      ).toBe(true)
      expect(
        existsSync(new URL(`src/reports/${report}/contract.ts`, root)),
        `src/reports/${report}/contract.ts`,
      ).toBe(true)
      expect(e.method).toBe(`compute${pascal(report)}`)
      // Only the brand series rows name another report (one report, `metric` fixed per row).
      if (e.report !== undefined) expect([e.report, e.method]).toEqual(['brand-series', 'computeBrandSeries'])
    },
  )

  it('derives its name from the method', () => {
    expect(reportNameOf('computeSentimentOverview')).toBe('sentiment-overview')
    expect(reportNameOf('computeKeyCheck')).toBe('key-check')
  })
})

describe('deprecated engine method names', () => {
  it('each call their compute<Name> method with the same parameters', async () => {
    const calls: Array<[string, unknown]> = []
    const target = Object.create(DeprecatedEngineAliases.prototype) as Record<string, (p: unknown) => unknown>
    for (const method of Object.values(DEPRECATED_ENGINE_METHODS)) {
      target[method] = (p: unknown) => {
        calls.push([method, p])
        return Promise.resolve(method)
      }
    }
    for (const [old, method] of Object.entries(DEPRECATED_ENGINE_METHODS)) {
      const p = { old }
      await expect(target[old]!(p)).resolves.toBe(method)
      expect(calls.at(-1)).toEqual([method, p])
    }
  })

  it('are offered by openEngine and give the same payload', async () => {
    const engine = await openEngine()
    try {
      for (const [old, method] of Object.entries(DEPRECATED_ENGINE_METHODS)) {
        expect(typeof (engine as unknown as Record<string, unknown>)[old], old).toBe('function')
        expect(typeof (engine as unknown as Record<string, unknown>)[method], method).toBe('function')
      }
      const now = new Date('2025-01-01T00:00:00Z')
      expect(await engine.listDomains({ now })).toEqual(await engine.computeDomainList({ now }))
    } finally {
      await engine.close()
    }
  })
})
