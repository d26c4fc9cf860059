-- Reads the flat theme_occurrences table of a Parquet export into the temp table import_rows (the
-- record path, src/parquet.ts readExport, reads it in parts): the macro import_theme_occurrences
-- of import/read_theme_occurrences.sql, each row numbered (rn) in file order.
-- $rows: the rows to read (null: all; 0: none, for the column types alone, src/ingest/flat-sql.ts
-- importFits). Parameters: $path VARCHAR, $rows BIGINT.
CREATE OR REPLACE TEMP TABLE import_rows AS FROM import_theme_occurrences($path) LIMIT $rows
