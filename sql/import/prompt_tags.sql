-- Reads the flat prompt_tags table of a Parquet export (none in an export of schema version 4 or
-- older). Parameters: $path VARCHAR.
-- Into the temp table import_rows, each row numbered (rn) in the order read (src/parquet.ts reads
-- it in parts).
CREATE OR REPLACE TEMP TABLE import_rows AS
SELECT row_number() OVER () AS rn, * FROM (
SELECT prompt_id::VARCHAR AS prompt_id, tag FROM read_parquet($path, hive_partitioning = true)
)
