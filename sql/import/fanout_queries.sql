-- Reads the flat fanout_queries table of a Parquet export (none in an export of schema version 1)
-- into the temp table import_rows (the record path, src/parquet.ts readExport, reads it in parts):
-- the macro import_stored of import/read_stored.sql, each row numbered (rn) in file order.
-- $rows: the rows to read (null: all; 0: none, for the column types alone, src/ingest/flat-sql.ts
-- importFits). Parameters: $path VARCHAR, $rows BIGINT.
CREATE OR REPLACE TEMP TABLE import_rows AS FROM import_stored($path) LIMIT $rows
