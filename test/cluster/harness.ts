/**
 * The cluster test bench: PostgreSQL started with pg_ctl in a temporary directory, shards as
 * `visibility serve --cluster` processes (dist/), HAProxy in the foreground, all on 127.0.0.1.
 * Everything started here is stopped by `stop()`, and by an exit handler if the run dies first.
 * A missing PostgreSQL or HAProxy fails loudly: these tests never skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = resolve(fileURLToPath(new URL('../..', import.meta.url)))
/** The repository root, from the sources (vitest) or from their build (dist/test/cluster, the bench). */
const ROOT = basename(HERE) === 'dist' ? dirname(HERE) : HERE
export const CLI = join(ROOT, 'dist/src/cli/main.js')
export const ADMIN_TOKEN = 'cluster-test-admin-token-0123456789'
/** Requests per key and minute on the test shards. */
export const RATE_LIMIT = 30

function pgBin(name: string): string {
  for (const dir of [
    '/usr/lib/postgresql/17/bin',
    '/usr/lib/postgresql/16/bin',
    '/usr/lib/postgresql/15/bin',
  ]) {
    if (existsSync(join(dir, name))) return join(dir, name)
  }
  throw new Error(
    `PostgreSQL's ${name} not found: install Debian's postgresql package (apt-get install -y postgresql)`,
  )
}

function haproxyBin(): string {
  for (const p of ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'])
    if (existsSync(p)) return p
  throw new Error("HAProxy not found: install Debian's haproxy package (apt-get install -y haproxy)")
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => res(port))
    })
    s.on('error', rej)
  })
}

