/**
 * Small CLI rules of issue 27: a database held by another process (a running serve) is a clear
 * one-line message, never DuckDB's lock error; a refused ingest into a new file leaves no file.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { main } from '../../src/cli/cli.js'
import { DB_LOCKED } from '../../src/cli/open.js'
import { openEngine } from '../../src/index.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const bin = join(root, 'dist/src/cli/main.js')
const dir = mkdtempSync(join(tmpdir(), 'va-cli-small-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function runHere(...args: string[]): Promise<{ code: number; stderr: string }> {
  const err: string[] = []
  const o = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true))
  try {
    return { code: await main(args), stderr: err.join('') }
  } finally {
    o.mockRestore()
    e.mockRestore()
  }
}

describe('visibility ingest refused', () => {
  it('into a new file: exit 1, the bad record named, no database file left behind', async () => {
    const bad = join(dir, 'bad.ndjson')
    writeFileSync(bad, '{"type":"team","id":"not-a-uuid"}\n')
    const db = join(dir, 'new.duckdb')
    const r = await runHere('ingest', bad, '--db', db)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/ingest refused, nothing stored: \d+ invalid record/)
    expect(existsSync(db)).toBe(false)
    expect(readdirSync(dir).filter((f) => f.startsWith('new.duckdb'))).toEqual([])
  })

  it('into an existing file: the file stays', async () => {
    const db = join(dir, 'existing.duckdb')
    await (await openEngine({ path: db })).close()
    const bad = join(dir, 'bad2.ndjson')
    writeFileSync(bad, 'not json\n')
    expect((await runHere('ingest', bad, '--db', db)).code).toBe(1)
    expect(existsSync(db)).toBe(true)
  })
})

describe.skipIf(!existsSync(bin))('a database held by another process', () => {
  it('compute says to stop it first, in one line, without DuckDB text', async () => {
    const db = join(dir, 'held.duckdb')
    const holder = await openEngine({ path: db })
    try {
      const r = await promisify(execFile)('node', [bin, 'compute', 'domains', '--db', db], {
        timeout: 60_000,
      }).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => e,
      )
      expect(r.code).toBe(1)
      expect(r.stderr).toBe(`visibility: ${DB_LOCKED}\n`)
      expect(r.stderr).not.toMatch(/lock|IO Error|PID/i)
    } finally {
      await holder.close()
    }
  }, 120_000)
})
