-- Reads the flat mentions table of a Parquet export. Parameters: $path VARCHAR.
SELECT analysis_id::VARCHAR AS analysis_id, entity_id::VARCHAR AS entity_id, position::DOUBLE AS position,
       sentiment::DOUBLE AS sentiment
FROM read_parquet($path, hive_partitioning = true)
