/**
 * Appends rows to a table column-wise: values are gathered into column arrays and handed to DuckDB
 * as data chunks of 2048 rows through one appender (no row-by-row INSERT).
 */
import {
  DuckDBDataChunk,
  type DuckDBAppender,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api'
import duckdb from '@duckdb/node-bindings'

const CHUNK_ROWS = 2048
/**
 * Rows after which the appender hands what it buffers to the table (DuckDB's own threshold is
 * ~200k rows, held outside its memory limit); then they count against the limit and can spill.
 */
const FLUSH_ROWS = 32_768

/**
 * A column for `appendColumns`: a typed array matching the column's DuckDB type (INTEGER:
 * Int32Array, DOUBLE: Float64Array, UTINYINT: Uint8Array, BIGINT: BigInt64Array) or an array of
 * strings (null: NULL).
 */
export type BulkColumn =
  Int32Array | Float64Array | Uint8Array | BigInt64Array | readonly (string | null)[] | Utf8Column
/**
 * A VARCHAR column given as UTF-8 bytes (no NULLs): value i is `utf8[ends[i - 1] ?? 0 .. ends[i]]`.
 * Copied into the vector as bytes: no JS string is made or converted (DuckDB checks the UTF-8).
 */
export interface Utf8Column {
  utf8: Uint8Array
  ends: Int32Array
}
/** How null travels in a typed column: never, as 0, or as NaN. */
export type NullMarker = 'none' | 'zero' | 'nan'

interface TypedVector {
  items?: { set(src: ArrayLike<number> | ArrayLike<bigint>): void; length: number }
  setItem(i: number, v: DuckDBValue): void
  validity: { setItemValid(i: number, valid: boolean): void }
  flush(): void
}

export class ChunkWriter {
  readonly #appender: DuckDBAppender
  readonly #chunk: DuckDBDataChunk
  readonly #columns: DuckDBValue[][]
  #rows = 0
  #total = 0
  #unflushed = 0
  readonly #flushRows: number

  private constructor(appender: DuckDBAppender, types: readonly DuckDBType[], flushRows: number) {
    this.#appender = appender
    this.#flushRows = flushRows
    this.#chunk = DuckDBDataChunk.create(types)
    this.#columns = types.map(() => [])
  }

  /**
   * An appender on `table`: a temp table by default; `options.stored` for a table of the store's
   * own file (inside the connection's transaction, like the temp ones). `options.flushRows`: rows
   * after which the buffered rows go to the table (default FLUSH_ROWS; lower for wide rows, whose
   * buffer is held outside DuckDB's memory limit).
   */
  static async open(
    connection: DuckDBConnection,
    table: string,
    types: readonly DuckDBType[],
    options: { stored?: boolean; flushRows?: number } = {},
  ): Promise<ChunkWriter> {
    const appender = await connection.createAppender(table, 'main', options.stored ? undefined : 'temp')
    return new ChunkWriter(appender, types, options.flushRows ?? FLUSH_ROWS)
  }

  /** Adds one row; values in the table's column order. */
  push(...values: DuckDBValue[]): void {
    const cols = this.#columns
    for (let i = 0; i < cols.length; i++) cols[i]!.push(values[i] ?? null)
    if (++this.#rows === CHUNK_ROWS) this.#flushChunk()
  }

  /**
   * Appends rows `start` up to `n` (excluded) of whole columns, 2048 rows a data chunk: typed
   * arrays are copied into the vectors in one go, strings one by one (a caller may append a long
   * column in parts, yielding to the event loop between them).
   */
  appendColumns(columns: readonly BulkColumn[], n: number, nulls: readonly NullMarker[], start = 0): void {
    this.#flushChunk()
    const chunk = this.#chunk
    for (let off = start; off < n; off += CHUNK_ROWS) {
      const k = Math.min(CHUNK_ROWS, n - off)
      chunk.reset()
      chunk.rowCount = k
      for (let c = 0; c < columns.length; c++) {
        const col = columns[c]!
        if ('utf8' in col) {
          const raw = duckdb.data_chunk_get_vector(chunk.chunk, c)
          const { utf8, ends } = col
          let from = off === 0 ? 0 : ends[off - 1]!
          for (let i = 0; i < k; i++) {
            const to = ends[off + i]!
            duckdb.vector_assign_string_element_len(raw, i, utf8.subarray(from, to))
            from = to
          }
          continue
        }
        const vector = chunk.getColumnVector(c) as unknown as TypedVector
        if (!ArrayBuffer.isView(col)) {
          for (let i = 0; i < k; i++) vector.setItem(i, col[off + i] ?? null)
        } else {
          const part = col.subarray(off, off + k)
          if (vector.items === undefined || vector.items.length !== k)
            throw new Error(`column ${c}: not a typed vector`)
          vector.items.set(part)
          const marker = nulls[c] ?? 'none'
          if (marker === 'zero') {
            for (let i = 0; i < k; i++) if (part[i] === 0) vector.validity.setItemValid(i, false)
          } else if (marker === 'nan') {
            for (let i = 0; i < k; i++) if (Number.isNaN(part[i])) vector.validity.setItemValid(i, false)
          }
        }
        vector.flush()
      }
      this.#appender.appendDataChunk(chunk)
      this.#total += k
      this.#unflushed += k
    }
    if (this.#unflushed >= this.#flushRows) {
      this.#appender.flushSync()
      this.#unflushed = 0
    }
  }

  get rowCount(): number {
    return this.#total + this.#rows
  }

  #flushChunk(): void {
    if (this.#rows === 0) return
    const chunk = this.#chunk
    chunk.reset()
    chunk.rowCount = this.#rows
    chunk.setColumns(this.#columns)
    this.#appender.appendDataChunk(chunk)
    this.#total += this.#rows
    this.#rows = 0
    for (const c of this.#columns) c.length = 0
  }

  /** Sends what is buffered and closes the appender. */
  close(): void {
    this.#flushChunk()
    this.#appender.flushSync()
    this.#appender.closeSync()
  }

  /** Drops the appender without flushing (after an error). */
  abandon(): void {
    try {
      this.#appender.closeSync()
    } catch {
      // the transaction is rolled back anyway
    }
  }
}
