/**
 * Arrow tables -> flat columns for ingest, one column at a time and only the columns asked for:
 * UTF-8 strings are decoded from the table's buffers (an ASCII buffer once, then cut by offsets),
 * 8- to 32-bit integers and floats are read from their value arrays, nulls from the validity
 * bitmaps, and any other type goes through Arrow's own accessors (the values a row's `toJSON()`
 * gives). Duck-typed on apache-arrow's Vector and Data, so the engine does not load apache-arrow
 * for callers that never pass a table. A column is decoded in one go (`columnValues`) or in slices
 * of time (`FlatColumns.prepare`, the SQL path): a 1.5M-row column held the loop 0.4-1.2 s.
 */
import { Buffer, isAscii, isUtf8 } from 'node:buffer'
import type { Utf8Column } from '../db/chunk-writer.js'
import { SLICE_MASK, TimeSlice } from '../foundation/slice.js'
import { FlatColumns } from './flat.js'

/** apache-arrow's `Type` ids used here (enum Type in apache-arrow/enum). */
const TYPE_INT = 2
const TYPE_FLOAT = 3
const TYPE_UTF8 = 5
const TYPE_TIMESTAMP = 10
/** apache-arrow's `TimeUnit`: a timestamp's value in seconds or milliseconds (microseconds and nanoseconds: 2, 3). */
const UNIT_MS: Readonly<Record<number, number>> = { 0: 1000, 1: 1 }
/** apache-arrow's `Precision.HALF`: 16-bit floats are stored as raw bits. */
const PRECISION_HALF = 0

/** The parts of an apache-arrow Data (one chunk of a column) read here. */
interface ArrowData {
  length: number
  /** The chunk's first row in its buffers: its validity bits start there (its values do not). */
  offset: number
  nullCount: number
  values: ArrayLike<number> & ArrayBufferView
  valueOffsets?: Int32Array
  nullBitmap?: Uint8Array
}

/** The parts of an apache-arrow Vector and Table read here. */
interface ArrowVector extends Iterable<unknown> {
  length: number
  nullCount: number
  type: { typeId: number; bitWidth?: number; precision?: number; unit?: number }
  data: readonly ArrowData[]
}
export interface ArrowTableLike extends Iterable<unknown> {
  numRows: number
  schema: { fields: readonly { name: string }[] }
  getChild(name: string): ArrowVector | null
}

/** Whether a value is an apache-arrow Table as far as ingest needs one. */
export function isArrowTable(t: unknown): t is ArrowTableLike {
  const x = t as Partial<ArrowTableLike> | null
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof x.numRows === 'number' &&
    typeof x.getChild === 'function' &&
    Array.isArray(x.schema?.fields)
  )
}

/**
 * An Arrow table's columns for ingest, decoded on first use or ahead in slices of time
 * (`prepare`); a Utf8 column with no null is also given as its UTF-8 bytes (`bytes`).
 */
export function arrowFlatColumns(table: ArrowTableLike): FlatColumns {
  const names = table.schema.fields.map((f) => f.name)
  const decoded = new Map<string, ArrayLike<unknown>>()
  const child = (name: string) => (names.includes(name) ? table.getChild(name) : null)
  return new FlatColumns(
    table.numRows,
    names,
    (name) => {
      let col = decoded.get(name)
      if (col === undefined) {
        const vector = child(name)
        if (vector === null) return undefined
        decoded.set(name, (col = columnValues(vector)))
      }
      return col
    },
    (name) => {
      const vector = child(name)
      return vector === null ? undefined : utf8Bytes(vector)
    },
    async (wanted) => {
      const slice = new TimeSlice()
      for (const name of wanted) {
        const vector = decoded.has(name) ? null : child(name)
        if (vector !== null) decoded.set(name, await columnValuesSliced(vector, slice))
      }
    },
  )
}

/**
 * A Utf8 column with no null as one buffer of its values' UTF-8 bytes and each value's end
 * (its chunks' value buffers, joined when there are several); undefined for any other column, or
 * when the bytes are not valid UTF-8 (decoded as strings then, as before: invalid sequences
 * replaced).
 */
export function utf8Bytes(vector: ArrowVector): Utf8Column | undefined {
  if (vector.type.typeId !== TYPE_UTF8 || vector.nullCount > 0) return undefined
  const parts: Uint8Array[] = []
  const ends = new Int32Array(vector.length)
  let k = 0
  let size = 0
  for (const d of vector.data) {
    const offsets = d.valueOffsets!
    const start = offsets[0]!
    const bytes = d.values
    const part = new Uint8Array(bytes.buffer, bytes.byteOffset + start, offsets[d.length]! - start)
    if (!isUtf8(part)) return undefined
    for (let i = 1; i <= d.length; i++) ends[k++] = size + offsets[i]! - start
    size += part.length
    parts.push(part)
  }
  return { utf8: parts.length === 1 ? parts[0]! : Buffer.concat(parts), ends }
}

