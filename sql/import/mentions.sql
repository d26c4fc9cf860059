-- Reads the flat mentions table of a Parquet export. Parameters: $path VARCHAR.
-- Into the temp table import_rows, each row numbered (rn) in the order read (src/parquet.ts reads
-- it in parts).
CREATE OR REPLACE TEMP TABLE import_rows AS
SELECT row_number() OVER () AS rn, * FROM (
SELECT analysis_id::VARCHAR AS analysis_id, entity_id::VARCHAR AS entity_id, position::DOUBLE AS position,
       sentiment::DOUBLE AS sentiment
FROM read_parquet($path, hive_partitioning = true)
)
