-- Reads the flat prompts table of a Parquet export. Parameters: $path VARCHAR.
-- An export written before created_at or topic existed has no such column: UNION ALL BY NAME with
-- an empty row set that has it reads it as null.
-- Into the temp table import_rows, each row numbered (rn) in the order read (src/parquet.ts reads
-- it in parts).
CREATE OR REPLACE TEMP TABLE import_rows AS
SELECT row_number() OVER () AS rn, * FROM (
SELECT id::VARCHAR AS id, domain_id::VARCHAR AS domain_id, text,
       estimated_search_volume::DOUBLE AS estimated_search_volume,
       strftime(created_at::TIMESTAMPTZ, '%Y-%m-%dT%H:%M:%S.%gZ') AS created_at, topic::VARCHAR AS topic
FROM (
  SELECT NULL::TIMESTAMPTZ AS created_at, NULL::VARCHAR AS topic WHERE false
  UNION ALL BY NAME
  SELECT * FROM read_parquet($path, hive_partitioning = true)
)
)
