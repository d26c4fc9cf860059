/**
 * The operations from the command line: `visibility keys ... --server URL` against a running
 * server (in this process, on 127.0.0.1), `--db` still working on a stopped database, and
 * `visibility prune|backup|restore` (in-process, through main()), with their bad input.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { keysCommand } from '../../src/cli/commands/keys.js'
import { serveCommand } from '../../src/cli/commands/serve.js'
import { backupCommand, pruneCommand, restoreCommand } from '../../src/cli/commands/operations.js'
import { reportError } from '../../src/cli/errors.js'
import { startServer, type RunningServer } from '../../src/http/index.js'
import { openEngine, type Engine } from '../../src/index.js'
import { analysis, prompt } from '../support/records.js'
import { ADMIN_TOKEN, D, T, tenantRecords } from './helpers.js'

const PROMPT_ID = '30000000-0000-4000-8000-0000000000a1'
const records = () => [
  ...tenantRecords(),
  prompt({ id: PROMPT_ID, domain_id: D.acme1 }),
  analysis({
    domain_id: D.acme1,
    prompt_id: PROMPT_ID,
    answered_at: '2020-01-01T00:00:00Z',
    mentions: [],
    themes: [],
  }),
  analysis({
    domain_id: D.acme1,
    prompt_id: PROMPT_ID,
    answered_at: new Date().toISOString(),
    mentions: [],
    themes: [],
  }),
]

/** Runs a command in-process, capturing its output; errors are reported as main() reports them. */
async function run(
  command: (argv: string[]) => Promise<number>,
  argv: string[],
  env: Record<string, string | undefined> = {},
) {
  let out = ''
  let err = ''
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]))
  for (const [k, v] of Object.entries(env))
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true))
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true))
  try {
    let code: number
    try {
      code = await command(argv)
    } catch (error) {
      code = reportError(error)
    }
    return { code, out, err }
  } finally {
    o.mockRestore()
    e.mockRestore()
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
  }
}

describe('visibility keys --server', () => {
  let engine: Engine
  let server: RunningServer
  const env = { VA_ADMIN_TOKEN: ADMIN_TOKEN }
  beforeAll(async () => {
    engine = await openEngine()
    await engine.ingest(tenantRecords())
    server = await startServer({
      engine,
      port: 0,
      signals: [],
      logger: false,
      adminToken: ADMIN_TOKEN,
      backupDir: mkdtempSync(join(tmpdir(), 'va-cli-backups-')),
    })
  })
  afterAll(() => server.close())

  it('create, list and revoke on a running server: the key works at once and is refused right after revoke', async () => {
    const created = await run(
      keysCommand,
      ['create', '--server', server.url, '--team', T.acme, '--name', 'live'],
      env,
    )
    expect(created.code, created.err).toBe(0)
    const key = created.out.trim()
    expect(key).toMatch(/^va_live_/)
    expect(created.err).not.toContain(key)
    const report = () =>
      fetch(`${server.url}/api/v1/prompt-statistics-time-series?domain_id=${D.acme1}`, {
        headers: { authorization: `Bearer ${key}` },
      })
    expect((await report()).status).toBe(200)

    const listed = await run(keysCommand, ['list', '--server', server.url, '--json'], env)
    expect(listed.code).toBe(0)
    expect(listed.out).not.toContain(key)
    const [info] = JSON.parse(listed.out) as Array<{ id: string; name: string }>
    expect(info).toMatchObject({ name: 'live', team_id: T.acme })

    expect((await run(keysCommand, ['revoke', '--server', server.url, info!.id], env)).code).toBe(0)
    expect((await report()).status).toBe(401)
    const again = await run(keysCommand, ['revoke', '--server', server.url, info!.id], env)
    expect(again).toMatchObject({
      code: 1,
      err: expect.stringMatching(/no API key with id .* already revoked/),
    })
  })

  it('prune --server and backup --server act on the running server', async () => {
    const pruned = await run(pruneCommand, ['--server', server.url, '--older-than', '30'], env)
    expect(pruned).toMatchObject({ code: 0, out: expect.stringMatching(/^pruned the analyses dated before/) })
    const backup = await run(backupCommand, ['--server', server.url], env)
    expect(backup.code, backup.err).toBe(0)
    expect(backup.out).toMatch(/^backup written to .*\/backup-\d{8}T\d{6}\.\d{3}Z: 5 teams, 6 domains/)
    const refused = await run(pruneCommand, ['--server', server.url, '--older-than=-3'], env)
    expect(refused).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--older-than must be an integer from 0 to 36500/),
    })
  })

  it('refusals: one line, never the token', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo
        s.close(() => resolve(port))
      })
    })
    const cases: Array<[string[], Record<string, string | undefined>, number, RegExp]> = [
      [
        ['list', '--server', server.url],
        { VA_ADMIN_TOKEN: undefined },
        2,
        /needs the server's admin token in VA_ADMIN_TOKEN/,
      ],
      [
        ['list', '--server', server.url],
        { VA_ADMIN_TOKEN: `${ADMIN_TOKEN}-wrong` },
        1,
        /answered 401: Invalid admin token\./,
      ],
      [['list', '--server', 'ftp://x'], env, 2, /--server must be an http/],
      [
        ['list', '--server', `http://127.0.0.1:${closed}`],
        env,
        1,
        /cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/,
      ],
      [
        ['list', '--server', server.url, '--db', 'x.duckdb'],
        env,
        2,
        /either --db PATH or --server URL, not both/,
      ],
      [
        ['create', '--server', server.url, '--team', '10000000-0000-4000-8000-0000000000ff'],
        env,
        1,
        /answered 400: team_id: team .* not found/,
      ],
      [['revoke', '--server', server.url, 'nope'], env, 1, /answered 400: id must be a UUID/],
    ]
    for (const [argv, vars, code, message] of cases) {
      const res = await run(keysCommand, argv, vars)
      expect(res.code, argv.join(' ')).toBe(code)
      expect(res.err, argv.join(' ')).toMatch(message)
      expect(res.err.trim().split('\n')).toHaveLength(1)
      expect(res.err).not.toContain(ADMIN_TOKEN)
    }
  })
})

