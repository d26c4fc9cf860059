/**
 * The ways records reach an ingest call: JS records (any iterable), an NDJSON file, flat rows (a
 * Parquet export read back) and Arrow tables. Each feeds the same IngestCall, so every source is
 * validated alike; issues name the line, the record index, or the flat table and its row.
 */
import { createReadStream, statSync } from 'node:fs'
import { ValidationError } from '../errors.js'
import type { ArrowTables, RecordSource } from '../types.js'
import type { IngestCall } from './call.js'
import {
  FLAT_TABLES,
  INPUT_ONLY_TABLES,
  flatToRecords,
  orphanIssue,
  type FlatRows,
  type FlatTableName,
} from './flat.js'
import { parseNdjson } from './ndjson.js'
import { arrowFlatColumns, isArrowTable } from './from-arrow.js'
import { feedNdjsonFile } from './ndjson-feed.js'

/** Feeds records in order; issues name their 0-based index. */
export async function feedRecords(call: IngestCall, records: RecordSource): Promise<void> {
  let index = 0
  for await (const rec of records as AsyncIterable<unknown>) {
    call.add(rec, { index: index++ })
    await call.breathe()
  }
}

/**
 * Feeds an NDJSON file; issues name their line. With `onProgress` the file is parsed on this
 * thread, where bytes can be counted. A missing or unreadable file is a ValidationError on `path`.
 */
export async function feedNdjsonPath(
  call: IngestCall,
  path: string,
  onProgress?: (bytesRead: number, totalBytes: number) => void,
): Promise<void> {
  try {
    if (onProgress) {
      for await (const item of parseNdjson(countingStream(path, onProgress))) {
        const loc = { line: item.line }
        if ('error' in item) call.issue(loc, 'record', item.error)
        else call.add(item.value, loc)
        await call.breathe()
      }
    } else await feedNdjsonFile(call, path)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') {
      throw new ValidationError([
        { path: 'path', message: `cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code}` },
      ])
    }
    throw e
  }
}

/** A file stream that reports bytes read. */
function countingStream(path: string, onProgress: (read: number, total: number) => void) {
  const total = statSync(path).size
  let read = 0
  const stream = createReadStream(path, { highWaterMark: 1 << 20 })
  stream.on('data', (chunk) => {
    read += chunk.length
    onProgress(read, total)
  })
  return stream
}

/** Feeds flat rows; issues name the table and its row. */
export function feedFlat(call: IngestCall, rows: FlatRows): void {
  for (const { record, table, row, orphanOf } of flatToRecords(rows)) {
    if (orphanOf !== undefined) {
      call.fieldPrefix = ''
      const { path, message } = orphanIssue(table, orphanOf)
      call.issue({ index: 0 }, path, message)
      continue
    }
    call.fieldPrefix = `${table}.`
    call.add(record, { index: row })
  }
  call.fieldPrefix = ''
}

/** Arrow tables as flat rows; a table that is not one of the flat tables is a ValidationError. */
export function arrowToFlatRows(tables: ArrowTables): FlatRows {
  const rows: FlatRows = {}
  const accepted: readonly string[] = [...FLAT_TABLES, ...INPUT_ONLY_TABLES]
  for (const [name, table] of Object.entries(tables ?? {})) {
    if (!accepted.includes(name)) {
      throw new ValidationError([
        { path: name, message: `${name} is not a flat table (${accepted.join(', ')}).` },
      ])
    }
    if (table !== undefined)
      rows[name as FlatTableName] = isArrowTable(table) ? arrowFlatColumns(table) : arrowRows(table)
  }
  return rows
}

/** The rows of an iterable of Arrow rows (not a Table) as plain objects. */
function* arrowRows(table: Iterable<unknown>): Generator<Record<string, unknown>> {
  for (const row of table) yield (row as { toJSON(): Record<string, unknown> }).toJSON()
}