/** A column's values by row: strings, numbers, or what Arrow's accessors give (null for null). */
export function columnValues(vector: ArrowVector): ArrayLike<unknown> {
  const steps = decode(vector)
  for (;;) {
    const step = steps.next()
    if (step.done === true) return step.value
  }
}

/** columnValues, letting the event loop turn whenever `slice` is spent (the same values). */
async function columnValuesSliced(vector: ArrowVector, slice: TimeSlice): Promise<ArrayLike<unknown>> {
  const steps = decode(vector)
  for (;;) {
    const step = steps.next()
    if (step.done === true) return step.value
    await slice.breathe()
  }
}

/** A column's decoding: it pauses (yields nothing) between parts and returns the values. */
type Decoding = Generator<void, ArrayLike<unknown>, void>

/**
 * A column's values (columnValues), pausing every SLICE_MASK + 1 rows of a loop so that a sliced
 * caller may let the event loop turn.
 */
function* decode(vector: ArrowVector): Decoding {
  const { typeId, bitWidth, precision } = vector.type
  if (typeId === TYPE_UTF8) return yield* utf8Values(vector)
  const numeric =
    (typeId === TYPE_INT && bitWidth !== undefined && bitWidth <= 32) ||
    (typeId === TYPE_FLOAT && precision !== PRECISION_HALF)
  if (numeric) {
    if (vector.data.length === 1 && vector.nullCount === 0) return vector.data[0]!.values
    return yield* numberValues(vector)
  }
  if (typeId === TYPE_TIMESTAMP) return (yield* timestampMillis(vector)) ?? Array.from(vector)
  return Array.from(vector)
}

/**
 * Row `i` of a chunk is null: its validity bit, read from the bitmap (apache-arrow's `getValid`
 * checks the type and the chunk's nullability on every call). Null when the chunk has no null.
 */
function nullAt(d: ArrowData): ((i: number) => boolean) | null {
  const bits = d.nullBitmap
  if (d.nullCount <= 0 || bits === undefined || bits.length === 0) return null
  const offset = d.offset
  return (i) => (bits[(offset + i) >> 3]! & (1 << ((offset + i) & 7))) === 0
}

/**
 * A timestamp column of seconds or milliseconds as Arrow's accessor gives it (milliseconds since
 * the epoch, null for null), read from its 64-bit values; undefined for another unit or layout,
 * or a value beyond 2^53 (the accessor refuses it).
 */
function* timestampMillis(vector: ArrowVector): Generator<void, (number | null)[] | undefined, void> {
  const scale = UNIT_MS[vector.type.unit ?? -1]
  if (scale === undefined) return undefined
  const out = new Array<number | null>(vector.length)
  let k = 0
  for (const d of vector.data) {
    const values = d.values as unknown
    if (!(values instanceof BigInt64Array)) return undefined
    const isNull = nullAt(d)
    for (let i = 0; i < d.length; i++) {
      if ((i & SLICE_MASK) === SLICE_MASK) yield
      if (isNull?.(i) === true) {
        out[k++] = null
        continue
      }
      const v = Number(values[i])
      if (!Number.isSafeInteger(v)) return undefined
      out[k++] = scale * v
    }
  }
  return out
}

function* numberValues(vector: ArrowVector): Generator<void, (number | null)[], void> {
  const out = new Array<number | null>(vector.length)
  let k = 0
  for (const d of vector.data) {
    const values = d.values
    const isNull = nullAt(d)
    for (let i = 0; i < d.length; i++) {
      if ((i & SLICE_MASK) === SLICE_MASK) yield
      out[k++] = isNull?.(i) === true ? null : values[i]!
    }
  }
  return out
}

function* utf8Values(vector: ArrowVector): Generator<void, (string | null)[], void> {
  const out = new Array<string | null>(vector.length)
  let k = 0
  for (const d of vector.data) {
    const offsets = d.valueOffsets!
    const bytes = d.values
    const start = offsets[0]!
    const end = offsets[d.length]!
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start)
    const isNull = nullAt(d)
    // An ASCII chunk is one string, each value a slice of it (byte offsets are character offsets).
    const text = isAscii(buf) ? buf.toString('latin1') : null
    for (let i = 0; i < d.length; i++) {
      if ((i & SLICE_MASK) === SLICE_MASK) yield
      if (isNull?.(i) === true) out[k++] = null
      else {
        const from = offsets[i]! - start
        const to = offsets[i + 1]! - start
        out[k++] = text !== null ? text.slice(from, to) : buf.toString('utf8', from, to)
      }
    }
  }
  return out
}
