/**
 * `visibility report` end to end: the spec example (plus a second, empty domain) ingested into a
 * temporary DuckDB file, then the command run against it read-only.
 */
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMPUTE_STEPS, reportCommand, REPORT_FILES, type ReportIo } from '../../src/cli/commands/report.js'
import { openEngine } from '../../src/index.js'
import { domain, team } from '../support/records.js'

const fixture = new URL('../../fixtures/spec-example/', import.meta.url)
const expected = JSON.parse(readFileSync(new URL('expected.json', fixture), 'utf8')) as unknown[]
const DOMAIN = '5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c'
const EMPTY_DOMAIN = 'f0000000-0000-4000-8000-0000000000ff'
const NOW = '2026-11-20T15:00:00Z'

let tmp: string
let db: string

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'report-cmd-'))
  db = join(tmp, 'data.duckdb')
  const engine = await openEngine({ path: db })
  try {
    await engine.ingestFile(new URL('data.ndjson', fixture).pathname)
    const teamId = 'f0000000-0000-4000-8000-000000000001'
    await engine.ingest([
      team({ id: teamId, name: 'T', plan: 'free' }),
      domain({ id: EMPTY_DOMAIN, team_id: teamId, brand_name: 'Café "Ünïcode" & <Co>', website: null }),
    ])
  } finally {
    await engine.close()
  }
})
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true })
})

interface Captured extends ReportIo {
  out: () => string
  err: () => string
}

function capture(isTTY = false): Captured {
  let out = ''
  let err = ''
  const stderr = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number }
  stderr.isTTY = isTTY
  stderr.columns = 120
  stderr.on('data', (c: Buffer) => (err += c.toString()))
  return {
    stdout: { write: (c: string) => (out += c) },
    stderr,
    out: () => out,
    err: () => err,
  }
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8')) as unknown
}

