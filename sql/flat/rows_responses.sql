-- The rows sql/flat/append_responses.sql inserts, for a hardened engine (src/parquet.ts): read by
-- the connection that reads the files, appended to analysis_responses on the call's connection.
-- Parameters: as append_responses.sql's.
SELECT ($base + i.seq)::BIGINT AS analysis_key, (-1 - d.h)::INTEGER AS domain_key, p.response::VARCHAR AS response
FROM (
  SELECT NULL::VARCHAR AS response WHERE false
  UNION ALL BY NAME
  SELECT * FROM read_parquet($path, hive_partitioning = true)
) p
JOIN flat_ids i ON i.id = lower(p.id::VARCHAR)
JOIN (SELECT unnest($domain_ids) AS id, unnest($domain_handles) AS h) d ON d.id = lower(p.domain_id::VARCHAR)
WHERE p.response IS NOT NULL
