/**
 * The README's examples run: every shell command of its Operations block, in order, against a
 * fresh demo database in a temp dir (the built CLI for `npx visibility`, the package's own `start`
 * script for `npm start` on a free port, a real curl for the curls), and every entry of its MCP
 * client configuration through the MCP SDK's client (the stdio entry on a database seeded by
 * `visibility demo`, the HTTP entry on the server the Operations block started, with the demo key).
 * Only the placeholders a reader fills in are replaced (the address, `backup-<time>`, the paths and
 * the key); a command the test neither runs nor lists as skipped fails it. Needs `npm run build`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS } from '../../src/api/endpoints.js'
import { demoDataset } from '../../src/demo/index.js'
import { FLAT_TABLES } from '../../src/ingest/flat.js'

const ROOT = new URL('../..', import.meta.url).pathname
const CLI = join(ROOT, 'dist/src/cli/main.js')
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
const startScript = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts.start!
/** The address the README's examples use; the test's server listens on a free port instead. */
const README_URL = 'http://127.0.0.1:8787'
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g
/** README commands this test does not run, each with the reason (none today: every line runs). */
const SKIPPED: Record<string, string> = {}
const TIMEOUT_MS = 30_000

/** The text between a heading and the next one of the same level. */
function section(heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`)
  expect(start, heading).toBeGreaterThanOrEqual(0)
  const end = readme.indexOf('\n## ', start + heading.length + 1)
  return readme.slice(start, end < 0 ? undefined : end)
}

/** The fenced blocks of a language in a text. */
const fenced = (text: string, lang: string) =>
  [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!)

/** The commands of a shell block: comments dropped, lines ending in `|` or `\` joined. */
function shellCommands(block: string): string[] {
  const commands: string[] = []
  let pending = ''
  for (const raw of block.split('\n')) {
    const line = raw.replace(/(^|\s)#\s.*$/, '').trimEnd()
    if (line.trim() === '') continue
    pending = pending === '' ? line.trim() : `${pending} ${line.trim()}`
    if (pending.endsWith('\\')) pending = pending.slice(0, -1).trimEnd()
    else if (!pending.endsWith('|')) {
      commands.push(pending)
      pending = ''
    }
  }
  expect(pending, 'a command continues past the end of its block').toBe('')
  return commands
}

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs one command line in bash, bounded in time. */
function sh(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/** Waits (bounded) until the server's stderr names its address; resolves with all its stderr so far. */
function waitForServer(child: ChildProcess, out: { stderr: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out.stderr}`)), TIMEOUT_MS)
    child.stderr!.on('data', (d: Buffer) => {
      out.stderr += d.toString()
      const url = /API on (http:\/\/\S+) \(/.exec(out.stderr)?.[1]
      if (url !== undefined && /Demo API key/.test(out.stderr)) {
        clearTimeout(timer)
        resolve(url)
      }
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited (${code}):\n${out.stderr}`))
    })
  })
}

/** Stops a child with SIGTERM (SIGKILL after a bound) and waits for its exit code. */
function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve(code)
    })
    child.kill('SIGTERM')
  })
}

const textOf = (result: unknown) =>
  ((result as { content: { type: string; text?: string }[] }).content[0]?.text ?? '') as string

const demo = demoDataset({ now: new Date() })
const recordsOf = (type: string) =>
  demo.records.filter((r) => (r as unknown as { type: string }).type === type) as unknown as {
    id: string
    domain_id?: string
  }[]
const PROMPT_LIST_PATH = ENDPOINTS.find((e) => e.id === 'prompt-list')!.path
const VALIDATE_PATH = ENDPOINTS.find((e) => e.id === 'key-check')!.path

describe("the README's examples run against the demo", () => {
  let dir: string
  let server: ChildProcess | undefined
  const serverOut = { stderr: '' }
  let url = ''
  let demoKey = ''

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'va-docs-examples-'))
  })
  afterAll(async () => {
    if (server !== undefined) await stop(server)
    await rm(dir, { recursive: true, force: true })
  })

  it('the Operations block: every command exits 0 and does what the README says', async () => {
    const commands = shellCommands(fenced(section('## Operations'), 'sh').join('\n'))
    expect(commands.length).toBeGreaterThanOrEqual(5)
    let env: NodeJS.ProcessEnv = { ...process.env, VA_PORT: '0', VA_HOST: '127.0.0.1' }
    delete env.VA_DB // `npm start` on its default database, data/demo.duckdb under the temp dir
    const ran: string[] = []
    const promptId = [...(commands.find((c) => c.includes('"entity":"prompt"')) ?? '').matchAll(UUID)][0]?.[0]
    const prompt = recordsOf('prompt').find((p) => p.id === promptId)
    expect(prompt, `README: the deleted prompt ${promptId} is a demo prompt`).toBeDefined()
    const promptsUrl = () => `${url}${PROMPT_LIST_PATH}?domain_id=${prompt!.domain_id}&size=100`
    let createdKey = ''

    for (const command of commands) {
      if (command in SKIPPED) continue
      ran.push(command)
      const label = `README Operations: ${command}`
      if (/^export /.test(command)) {
        // Variables for the following commands: run it, keep what it exported.
        const names = [...command.matchAll(/(?:^export |\s)([A-Z_]+)=/g)].map((m) => m[1]!)
        expect(names.length, label).toBeGreaterThan(0)
        const run = await sh(`${command}; ${names.map((n) => `printf '%s\\0' "$${n}"`).join('; ')}`, dir, env)
        expect(run.code, `${label}\n${run.stderr}`).toBe(0)
        const values = run.stdout.split('\0')
        env = { ...env, ...Object.fromEntries(names.map((n, i) => [n, values[i]!])) }
        if (names.includes('VA_ADMIN_TOKEN')) expect(env.VA_ADMIN_TOKEN, label).toMatch(/^[0-9a-f]{48}$/)
        continue
      }
      if (/(^|\s)npm start(\s|$)/.test(command)) {
        // `npm start` is the package's start script; the build it runs first is the test's setup.
        const script = startScript
          .replace(/^npm run build && /, '')
          .replace(/^node dist\//, `node ${ROOT}dist/`)
        expect(script, 'package.json start script').toMatch(/^node \S+main\.js serve --demo/)
        server = spawn('bash', ['-c', command.replace('npm start', `exec ${script}`)], {
          cwd: dir,
          env,
          stdio: ['ignore', 'ignore', 'pipe'],
        })
        url = await waitForServer(server, serverOut)
        demoKey = /Demo API key(?: \(new\))?: (\S+)/.exec(serverOut.stderr)![1]!
        expect(serverOut.stderr, label).toMatch(/admin endpoints on; backups to backups; retention 400 days/)
        // The prompt the README deletes is served before the delete.
        const before = await fetch(promptsUrl(), { headers: { authorization: `Bearer ${demoKey}` } })
        expect(before.status).toBe(200)
        expect(await before.text(), label).toContain(promptId)
        continue
      }
      expect(url, `${label}: runs before the server starts`).not.toBe('')
      let line = command.replaceAll(README_URL, url).replace(/^npx visibility /, `node ${CLI} `)
      if (line.includes('backup-<time>')) {
        const backups = readdirSync(join(dir, 'backups')).filter((n) => n.startsWith('backup-'))
        expect(backups, `${label}: one backup made by the commands above`).toHaveLength(1)
        line = line.replace('backups/backup-<time>', `backups/${backups[0]}`)
      }
      expect(line, `${label}: a placeholder left`).not.toMatch(/<[a-z]+>|\.\.\./)
      const run = await sh(line, dir, env)
      expect(run.code, `${label}\n${run.stdout}\n${run.stderr}`).toBe(0)
      expect(run.stderr, label).not.toMatch(/error|refused/i)

      if (/ keys create /.test(command)) {
        createdKey = /va_live_\S+/.exec(run.stdout)?.[0] ?? ''
        expect(createdKey, `${label}: prints the key\n${run.stdout}`).not.toBe('')
        const validate = await fetch(`${url}${VALIDATE_PATH}`, {
          headers: { authorization: `Bearer ${createdKey}` },
        })
        expect(validate.status, `${label}: the created key is accepted`).toBe(200)
      } else if (command.includes('"type":"delete"')) {
        expect(JSON.parse(run.stdout), label).toMatchObject({ deleted: expect.anything() })
        const after = await fetch(promptsUrl(), {
          headers: { authorization: `Bearer ${createdKey || demoKey}` },
        })
        expect(after.status).toBe(200)
        expect(await after.text(), `${label}: the prompt is gone`).not.toContain(promptId)
      } else if (command.includes('/prune')) {
        expect(JSON.parse(run.stdout), label).toBeTypeOf('object')
      } else if (/-X POST \S+\/backup/.test(command)) {
        const backups = readdirSync(join(dir, 'backups')).filter((n) => n.startsWith('backup-'))
        expect(backups, label).toHaveLength(1)
        const files = readdirSync(join(dir, 'backups', backups[0]!))
        for (const table of FLAT_TABLES)
          expect(
            files.some((f) => f === table || f === `${table}.parquet`),
            `${label}: ${table} in ${files.join(', ')}`,
          ).toBe(true)
      } else if (command.includes('/metrics')) {
        expect(run.stdout, label).toMatch(/^# (HELP|TYPE) /m)
      } else if (/ restore /.test(command)) {
        const db = /--db (\S+)/.exec(command)![1]!
        expect(existsSync(join(dir, db)), label).toBe(true)
        // The restored copy is the store after the delete.
        const list = await sh(
          `node ${CLI} compute prompt-list --db ${db} --domain ${prompt!.domain_id} --size 100`,
          dir,
          env,
        )
        expect(list.code, list.stderr).toBe(0)
        expect(list.stdout.length).toBeGreaterThan(100)
        expect(list.stdout, `${label}: the restored store has no deleted prompt`).not.toContain(promptId)
      } else {
        throw new Error(`${label}: the test does not check this command; add a check or list it in SKIPPED`)
      }
    }
    expect(ran.length + Object.keys(SKIPPED).length).toBe(commands.length)
    for (const skipped of Object.keys(SKIPPED))
      expect(commands, `SKIPPED lists a command the README no longer has: ${skipped}`).toContain(skipped)
  }, 120_000)

  it('the MCP client configuration: each entry connects and answers a tool call (no --now)', async () => {
    expect(url, 'the Operations test started the server').not.toBe('')
    const mcp = section('## MCP server')
    const [json] = fenced(mcp, 'json')
    const servers = (JSON.parse(json!) as { mcpServers: Record<string, Record<string, unknown>> }).mcpServers
    const stdioDb = join(dir, 'stdio', 'demo.duckdb')
    const seeded = await sh(`node ${CLI} demo --db ${stdioDb}`, dir, process.env)
    expect(seeded.code, seeded.stderr).toBe(0)
    const domain = recordsOf('domain')[0]!.id
    for (const [name, entry] of Object.entries(servers)) {
      let transport: StdioClientTransport | StreamableHTTPClientTransport
      if (entry.command !== undefined) {
        const args = (entry.args as string[]).map((a) =>
          a.replace('/path/to/visibility-analytics/', ROOT).replace('/path/to/data/demo.duckdb', stdioDb),
        )
        expect(args.join(' '), `${name}: a placeholder left`).not.toContain('/path/to/')
        expect(args, name).not.toContain('--now')
        transport = new StdioClientTransport({
          command: entry.command === 'node' ? process.execPath : (entry.command as string),
          args,
          stderr: 'pipe',
        })
      } else if (entry.type === 'http') {
        const headers = Object.fromEntries(
          Object.entries(entry.headers as Record<string, string>).map(([k, v]) => [
            k,
            v.replace('va_live_...', demoKey),
          ]),
        )
        transport = new StreamableHTTPClientTransport(
          new URL((entry.url as string).replace(README_URL, url)),
          {
            requestInit: { headers },
          },
        )
      } else throw new Error(`README MCP configuration ${name}: the test does not run this kind of entry`)
      const client = new Client({ name: 'docs-examples', version: '1.0.0' })
      try {
        await client.connect(transport)
        const domains = await client.callTool({ name: 'list_domains', arguments: {} })
        expect(domains.isError ?? false, `${name}: ${textOf(domains)}`).toBe(false)
        expect(textOf(domains), name).toContain(domain)
        const series = await client.callTool({
          name: 'get_visibility_time_series',
          arguments: { domain_id: domain, days: 7 },
        })
        expect(series.isError ?? false, `${name}: ${textOf(series)}`).toBe(false)
        // The demo runs up to today: the default clock's last 7 days hold data.
        const items = (JSON.parse(textOf(series)) as { data: { items: { date: string; value: number }[] } })
          .data.items
        expect(items, name).toHaveLength(7)
        expect(
          items.some((i) => i.value > 0),
          `${name}: ${JSON.stringify(items)}`,
        ).toBe(true)
      } finally {
        await client.close()
      }
    }
    expect(Object.keys(servers).length).toBeGreaterThanOrEqual(2)
  }, 60_000)
})
