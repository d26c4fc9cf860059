-- Reads the flat theme_occurrences table of a Parquet export. Parameters: $path VARCHAR.
SELECT analysis_id::VARCHAR AS analysis_id, theme_id::VARCHAR AS theme_id, occurrences::DOUBLE AS occurrences
FROM read_parquet($path, hive_partitioning = true)
