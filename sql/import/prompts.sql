-- Reads the flat prompts table of a Parquet export. Parameters: $path VARCHAR.
SELECT id::VARCHAR AS id, domain_id::VARCHAR AS domain_id, text, estimated_search_volume::DOUBLE AS estimated_search_volume
FROM read_parquet($path, hive_partitioning = true)
