/** Opening a database file from the CLI: a file held by another process is a clear one-line error. */
import { openEngine, type Engine } from '../index.js'

type OpenEngineOptions = NonNullable<Parameters<typeof openEngine>[0]>

/** What the CLI says when DuckDB's lock on the file is held (by `visibility serve`, usually). */
export const DB_LOCKED =
  'the database is open in another process (a running visibility serve?): stop it first, or use its API'

/**
 * `openEngine`, with DuckDB's lock error replaced by `DB_LOCKED` (the DuckDB text stays the cause).
 * @example
 * const engine = await openDatabase({ path: 'data/demo.duckdb', readOnly: true })
 */
export async function openDatabase(options: OpenEngineOptions): Promise<Engine> {
  try {
    return await openEngine({ ...envCursorSecret(), ...options })
  } catch (error) {
    const text =
      error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? '')}` : ''
    if (/Could not set lock on file/i.test(text)) throw new Error(DB_LOCKED, { cause: error })
    throw error
  }
}

/**
 * The answers listing's cursor secret of the environment (`VA_CURSOR_SECRET`, docs/API.md, "GET
 * /api/v1/answers"), as engine options: none when unset (the key stored in the database).
 * @example
 * await openEngine({ path, ...envCursorSecret() })
 */
export function envCursorSecret(): { cursorSecret?: string } {
  const secret = process.env.VA_CURSOR_SECRET
  return secret === undefined || secret === '' ? {} : { cursorSecret: secret }
}
