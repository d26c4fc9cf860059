/** The router's text (src/cluster/haproxy.ts): map file and configuration. */
import { describe, expect, it } from 'vitest'
import { backendOf, haproxyConfigText, mapText, type Assignment } from '../../src/cluster/index.js'

const files = { config: '/r/haproxy.cfg', map: '/r/domains.map', socket: '/r/admin.sock' }
const shards = [
  { name: 's1', url: 'http://127.0.0.1:9001' },
  { name: 's2', url: 'http://10.0.0.2' },
]
const a = (shard: string): Assignment => ({ shard, previous: null, state: 'active' })

describe('mapText', () => {
  it('one sorted line per domain: id and its shard backend', () => {
    const text = mapText(
      new Map([
        ['b-2', a('s2')],
        ['a-1', a('s1')],
        ['c-3', a('s1')],
      ]),
    )
    expect(text).toBe('a-1 shard_s1\nb-2 shard_s2\nc-3 shard_s1\n')
    expect(mapText(new Map())).toBe('')
  })
})

describe('haproxyConfigText', () => {
  const text = haproxyConfigText(files, { bind: '127.0.0.1:8080', shards })
  const lines = text.split('\n').map((l) => l.trim())

  it('routes by the percent-decoded, lower-cased domain_id through the map', () => {
    expect(lines).toContain(`use_backend %[url_param(domain_id),url_dec,lower,map(${files.map},any_shard)]`)
    expect(lines).toContain('bind 127.0.0.1:8080')
    expect(lines).toContain('default_backend any_shard')
  })

  it('has one backend per shard and every shard in any_shard, health-checked on /healthz', () => {
    for (const s of shards) expect(lines).toContain(`backend ${backendOf(s.name)}`)
    expect(lines.filter((l) => l.startsWith('server s1 127.0.0.1:9001 check'))).toHaveLength(2)
    expect(lines.filter((l) => l.startsWith('server s2 10.0.0.2:80 check'))).toHaveLength(2)
    expect(lines.filter((l) => l === 'option httpchk GET /healthz')).toHaveLength(3)
  })

  it('sticks MCP sessions to the shard that created them (learnt from the answer, matched on requests)', () => {
    const anyShard = lines.slice(lines.indexOf('backend any_shard'))
    expect(anyShard).toContain('stick match req.hdr(mcp-session-id)')
    expect(anyShard).toContain('stick store-response res.hdr(mcp-session-id)')
    expect(anyShard.some((l) => l.startsWith('stick-table type string len 64'))).toBe(true)
  })

  it('the admin socket and the check timing (HAProxy usual: the interval bounds a check, two failures take a shard down)', () => {
    expect(lines).toContain(`stats socket ${files.socket} mode 600 level admin`)
    expect(
      lines
        .filter((l) => l.startsWith('server '))
        .every((l) => l.endsWith(' check inter 1000 fall 2 rise 1')),
    ).toBe(true)
    expect(lines.some((l) => l.includes('timeout check'))).toBe(false)
    const fast = haproxyConfigText(files, { bind: ':80', shards, checkIntervalMs: 250 })
    expect(fast).toContain('check inter 250 fall 2 rise 1')
  })
})
