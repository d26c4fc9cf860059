/**
 * Ingest spool directories left by a kill -9: `visibility serve` in a child
 * process is killed while an ingest body is arriving; its `va-ingest-<pid>-XXXXXX/body.ndjson`
 * stays in the temp directory until the next start removes it. A start never removes the spool of
 * a running process (another service mid-ingest, or this process), nor anything not named as a
 * spool directory.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SPOOL_PREFIX, sweepSpoolDirs } from '../../src/http/edge/index.js'
import { startServer } from '../../src/http/index.js'
import { openEngine, type Engine } from '../../src/index.js'
import { startChildServer, type ChildServer } from './http-child.js'
import { tempDir } from './store.js'

const ADMIN = 'admin-token-for-spool-tests-0123456789'

const { dir: TMP, cleanup } = tempDir('va-spool-')
let engine: Engine

beforeAll(async () => {
  engine = await openEngine()
})
afterAll(async () => {
  await engine?.close()
  cleanup()
})

/** Polls `check` every 20 ms for at most `ms`. */
async function until(check: () => boolean, ms = 10_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20)))
    if (check()) return true
  return check()
}

/** Starts and closes a server on `engine` spooling in `root`: what a restart does. */
async function restart(root: string): Promise<void> {
  const server = await startServer({
    engine,
    port: 0,
    signals: [],
    closeEngine: false,
    logger: false,
    adminToken: ADMIN,
    spoolRoot: root,
  })
  await server.close()
}

/** A spool directory as the service makes them, with a body file. */
function spool(root: string, name: string): string {
  const dir = join(root, name)
  mkdirSync(dir)
  writeFileSync(join(dir, 'body.ndjson'), '{"type":"team"}\n')
  return dir
}

/** The spool directories of `pid` in `root`. */
const spoolsOf = (root: string, pid: number) =>
  readdirSync(root).filter((n) => n.startsWith(`${SPOOL_PREFIX}${pid}-`))

/** An ingest whose body never finishes arriving: the connection stays open, the spool grows. */
function stalledIngest(port: number): Socket {
  const socket = connect(port, '127.0.0.1', () => {
    socket.write(
      `POST /internal/v1/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN}\r\n` +
        'Content-Type: application/x-ndjson\r\nContent-Length: 1000000\r\n\r\n' +
        '{"type":"team","id":"10000000-0000-4000-8000-000000000001","name":"A","plan":"pro"}\n'.repeat(50),
    )
  })
  socket.on('error', () => undefined)
  return socket
}

describe('leftover ingest spool directories', () => {
  it('kill -9 during an ingest leaves its spool; a start while another service is mid-ingest keeps it; the next start after the kill removes it', async () => {
    const root = join(TMP, 'killed')
    mkdirSync(root)
    let child: ChildServer | undefined
    let socket: Socket | undefined
    try {
      child = await startChildServer({
        dbPath: join(TMP, 'killed.duckdb'),
        env: { VA_ADMIN_TOKEN: ADMIN, TMPDIR: root },
      })
      socket = stalledIngest(child.port)
      const pid = child.pid
      const spooled = () =>
        spoolsOf(root, pid).some((n) => {
          const body = join(root, n, 'body.ndjson')
          return existsSync(body) && statSync(body).size > 0
        })
      expect(await until(spooled), 'the child spools the body').toBe(true)

      // another service starting meanwhile leaves the running one's spool alone
      await restart(root)
      expect(spoolsOf(root, pid)).toHaveLength(1)

      process.kill(pid, 'SIGKILL')
      expect(await until(() => !child!.alive())).toBe(true)
      expect(spoolsOf(root, pid), 'kill -9 leaves the spool behind').toHaveLength(1)

      await restart(root)
      expect(spoolsOf(root, pid), 'the next start removed it').toEqual([])
    } finally {
      socket?.destroy()
      await child?.stop()
    }
  }, 60_000)

  it('removes only directories named as spools of dead processes of this user, and unnamed ones untouched for a day', async () => {
    const root = join(TMP, 'mixed')
    mkdirSync(root)
    const dead = spawnSync(process.execPath, ['-e', '']).pid
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
    try {
      const twoDaysAgo = new Date(Date.now() - 48 * 3600 * 1000)
      const oldUnnamed = spool(root, `${SPOOL_PREFIX}Zx78Vb`)
      utimesSync(join(oldUnnamed, 'body.ndjson'), twoDaysAgo, twoDaysAgo)
      utimesSync(oldUnnamed, twoDaysAgo, twoDaysAgo)
      const removed = [spool(root, `${SPOOL_PREFIX}${dead}-Ab12Cd`), oldUnnamed]
      const kept = [
        spool(root, `${SPOOL_PREFIX}${sleeper.pid}-Xy34Ef`), // a running process's
        spool(root, `${SPOOL_PREFIX}${process.pid}-Qw56Rt`), // this process's
        spool(root, `${SPOOL_PREFIX}Lm90Nb`), // unnamed, written recently
        spool(root, `${SPOOL_PREFIX}${dead}-notes`), // not a spool's name
        spool(root, 'va-ingestion-notes'),
      ]
      writeFileSync(join(root, `${SPOOL_PREFIX}${dead}-Gh12Jk`), 'a file, not a directory')
      kept.push(join(root, `${SPOOL_PREFIX}${dead}-Gh12Jk`))

      await restart(root)
      for (const dir of removed) expect(existsSync(dir), dir).toBe(false)
      for (const dir of kept) expect(existsSync(dir), dir).toBe(true)
      // nothing left to remove: a second sweep is a no-op
      expect(await sweepSpoolDirs(root)).toEqual([])
      // the pid check is what keeps a live spool: a process reported dead loses it
      expect(await sweepSpoolDirs(root, () => false)).toEqual([kept[0]])
    } finally {
      sleeper.kill()
    }
  })

  it('a root that cannot be read sweeps nothing and the service still starts', async () => {
    expect(await sweepSpoolDirs(join(TMP, 'missing'))).toEqual([])
    await restart(join(TMP, 'missing'))
  })
})
