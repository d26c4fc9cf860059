-- Reads the flat themes table of a Parquet export. Parameters: $path VARCHAR.
SELECT id::VARCHAR AS id, domain_id::VARCHAR AS domain_id, name, custom_name, archived, sentiment,
       strftime(created_at::DATE, '%Y-%m-%d') AS created_at
FROM read_parquet($path, hive_partitioning = true)
