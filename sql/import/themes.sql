-- Reads the flat themes table of a Parquet export. Parameters: $path VARCHAR.
-- Into the temp table import_rows, each row numbered (rn) in the order read (src/parquet.ts reads
-- it in parts).
CREATE OR REPLACE TEMP TABLE import_rows AS
SELECT row_number() OVER () AS rn, * FROM (
SELECT id::VARCHAR AS id, domain_id::VARCHAR AS domain_id, name, custom_name, archived, sentiment,
       strftime(created_at::DATE, '%Y-%m-%d') AS created_at
FROM read_parquet($path, hive_partitioning = true)
)
