/**
 * `visibility keys` in-process, and `visibility serve --demo` as a child process on 127.0.0.1:
 * it seeds the demo dataset and prints a key and a curl per endpoint of the table, each of which
 * answers with data.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ENDPOINTS } from '../../src/api/index.js'
import { keysCommand } from '../../src/cli/commands/keys.js'
import { demoDomainId } from '../../src/demo/index.js'
import { openEngine } from '../../src/index.js'
import { D, T, tenantRecords } from './helpers.js'

const ROOT = new URL('../../', import.meta.url).pathname

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true))
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true))
  try {
    const code = await keysCommand(argv)
    return { code, out, err }
  } finally {
    o.mockRestore()
    e.mockRestore()
  }
}

describe('visibility keys', () => {
  let dir: string
  let db: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'va-keys-'))
    db = join(dir, 'keys.duckdb')
    const engine = await openEngine({ path: db })
    await engine.ingest(tenantRecords())
    await engine.close()
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('create prints the key once on stdout; list shows it without the secret; revoke revokes it', async () => {
    const created = await run([
      'create',
      '--db',
      db,
      '--team',
      T.acme.toUpperCase(),
      '--scope-team',
      T.acme,
      '--scope-team',
      T.free,
      '--allow-domain',
      D.acme1,
      '--allow-domain',
      D.free,
      '--name',
      'ci',
    ])
    expect(created.code).toBe(0)
    const key = created.out.trim()
    expect(key).toMatch(/^va_live_[A-Za-z0-9_-]{20,}$/)
    expect(created.err).toMatch(/Created API key [0-9a-f-]{36} .*not shown again/)
    expect(created.err).not.toContain(key)

    const listed = await run(['list', '--db', db, '--json'])
    expect(listed.code).toBe(0)
    expect(listed.out).not.toContain(key)
    const [info] = JSON.parse(listed.out) as Array<{
      id: string
      team_id: string
      scope_team_ids: string[]
      allowed_domains: string[]
      name: string
      revoked_at: null
    }>
    expect(info).toMatchObject({
      team_id: T.acme,
      scope_team_ids: [T.acme, T.free],
      allowed_domains: [D.acme1, D.free],
      name: 'ci',
      revoked_at: null,
    })
    const table = await run(['list', '--db', db])
    expect(table.out.split('\n')[0]).toMatch(/^ID\s+PREFIX\s+TEAM/)
    expect(table.out).toContain(info!.id)

    const revoked = await run(['revoke', '--db', db, info!.id])
    expect(revoked.code).toBe(0)
    const engine = await openEngine({ path: db })
    expect(await engine.verifyApiKey(key)).toBeNull()
    expect((await engine.listApiKeys())[0]!.revoked_at).not.toBeNull()
    await engine.close()
  })

  it('errors are one line on stderr with exit code 1 (or 2 for usage), never a stack trace', async () => {
    const cases: Array<[string[], number, RegExp]> = [
      [['create', '--db', db], 2, /--team UUID is required/],
      [['create', '--db', db, '--team', 'nope'], 2, /--team must be a UUID/],
      [['create', '--db', db, '--team', '10000000-0000-4000-8000-0000000000ff'], 1, /team .* not found/],
      [['create', '--db', db, '--team', T.acme, '--allow-domain', D.globex], 1, /not scoped to/],
      [['create', '--team', T.acme], 2, /--db PATH or --server URL is required/],
      [['create', '--db', db, '--team', T.acme, '--bogus'], 2, /bogus/],
      [['revoke', '--db', db, '10000000-0000-4000-8000-0000000000ff'], 1, /no API key with id/],
      [['revoke', '--db', db], 2, /exactly one KEY_ID/],
      [['frobnicate'], 2, /unknown keys command/],
      [[], 2, /usage/i],
    ]
    for (const [argv, code, message] of cases) {
      const res = await run(argv)
      expect(res.code, argv.join(' ')).toBe(code)
      expect(res.err, argv.join(' ')).toMatch(message)
      if (argv.length > 0) expect(res.err.trim().split('\n'), argv.join(' ')).toHaveLength(1)
      expect(res.err).not.toMatch(/\n\s+at /)
      expect(res.out).toBe('')
    }
  })
})

describe('visibility serve --demo', () => {
  it('seeds, prints a demo key and curls, serves them, and shuts down cleanly on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'va-serve-'))
    const db = join(dir, 'demo.duckdb')
    await writeFile(join(dir, '.keep'), '')
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'serve', '--demo', '--db', db, '--port', '0'],
      {
        cwd: ROOT,
        env: { ...process.env, VA_LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let err = ''
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    try {
      const deadline = Date.now() + 30_000
      while (
        !/curl -s "http:\/\/127\.0\.0\.1:\d+\/api\/v1\/openapi\.json"/.test(err) &&
        Date.now() < deadline
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const key = /Demo API key(?: \(new\))?: (\S+)/.exec(err)?.[1]
      expect(key, err).toMatch(/^va_live_/)
      // The dashboard's address carries the key in its fragment (never sent to the server).
      const dashboard = new URL(/Dashboard: (\S+)/.exec(err)?.[1] ?? '')
      expect(new URLSearchParams(dashboard.hash.slice(1)).get('key')).toBe(key)
      expect((await fetch(dashboard)).headers.get('content-type')).toMatch(/^text\/html/)
      const curls = [...err.matchAll(/curl -i -H "Authorization: Bearer \S+" "(\S+)"/g)].map((m) => m[1]!)
      // One per row of the table, then a weekly series (answered like the others below).
      expect(curls.map((url) => new URL(url).pathname)).toEqual([
        ...ENDPOINTS.map((e) => e.path),
        ENDPOINTS.find((e) => 'granularity' in e.params)!.path,
      ])
      expect(new URL(curls.at(-1)!).searchParams.get('granularity')).toBe('week')
      for (const url of curls) {
        const domainId = new URL(url).searchParams.get('domain_id')
        if (domainId !== null) expect(domainId).toBe(demoDomainId(0))
        const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } })
        expect(res.status, url).toBe(200)
        const body = (await res.json()) as { data: Record<string, unknown> }
        const lists = Object.values(body.data).filter((v) => Array.isArray(v))
        for (const list of lists) expect(list.length, url).toBeGreaterThan(0)
        if (lists.length === 0)
          expect(
            Object.values(body.data).some((v) => v !== 0),
            url,
          ).toBe(true)
      }
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      await rm(dir, { recursive: true, force: true })
    }
  })
})
