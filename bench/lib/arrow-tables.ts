/** A Parquet export read back as the Arrow tables an Arrow producer would hand to `ingestArrow`. */
import {
  Bool,
  DateDay,
  Float64,
  Int32,
  Table,
  TimestampMillisecond,
  Utf8,
  vectorFromArray,
  type DataType,
  type Vector,
} from 'apache-arrow'
import { DuckDBInstance, VARCHAR } from '@duckdb/node-api'
import { FLAT_TABLES } from '../../src/ingest/flat.js'
import type { ArrowTables } from '../../src/types.js'

/** Tables whose hive partition column `domain_id` is their analysis's, not a column of theirs. */
const CHILD_TABLES: ReadonlySet<string> = new Set([
  'mentions',
  'citations',
  'theme_occurrences',
  'fanout_queries',
])

/**
 * The export read back as Arrow tables with the types an Arrow producer would give them: Utf8
 * strings, Int32 integers, Float64 doubles, Bool, TimestampMillisecond instants and DateDay dates
 * (the hive partition column `domain_id` of child tables is left out, as it is not theirs).
 */
export async function arrowTablesOf(dir: string): Promise<ArrowTables> {
  const inst = await DuckDBInstance.create(':memory:')
  const conn = await inst.connect()
  const tables: Record<string, Table> = {}
  try {
    for (const t of FLAT_TABLES) {
      const single = t === 'teams' || t === 'domains'
      const glob = single ? `${dir}/${t}.parquet` : `${dir}/${t}/**/*.parquet`
      const src = `read_parquet($path, hive_partitioning = ${single ? 'false' : 'true'})`
      const described = await conn.runAndReadAll(
        `DESCRIBE SELECT * FROM ${src}`,
        { path: glob },
        { path: VARCHAR },
      )
      const cols = described
        .getRowObjectsJS()
        .map((r) => ({ name: String(r.column_name), type: String(r.column_type) }))
        .filter((c) => !CHILD_TABLES.has(t) || c.name !== 'domain_id')
      const select = cols.map(({ name, type }) => {
        if (type.startsWith('TIMESTAMP')) return `epoch_ms(${name}::TIMESTAMPTZ)::DOUBLE AS ${name}`
        if (type === 'DATE') return `epoch_ms(${name})::DOUBLE AS ${name}`
        if (type === 'UUID') return `${name}::VARCHAR AS ${name}`
        if (/INT/.test(type)) return `${name}::INTEGER AS ${name}`
        return name
      })
      const reader = await conn.runAndReadAll(
        `SELECT ${select.join(', ')} FROM ${src}`,
        { path: glob },
        { path: VARCHAR },
      )
      const columns = reader.getColumnsJS()
      const vectors: Record<string, Vector> = {}
      cols.forEach(({ name, type }, i) => {
        vectors[name] = vectorFromArray(columns[i] as never, arrowType(type)) as Vector
      })
      tables[t] = new Table(vectors)
    }
  } finally {
    conn.closeSync()
    inst.closeSync()
  }
  return tables as ArrowTables
}

function arrowType(duckType: string): DataType {
  if (duckType.startsWith('TIMESTAMP')) return new TimestampMillisecond()
  if (duckType === 'DATE') return new DateDay()
  if (duckType === 'DOUBLE' || duckType === 'FLOAT') return new Float64()
  if (/INT/.test(duckType)) return new Int32()
  if (duckType === 'BOOLEAN') return new Bool()
  return new Utf8()
}
