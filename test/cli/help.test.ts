/**
 * `--help` on every command and subcommand of the built `visibility` (enumerated from the CLI's
 * registry and the endpoint table), `--version`, and the compute synopsis generated from the
 * endpoint table: each subcommand's help offers exactly the flags of its row's parameters.
 */
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it, vi } from 'vitest'
import { nowParam } from '../../src/api/index.js'
import { main } from '../../src/cli/cli.js'
import { endpointFlags } from '../../src/cli/flags.js'
import { COMMANDS, topLevelHelp } from '../../src/cli/registry.js'
import { COMPUTABLE, computeHelp, computeSynopsis } from '../../src/cli/synopsis.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const bin = join(root, 'dist/src/cli/main.js')

async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', [bin, ...args], {
      cwd: root,
      timeout: 60_000,
    })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string }
    return { code: err.code, stdout: err.stdout, stderr: err.stderr }
  }
}

/** Runs `main` in this process, capturing what it writes. */
async function runHere(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = []
  const err: string[] = []
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true))
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true))
  try {
    const code = await main(args)
    return { code, stdout: out.join(''), stderr: err.join('') }
  } finally {
    o.mockRestore()
    e.mockRestore()
  }
}

/** Every command line asking for help: each command, then each of its subcommands. */
const helpCalls: string[][] = [...COMMANDS].flatMap(([name, command]) => [
  [name, '--help'],
  ...[...(command.subcommands?.keys() ?? [])].map((sub) => [name, sub, '--help']),
])

/** The `--flag` names of a text. */
const flagsOf = (text: string): Set<string> =>
  new Set([...text.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]!))

describe.skipIf(!existsSync(bin))('visibility --help', () => {
  it('covers every command, the compute subcommands of the endpoint table, and the keys and cluster subcommands', () => {
    expect([...COMMANDS.keys()]).toEqual(
      expect.arrayContaining(['ingest', 'compute', 'report', 'export', 'demo', 'serve', 'mcp', 'keys']),
    )
    expect([...COMMANDS.keys()]).toEqual(expect.arrayContaining(['prune', 'backup', 'restore', 'cluster']))
    expect([...COMMANDS.get('compute')!.subcommands!.keys()]).toEqual([...COMPUTABLE.keys()])
    expect([...COMMANDS.get('keys')!.subcommands!.keys()]).toEqual(['create', 'list', 'revoke'])
    expect(COMMANDS.get('cluster')!.subcommands!.size).toBeGreaterThanOrEqual(6)
  })

  it('exits 0 with the usage of the command (and subcommand) on stdout, for every one', async () => {
    const calls = [
      ...helpCalls,
      ['keys', 'create', '-h'],
      ['compute', 'prompt-series', '--db', 'x', '-h'],
      ['help', 'ingest'],
    ]
    for (const args of calls) {
      const r = await runHere(...args)
      const [name, sub] = args[0] === 'help' ? [args[1]!] : args
      expect(r.code, `visibility ${args.join(' ')}: ${r.stderr}`).toBe(0)
      expect(r.stderr, args.join(' ')).toBe('')
      expect(r.stdout, args.join(' ')).toMatch(/^usage:/i)
      const usageLines = r.stdout.split('\n').filter((l) => /^\s*(Usage: )?visibility /i.test(l))
      expect(usageLines.length, args.join(' ')).toBeGreaterThan(0)
      // The usage names the command, and the subcommand when one is asked.
      const named =
        sub === undefined || sub.startsWith('-') ? `visibility ${name}` : `visibility ${name} ${sub}`
      expect(usageLines.join('\n'), args.join(' ')).toContain(named)
    }
  })

  it('the built executable answers --help on a command and a subcommand with exit 0', async () => {
    for (const args of [
      ['ingest', '--help'],
      ['compute', 'citations', '--help'],
    ]) {
      const r = await run(...args)
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toBe((await runHere(...args)).stdout)
    }
  }, 120_000)

  it('the top-level help lists every command and the window flags; no argument is a usage error', async () => {
    const r = await runHere('--help')
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(topLevelHelp())
    for (const name of COMMANDS.keys()) expect(r.stdout).toContain(`visibility ${name} `)
    for (const flag of ['--start', '--end', '--granularity', '--days', '--model', '--now'])
      expect(r.stdout).toContain(flag)
    for (const line of computeSynopsis()) expect(r.stdout).toContain(line)
    const none = await runHere()
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('Usage:')
    expect((await runHere('help', 'compute', 'prompt-series')).stdout).toBe(`${computeHelp('prompt-series')}`)
  })

  it('--version prints the version of package.json (the built executable)', async () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
    for (const r of [await run('--version'), await runHere('-V')]) {
      expect(r.code).toBe(0)
      expect(r.stdout).toBe(`${pkg.version}\n`)
    }
  }, 120_000)
})

describe('the compute synopsis, generated from the endpoint table', () => {
  it('offers each subcommand exactly the flags of its row (plus --db, --now where there is a window, --all where a cursor)', () => {
    for (const [name, endpoint] of COMPUTABLE) {
      const expected = new Set(['db', ...endpointFlags(endpoint).keys()])
      if ('days' in endpoint.params) expected.add(nowParam.flag)
      // A cursor listing also streams every page (--all).
      if ('cursor' in endpoint.params) expected.add('all')
      const synopsis = computeSynopsis().find((l) => l.split(' ')[2]!.split('|').includes(name))!
      expect(flagsOf(synopsis), `synopsis of ${name}`).toEqual(expected)
      const usage = computeHelp(name).split('\n')[0]!
      expect(flagsOf(usage), `help of ${name}`).toEqual(expected)
      expect(flagsOf(computeHelp(name)), `flag list of ${name}`).toEqual(expected)
    }
    // competitor-series takes no --limit, and its help does not offer one.
    expect(flagsOf(computeHelp('competitor-series')).has('limit')).toBe(false)
  })

  it('a flag the help does not offer is refused by the command', async () => {
    const r = await runHere(
      'compute',
      'competitor-series',
      '--db',
      join(root, 'nonexistent.duckdb'),
      '--limit',
      '5',
    )
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--limit does not apply to competitor-series')
  })
})
