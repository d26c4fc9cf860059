-- Reads the flat competitors table of a Parquet export. Parameters: $path VARCHAR.
SELECT id::VARCHAR AS id, domain_id::VARCHAR AS domain_id, name, website
FROM read_parquet($path, hive_partitioning = true)
