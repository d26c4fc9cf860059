-- Reads the flat citations table of a Parquet export: every column (title, page_type and ord are
-- missing from an export of schema version 1; the reader fills in null and the rows' order).
-- Parameters: $path VARCHAR.
SELECT * REPLACE (analysis_id::VARCHAR AS analysis_id) FROM read_parquet($path, hive_partitioning = true)
