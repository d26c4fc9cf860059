-- Reads the flat analyses table of a Parquet export. Parameters: $path VARCHAR.
SELECT id::VARCHAR AS id, domain_id::VARCHAR AS domain_id, prompt_id::VARCHAR AS prompt_id, channel, model,
       strftime(answered_at::TIMESTAMPTZ, '%Y-%m-%dT%H:%M:%S.%gZ') AS answered_at
FROM read_parquet($path, hive_partitioning = true)
