-- Reads the flat citations table of a Parquet export. Parameters: $path VARCHAR.
SELECT analysis_id::VARCHAR AS analysis_id, url FROM read_parquet($path, hive_partitioning = true)
