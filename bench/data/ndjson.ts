/** Writes a dataset's records as NDJSON (one record per line), streaming, with backpressure. */
import { createWriteStream } from 'node:fs'
import { mkdir, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { once } from 'node:events'

/**
 * Writes records to `path`; returns the number of lines and bytes. `maxBytes`: stop at the last
 * whole line within that many bytes; `onWrite`: called with each record written.
 */
export async function writeNdjson<R>(
  path: string,
  records: Iterable<R>,
  opts: { maxBytes?: number; onWrite?: (record: R) => void } = {},
): Promise<{ lines: number; bytes: number }> {
  await mkdir(dirname(path), { recursive: true })
  const out = createWriteStream(path, { highWaterMark: 1 << 20 })
  const { maxBytes, onWrite } = opts
  let lines = 0
  let bytes = 0
  let buf = ''
  for (const r of records) {
    const line = JSON.stringify(r) + '\n'
    if (maxBytes !== undefined) {
      bytes += Buffer.byteLength(line)
      if (bytes > maxBytes) break
    }
    buf += line
    lines++
    onWrite?.(r)
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain')
      buf = ''
    }
  }
  out.end(buf)
  await once(out, 'finish')
  return { lines, bytes: (await stat(path)).size }
}
