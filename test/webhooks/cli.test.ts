/**
 * `visibility webhooks` on a stopped database: create prints the secret alone on stdout, list
 * never shows it, test queues a ping, deliveries lists attempts, delete removes; bad input is a
 * usage error (exit 2) or a refusal naming the field (exit 1), one line on stderr.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { webhooksCommand } from '../../src/cli/commands/webhooks.js'
import { openEngine } from '../../src/index.js'
import { tenantRecords } from '../http/helpers.js'
import { D, T } from './support.js'

let dir: string
let db: string
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'va-webhooks-cli-'))
  db = join(dir, 'db.duckdb')
  const engine = await openEngine({ path: db })
  await engine.ingest(tenantRecords())
  await engine.close()
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((c) => ((out += String(c)), true))
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((c) => ((err += String(c)), true))
  try {
    return { code: await webhooksCommand(argv), out, err }
  } finally {
    o.mockRestore()
    e.mockRestore()
  }
}

describe('visibility webhooks', () => {
  it('creates, lists, pings, shows deliveries and deletes', async () => {
    const created = await cli(
      'create',
      '--db',
      db,
      '--team',
      T.acme,
      '--url',
      'https://93.184.216.34/h',
      '--domain',
      D.acme1,
    )
    expect(created.code).toBe(0)
    expect(created.out).toMatch(/^whsec_[A-Za-z0-9_-]{32}\n$/)
    const listed = await cli('list', '--db', db, '--json')
    expect(listed.code).toBe(0)
    const [sub] = JSON.parse(listed.out) as { id: string; domain_ids: string[] }[]
    expect(sub!.domain_ids).toEqual([D.acme1])
    expect(listed.out).not.toContain('whsec_')
    const table = await cli('list', '--db', db, '--team', T.globex)
    expect(table.out.trim().split('\n')).toHaveLength(1)
    const ping = await cli('test', '--db', db, sub!.id)
    expect(ping.code).toBe(0)
    expect(ping.out).toMatch(/^[0-9a-f-]{36}\n$/)
    expect((await cli('deliveries', '--db', db, sub!.id, '--json')).out.trim()).toBe('[]')
    expect((await cli('delete', '--db', db, sub!.id)).code).toBe(0)
    const again = await cli('delete', '--db', db, sub!.id)
    expect(again).toMatchObject({ code: 1, err: `visibility webhooks: no webhook with id ${sub!.id}\n` })
  })

  it('refuses bad input with one line naming the field', async () => {
    expect((await cli('create', '--db', db, '--url', 'https://93.184.216.34/h')).err).toContain(
      '--team UUID is required',
    )
    const loop = await cli('create', '--db', db, '--team', T.acme, '--url', 'http://127.0.0.1/h')
    expect(loop).toMatchObject({
      code: 1,
      err: 'visibility webhooks: url: the host is a loopback address (127.0.0.1).\n',
    })
    const other = await cli(
      'create',
      '--db',
      db,
      '--team',
      T.acme,
      '--url',
      'https://93.184.216.34/h',
      '--domain',
      D.globex,
    )
    expect(other.err).toContain(`domain_ids: domain ${D.globex} does not belong to team ${T.acme}.`)
    expect((await cli('frobnicate')).code).toBe(2)
    expect((await cli('delete', '--db', db)).code).toBe(2)
    expect((await cli('deliveries', '--db', db, D.acme1, '--limit', '0')).code).toBe(2)
    expect((await cli('--help')).code).toBe(0)
  })
})
