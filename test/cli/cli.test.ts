/** The `visibility` command end to end (the built dist/, as `npm test` builds first). */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { COMPUTABLE } from '../../src/cli/commands/data.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const bin = join(root, 'dist/src/cli/main.js')
const example = join(root, 'fixtures/spec-example')
const run = async (...args: string[]) => {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', [bin, ...args], { cwd: root })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string }
    return { code: err.code, stdout: err.stdout, stderr: err.stderr }
  }
}

describe.skipIf(!existsSync(bin))('visibility CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'va-cli-'))
  const db = join(dir, 'store.duckdb')
  const queries = JSON.parse(readFileSync(join(example, 'queries.json'), 'utf8')) as Array<
    Record<string, string | number>
  >
  const expected = JSON.parse(readFileSync(join(example, 'expected.json'), 'utf8')) as unknown[]

  beforeAll(async () => {
    const r = await run('ingest', join(example, 'data.ndjson'), '--db', db)
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/6 analyses, 9 mentions, 4 citations, 6 theme occurrences/)
  })

  it('compute prints each example payload exactly', async () => {
    const names: Record<string, string> = {
      prompts: 'prompts',
      competitors: 'competitors',
      overview: 'sentiment-overview',
      themes: 'sentiment-themes',
    }
    for (const [i, q] of queries.entries()) {
      const args = [
        'compute',
        names[q.endpoint as string]!,
        '--db',
        db,
        '--domain',
        String(q.domain_id),
        '--days',
        String(q.days),
        '--now',
        String(q.now),
      ]
      if (q.endpoint === 'prompts') args.push('--limit', String(q.limit))
      else args.push('--model', String(q.model))
      const r = await run(...args)
      expect(r.code).toBe(0)
      expect(JSON.parse(r.stdout)).toEqual(expected[i])
    }
  })

  it('export writes a Parquet export that ingests back', async () => {
    const out = join(dir, 'export')
    const r = await run('export', '--db', db, '--out', out)
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/analyses: 6 rows/)
    const db2 = join(dir, 'copy.duckdb')
    expect((await run('ingest', out, '--db', db2)).code).toBe(0)
    const a = await run(
      'compute',
      'competitors',
      '--db',
      db,
      '--domain',
      String(queries[1]!.domain_id),
      '--now',
      '2026-11-20T15:00:00Z',
    )
    const b = await run(
      'compute',
      'competitors',
      '--db',
      db2,
      '--domain',
      String(queries[1]!.domain_id),
      '--now',
      '2026-11-20T15:00:00Z',
    )
    expect(b.stdout).toBe(a.stdout)
  })

  it('errors are one line on stderr, with exit 1 (failure) or 2 (usage)', async () => {
    const domain = String(queries[0]!.domain_id)
    const cases: Array<[string[], number, RegExp]> = [
      [
        ['compute', 'prompts', '--db', db, '--domain', 'nope'],
        2,
        /^visibility: --domain must be a UUID \(see visibility --help\)\n$/,
      ],
      // The sentiment endpoints take any domain_id over HTTP (404); the engine refuses it here.
      [
        ['compute', 'sentiment-overview', '--db', db, '--domain', 'nope'],
        2,
        /^visibility: domain_id must be a UUID\. \(see visibility --help\)\n$/,
      ],
      [
        ['compute', 'prompts', '--db', db, '--domain', domain, '--days', '0'],
        2,
        /^visibility: --days must be an integer from 1 to 365 \(see visibility --help\)\n$/,
      ],
      [
        ['compute', 'prompts', '--db', db, '--domain', domain, '--limit', '101'],
        2,
        /--limit must be an integer from 1 to 100/,
      ],
      [
        ['compute', 'competitors', '--db', db, '--domain', domain, '--model', 'gpt-5'],
        2,
        /--model must be all or one of the channels/,
      ],
      [
        ['compute', 'competitors', '--db', db, '--domain', domain, '--limit', '3'],
        2,
        /--limit does not apply to competitors/,
      ],
      [
        ['compute', 'prompts', '--db', db, '--domain', domain, '--now', 'today'],
        2,
        /--now must be an ISO 8601 timestamp/,
      ],
      [['compute', 'prompts', '--db', db], 2, /--domain is required/],
      [['compute', 'themes', '--db', db], 2, /compute needs one of/],
      [['compute', 'prompts', '--domain', 'x'], 2, /--db is required/],
      [['frobnicate'], 2, /unknown command "frobnicate"/],
      [
        ['compute', 'sentiment-themes', '--db', db, '--domain', '00000000-0000-4000-8000-000000000000'],
        1,
        /domain 00000000-0000-4000-8000-000000000000 not found/,
      ],
    ]
    for (const [args, code, message] of cases) {
      const r = await run(...args)
      expect([r.code, r.stderr]).toEqual([code, expect.stringMatching(message)])
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
      expect(r.stderr).not.toMatch(/\s+at .*\(/)
    }
  })

  it('a refused ingest lists the bad records and stores nothing', async () => {
    const bad = join(dir, 'bad.ndjson')
    writeFileSync(bad, '{"type":"team","id":"x"}\nnot json\n')
    const r = await run('ingest', bad, '--db', db)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/ingest refused, nothing stored: 5 invalid records/)
    expect(r.stderr).toMatch(/line 2: record: is not valid JSON/)
  })
})

describe.skipIf(!existsSync(bin))('visibility demo', () => {
  const dir = mkdtempSync(join(tmpdir(), 'va-demo-'))

  it('--example prints the payloads of the worked example, equal to expected.json', async () => {
    const r = await run('demo', '--example', '--db', join(dir, 'example.duckdb'))
    expect([r.code, r.stderr]).toEqual([0, ''])
    const blocks = r.stdout.split(/^# visibility compute .*$/m).slice(1)
    const expected = JSON.parse(readFileSync(join(example, 'expected.json'), 'utf8')) as unknown[]
    expect(blocks.map((b) => JSON.parse(b) as unknown)).toEqual(expected)
  })

  it('seeds the demo dataset and prints a compute command per report, each answering with data', async () => {
    const db = join(dir, 'demo.duckdb')
    const r = await run('demo', '--db', db, '--now', '2026-11-20T15:00:00Z')
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(r.stdout).toMatch(/^Seeded .*: \d+ analyses from 2026-07-24 to 2026-11-20/)
    const commands = r.stdout.match(/^ {2}visibility compute .*$/gm) ?? []
    expect(commands.map((c) => c.split(' ')[4])).toEqual([...COMPUTABLE.keys()])
    for (const command of commands) {
      const args = command.trim().split(' ').slice(1)
      const out = await run(...args, '--now', '2026-11-20T15:00:00Z')
      expect(out.code, command).toBe(0)
      const payload = JSON.parse(out.stdout) as { data: Record<string, unknown>; days?: number }
      if ('days' in payload) expect(payload.days, command).toBe(90)
      expect(JSON.stringify(payload.data), command).toMatch(/[1-9]/)
    }
  })

  it('leaves a store holding other data alone', async () => {
    const db = join(dir, 'other.duckdb')
    expect((await run('ingest', join(root, 'fixtures/datasets/competitors.ndjson'), '--db', db)).code).toBe(0)
    const r = await run('demo', '--db', db)
    expect([r.code, r.stdout]).toEqual([1, ''])
    expect(r.stderr).toMatch(/holds other data; not seeded/)
  })
})
