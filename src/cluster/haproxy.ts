/**
 * @module The router: an HAProxy configuration and its map file (lower-cased `domain_id` -> the
 * backend of the domain's shard). A request without a `domain_id`, or for an unassigned domain,
 * goes to any healthy shard; health checks call `/healthz`. A move changes the map through
 * HAProxy's runtime API (the admin socket), without a reload, and rewrites the file.
 */
import { writeFileSync, renameSync } from 'node:fs'
import { createConnection } from 'node:net'
import { join, resolve } from 'node:path'
import type { Assignment, ShardInfo } from './control-plane.js'

export interface HaproxyFiles {
  config: string
  map: string
  socket: string
}

/** The HAProxy backend of a shard. */
export const backendOf = (shard: string): string => `shard_${shard}`

/** `host:port` of a shard's http URL. */
function hostPort(url: string): string {
  const u = new URL(url)
  return `${u.hostname}:${u.port || '80'}`
}

/** The map file's text: one `domain_id backend` line per domain, sorted. */
export function mapText(assignments: Map<string, Assignment>): string {
  return [...assignments.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([id, a]) => `${id} ${backendOf(a.shard)}\n`)
    .join('')
}

export interface HaproxyConfigOptions {
  bind: string
  shards: ShardInfo[]
  /** Milliseconds between health checks (default 1000). */
  checkIntervalMs?: number
}

/**
 * The text of `haproxy.cfg` for the files `files`.
 *
 * Routing: a request's `domain_id` is taken from the query string, percent-decoded and
 * lower-cased (`url_param(domain_id),url_dec,lower`: the shards read it so too), then looked up
 * in the map; no match goes to any healthy shard. MCP (`/mcp`, no domain_id) goes to any shard,
 * and then sticks: the shard that answered an `initialize` with an `mcp-session-id` gets every
 * later request carrying that header (a stick table keyed by it), so a session's requests reach
 * the shard that holds it. A tool call for another shard's domain is forwarded by the shard.
 * @example
 * haproxyConfigText(files, { bind: '127.0.0.1:8080', shards })
 */
export function haproxyConfigText(files: HaproxyFiles, options: HaproxyConfigOptions): string {
  // HAProxy's usual timing: a check unanswered within its interval fails (no `timeout check`: the
  // interval bounds connect and answer), and two failures in a row take the shard down; a dead
  // shard refuses the connection at once. A live shard answers in time during a move: the target's
  // import and the move's payload digests hold its event loop at most ~50 ms at 300k analyses
  // (their JavaScript runs in slices: src/foundation/slice.ts; docs/SCALING.md "Numbers").
  const check = `check inter ${options.checkIntervalMs ?? 1000} fall 2 rise 1`
  const server = (s: ShardInfo) => `  server ${s.name} ${hostPort(s.url)} ${check}`
  const lines = [
    '# Written by `visibility cluster haproxy`; the map changes at runtime on moves.',
    'global',
    `  stats socket ${files.socket} mode 600 level admin`,
    '  maxconn 4000',
    'defaults',
    '  mode http',
    '  option http-keep-alive',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-request 10s',
    // A read cut by a dying shard is retried once, then answered 502/503 (never a dropped connection).
    '  retries 2',
    '  retry-on conn-failure empty-response response-timeout',
    'frontend api',
    `  bind ${options.bind}`,
    `  use_backend %[url_param(domain_id),url_dec,lower,map(${files.map},any_shard)]`,
    '  default_backend any_shard',
    ...options.shards.flatMap((s) => [
      `backend ${backendOf(s.name)}`,
      '  option httpchk GET /healthz',
      server(s),
    ]),
    'backend any_shard',
    '  balance roundrobin',
    '  option httpchk GET /healthz',
    // MCP sessions: learnt from the answer's header, matched on the request's (ids are UUIDs).
    '  stick-table type string len 64 size 1m expire 1h',
    '  stick match req.hdr(mcp-session-id)',
    '  stick store-response res.hdr(mcp-session-id)',
    ...options.shards.map(server),
    '',
  ]
  return lines.join('\n')
}

/**
 * Writes `haproxy.cfg`, `domains.map` into `dir` (the admin socket will be `dir/admin.sock`).
 * @example
 * writeHaproxyConfig({ dir, bind: '127.0.0.1:8080', shards, assignments })
 */
export function writeHaproxyConfig(
  options: HaproxyConfigOptions & { dir: string; assignments: Map<string, Assignment> },
): HaproxyFiles {
  const dir = resolve(options.dir)
  const files = {
    config: join(dir, 'haproxy.cfg'),
    map: join(dir, 'domains.map'),
    socket: join(dir, 'admin.sock'),
  }
  writeFileSync(files.config, haproxyConfigText(files, options))
  writeMapFile(files.map, options.assignments)
  return files
}

/** Rewrites the map file atomically (what a reload or restart reads). */
export function writeMapFile(path: string, assignments: Map<string, Assignment>): void {
  writeFileSync(`${path}.tmp`, mapText(assignments))
  renameSync(`${path}.tmp`, path)
}

/** Sends one command to HAProxy's admin socket and returns its answer. */
export function haproxyCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const conn = createConnection(socket)
    let out = ''
    conn.setTimeout(5000, () => conn.destroy(new Error('HAProxy admin socket timed out')))
    conn.on('connect', () => conn.end(`${command}\n`))
    conn.on('data', (d) => (out += d.toString('utf8')))
    conn.on('end', () => resolvePromise(out.trim()))
    conn.on('error', reject)
  })
}

/**
 * Points a domain at a shard's backend in the running HAProxy (no reload).
 * @example
 * await setRoute(files, domainId, 's2')
 */
export async function setRoute(
  files: Pick<HaproxyFiles, 'map' | 'socket'>,
  domainId: string,
  shard: string,
): Promise<void> {
  const key = domainId.toLowerCase()
  const answer = await haproxyCommand(files.socket, `set map ${files.map} ${key} ${backendOf(shard)}`)
  if (answer.length === 0) return
  const added = await haproxyCommand(files.socket, `add map ${files.map} ${key} ${backendOf(shard)}`)
  if (added.length > 0) throw new Error(`HAProxy refused the map change: ${added}`)
}
