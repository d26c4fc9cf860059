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

const CHUNK_ROWS = 2048

export class ChunkWriter {
  readonly #appender: DuckDBAppender
  readonly #chunk: DuckDBDataChunk
  readonly #columns: DuckDBValue[][]
  #rows = 0
  #total = 0

  private constructor(appender: DuckDBAppender, types: readonly DuckDBType[]) {
    this.#appender = appender
    this.#chunk = DuckDBDataChunk.create(types)
    this.#columns = types.map(() => [])
  }

  static async open(
    connection: DuckDBConnection,
    table: string,
    types: readonly DuckDBType[],
  ): Promise<ChunkWriter> {
    const appender = await connection.createAppender(table, 'main', 'temp')
    return new ChunkWriter(appender, types)
  }

  /** Adds one row; values in the table's column order. */
  push(...values: DuckDBValue[]): void {
    const cols = this.#columns
    for (let i = 0; i < cols.length; i++) cols[i]!.push(values[i] ?? null)
    if (++this.#rows === CHUNK_ROWS) this.#flushChunk()
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
