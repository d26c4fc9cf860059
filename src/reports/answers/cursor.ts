/**
 * @module The answers listing's cursors (docs/API.md, "GET /api/v1/answers", "Cursors"): a position
 * in the listing's order (answered_at in ms, analysis id), signed with HMAC-SHA256 over the position
 * and a hash of the query's normalized parameters (`limit` included), so that a cursor cannot be
 * altered nor used with other parameters. The key is the engine's (`cursorSecret`, or a key stored
 * once in the database): a cursor stays valid across restarts, and on every shard that shares it.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { ValidationError } from '../../errors.js'
import { UUID_RE } from '../../schemas/records.js'

/** A position in the listing: the last item of a page. */
export interface CursorPosition {
  /** answered_at, ms since the epoch. */
  ms: number
  /** The analysis id, lower case. */
  id: string
}

const INVALID = new ValidationError([
  {
    path: 'cursor',
    message:
      'cursor must be the next_cursor of an earlier page of the same query (the same parameters, limit included); it is malformed, altered or made for other parameters.',
  },
])

/** The hash of a query's normalized parameters (every one but the cursor), as the signature covers it. */
export function queryHash(normalized: readonly unknown[]): Buffer {
  return createHash('sha256').update(JSON.stringify(normalized)).digest()
}

const sign = (key: Uint8Array, position: string, query: Buffer): Buffer =>
  createHmac('sha256', key).update(position).update('\n').update(query).digest()

/** The cursor of `position` for the query of hash `query`: `<base64url position>.<base64url HMAC>`. */
export function encodeCursor(key: Uint8Array, position: CursorPosition, query: Buffer): string {
  const text = `${position.ms}:${position.id}`
  return `${Buffer.from(text).toString('base64url')}.${sign(key, text, query).toString('base64url')}`
}

/** The position of a cursor made by `encodeCursor` for this query; a ValidationError naming `cursor` otherwise. */
export function decodeCursor(key: Uint8Array, cursor: string, query: Buffer): CursorPosition {
  const dot = cursor.indexOf('.')
  if (dot < 0) throw INVALID
  const text = Buffer.from(cursor.slice(0, dot), 'base64url').toString()
  const mac = Buffer.from(cursor.slice(dot + 1), 'base64url')
  // Canonical base64url only: another spelling of the same bytes is not this server's cursor.
  if (Buffer.from(text).toString('base64url') !== cursor.slice(0, dot)) throw INVALID
  if (mac.toString('base64url') !== cursor.slice(dot + 1)) throw INVALID
  const expected = sign(key, text, query)
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) throw INVALID
  const m = /^(-?\d{1,16}):(.+)$/.exec(text)
  if (m === null || !UUID_RE.test(m[2]!)) throw INVALID
  return { ms: Number(m[1]), id: m[2]! }
}
