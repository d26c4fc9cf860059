/**
 * The HTTP service in a child process (`visibility serve` from dist/, as an operator runs it), for
 * the edge attack tests: its memory and descriptors are measured from /proc, a crash is seen as
 * an exit, and its JSON log lines are kept. Also small raw-socket helpers.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const CLI = join(ROOT, 'dist/src/cli/main.js')

export interface ChildServer {
  url: string
  port: number
  pid: number
  /** Resident memory of the server process, MB. */
  rssMb(): number
  /** Open file descriptors of the server process. */
  fds(): number
  /** Whether the process is still running. */
  alive(): boolean
  /** The JSON log lines so far, parsed. */
  logs(): Array<Record<string, unknown>>
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>
}

/** Builds dist/ when a test file runs alone without `npm run build` first. */
function ensureBuilt(): void {
  if (existsSync(CLI)) return
  const r = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`npm run build failed: ${r.stdout}${r.stderr}`)
}

/**
 * Starts `visibility serve --db <dbPath> --port 0` with the given VA_* variables; `fdLimit` runs
 * it under `ulimit -n`. Resolves once it listens.
 */
export async function startChildServer(options: {
  dbPath: string
  env?: Record<string, string>
  fdLimit?: number
}): Promise<ChildServer> {
  ensureBuilt()
  const args = [CLI, 'serve', '--db', options.dbPath, '--port', '0']
  const env = { ...process.env, VA_LOG_LEVEL: 'info', ...options.env }
  const child =
    options.fdLimit === undefined
      ? spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('sh', ['-c', `ulimit -n ${options.fdLimit} && exec "$0" "$@"`, process.execPath, ...args], {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        })
  let out = ''
  let err = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')))
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const url = await new Promise<string>((done, fail) => {
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString('utf8')
      const m = / on (http:\/\/[^\s]+) /.exec(err)
      if (m) done(m[1]!)
    })
    void exited.then(() => fail(new Error(`the server exited at start: ${err}`)))
  })
  const pid = child.pid!
  return {
    url,
    port: Number(new URL(url).port),
    pid,
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
    fds: () => readdirSync(`/proc/${pid}/fd`).length,
    alive: () => child.exitCode === null && child.signalCode === null,
    logs: () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}

/** What a raw exchange on one connection produced. */
export interface RawExchange {
  /** Everything the server sent, as latin1 text. */
  text: string
  /** Milliseconds from connect to close. */
  ms: number
  /** The first response: status, headers (lower-case names) and body. */
  status: number
  headers: Record<string, string>
  body: string
}

/** Parses the first HTTP/1.1 response in `text` (Content-Length bodies only). */
export function firstResponse(text: string): Pick<RawExchange, 'status' | 'headers' | 'body'> {
  const end = text.indexOf('\r\n\r\n')
  if (end === -1) return { status: 0, headers: {}, body: '' }
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const length = Number(headers['content-length'] ?? 0)
  return {
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0),
    headers,
    body: Buffer.from(text.slice(end + 4), 'latin1')
      .subarray(0, length)
      .toString('utf8'),
  }
}

/**
 * Opens a connection, writes `data` (then each `drip` every `everyMs`), and collects what comes
 * back until the server closes the connection or `maxMs` passes.
 */
export function rawExchange(
  port: number,
  data: string | Buffer,
  options: { drip?: string; everyMs?: number; maxMs?: number } = {},
): Promise<RawExchange> {
  return new Promise((done) => {
    const socket: Socket = connect(port, '127.0.0.1')
    const started = performance.now()
    const chunks: Buffer[] = []
    let drip: NodeJS.Timeout | undefined
    const limit = setTimeout(() => socket.destroy(), options.maxMs ?? 10_000)
    socket.on('connect', () => {
      socket.write(data)
      if (options.drip !== undefined)
        drip = setInterval(() => {
          if (!socket.destroyed) socket.write(options.drip!)
        }, options.everyMs ?? 1000)
    })
    socket.on('data', (d: Buffer) => chunks.push(d))
    socket.on('error', () => undefined)
    socket.on('close', () => {
      clearTimeout(limit)
      clearInterval(drip)
      const text = Buffer.concat(chunks).toString('latin1')
      done({ text, ms: performance.now() - started, ...firstResponse(text) })
    })
  })
}

/** Median of a sample. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
