-- Reads the flat analyses table of a Parquet export. Parameters: $path VARCHAR.
-- An export written before country and response existed (schema version 4 or older) has no such
-- columns: UNION ALL BY NAME with an empty row set that has them reads them as null.
-- Into the temp table import_rows, each row numbered (rn) in the order read (src/parquet.ts reads
-- it in parts).
CREATE OR REPLACE TEMP TABLE import_rows AS
SELECT row_number() OVER () AS rn, * FROM (
SELECT id::VARCHAR AS id, domain_id::VARCHAR AS domain_id, prompt_id::VARCHAR AS prompt_id, channel, model,
       strftime(answered_at::TIMESTAMPTZ, '%Y-%m-%dT%H:%M:%S.%gZ') AS answered_at,
       country::VARCHAR AS country, response::VARCHAR AS response
FROM (
  SELECT NULL::VARCHAR AS country, NULL::VARCHAR AS response WHERE false
  UNION ALL BY NAME
  SELECT * FROM read_parquet($path, hive_partitioning = true)
)
)
