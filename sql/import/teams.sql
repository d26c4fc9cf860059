-- Reads the flat teams table of a Parquet export. Parameters: $path VARCHAR (a file or a glob).
-- Into the temp table import_rows, each row numbered (rn) in the order read (src/parquet.ts reads
-- it in parts).
CREATE OR REPLACE TEMP TABLE import_rows AS
SELECT row_number() OVER () AS rn, * FROM (
SELECT id::VARCHAR AS id, name, plan, developer_access FROM read_parquet($path, hive_partitioning = true)
)
