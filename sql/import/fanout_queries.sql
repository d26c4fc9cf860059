-- Reads the flat fanout_queries table of a Parquet export (none in an export of schema version 1).
-- Parameters: $path VARCHAR.
SELECT * REPLACE (analysis_id::VARCHAR AS analysis_id) FROM read_parquet($path, hive_partitioning = true)
