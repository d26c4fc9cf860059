/**
 * @module The body of POST /internal/v1/ingest at the edge: what is refused from the headers
 * alone, once the admin token has passed (415 for a compressed or non-NDJSON body, 413 for a
 * Content-Length over the limit, 503 beyond 4 ingest requests at once, all before a byte of the
 * body is read and before "100 Continue" is sent), and how the body is spooled to a private file
 * (size limit and compressed bodies checked again on the bytes themselves); the spool directories
 * are named after the process that made them, and start-up removes those of dead processes.
 */
import { createWriteStream } from 'node:fs'
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { BodyTooLargeError, COMPRESSED_DETAIL, CompressedBodyError, clientDetail } from '../errors.js'
import { DETAIL } from '../../api/index.js'
import { JSON_TYPE } from './contract.js'

/** The media types of an NDJSON body. */
export const NDJSON_MEDIA_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl']

/** First bytes of compressed or archive formats (never the start of JSON text). */
const COMPRESSED_MAGIC = [
  Buffer.from([0x1f, 0x8b]), // gzip
  Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), // zstd
  Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), // xz
  Buffer.from([0x50, 0x4b, 0x03, 0x04]), // zip
]
const MAGIC_BYTES = Math.max(...COMPRESSED_MAGIC.map((m) => m.length))

function mediaType(header: string | undefined): string | undefined {
  return header?.split(';', 1)[0]!.trim().toLowerCase()
}

/** Ingest requests handled at once (each holds a temp file); more are answered 503. */
const MAX_CONCURRENT_INGESTS = 4

/**
 * The header checks of the ingest route, with a bound on ingest requests in progress (each holds
 * a private temp file, so a client that stalls cannot make the service run out of descriptors).
 * The returned function answers a refusal, or returns undefined when the body may be sent (after
 * answering `Expect: 100-continue`); call it in onRequest once the admin token has passed.
 * @example
 * const refuse = ingestGate(maxIngestBytes)
 * onRequest: async (request, reply) => badToken(request) ? reply.code(401).send(...) : refuse(request, reply)
 */
export function ingestGate(
  maxBytes: number,
): (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined {
  let active = 0
  return (request, reply) => {
    const { headers } = request
    const encoding = headers['content-encoding']
    if (encoding !== undefined && !/^\s*identity\s*$/i.test(encoding))
      return reply.code(415).type(JSON_TYPE).send({ detail: COMPRESSED_DETAIL })
    const type = mediaType(headers['content-type'])
    if (type === undefined || !NDJSON_MEDIA_TYPES.includes(type))
      return reply
        .code(415)
        .type(JSON_TYPE)
        .send({ detail: clientDetail(415) })
    const length = headers['content-length']
    if (length !== undefined && Number(length) > maxBytes)
      return reply
        .code(413)
        .type(JSON_TYPE)
        .send({ detail: clientDetail(413) })
    if (active >= MAX_CONCURRENT_INGESTS)
      return reply.code(503).header('retry-after', '1').type(JSON_TYPE).send({ detail: DETAIL.busy })
    active += 1
    let released = false
    const release = () => {
      if (!released) active -= 1
      released = true
    }
    reply.raw.once('finish', release)
    reply.raw.once('close', release)
    if (/^\s*100-continue\s*$/i.test(headers.expect ?? '')) {
      const raw = reply.raw as Partial<typeof reply.raw>
      raw.writeContinue?.()
    }
    return undefined
  }
}

/** Passes the body through; fails beyond `maxBytes`, or when it starts like a compressed file. */
function bodyGuard(maxBytes: number): Transform {
  let seen = 0
  let head: Buffer | null = Buffer.alloc(0)
  const compressed = (bytes: Buffer) =>
    COMPRESSED_MAGIC.some((m) => bytes.length >= m.length && bytes.subarray(0, m.length).equals(m))
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length
      if (seen > maxBytes) return callback(new BodyTooLargeError(maxBytes))
      if (head !== null) {
        head = Buffer.concat([head, chunk.subarray(0, MAGIC_BYTES)]).subarray(0, MAGIC_BYTES)
        if (compressed(head)) return callback(new CompressedBodyError())
        if (head.length >= MAGIC_BYTES) head = null
      }
      return callback(null, chunk)
    },
  })
}

/**
 * Writes the request body to `file` (mode 0600) through the guard.
 * @example
 * await spoolIngestBody(request, join(dir, 'body.ndjson'), maxIngestBytes)
 */
export async function spoolIngestBody(
  request: FastifyRequest,
  file: string,
  maxBytes: number,
): Promise<void> {
  await pipeline(request.body as Readable, bodyGuard(maxBytes), createWriteStream(file, { mode: 0o600 }))
}

/** How every spool directory's name starts: `va-ingest-<pid>-XXXXXX`. */
export const SPOOL_PREFIX = 'va-ingest-'
const SPOOL_NAME = /^va-ingest-(?:(\d+)-)?[A-Za-z0-9]{6}$/
/** A spool directory without a pid (made before pids were recorded) is stale after this long. */
const UNNAMED_STALE_MS = 24 * 3600 * 1000

/**
 * Makes a private spool directory in `root`, named after this process (so that a later start
 * can tell it was left by a process that died).
 * @example
 * const dir = await makeSpoolDir(tmpdir()) // /tmp/va-ingest-4242-Ab12Cd
 */
export function makeSpoolDir(root: string = tmpdir()): Promise<string> {
  return mkdtemp(join(root, `${SPOOL_PREFIX}${process.pid}-`))
}

/** Whether a process with this id runs (EPERM: it runs, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Removes the spool directories in `root` left by a process killed during an ingest: only
 * directories of this user named `va-ingest-<pid>-XXXXXX` whose process is gone (never this
 * process's, never a running service's), and unnamed `va-ingest-XXXXXX` ones (older versions)
 * untouched for a day. Returns the paths removed; a directory that cannot be read or removed is
 * left as it is.
 * @example
 * const removed = await sweepSpoolDirs(tmpdir())
 */
export async function sweepSpoolDirs(
  root: string = tmpdir(),
  alive: (pid: number) => boolean = processAlive,
  now: number = Date.now(),
): Promise<string[]> {
  let names: string[]
  try {
    names = await readdir(root)
  } catch {
    return []
  }
  const uid = process.getuid?.()
  const removed: string[] = []
  for (const name of names) {
    const match = SPOOL_NAME.exec(name)
    if (match === null) continue
    const dir = join(root, name)
    try {
      const stat = await lstat(dir)
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue
      const pid = match[1] === undefined ? undefined : Number(match[1])
      if (pid === process.pid || (pid !== undefined && alive(pid))) continue
      if (pid === undefined && now - (await newestChange(dir, stat.mtimeMs)) < UNNAMED_STALE_MS) continue
      await rm(dir, { recursive: true, force: true })
      removed.push(dir)
    } catch {
      // gone meanwhile, or not ours to read: left alone
    }
  }
  return removed
}

/** The latest modification time of a directory and the files directly in it. */
async function newestChange(dir: string, dirMtimeMs: number): Promise<number> {
  let newest = dirMtimeMs
  for (const name of await readdir(dir)) newest = Math.max(newest, (await lstat(join(dir, name))).mtimeMs)
  return newest
}
