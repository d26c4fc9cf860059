/**
 * Opens the DuckDB database: one instance per file in this process, a write connection (ingest,
 * keys) and a pool of read connections, every one in UTC; the schema migrated; and, in serving
 * (hardened) mode, external file access off and the configuration locked.
 */
import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { ValidationError } from '../errors.js'
import { migrate } from './migrate.js'
import { ReadConnection, ReadPool } from './read-pool.js'
import { sqlText } from './sql.js'

export interface Database {
  readonly instance: DuckDBInstance
  readonly write: DuckDBConnection
  readonly pool: ReadPool
  /** The file's absolute path, or null in memory. */
  readonly file: string | null
  close(): void
}

export interface OpenDatabaseOptions {
  path: string
  readOnly: boolean
  hardened: boolean
  readConnections: number
  /** DuckDB's memory_limit in MB; beyond it, operators and staged rows spill to the temp directory. */
  memoryLimitMB: number
  /** DuckDB's worker threads; undefined: DuckDB's default (one per core). */
  threads?: number
  /** Where DuckDB spills (default: `<file>.tmp`, or a directory of the process under the OS tmpdir). */
  tempDirectory?: string
}

/**
 * The default memory limit: an ingest call of any size stays within it (its staging tables, joins
 * and sorts spill to disk), and the process's peak stays under 500 MB with Node's own heaps.
 */
export const DEFAULT_MEMORY_LIMIT_MB = 160

/** The most DuckDB worker threads `threads` (VA_DUCKDB_THREADS) takes. */
export const MAX_DUCKDB_THREADS = 256

/** The storage format of new database files (docs/ARCHITECTURE.md, "Segments and answers"). */
export const STORAGE_VERSION = 'v1.5.0'

/** Rows a partitioned COPY buffers per partition before writing them. */
export const PARTITION_FLUSH_ROWS = 65_536

/**
 * DuckDB's allocator (the jemalloc built into its library, one for the whole process) purges the
 * pages its threads freed from a background thread. Without it, freed pages stayed resident after
 * the large sorts and joins of a bulk ingest: the 2 GB NDJSON file at the 160 MB limit peaked at
 * 471-544 MB of RSS in its SQL steps, with DuckDB counting ~40 MB in use; with it, 429-462 MB
 * (bench/NOTES.md, "s13"). Set on every instance (it is a process-wide setting).
 */
const ALLOCATOR_CONFIG = { allocator_background_threads: 'true' } as const

/** Files open in this process: two DuckDB instances on one file would corrupt it. */
const openFiles = new Set<string>()

/** A connection of `instance` whose session time zone is UTC (every day boundary is a UTC day). */
async function connectUtc(instance: DuckDBInstance): Promise<DuckDBConnection> {
  const c = await instance.connect()
  await c.run("SET TimeZone = 'UTC'")
  return c
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const { path, readOnly } = options
  const file = path === ':memory:' ? null : resolve(path)
  const config: Record<string, string> = {
    memory_limit: `${options.memoryLimitMB}MB`,
    temp_directory:
      options.tempDirectory ?? (file === null ? join(tmpdir(), `va-duckdb-${process.pid}`) : `${file}.tmp`),
    // A partitioned COPY (the Parquet export) holds each partition's rows in memory, unspillable, up
    // to this many before writing them (DuckDB's default, 524,288, ran an export of the bench's L
    // store out of memory at the 160 MB limit in 2 of 5 attempts).
    partitioned_write_flush_threshold: String(PARTITION_FLUSH_ROWS),
    // The storage format of a new file (an existing one keeps its own): DuckDB's default writes
    // files older releases read, in which long strings (answer texts) are stored uncompressed;
    // this one compresses them (dictionary + FSST): measured 2.4x smaller on the bench's answers.
    storage_compatibility_version: STORAGE_VERSION,
    ...ALLOCATOR_CONFIG,
  }
  if (options.threads !== undefined) {
    if (!Number.isInteger(options.threads) || options.threads < 1 || options.threads > MAX_DUCKDB_THREADS)
      throw new ValidationError([
        { path: 'threads', message: `threads must be an integer from 1 to ${MAX_DUCKDB_THREADS}.` },
      ])
    config.threads = String(options.threads)
  }
  if (readOnly) config.access_mode = 'READ_ONLY'
  if (file !== null) {
    if (openFiles.has(file)) {
      throw new ValidationError([
        { path: 'path', message: `${path} is already open in this process: share that engine` },
      ])
    }
    if (!readOnly) mkdirSync(dirname(file), { recursive: true })
  }
  const instance = await DuckDBInstance.create(file ?? ':memory:', config)
  if (file !== null) openFiles.add(file)
  const connect = () => connectUtc(instance)
  const write = await connect()
  const reads: ReadConnection[] = []
  const close = () => {
    for (const c of reads) c.close()
    write.closeSync()
    instance.closeSync()
    if (file !== null) openFiles.delete(file)
  }
  try {
    await migrate(write, readOnly)
    const n = Math.max(1, Math.min(16, options.readConnections))
    for (let i = 0; i < n; i++) {
      const c = await connect()
      // The segment filters' one definition, a table macro the segment load queries select from
      // (it names the tables, so it is created once they exist).
      await c.run(sqlText('queries/segment/analyses'))
      // GET /api/v1/query's one order of those analyses (the ordinal its three fact queries share).
      await c.run(sqlText('queries/query/ordered_analyses'))
      reads.push(new ReadConnection(c))
    }
    if (options.hardened) {
      // Every connection exists (and has its TimeZone) before the configuration is locked.
      await write.run('SET enable_external_access = false')
      await write.run('SET lock_configuration = true')
    }
    return { instance, write, pool: new ReadPool(reads), file, close }
  } catch (e) {
    close()
    throw e
  }
}

/** A bare in-memory DuckDB instance that reads files (src/engine/operations.ts, withExportReader). */
export interface FileReader {
  readonly conn: DuckDBConnection
  close(): void
}

/**
 * Opens a file reader: an in-memory instance with one connection in UTC, the default memory limit
 * and its own spill directory, and no schema (it only reads an export's files into temp tables).
 * It opens and closes in milliseconds, where a scratch engine migrates a schema first and its
 * close runs on the event loop's thread for hundreds of ms.
 */
export async function openFileReader(): Promise<FileReader> {
  const instance = await DuckDBInstance.create(':memory:', {
    memory_limit: `${DEFAULT_MEMORY_LIMIT_MB}MB`,
    temp_directory: join(tmpdir(), `va-duckdb-reader-${process.pid}`),
    ...ALLOCATOR_CONFIG,
  })
  try {
    const conn = await connectUtc(instance)
    return {
      conn,
      close: () => {
        conn.closeSync()
        instance.closeSync()
      },
    }
  } catch (e) {
    instance.closeSync()
    throw e
  }
}
