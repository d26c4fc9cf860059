/**
 * At least once across kill -9: a process delivering to a receiver that holds the requests is
 * killed with events in flight; the next process on the same file delivers every event, each
 * under the event id it had before, and the outbox ends delivered.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { openEngine, webhooksOf } from '../../src/index.js'
import { tenantRecords } from '../http/helpers.js'
import { D, T, receiver, signal, until, type Receiver } from './support.js'

const CHILD = fileURLToPath(new URL('./worker-child.ts', import.meta.url))
let dir: string | undefined
let rec: Receiver | undefined
let child: ChildProcess | undefined
afterEach(async () => {
  child?.kill('SIGKILL')
  await rec?.close()
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

function start(db: string): Promise<ChildProcess> {
  const c = spawn(process.execPath, ['--import', 'tsx', CHILD, db], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    c.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) resolve(c)
    })
    c.on('exit', (code) => reject(new Error(`worker child exited with ${code}`)))
  })
}

it('delivers every pending event after kill -9, under the same event ids', async () => {
  dir = mkdtempSync(join(tmpdir(), 'va-webhooks-kill-'))
  const db = join(dir, 'db.duckdb')
  let answering = false
  rec = await receiver(() => (answering ? 200 : 'hang'))
  const engine = await openEngine({ path: db })
  await engine.ingest(tenantRecords())
  const hooks = webhooksOf(engine)!
  hooks.configure({ allowPrivate: true, detect: async () => [signal('k1'), signal('k2'), signal('k3')] })
  await hooks.create({ team_id: T.acme, url: rec.url, events: ['signal.created'], domain_ids: null })
  expect(await hooks.detectNow(D.acme1)).toBe(3)
  await engine.close()

  child = await start(db)
  expect(await until(() => rec!.requests.length >= 3, 20_000)).toBe(true)
  const before = new Set(rec.requests.map((r) => String(r.headers['visibility-event-id'])))
  expect(before.size).toBe(3)
  child.kill('SIGKILL')
  await new Promise((resolve) => child!.once('exit', resolve))
  const killedAt = rec.requests.length

  answering = true
  child = await start(db)
  expect(await until(() => rec!.requests.length >= killedAt + 3, 20_000)).toBe(true)
  const after = rec.requests.slice(killedAt).map((r) => String(r.headers['visibility-event-id']))
  expect(new Set(after)).toEqual(before)
  // The deliveries were recorded: the outbox drains to empty.
  await new Promise((resolve) => setTimeout(resolve, 300))
  child.kill('SIGTERM')
  await new Promise((resolve) => child!.once('exit', resolve))
  child = undefined
  const reopened = await openEngine({ path: db })
  try {
    expect((await webhooksOf(reopened)!.queue()).pending).toBe(0)
  } finally {
    await reopened.close()
  }
}, 60_000)