describe('visibility report', () => {
  it('--country, --topic, --tag: every section filtered, echoed and named on the page', async () => {
    const out = join(tmp, 'out-segment')
    const io = capture()
    const args = ['--db', db, '--domain', DOMAIN, '--out', out, '--now', NOW, '--days', '7']
    expect(await reportCommand([...args, '--country', 'zz', '--topic', ' T ', '--tag', 'x'], io)).toBe(0)
    const dir = join(out, DOMAIN)
    for (const file of REPORT_FILES.filter((f) => f.endsWith('.json'))) {
      const body = (await readJson(join(dir, file))) as Record<string, unknown>
      expect([file, body.country, body.topic, body.tag]).toEqual([file, 'ZZ', 'T', 'x'])
    }
    // ZZ is never seen: the empty result everywhere.
    const leaderboard = (await readJson(join(dir, 'model-leaderboard.json'))) as {
      data: { items: unknown[] }
    }
    expect(leaderboard.data.items).toEqual([])
    const html = await readFile(join(dir, 'report.html'), 'utf8')
    expect(html).toContain('Country')
    expect(html).toContain('ZZ')
    const bad = capture()
    expect(await reportCommand([...args, '--country', 'Z'], bad)).toBe(2)
    expect(bad.err()).toMatch(/country must be two letters/)
  })

  it('--start, --end and --granularity: the range and weekly buckets in the JSON, CSV and page', async () => {
    const out = join(tmp, 'out-range')
    const io = capture()
    const args = ['--db', db, '--domain', DOMAIN, '--out', out, '--now', NOW]
    const range = ['--start', '2026-11-14', '--end', '2026-11-20', '--granularity', 'week']
    expect(await reportCommand([...args, ...range], io)).toBe(0)
    const dir = join(out, DOMAIN)
    const competitors = (await readJson(join(dir, 'competitors.json'))) as Record<string, unknown>
    expect([competitors.days, competitors.start_date, competitors.end_date, competitors.granularity]).toEqual(
      [7, '2026-11-14', '2026-11-20', 'week'],
    )
    const dates = (competitors.data as { items: { series: { date: string }[] }[] }).items[0]!.series.map(
      (p) => p.date,
    )
    for (const date of dates) expect(['2026-11-14', '2026-11-16']).toContain(date)
    const prompts = (await readJson(join(dir, 'prompts.json'))) as Record<string, unknown>
    expect(prompts.granularity).toBe('week')
    // The sentiment reports take the range, not granularity.
    const overview = (await readJson(join(dir, 'sentiment-overview.json'))) as Record<string, unknown>
    expect(Object.keys(overview)).toEqual([
      'data',
      'domain_id',
      'days',
      'start_date',
      'end_date',
      'model',
      'generated_at',
    ])
    expect(await readFile(join(dir, 'report.html'), 'utf8')).toContain('Mentions / week')
    // Bad flags: usage errors (exit 2) naming the flag or the rule.
    const bad = capture()
    expect(await reportCommand([...args, '--start', '2026-11-14'], bad)).toBe(2)
    expect(bad.err()).toMatch(/end_date is required with start_date/)
    const badDate = capture()
    expect(await reportCommand([...args, '--start', '2026-02-30', '--end', '2026-03-01'], badDate)).toBe(2)
    expect(badDate.err()).toMatch(/--start must be a calendar date YYYY-MM-DD/)
  })

  it('writes the eight files per domain, payloads equal to the spec example', async () => {
    const out = join(tmp, 'out1')
    const io = capture()
    const code = await reportCommand(
      ['--db', db, '--domain', DOMAIN.toUpperCase(), '--out', out, '--days', '7', '--now', NOW],
      io,
    )
    expect(io.err()).toBe('') // stderr is not a TTY: no bar
    expect(code).toBe(0)
    const dir = join(out, DOMAIN)
    expect((await readdir(dir)).sort()).toEqual([...REPORT_FILES].sort())
    expect(io.out()).toBe(`${join(dir, 'report.html')}\n`)
    expect(await readJson(join(dir, 'prompts.json'))).toEqual(expected[0])
    expect(await readJson(join(dir, 'competitors.json'))).toEqual(expected[1])
    expect(await readJson(join(dir, 'sentiment-overview.json'))).toEqual(expected[3])
    expect(await readJson(join(dir, 'sentiment-themes.json'))).toEqual(expected[4])
    const csv = await readFile(join(dir, 'prompts.csv'), 'utf8')
    expect(csv.split('\r\n')[0]).toBe(
      'prompt_id,text,estimated_search_volume,date,mentions,responses,citations,avg_position',
    )
    expect(csv.split('\r\n')).toHaveLength(4 + 2)
    expect((await readFile(join(dir, 'competitors.csv'), 'utf8')).split('\r\n')[1]).toMatch(
      /^user-brand-5b0e6c1a-8f2d-4e3b-a7c9-1d2e3f4a5b6c,Acme,true,2026-11-18,1,100,50,1,80$/,
    )
    expect(await readFile(join(dir, 'themes.csv'), 'utf8')).toContain("Facilité d'utilisation")
    const html = await readFile(join(dir, 'report.html'), 'utf8')
    expect(html).toContain('<h1 dir="auto">Acme</h1>')
    expect(html).toContain('Nov 14, 2026 – Nov 20, 2026 (7 days)')
    expect(html).not.toContain('class="notes"')
  })

  it('--all reports every domain; an empty domain gets an empty, escaped page', async () => {
    const out = join(tmp, 'out2')
    const io = capture()
    const code = await reportCommand(['--db', db, '--all', '--out', out, '--days', '7', '--now', NOW], io)
    expect(io.err()).toBe('')
    expect(code).toBe(0)
    expect((await readdir(out)).sort()).toEqual([DOMAIN, EMPTY_DOMAIN])
    const html = await readFile(join(out, EMPTY_DOMAIN, 'report.html'), 'utf8')
    expect(html).toContain('Café &quot;Ünïcode&quot; &amp; &lt;Co&gt;')
    expect(html).toContain('No data in this window')
    expect(await readJson(join(out, EMPTY_DOMAIN, 'prompts.json'))).toMatchObject({ data: { items: [] } })
    expect(await readFile(join(out, EMPTY_DOMAIN, 'themes.csv'), 'utf8')).toBe(
      'id,name,sentiment,occurrences,created_at\r\n',
    )
  })

  it('a raw model id: sentiment filtered by it, competitors with model all, and the page says so', async () => {
    const out = join(tmp, 'out3')
    const io = capture()
    const code = await reportCommand(
      ['--db', db, '--domain', DOMAIN, '--out', out, '--days', '60', '--model', 'gpt-5', '--now', NOW],
      io,
    )
    expect(code).toBe(0)
    expect(io.err()).toBe(
      'visibility: note: --model gpt-5 is not a channel; competitors are computed with model all (sentiment uses gpt-5)\n',
    )
    const dir = join(out, DOMAIN)
    expect(await readJson(join(dir, 'sentiment-themes.json'))).toEqual(expected[5])
    expect(await readJson(join(dir, 'competitors.json'))).toMatchObject({ model: 'all', days: 60 })
    const html = await readFile(join(dir, 'report.html'), 'utf8')
    expect(html).toContain('the competitor series filters by channel only, and gpt-5 is a model id')
  })

  it('a channel model applies to competitors too', async () => {
    const out = join(tmp, 'out4')
    const io = capture()
    expect(
      await reportCommand(
        ['--db', db, '--domain', DOMAIN, '--out', out, '--days', '7', '--model', 'chatgpt', '--now', NOW],
        io,
      ),
    ).toBe(0)
    expect(io.err()).toBe('')
    expect(await readJson(join(out, DOMAIN, 'competitors.json'))).toEqual(expected[2])
  })

  it('draws a progress bar per domain when stderr is a TTY', async () => {
    const io = capture(true)
    const out = join(tmp, 'out5')
    const argv = [
      '--db',
      db,
      '--domain',
      DOMAIN,
      '--domain',
      DOMAIN.toUpperCase(),
      '--out',
      out,
      '--now',
      NOW,
    ]
    expect(await reportCommand(argv, io)).toBe(0)
    const err = io.err()
    expect(err).toContain('\r[1/1] Acme [')
    const steps = COMPUTE_STEPS + REPORT_FILES.length
    expect(err).toMatch(new RegExp(`\\r\\[1/1\\] Acme \\[█{24}\\] 100% ${steps}/${steps} steps · .*\\n$`))
    expect(err.split('\n').filter(Boolean)).toHaveLength(1) // one finished line per domain, the same domain once
  })

  it.each([
    [['--domain', DOMAIN, '--out', 'x'], /--db is required/],
    [['--db', 'x.duckdb', '--domain', DOMAIN], /--out is required/],
    [['--db', 'x.duckdb', '--out', 'x'], /--domain UUID .* or --all/],
    [['--db', 'x.duckdb', '--out', 'x', '--all', '--domain', DOMAIN], /either --domain or --all/],
    [['--db', 'x.duckdb', '--out', 'x', '--domain', 'acme'], /--domain must be a UUID/],
    [['--db', 'x.duckdb', '--out', 'x', '--all', '--days', '0'], /--days must be an integer from 1 to 365/],
    [['--db', 'x.duckdb', '--out', 'x', '--all', '--days', '7.5'], /--days must be an integer/],
    [['--db', 'x.duckdb', '--out', 'x', '--all', '--model', 'gpt 5!'], /--model must be/],
    [['--db', 'x.duckdb', '--out', 'x', '--all', '--now', 'yesterday'], /--now must be an ISO 8601/],
    [['--db', 'x.duckdb', '--out', 'x', '--all', '--limit', '3'], /Unknown option '--limit'/],
  ])('usage error %j -> exit 2, one line', async (argv, message) => {
    const io = capture()
    expect(await reportCommand(argv, io)).toBe(2)
    expect(io.err()).toMatch(message)
    expect(io.err().trimEnd().split('\n')).toHaveLength(1)
    expect(io.out()).toBe('')
  })

  it('--help prints the usage and exits 0', async () => {
    const io = capture()
    expect(await reportCommand(['--help'], io)).toBe(0)
    expect(io.out()).toContain('visibility report --db PATH')
  })

  it('runtime errors -> exit 1, one line, nothing written', async () => {
    const out = join(tmp, 'out6')
    let io = capture()
    const unknown = 'a0000000-0000-4000-8000-00000000dead'
    expect(await reportCommand(['--db', db, '--domain', DOMAIN, '--domain', unknown, '--out', out], io)).toBe(
      1,
    )
    expect(io.err()).toBe(`visibility: domain not found: ${unknown}\n`)
    expect(existsSync(out)).toBe(false)

    io = capture()
    const missing = join(tmp, 'nope', 'missing.duckdb')
    expect(await reportCommand(['--db', missing, '--all', '--out', out], io)).toBe(1)
    expect(io.err()).toMatch(/^visibility: .+\n$/)
    expect(io.err()).not.toMatch(/\n\s+at /)
  })
})
