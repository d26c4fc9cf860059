/**
 * The batch report's source in a cluster (src/cluster/report-source.ts): it offers every engine
 * method of the report (derived from the endpoint table's report rows), computes each domain's
 * report on the shard that owns the domain, and reads the directory from any shard.
 */
import { createServer, type Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { methodOf, REPORT_ROWS } from '../../src/api/report-rows.js'
import {
  clusterReportSource,
  REPORT_METHODS,
  SHARD_PATHS,
  type ControlPlane,
} from '../../src/cluster/index.js'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))))
})

/** A shard answering its compute endpoint with its name, the method and the arguments. */
async function fakeShard(name: string, seen: unknown[]): Promise<{ name: string; url: string }> {
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      const { method, args } = JSON.parse(body) as { method: string; args: unknown[] }
      seen.push({ shard: name, url: req.url, auth: req.headers.authorization, method })
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ result: { shard: name, method, args } }))
    })
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { name, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` }
}

describe('the cluster report source', () => {
  it("offers the report rows' methods, each domain computed by its owner, the directory by any shard", async () => {
    const seen: unknown[] = []
    const s1 = await fakeShard('s1', seen)
    const s2 = await fakeShard('s2', seen)
    const owners: Record<string, string> = { 'dom-a': 's1', 'dom-b': 's2' }
    const cp = {
      shards: async () => [s1, s2],
      shard: async (n: string) => (n === 's1' ? s1 : s2),
      assignment: async (id: string) => (id in owners ? { domain_id: id, shard: owners[id]! } : null),
    } as unknown as ControlPlane
    const source = (await clusterReportSource(cp, 'tok')) as unknown as Record<
      string,
      (p?: unknown) => Promise<{ shard: string; method: string; args: unknown[] }>
    >

    expect(Object.keys(source).sort()).toEqual([...REPORT_METHODS].sort())
    for (const row of Object.values(REPORT_ROWS)) expect(REPORT_METHODS).toContain(methodOf(row))

    for (const method of Object.values(REPORT_ROWS).map((row) => methodOf(row))) {
      for (const [domainId, owner] of Object.entries(owners)) {
        const params = { domainId, days: 7 }
        expect(await source[method]!(params), `${method} ${domainId}`).toEqual({
          shard: owner,
          method,
          args: [params],
        })
      }
    }
    expect(await source.getDomain!('dom-b')).toEqual({ shard: 's1', method: 'getDomain', args: ['dom-b'] })
    expect(await source[methodOf('domain-list')]!()).toEqual({
      shard: 's1',
      method: methodOf('domain-list'),
      args: [],
    })
    await expect(source[methodOf(REPORT_ROWS.prompts)]!({ domainId: 'dom-z' })).rejects.toThrow(/dom-z/)
    expect(seen.every((s) => (s as { url: string }).url === SHARD_PATHS.compute)).toBe(true)
    expect(seen.every((s) => (s as { auth: string }).auth === 'Bearer tok')).toBe(true)
  })
})