const isRoot = process.getuid?.() === 0
/** Runs a PostgreSQL server binary (as the postgres user when we are root: initdb refuses root). */
function asPostgres(bin: string, args: string[]): void {
  const [cmd, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args]
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 })
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed: ${r.stderr || r.stdout || r.error}`)
}

export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (await check().catch(() => false)) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

export interface ShardProcess {
  name: string
  port: number
  url: string
  db: string
  child: ChildProcess | null
}

export class Bench {
  readonly dir = mkdtempSync(join(tmpdir(), 'va-cluster-'))
  readonly pgDir = join(this.dir, 'pg')
  pgPort = 0
  url = ''
  readonly shards: ShardProcess[] = []
  haproxy: ChildProcess | null = null
  routerUrl = ''
  readonly haproxyDir = join(this.dir, 'haproxy')
  #pgRunning = false
  readonly #onExit = () => this.stopSync()

  /** Environment of the shard processes, over the test defaults (a benchmark lifts the rate limit). */
  readonly #shardEnv: Record<string, string>

  constructor(options: { shardEnv?: Record<string, string> } = {}) {
    this.#shardEnv = options.shardEnv ?? {}
    chmodSync(this.dir, 0o755)
    process.once('exit', this.#onExit)
  }

  async startPostgres(): Promise<void> {
    const initdb = pgBin('initdb')
    mkdirSync(this.pgDir)
    if (isRoot) {
      const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' })
      const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' })
      chownSync(this.pgDir, Number(ids.stdout), Number(gid.stdout))
    }
    asPostgres(initdb, ['-D', this.pgDir, '-A', 'trust', '-U', 'va', '--no-sync'])
    this.pgPort = await freePort()
    const opts = `-k ${this.pgDir} -p ${this.pgPort} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`
    asPostgres(pgBin('pg_ctl'), ['-D', this.pgDir, '-o', opts, '-l', join(this.pgDir, 'log'), '-w', 'start'])
    this.#pgRunning = true
    this.url = `postgres://va@127.0.0.1:${this.pgPort}/postgres`
  }

  stopPostgres(): void {
    if (!this.#pgRunning) return
    asPostgres(pgBin('pg_ctl'), ['-D', this.pgDir, '-m', 'immediate', '-w', 'stop'])
    this.#pgRunning = false
  }

  restartPostgres(): void {
    const opts = `-k ${this.pgDir} -p ${this.pgPort} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`
    asPostgres(pgBin('pg_ctl'), ['-D', this.pgDir, '-o', opts, '-l', join(this.pgDir, 'log'), '-w', 'start'])
    this.#pgRunning = true
  }

  async addShard(name: string): Promise<ShardProcess> {
    const port = await freePort()
    const shard: ShardProcess = {
      name,
      port,
      url: `http://127.0.0.1:${port}`,
      db: join(this.dir, `${name}.duckdb`),
      child: null,
    }
    this.shards.push(shard)
    await this.startShard(shard)
    return shard
  }

  async startShard(shard: ShardProcess): Promise<void> {
    const child = spawn(
      process.execPath,
      [
        CLI,
        'serve',
        '--cluster',
        this.url,
        '--shard',
        shard.name,
        '--db',
        shard.db,
        '--port',
        String(shard.port),
      ],
      {
        env: {
          ...process.env,
          VA_ADMIN_TOKEN: ADMIN_TOKEN,
          VA_LOG_LEVEL: 'error',
          VA_RATE_LIMIT: String(RATE_LIMIT),
          VA_CLUSTER_STALE_S: '3',
          ...this.#shardEnv,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    )
    shard.child = child
    // A minute: on a loaded machine a shard's start (DuckDB, pg, the tool list) takes seconds.
    await waitFor(`shard ${shard.name}`, async () => (await fetch(`${shard.url}/healthz`)).ok, 60_000)
  }

  /** kill -9 */
  killShard(shard: ShardProcess): void {
    shard.child?.kill('SIGKILL')
    shard.child = null
  }

  async stopShard(shard: ShardProcess): Promise<void> {
    const child = shard.child
    if (child === null) return
    shard.child = null
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    await exited
  }

  async startHaproxy(): Promise<void> {
    const port = await freePort()
    mkdirSync(this.haproxyDir, { recursive: true })
    const w = spawnSync(
      process.execPath,
      [
        CLI,
        'cluster',
        'haproxy',
        '--cluster',
        this.url,
        '--out',
        this.haproxyDir,
        '--bind',
        `127.0.0.1:${port}`,
      ],
      { encoding: 'utf8' },
    )
    if (w.status !== 0) throw new Error(`cluster haproxy failed: ${w.stderr}`)
    const cfg = join(this.haproxyDir, 'haproxy.cfg')
    const logTo = process.env.VA_HAPROXY_LOG
    if (logTo !== undefined) {
      const text = readFileSync(cfg, 'utf8')
        .replace('global\n', 'global\n  log stdout format raw local0 info\n')
        .replace('defaults\n', 'defaults\n  log global\n  option httplog\n')
      writeFileSync(cfg, text)
    }
    this.haproxy = spawn(haproxyBin(), ['-f', cfg, '-db'], {
      stdio: ['ignore', logTo === undefined ? 'ignore' : openSync(logTo, 'w'), 'inherit'],
    })
    this.routerUrl = `http://127.0.0.1:${port}`
    await waitFor('haproxy', async () => (await fetch(`${this.routerUrl}/healthz`)).ok)
  }

  /**
   * The `visibility` CLI (built), with the cluster's URL and admin token. Asynchronous: the test
   * process keeps sending its load while a command runs.
   */
  cli(
    args: string[],
    env: Record<string, string> = {},
  ): Promise<{ status: number; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, VA_CLUSTER_URL: this.url, VA_ADMIN_TOKEN: ADMIN_TOKEN, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')))
    return new Promise((res) =>
      child.on('close', (code) => {
        clearTimeout(timer)
        res({ status: code ?? -1, stdout, stderr })
      }),
    )
  }

  async stop(): Promise<void> {
    for (const s of this.shards) await this.stopShard(s).catch(() => undefined)
    this.stopSync()
  }

  /** Kills whatever is still running and removes the directory (also run at process exit). */
  stopSync(): void {
    this.haproxy?.kill('SIGKILL')
    this.haproxy = null
    for (const s of this.shards) this.killShard(s)
    try {
      this.stopPostgres()
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true })
    process.off('exit', this.#onExit)
  }
}
