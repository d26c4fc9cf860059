/** Writes a dataset's records as NDJSON (one record per line), streaming, with backpressure. */
import { createWriteStream } from 'node:fs'
import { mkdir, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { once } from 'node:events'

/** Writes records to `path`; returns the number of lines and bytes. */
export async function writeNdjson(
  path: string,
  records: Iterable<unknown>,
): Promise<{ lines: number; bytes: number }> {
  await mkdir(dirname(path), { recursive: true })
  const out = createWriteStream(path, { highWaterMark: 1 << 20 })
  let lines = 0
  let buf = ''
  for (const r of records) {
    buf += JSON.stringify(r) + '\n'
    lines++
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain')
      buf = ''
    }
  }
  out.end(buf)
  await once(out, 'finish')
  return { lines, bytes: (await stat(path)).size }
}
