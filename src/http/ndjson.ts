/**
 * Streams an NDJSON request body into records for `engine.ingest`, remembering each record's line
 * so the engine's index-based issues can be reported by line, like `ingestFile` does. A line that
 * is not JSON is passed on as its raw text: the engine refuses it (so the call stores nothing) and
 * its issue is then replaced by the JSON error.
 */
import { StringDecoder } from 'node:string_decoder'
import type { Readable } from 'node:stream'
import type { RecordIssue } from '../errors.js'
import { BodyTooLargeError } from './errors.js'

/** The records of one body plus what is needed to translate issues back to lines. */
export class NdjsonBody {
  /** 1-based line of each yielded record, by record index. */
  readonly lines: number[] = []
  /** JSON parse errors by record index. */
  readonly jsonErrors = new Map<number, string>()
  readonly #stream: Readable
  readonly #maxBytes: number

  constructor(stream: Readable, maxBytes: number) {
    this.#stream = stream
    this.#maxBytes = maxBytes
  }

  /** The records (parsed objects; raw text for a line that is not JSON). Blank lines are skipped. */
  async *records(): AsyncGenerator<unknown> {
    const decoder = new StringDecoder('utf8')
    let bytes = 0
    let pending = ''
    let line = 0
    const parse = (text: string): unknown => {
      const index = this.lines.length
      this.lines.push(line)
      try {
        return JSON.parse(text)
      } catch (error) {
        this.jsonErrors.set(index, `invalid JSON: ${(error as Error).message}`)
        return text
      }
    }
    for await (const chunk of this.#stream) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
      bytes += buffer.length
      if (bytes > this.#maxBytes) {
        this.#stream.destroy()
        throw new BodyTooLargeError(this.#maxBytes)
      }
      pending += decoder.write(buffer)
      let newline = pending.indexOf('\n')
      let start = 0
      while (newline !== -1) {
        line += 1
        const text = pending.slice(start, newline)
        if (text.trim() !== '') yield parse(text)
        start = newline + 1
        newline = pending.indexOf('\n', start)
      }
      pending = pending.slice(start)
    }
    pending += decoder.end()
    if (pending.trim() !== '') {
      line += 1
      yield parse(pending)
    }
  }

  /** The engine's issues, located by line; a non-JSON line's issue says why it is not JSON. */
  toLineIssues(issues: readonly RecordIssue[]): RecordIssue[] {
    return issues.map((issue) => {
      if (issue.index === undefined) return issue
      const line = this.lines[issue.index]
      const jsonError = this.jsonErrors.get(issue.index)
      if (jsonError !== undefined) return { line: line ?? issue.index + 1, field: 'json', message: jsonError }
      const { index: _index, ...rest } = issue
      return line === undefined ? issue : { ...rest, line }
    })
  }
}