describe('visibility serve with a VA_BACKUP_DIR it cannot write', () => {
  it('refuses to start, naming the variable', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'va-serve-')), 'file')
    writeFileSync(file, 'x')
    const res = await run(serveCommand, ['--port', '0', '--db', join(file, '..', 'db.duckdb')], {
      VA_BACKUP_DIR: join(file, 'backups'),
    })
    expect(res.code).toBe(1)
    expect(res.err).toMatch(
      /^visibility serve: VA_BACKUP_DIR .*file\/backups is not a writable directory \((ENOTDIR|EEXIST)\)/,
    )
  })
})

describe('visibility prune, backup, restore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'va-cli-ops-'))
  const db = join(dir, 'store.duckdb')
  beforeAll(async () => {
    const engine = await openEngine({ path: db })
    await engine.ingest(records())
    await engine.createApiKey({ teamId: T.acme })
    await engine.close()
  })

  it('prune --db deletes the old analyses and prints the counts', async () => {
    const res = await run(pruneCommand, ['--db', db, '--older-than', '365'])
    expect(res.code, res.err).toBe(0)
    expect(res.out).toMatch(
      /^pruned the analyses dated before \d{4}-\d\d-\d\d: 0 mentions, 1 citations, 0 theme_occurrences, 0 fanout_queries, 1 analyses deleted\n$/,
    )
  })

  it('prune refuses a negative, fractional or missing age (usage), changing nothing', async () => {
    for (const argv of [['--older-than=-1'], ['--older-than', '1.5'], ['--older-than', 'x'], []]) {
      const res = await run(pruneCommand, ['--db', db, ...argv])
      expect(res.code, argv.join(' ')).toBe(2)
      expect(res.err).toMatch(/--older-than (must be an integer from 0 to 36500|is required)/)
    }
    const engine = await openEngine({ path: db, readOnly: true })
    expect((await engine.stats()).analyses).toBe(1)
    await engine.close()
  })

  it('backup --db then restore --from gives the same store and keys', async () => {
    const out = join(dir, 'backup')
    const backup = await run(backupCommand, ['--db', db, '--out', out])
    expect(backup.code, backup.err).toBe(0)
    expect(backup.out).toMatch(
      /^backup written to .*backup: 5 teams, 6 domains, 1 prompts, .*1 analyses.*1 api_keys\n$/,
    )
    const copy = join(dir, 'copy.duckdb')
    const restore = await run(restoreCommand, ['--from', out, '--db', copy])
    expect(restore.code, restore.err).toBe(0)
    const [a, b] = [
      await openEngine({ path: db, readOnly: true }),
      await openEngine({ path: copy, readOnly: true }),
    ]
    expect(await b.stats()).toEqual(await a.stats())
    expect(await b.listApiKeys()).toEqual(await a.listApiKeys())
    await a.close()
    await b.close()
    const again = await run(restoreCommand, ['--from', out, '--db', copy])
    expect(again).toMatchObject({
      code: 1,
      err: expect.stringMatching(/copy.duckdb exists: restore builds a new database/),
    })
  })

  it('backup into a place that cannot be written: one line, exit 1, nothing written', async () => {
    writeFileSync(join(dir, 'file'), 'x')
    const res = await run(backupCommand, ['--db', db, '--out', join(dir, 'file', 'b')])
    expect(res.code).toBe(1)
    expect(res.err).toMatch(/^visibility: cannot write the backup to .*: a parent is not a directory/)
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([])
    expect(existsSync(join(dir, 'file', 'b'))).toBe(false)
  })

  it('usage errors', async () => {
    expect((await run(backupCommand, ['--db', db])).err).toMatch(/--out is required/)
    expect((await run(restoreCommand, ['--from', dir])).err).toMatch(/--db is required/)
    expect(
      (await run(restoreCommand, ['--from', join(dir, 'nope'), '--db', join(dir, 'n.duckdb')])).err,
    ).toMatch(/is not a usable backup: no such directory/)
  })
})
