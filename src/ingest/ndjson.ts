/**
 * Streams an NDJSON file line by line with bounded memory: bytes are split on `\n`, each line is
 * decoded as strict UTF-8 (invalid bytes are an error, not U+FFFD) and parsed as JSON.
 */
import { createReadStream } from 'node:fs'

/** A line longer than this is refused rather than buffered. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024

export type NdjsonItem = { line: number; value: unknown } | { line: number; error: string }

const decoder = new TextDecoder('utf-8', { fatal: true })

/** Yields each non-blank line of a byte stream as a parsed value or an error. */
export async function* parseNdjson(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<NdjsonItem> {
  let pending: Buffer[] = []
  let pendingBytes = 0
  let line = 0
  let skipping = false
  for await (const piece of source) {
    const buf =
      typeof piece === 'string'
        ? Buffer.from(piece, 'utf8')
        : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength)
    let start = 0
    for (;;) {
      const nl = buf.indexOf(10, start)
      if (nl === -1) {
        const rest = buf.subarray(start)
        if (!skipping && rest.length > 0) {
          pendingBytes += rest.length
          if (pendingBytes > MAX_LINE_BYTES) {
            skipping = true
            pending = []
          } else pending.push(Buffer.from(rest))
        }
        break
      }
      line++
      const part = buf.subarray(start, nl)
      start = nl + 1
      if (skipping) {
        skipping = false
        pending = []
        pendingBytes = 0
        yield { line, error: `line is longer than ${MAX_LINE_BYTES} bytes` }
        continue
      }
      const bytes = pending.length === 0 ? part : Buffer.concat([...pending, part])
      pending = []
      pendingBytes = 0
      if (bytes.length > MAX_LINE_BYTES) {
        yield { line, error: `line is longer than ${MAX_LINE_BYTES} bytes` }
        continue
      }
      const item = parseLine(bytes, line)
      if (item) yield item
    }
  }
  if (skipping) yield { line: line + 1, error: `line is longer than ${MAX_LINE_BYTES} bytes` }
  else if (pending.length > 0) {
    const item = parseLine(Buffer.concat(pending), line + 1)
    if (item) yield item
  }
}

function parseLine(bytes: Uint8Array, line: number): NdjsonItem | undefined {
  let text: string
  try {
    text = decoder.decode(bytes)
  } catch {
    return { line, error: 'is not valid UTF-8' }
  }
  if (text.trim() === '') return undefined
  try {
    return { line, value: JSON.parse(text) as unknown }
  } catch (e) {
    return { line, error: `is not valid JSON (${(e as Error).message})` }
  }
}

/** Parses an NDJSON file from disk. */
export function readNdjsonFile(path: string): AsyncGenerator<NdjsonItem> {
  return parseNdjson(createReadStream(path, { highWaterMark: 1 << 20 }))
}
