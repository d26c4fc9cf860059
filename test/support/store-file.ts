/**
 * Reading a store's DuckDB file itself (the engine closed first): what tests of storage check
 * beyond the API (texts left behind, row order, the schema version).
 */
import { DuckDBInstance } from '@duckdb/node-api'

export interface StoreFile {
  /** A statement's rows as objects keyed by column. */
  objects(sql: string): Promise<Record<string, unknown>[]>
  /** A statement's rows as arrays. */
  rows(sql: string): Promise<unknown[][]>
}

/** Runs `fn` over the file at `path`, opened read-only unless `access` says otherwise, closed after. */
export async function onStoreFile<T>(
  path: string,
  fn: (file: StoreFile) => Promise<T>,
  access: 'READ_ONLY' | 'READ_WRITE' = 'READ_ONLY',
): Promise<T> {
  const db = await DuckDBInstance.create(path, { access_mode: access })
  const conn = await db.connect()
  try {
    return await fn({
      objects: async (sql) => (await conn.runAndReadAll(sql)).getRowObjectsJS(),
      rows: async (sql) => (await conn.runAndReadAll(sql)).getRowsJS(),
    })
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

/** Every table of the store file at `path`: its rows and a hash over them (equal stores, equal maps). */
export const tableHashes = (path: string): Promise<Record<string, unknown>> =>
  onStoreFile(path, async ({ rows, objects }) => {
    const tables = await rows(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY 1",
    )
    const out: Record<string, unknown> = {}
    for (const [t] of tables)
      out[t as string] = (
        await objects(`SELECT count(*)::INTEGER AS n, sum(hash(x))::VARCHAR AS h FROM "${t as string}" x`)
      )[0]
    return out
  })
