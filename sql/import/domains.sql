-- Reads the flat domains table of a Parquet export. Parameters: $path VARCHAR.
SELECT id::VARCHAR AS id, team_id::VARCHAR AS team_id, brand_name, website
FROM read_parquet($path, hive_partitioning = true)
