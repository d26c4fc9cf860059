/**
 * The read side of the database: a fixed set of read connections, each with its prepared
 * statements, handed out one at a time (DuckDB runs one statement per connection at a time).
 */
import {
  INTEGER,
  LIST,
  listValue,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBMaterializedResult,
  type DuckDBPreparedStatement,
} from '@duckdb/node-api'
import { QueryError } from '../errors.js'
import { TimeSlice } from '../foundation/slice.js'
import { sqlText } from './sql.js'

/** A query's parameters: a number is bound as INTEGER, a string as VARCHAR, a list of numbers as INTEGER[]. */
export type QueryValues = Readonly<Record<string, number | string | readonly number[]>>

const INTEGER_LIST = LIST(INTEGER)

/**
 * Calls `fn` on every chunk of `result` (2,048 rows each) in order, letting the event loop turn
 * whenever the copy has held it for a slice (src/foundation/slice.ts): a move's target loading a
 * 100k-analysis domain's 760k mention rows held its loop ~100-140 ms in one copy (the client
 * builds each chunk's vectors and validity on the main thread). A result copied within one slice
 * never yields.
 * @example
 * await eachChunk(result, (chunk) => rows.push(chunk.rowCount))
 */
export async function eachChunk<C>(
  result: { readonly chunkCount: number; getChunk(index: number): C },
  fn: (chunk: C) => void,
  slice: TimeSlice = new TimeSlice(),
): Promise<void> {
  for (let c = 0; c < result.chunkCount; c++) {
    if (c > 0 && slice.spent) await slice.next()
    fn(result.getChunk(c))
  }
}

/** The typed array a loaded column is kept in: doubles (default) or 32-bit integers. */
export type ColumnArray = 'f64' | 'i32'
type LoadedArray = Float64Array | Int32Array

/** One read connection and the statements prepared on it, by query id. */
export class ReadConnection {
  readonly #statements = new Map<string, DuckDBPreparedStatement>()
  constructor(readonly conn: DuckDBConnection) {}

  /**
   * Runs query `id` (parameters: {@link QueryValues}) whose columns are all DOUBLE and NOT NULL, and copies
   * them into Float64Arrays. The vectors' own Float64Array views are copied whole when the client
   * exposes them (it does in the pinned @duckdb/node-api), value by value otherwise. `columns`
   * names the columns the caller reads, in order: a query that returns others is refused.
   */
  async loadColumns(id: string, values: QueryValues, columns: readonly string[]): Promise<Float64Array[]>
  /**
   * The same, each column kept in the typed array `arrays` names: an `i32` column is INTEGER (its
   * vectors' Int32Arrays are copied whole) or DOUBLE holding integers of 32 bits.
   */
  async loadColumns(
    id: string,
    values: QueryValues,
    columns: readonly string[],
    arrays: readonly ColumnArray[],
  ): Promise<LoadedArray[]>
  async loadColumns(
    id: string,
    values: QueryValues,
    columns: readonly string[],
    arrays: readonly ColumnArray[] = [],
  ): Promise<LoadedArray[]> {
    const result = await this.#run(id, values, columns)
    const out = columns.map((_, c) =>
      arrays[c] === 'i32' ? new Int32Array(result.rowCount) : new Float64Array(result.rowCount),
    )
    let offset = 0
    await eachChunk(result, (chunk) => {
      const n = chunk.rowCount
      for (let col = 0; col < out.length; col++) {
        const vector = chunk.getColumnVector(col)
        const target = out[col]!
        const items = (vector as unknown as { items?: unknown }).items
        if ((items instanceof Float64Array || items instanceof Int32Array) && items.length === n)
          target.set(items, offset)
        else for (let i = 0; i < n; i++) target[offset + i] = Number(vector.getItem(i) ?? 0)
      }
      offset += n
    })
    return out
  }

