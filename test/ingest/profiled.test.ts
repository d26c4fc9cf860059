/**
 * VA_PROFILE_INGEST (src/ingest/pipeline.ts `profiled`): a step that fails inside the call's
 * transaction is reported with its own error, not the profiling PRAGMA's "transaction aborted";
 * a step that succeeds writes its profile.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterEach, describe, expect, it } from 'vitest'
import { profiled } from '../../src/ingest/pipeline.js'

const dirs: string[] = []
afterEach(() => {
  delete process.env.VA_PROFILE_INGEST
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

async function connected() {
  const dir = mkdtempSync(join(tmpdir(), 'va-profiled-'))
  dirs.push(dir)
  process.env.VA_PROFILE_INGEST = dir
  const conn = await (await DuckDBInstance.create(':memory:')).connect()
  return { dir, conn }
}

describe('profiled steps', () => {
  it("a step failing in a transaction rejects with the step's error", async () => {
    const { conn } = await connected()
    await conn.run('BEGIN')
    await expect(
      profiled(conn, 'failing step', () => conn.run("SELECT error('the step failed')")),
    ).rejects.toThrow('the step failed')
  })

  it('a step that succeeds writes its profile and returns its result', async () => {
    const { dir, conn } = await connected()
    const rows = await profiled(conn, 'ok step', async () =>
      (await conn.runAndReadAll('SELECT 42 AS x')).getRows(),
    )
    expect(rows).toEqual([[42]])
    const files = readdirSync(dir)
    expect(files).toHaveLength(1)
    expect(existsSync(join(dir, files[0]!))).toBe(true)
  })
})
