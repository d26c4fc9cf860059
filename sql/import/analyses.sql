-- Reads the flat analyses table of a Parquet export. Parameters: $path VARCHAR.
-- Into the temp table import_rows, each row numbered (rn) in the order read (src/parquet.ts reads
-- it in parts).
CREATE OR REPLACE TEMP TABLE import_rows AS
SELECT row_number() OVER () AS rn, * FROM (
SELECT id::VARCHAR AS id, domain_id::VARCHAR AS domain_id, prompt_id::VARCHAR AS prompt_id, channel, model,
       strftime(answered_at::TIMESTAMPTZ, '%Y-%m-%dT%H:%M:%S.%gZ') AS answered_at
FROM read_parquet($path, hive_partitioning = true)
)