  /** Runs query `id` (parameters: {@link QueryValues}) whose columns are VARCHAR, as arrays of strings. */
  async loadStrings(
    id: string,
    values: QueryValues,
    columns: readonly string[],
  ): Promise<(string | null)[][]> {
    const result = await this.#run(id, values, columns)
    const out: (string | null)[][] = columns.map(() => [])
    await eachChunk(result, (chunk) => {
      for (let col = 0; col < out.length; col++) {
        const vector = chunk.getColumnVector(col)
        const target = out[col]!
        for (let i = 0; i < chunk.rowCount; i++) target.push(vector.getItem(i) as string | null)
      }
    })
    return out
  }

  /** Runs query `id` ({@link QueryValues}); refuses a result whose columns are not `columns`. */
  async #run(id: string, values: QueryValues, columns: readonly string[]): Promise<DuckDBMaterializedResult> {
    const stmt = await this.#prepared(id)
    const types: Record<string, typeof INTEGER | typeof VARCHAR | typeof INTEGER_LIST> = {}
    const bound: Record<string, number | string | ReturnType<typeof listValue>> = {}
    for (const [k, v] of Object.entries(values)) {
      types[k] = typeof v === 'string' ? VARCHAR : typeof v === 'number' ? INTEGER : INTEGER_LIST
      bound[k] = typeof v === 'string' || typeof v === 'number' ? v : listValue(v)
    }
    stmt.bind(bound, types)
    const result = await stmt.run()
    const names = result.columnNames()
    if (names.join() !== columns.join())
      throw new Error(`${id} returns columns ${names.join(', ')}, not ${columns.join(', ')}`)
    return result
  }

  async #prepared(id: string): Promise<DuckDBPreparedStatement> {
    let stmt = this.#statements.get(id)
    if (stmt === undefined) {
      stmt = await this.conn.prepare(sqlText(id))
      this.#statements.set(id, stmt)
    }
    return stmt
  }

  close(): void {
    for (const s of this.#statements.values()) s.destroySync()
    this.#statements.clear()
    this.conn.closeSync()
  }
}

/** A fixed set of read connections handed out one at a time. */
export class ReadPool {
  readonly #idle: ReadConnection[]
  readonly #waiting: Array<(c: ReadConnection) => void> = []
  constructor(readonly all: ReadConnection[]) {
    this.#idle = [...all]
  }

  /** Runs `fn` with a connection of its own; waits for one when all are busy. */
  async use<T>(fn: (c: ReadConnection) => Promise<T>): Promise<T> {
    const c = this.#idle.pop() ?? (await new Promise<ReadConnection>((r) => this.#waiting.push(r)))
    try {
      return await fn(c)
    } finally {
      const next = this.#waiting.shift()
      if (next) next(c)
      else this.#idle.push(c)
    }
  }

  /** `loadColumns` on a free connection; a DuckDB failure becomes a QueryError naming `id`. */
  loadColumns(id: string, values: QueryValues, columns: readonly string[]): Promise<Float64Array[]>
  loadColumns(
    id: string,
    values: QueryValues,
    columns: readonly string[],
    arrays: readonly ColumnArray[],
  ): Promise<LoadedArray[]>
  loadColumns(
    id: string,
    values: QueryValues,
    columns: readonly string[],
    arrays: readonly ColumnArray[] = [],
  ): Promise<LoadedArray[]> {
    return this.#use(id, (c) => c.loadColumns(id, values, columns, arrays))
  }

  /** `loadStrings` on a free connection; a DuckDB failure becomes a QueryError naming `id`. */
  loadStrings(id: string, values: QueryValues, columns: readonly string[]): Promise<(string | null)[][]> {
    return this.#use(id, (c) => c.loadStrings(id, values, columns))
  }

  #use<T>(id: string, fn: (c: ReadConnection) => Promise<T>): Promise<T> {
    return this.use(async (c) => {
      try {
        return await fn(c)
      } catch (cause) {
        throw new QueryError(id, { cause })
      }
    })
  }

  close(): void {
    for (const c of this.all) c.close()
  }
}
